import { Readable } from 'node:stream';

import type { IHttpRequestOptions } from 'n8n-workflow';

import type { SnapshotRequest } from '../../nodes/ImageInferenceTrigger/camera/snapshot';
import { CameraProblem, MAX_SNAPSHOT_BYTES, fetchSnapshot, pictureFingerprint } from '../../nodes/ImageInferenceTrigger/camera/snapshot';
import { cameraFrame } from '../harness/images';

const PNG = cameraFrame('empty');
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const request: SnapshotRequest = { url: 'http://camera.local/cgi-bin/snap.jpg?ch=1', login: { kind: 'none' }, timeoutMs: 3000, ignoreSslIssues: false };

/** n8n's request helper answering each request with the next of `answers` (a function: throws or answers). */
function helper(...answers: Array<unknown | (() => unknown)>) {
	const asked: IHttpRequestOptions[] = [];
	const httpRequest = async (options: IHttpRequestOptions) => {
		asked.push(options);
		const answer = answers[asked.length - 1];
		return typeof answer === 'function' ? (answer as () => unknown)() : answer;
	};
	return { asked, httpRequest };
}
const answer = (statusCode: number, body: unknown = PNG, headers: Record<string, unknown> = { 'content-type': 'image/png' }) => ({ statusCode, headers, body });
const problemOf = async (promise: Promise<unknown>) => {
	const error = await promise.then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(CameraProblem);
	return error as CameraProblem;
};

