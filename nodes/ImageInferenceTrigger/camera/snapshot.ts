import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { sniffImageType } from '../../ImageInference/input/imageType';
import { fnv1a } from '../../ImageInference/pipeline/hash';
import { causeChain } from '../../ImageInference/transport/errors';
import { digestAuthorization, newCnonce, parseDigestChallenge } from './digest';

export const DEFAULT_CAMERA_TIMEOUT_SECONDS = 10;
export const CAMERA_TIMEOUT_BOUNDS = { min: 1, max: 120 };
export const DEFAULT_FROZEN_AFTER_LOOKS = 20;
export const FROZEN_AFTER_LOOKS_BOUNDS = { min: 0, max: 10_000 };
/** The service takes images up to this size; a larger answer is no snapshot (a clip, a stream). */
export const MAX_SNAPSHOT_BYTES = 25 * 1024 * 1024;

/** How the trigger logs in to the camera, from its Image Inference Camera credential. */
export type CameraLogin =
	| { kind: 'none' }
	| { kind: 'basic' | 'digest'; username: string; password: string }
	| { kind: 'header'; name: string; value: string };

export type ProblemKind = 'unreachable' | 'timeout' | 'certificate' | 'login' | 'redirect' | 'status' | 'notAnImage' | 'frozen' | 'service';

/** A look that failed, and why, in words that name neither the camera's address nor its login. */
export class CameraProblem extends Error {
	constructor(
		readonly kind: ProblemKind,
		message: string,
	) {
		super(message);
		this.name = 'CameraProblem';
	}
}

export interface Snapshot {
	bytes: Buffer;
	mimeType: string;
	extension: string;
}

export interface SnapshotRequest {
	url: string;
	login: CameraLogin;
	timeoutMs: number;
	ignoreSslIssues: boolean;
}

type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

interface StreamedAnswer {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

const CERTIFICATE_CODES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'ABORT_ERR', 'ERR_CANCELED']);

/** A header of the answer, whatever the case of its name. */
const header = (headers: IDataObject | undefined, name: string): string | string[] | undefined => {
	const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
	const value = found?.[1];
	return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
};

/** Lets go of an answer's body without reading it (a refused answer's bytes are not wanted). */
function release(body: unknown): void {
	const destroy = (body as { destroy?: unknown } | null)?.destroy;
	if (typeof destroy === 'function') destroy.call(body);
}

/** The body as it comes, cut off once it passes MAX_SNAPSHOT_BYTES: an endless answer is never held whole. */
async function readBody(body: unknown): Promise<Buffer> {
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') return Buffer.from(body);
	if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') {
		throw new CameraProblem('notAnImage', 'The camera’s answer had no body');
	}
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		length += bytes.length;
		if (length > MAX_SNAPSHOT_BYTES) {
			release(body);
			throw new CameraProblem('notAnImage', `The camera’s answer is larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB: a video or a stream, not a snapshot`);
		}
		chunks.push(bytes);
	}
	return Buffer.concat(chunks);
}

/** The camera's failure to answer, as a CameraProblem; the HTTP client's own message may carry the address, so it is not kept. */
function networkProblem(error: unknown, timeoutMs: number): CameraProblem {
	const codes = causeChain(error).map(({ code }) => code);
	const names = causeChain(error).map((link) => (link as { name?: unknown }).name);
	if (codes.some((code) => typeof code === 'string' && CERTIFICATE_CODES.has(code))) {
		return new CameraProblem(
			'certificate',
			'The camera’s HTTPS certificate could not be verified (a self-signed certificate?): turn on Options > Ignore SSL Issues (Insecure), or in the camera credential',
		);
	}
	if (codes.some((code) => typeof code === 'string' && TIMEOUT_CODES.has(code)) || names.includes('AbortError') || names.includes('TimeoutError')) {
		return new CameraProblem('timeout', `The camera did not send its snapshot within ${timeoutMs / 1000} s (Options > Camera Timeout)`);
	}
	const code = codes.find((value) => typeof value === 'string' && UNREACHABLE_CODES.has(value));
	return new CameraProblem('unreachable', `The camera could not be reached${typeof code === 'string' ? ` (${code})` : ''}: check that it is on and that n8n can reach its address`);
}