describe('A camera snapshot', () => {
	it('is asked once, as a stream, not following redirects, within the timeout, with the certificate checked unless told', async () => {
		const { asked, httpRequest } = helper(answer(200, Readable.from([PNG.subarray(0, 10), PNG.subarray(10)])));
		const snapshot = await fetchSnapshot(httpRequest, request);
		expect(snapshot).toEqual({ bytes: PNG, mimeType: 'image/png', extension: 'png' });
		expect(asked).toHaveLength(1);
		expect(asked[0]).toMatchObject({
			method: 'GET',
			url: request.url,
			headers: {},
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			skipSslCertificateValidation: false,
			timeout: 3000,
		});
		expect(asked[0].abortSignal).toBeInstanceOf(AbortSignal);
		await fetchSnapshot(helper(answer(200)).httpRequest, { ...request, ignoreSslIssues: true }).then(() => undefined);
		const insecure = helper(answer(200));
		await fetchSnapshot(insecure.httpRequest, { ...request, ignoreSslIssues: true });
		expect(insecure.asked[0].skipSslCertificateValidation).toBe(true);
	});

	it('takes a body given whole, as bytes or text, and a stream of text chunks', async () => {
		expect((await fetchSnapshot(helper(answer(200, PNG)).httpRequest, request)).bytes).toEqual(PNG);
		expect((await fetchSnapshot(helper(answer(200, Buffer.concat([JPEG_HEAD, Buffer.alloc(20)]))).httpRequest, request)).mimeType).toBe('image/jpeg');
		expect((await fetchSnapshot(helper(answer(200, Readable.from(['GIF8', '9a\u0001\u0000\u0001\u0000']))).httpRequest, request)).mimeType).toBe('image/gif');
		expect((await fetchSnapshot(helper(answer(200, 'GIF89a\u0001\u0000\u0001\u0000')).httpRequest, request)).mimeType).toBe('image/gif');
	});

	it.each<[string, unknown, Record<string, unknown>, string, RegExp]>([
		['a login page', Buffer.from('<html>log in</html>'), { 'content-type': 'text/html; charset=utf-8' }, 'notAnImage', /^The camera’s answer is not a picture \(text\/html\): check that the address gives a JPEG or PNG$/],
		['bytes without a type', Buffer.from('hello'), {}, 'notAnImage', /^The camera’s answer is not a picture: check/],
		['no body', null, { 'content-type': 'image/jpeg' }, 'notAnImage', /had no body/],
		['a body that is no stream', { some: 'json' }, { 'content-type': 'image/jpeg' }, 'notAnImage', /had no body/],
		['an MJPEG stream', Readable.from([PNG]), { 'Content-Type': 'multipart/x-mixed-replace;boundary=x' }, 'notAnImage', /video stream \(MJPEG\)/],
	])('refuses %s', async (_case, body, headers, kind, message) => {
		const problem = await problemOf(fetchSnapshot(helper(answer(200, body, headers)).httpRequest, request));
		expect(problem.kind).toBe(kind);
		expect(problem.message).toMatch(message);
		expect(problem.name).toBe('CameraProblem');
	});

	it.each<[number, string, RegExp]>([
		[401, 'login', /^The camera refused the login \(401\): check the camera credential’s user name, password or token$/],
		[403, 'login', /refused the login \(403\)/],
		[301, 'redirect', /^The camera answered with a redirect \(301\), which the trigger does not follow: enter the address it redirects to$/],
		[399, 'redirect', /redirect \(399\)/],
		[300, 'redirect', /redirect \(300\)/],
		[199, 'status', /^The camera answered 199 instead of a picture: check the snapshot address$/],
		[400, 'status', /answered 400/],
		[404, 'status', /answered 404/],
		[500, 'status', /answered 500/],
	])('a %d is a %s problem, its body let go', async (status, kind, message) => {
		const body = Readable.from([PNG]);
		const problem = await problemOf(fetchSnapshot(helper(answer(status, body)).httpRequest, request));
		expect([problem.kind, problem.message]).toEqual([kind, expect.stringMatching(message)]);
		expect(body.destroyed).toBe(true);
	});

	it('a 200 and a 299 are pictures', async () => {
		expect((await fetchSnapshot(helper(answer(299)).httpRequest, request)).bytes).toEqual(PNG);
	});

	it('an answer over 25 MB is cut off at 25 MB, its stream destroyed', async () => {
		let read = 0;
		const chunk = Buffer.alloc(1024 * 1024);
		const body = new Readable({
			read() {
				read += chunk.length;
				this.push(read > 100 * 1024 * 1024 ? null : chunk);
			},
		});
		const problem = await problemOf(fetchSnapshot(helper(answer(200, body, { 'content-type': 'image/jpeg' })).httpRequest, request));
		expect([problem.kind, problem.message]).toEqual(['notAnImage', 'The camera’s answer is larger than 25 MB: a video or a stream, not a snapshot']);
		expect(read).toBeLessThan(MAX_SNAPSHOT_BYTES + 5 * chunk.length);
		expect(body.destroyed).toBe(true);
		// exactly 25 MB is taken
		const exact = Buffer.concat([PNG, Buffer.alloc(MAX_SNAPSHOT_BYTES - PNG.length)]);
		expect((await fetchSnapshot(helper(answer(200, Readable.from([exact]))).httpRequest, request)).bytes.length).toBe(MAX_SNAPSHOT_BYTES);
	});

	const thrown = (fields: Record<string, unknown>, cause?: Record<string, unknown>) => () => {
		throw Object.assign(new Error('request to http://camera.local failed'), fields, cause ? { cause: Object.assign(new Error('inner'), cause) } : {});
	};
	it.each<[string, () => unknown, string, RegExp]>([
		['a self-signed certificate', thrown({}, { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'certificate', /^The camera’s HTTPS certificate could not be verified \(a self-signed certificate\?\): turn on Options > Ignore SSL Issues \(Insecure\), or in the camera credential$/],
		['a chain with a self-signed root', thrown({ code: 'SELF_SIGNED_CERT_IN_CHAIN' }), 'certificate', /certificate/],
		['an unverifiable leaf', thrown({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }), 'certificate', /certificate/],
		['an unknown issuer', thrown({ code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' }), 'certificate', /certificate/],
		['an expired certificate', thrown({ code: 'CERT_HAS_EXPIRED' }), 'certificate', /certificate/],
		['another host’s certificate', thrown({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'certificate', /certificate/],
		['a time-out', thrown({ code: 'ECONNABORTED' }), 'timeout', /^The camera did not send its snapshot within 3 s \(Options > Camera Timeout\)$/],
		['a socket time-out', thrown({ code: 'ETIMEDOUT' }), 'timeout', /within 3 s/],
		['an old socket time-out', thrown({ code: 'ESOCKETTIMEDOUT' }), 'timeout', /within 3 s/],
		['an abort', thrown({ code: 'ABORT_ERR' }), 'timeout', /within 3 s/],
		['a cancel', thrown({ code: 'ERR_CANCELED' }), 'timeout', /within 3 s/],
		['an AbortError', thrown({ name: 'AbortError' }), 'timeout', /within 3 s/],
		['a TimeoutError inside', thrown({}, { name: 'TimeoutError' }), 'timeout', /within 3 s/],
		['a refused connection', thrown({ code: 'ECONNREFUSED' }), 'unreachable', /^The camera could not be reached \(ECONNREFUSED\): check that it is on and that n8n can reach its address$/],
		['an unknown host', thrown({}, { code: 'ENOTFOUND' }), 'unreachable', /\(ENOTFOUND\)/],
		['a DNS hiccup', thrown({ code: 'EAI_AGAIN' }), 'unreachable', /\(EAI_AGAIN\)/],
		['no route', thrown({ code: 'EHOSTUNREACH' }), 'unreachable', /\(EHOSTUNREACH\)/],
		['no network', thrown({ code: 'ENETUNREACH' }), 'unreachable', /\(ENETUNREACH\)/],
		['a reset', thrown({ code: 'ECONNRESET' }), 'unreachable', /\(ECONNRESET\)/],
		['a broken pipe', thrown({ code: 'EPIPE' }), 'unreachable', /\(EPIPE\)/],
		['anything else', thrown({ code: 'EWHATEVER' }), 'unreachable', /^The camera could not be reached: check/],
	])('%s is named, without the address', async (_case, failure, kind, message) => {
		const problem = await problemOf(fetchSnapshot(helper(failure).httpRequest, request));
		expect([problem.kind, problem.message]).toEqual([kind, expect.stringMatching(message)]);
		expect(problem.message).not.toContain('camera.local');
	});

	it('a stream that breaks off midway is the camera’s failure, not the service’s', async () => {
		const body = new Readable({
			read() {
				this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
			},
		});
		const problem = await problemOf(fetchSnapshot(helper(answer(200, body)).httpRequest, request));
		expect(problem.kind).toBe('unreachable');
	});

	it('Basic and a header token are sent with the request; Digest answers the challenge on a second request, signing the path and query', async () => {
		const basic = helper(answer(200));
		await fetchSnapshot(basic.httpRequest, { ...request, login: { kind: 'basic', username: 'admin', password: 'pa:ss' } });
		expect(basic.asked[0].headers).toEqual({ Authorization: `Basic ${Buffer.from('admin:pa:ss').toString('base64')}` });
		const token = helper(answer(200));
		await fetchSnapshot(token.httpRequest, { ...request, login: { kind: 'header', name: 'X-Api-Key', value: 'tok' } });
		expect(token.asked[0].headers).toEqual({ 'X-Api-Key': 'tok' });

		const challenge = Readable.from([Buffer.from('no')]);
		const digest = helper(answer(401, challenge, { 'WWW-Authenticate': 'Digest realm="cam", nonce="abc", qop="auth"' }), answer(200));
		await fetchSnapshot(digest.httpRequest, { ...request, login: { kind: 'digest', username: 'admin', password: 'secret' } });
		expect(digest.asked).toHaveLength(2);
		expect(digest.asked[0].headers).toEqual({});
		expect(String((digest.asked[1].headers as Record<string, string>).Authorization)).toMatch(/^Digest username="admin", realm="cam", nonce="abc", uri="\/cgi-bin\/snap\.jpg\?ch=1", algorithm=MD5, response="[0-9a-f]{32}", qop=auth, nc=00000001, cnonce="[0-9a-f]{16}"$/);
		expect(JSON.stringify(digest.asked)).not.toContain('secret');
		expect(challenge.destroyed).toBe(true);
	});

	it('Digest: a camera that offers no MD5 challenge, or refuses the answer, is a login problem', async () => {
		const digest = { ...request, login: { kind: 'digest' as const, username: 'admin', password: 'secret' } };
		const sha = helper(answer(401, undefined, { 'www-authenticate': 'Digest realm="cam", nonce="abc", algorithm=SHA-256' }));
		const problem = await problemOf(fetchSnapshot(sha.httpRequest, digest));
		expect([problem.kind, problem.message]).toEqual(['login', 'The camera did not offer a Digest login with MD5: choose Basic in the camera credential, or check the camera’s settings']);
		expect(sha.asked).toHaveLength(1);
		const wrong = helper(answer(401, undefined, { 'www-authenticate': 'Digest realm="cam", nonce="abc"' }), answer(401));
		expect((await problemOf(fetchSnapshot(wrong.httpRequest, digest))).message).toMatch(/refused the login \(401\)/);
		expect(wrong.asked).toHaveLength(2);
		// a 401 without Digest in the credential is not answered again
		const basic = helper(answer(401, undefined, { 'www-authenticate': 'Digest realm="cam", nonce="abc"' }));
		await problemOf(fetchSnapshot(basic.httpRequest, { ...request, login: { kind: 'basic', username: 'a', password: 'b' } }));
		expect(basic.asked).toHaveLength(1);
	});

	it('a fingerprint tells the same bytes from others, length included', () => {
		expect(pictureFingerprint(PNG)).toBe(pictureFingerprint(Buffer.from(PNG)));
		expect(pictureFingerprint(Buffer.from([1, 2, 3]))).not.toBe(pictureFingerprint(Buffer.from([1, 2, 4])));
		expect(pictureFingerprint(Buffer.from([0]))).not.toBe(pictureFingerprint(Buffer.from([0, 0])));
		expect(pictureFingerprint(Buffer.alloc(0))).toBe('0:811c9dc5');
		expect(pictureFingerprint(Buffer.from('a'))).toBe('1:e40c292c');
	});
});