async function ask(httpRequest: HttpRequest, request: SnapshotRequest, headers: IDataObject): Promise<StreamedAnswer> {
	try {
		return (await httpRequest({
			method: 'GET',
			url: request.url,
			headers,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			skipSslCertificateValidation: request.ignoreSslIssues,
			timeout: request.timeoutMs,
			abortSignal: AbortSignal.timeout(request.timeoutMs),
		})) as StreamedAnswer;
	} catch (error) {
		throw networkProblem(error, request.timeoutMs);
	}
}

function loginHeaders(login: CameraLogin): IDataObject {
	if (login.kind === 'basic') return { Authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}` };
	if (login.kind === 'header') return { [login.name]: login.value };
	return {};
}

/** The path and query a Digest response signs (RFC 7616's request-uri). */
const requestUri = (url: string) => {
	const parsed = new URL(url);
	return `${parsed.pathname}${parsed.search}`;
};

/**
 * The camera's current picture. Digest is answered here, not by n8n: the first GET goes without a
 * login and the camera's challenge is answered, so the password itself is never sent. Redirects are
 * not followed (a login would go along); the answer is read as a stream and cut at MAX_SNAPSHOT_BYTES.
 */
export async function fetchSnapshot(httpRequest: HttpRequest, request: SnapshotRequest): Promise<Snapshot> {
	let answer = await ask(httpRequest, request, loginHeaders(request.login));
	if (answer.statusCode === 401 && request.login.kind === 'digest') {
		const challenge = parseDigestChallenge(header(answer.headers, 'www-authenticate'));
		release(answer.body);
		if (challenge) {
			const authorization = digestAuthorization(challenge, request.login, { method: 'GET', uri: requestUri(request.url) }, newCnonce(), 1);
			answer = await ask(httpRequest, request, { Authorization: authorization });
		} else {
			throw new CameraProblem('login', 'The camera did not offer a Digest login with MD5: choose Basic in the camera credential, or check the camera’s settings');
		}
	}
	const { statusCode, headers, body } = answer;
	if (statusCode < 200 || statusCode > 299) {
		release(body);
		if (statusCode === 401 || statusCode === 403) {
			throw new CameraProblem('login', `The camera refused the login (${statusCode}): check the camera credential’s user name, password or token`);
		}
		if (statusCode >= 300 && statusCode < 400) {
			throw new CameraProblem('redirect', `The camera answered with a redirect (${statusCode}), which the trigger does not follow: enter the address it redirects to`);
		}
		throw new CameraProblem('status', `The camera answered ${statusCode} instead of a picture: check the snapshot address`);
	}
	const contentType = String(header(headers, 'content-type') ?? '');
	if (/^multipart\//i.test(contentType)) {
		release(body);
		throw new CameraProblem('notAnImage', 'The address gives a video stream (MJPEG), not a snapshot: use the camera’s snapshot address (see the docs)');
	}
	let bytes: Buffer;
	try {
		bytes = await readBody(body);
	} catch (error) {
		throw error instanceof CameraProblem ? error : networkProblem(error, request.timeoutMs);
	}
	const type = sniffImageType(bytes);
	if (!type) {
		throw new CameraProblem('notAnImage', `The camera’s answer is not a picture${contentType ? ` (${contentType.split(';')[0]})` : ''}: check that the address gives a JPEG or PNG`);
	}
	return { bytes, mimeType: type.mimeType, extension: type.extension };
}

/** A cheap fingerprint of a picture's bytes (FNV-1a over them, with their length), to tell a frozen camera. */
export function pictureFingerprint(bytes: Uint8Array): string {
	return `${bytes.length}:${fnv1a(bytes).toString(16)}`;
}
