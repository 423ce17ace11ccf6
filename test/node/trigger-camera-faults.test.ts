import type { IDataObject } from 'n8n-workflow';

import { md5Hex } from '../../nodes/ImageInferenceTrigger/camera/digest';
import { cameraFrame } from '../harness/images';
import type { CameraAnswer } from '../harness/standInCamera';
import type { TriggerRun } from '../harness/trigger';
import { activateTrigger } from '../harness/trigger';
import { useWatchedDriveway } from './triggerSetup';

const EMPTY = cameraFrame('empty');
const CAR_IN = cameraFrame('carInZone');
const T0 = Date.parse('2026-11-30T08:00:00Z');
const SECOND = 1000;

/** The events of each execution started, leaving out the first look's, which only saves the state (no item). */
const kindsOf = (run: TriggerRun) => run.emissions.filter(({ items }) => items.length > 0).map(({ items }) => items.map((item) => (item.json.event as IDataObject).kind));

/** The camera faults a look can meet, as the stand-in camera answers them, and the problem each is. */
const CAMERA_FAULTS: Record<string, { answer: CameraAnswer; kind: string; message: RegExp }> = {
	unauthorized: { answer: (_q, r) => r.writeHead(401).end(), kind: 'login', message: /refused the login \(401\)/ },
	forbidden: { answer: (_q, r) => r.writeHead(403).end(), kind: 'login', message: /refused the login \(403\)/ },
	redirect: { answer: (_q, r) => r.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere.jpg' }).end(), kind: 'redirect', message: /redirect \(302\)/ },
	'server error': { answer: (_q, r) => r.writeHead(500).end('oops'), kind: 'status', message: /answered 500/ },
	'login page': { answer: (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'), kind: 'notAnImage', message: /not a picture \(text\/html\)/ },
	mjpeg: {
		answer: (_q, r) => {
			r.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
			r.write('--frame\r\n');
		},
		kind: 'notAnImage',
		message: /video stream \(MJPEG\)/,
	},
	reset: { answer: (q) => q.socket.destroy(), kind: 'unreachable', message: /could not be reached/ },
	'too slow': { answer: () => undefined, kind: 'timeout', message: /within 1 s/ },
};

describe('Image Inference Trigger: a camera that fails', () => {
	const { server, credentials, camera, parameters, activate } = useWatchedDriveway({ lookEvery: 1, options: { cameraTimeout: 1 } });

	describe.each(Object.entries(CAMERA_FAULTS))('the camera at an arrival’s look: %s', (_name, fault) => {
		it('emits nothing, keeps nothing, logs once, backs off, then reports the arrival once', async () => {
			camera().script([EMPTY]);
			const run = await activate();
			await run.tick(T0);
			const before = JSON.stringify(run.saved);
			const started = run.emissions.length;
			camera().answerWith(fault.answer);
			await run.tick(T0 + SECOND);
			await run.tick(T0 + 2 * SECOND);
			// backed off: the third failure waits 4 s
			await run.tick(T0 + 3 * SECOND);
			await run.tick(T0 + 4 * SECOND);
			expect(run.emissions).toHaveLength(started);
			expect(JSON.stringify(run.saved)).toBe(before);
			const warnings = run.logged.filter((line) => line.startsWith('warn'));
			expect(warnings).toHaveLength(1);
			expect(warnings[0]).toMatch(fault.message);
			expect(warnings[0]).not.toContain('127.0.0.1');
			const asked = camera().requests.length;
			camera().answerWith(undefined);
			camera().script([CAR_IN]);
			await run.tick(T0 + 5 * SECOND);
			expect(camera().requests.length).toBe(asked);
			await run.tick(T0 + 7 * SECOND);
			expect(kindsOf(run)).toEqual([['arrival']]);
			await run.tick(T0 + 8 * SECOND);
			expect(kindsOf(run)).toEqual([['arrival']]);
		});
	});

	it('the service failing at an arrival’s look: nothing kept, a service problem logged, the arrival reported once it answers', async () => {
		camera().script([EMPTY, CAR_IN]);
		const run = await activate({}, { retries: 0 });
		await run.tick(T0);
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'html', status: 503 } });
		await run.tick(T0 + SECOND);
		expect(kindsOf(run)).toEqual([]);
		expect(run.logged.filter((line) => line.startsWith('warn'))).toEqual([expect.stringContaining('The image inference service failed on the snapshot')]);
		await run.tick(T0 + 3 * SECOND);
		expect(kindsOf(run)).toEqual([['arrival']]);
	});

	it('a camera down for longer than Report Camera Problems After: one Camera Problem, one Camera Back, never one per look', async () => {
		camera().script([EMPTY]);
		// a live camera's picture changes at every look; this one's does not, so Frozen Picture After Looks is off
		const run = await activate({}, { reportCameraProblemsAfter: 1, frozenAfterLooks: 0 });
		await run.tick(T0);
		camera().answerWith((_q, r) => r.writeHead(503).end());
		let now = T0;
		for (let second = 1; second <= 180; second++) await run.tick((now = T0 + second * SECOND));
		expect(kindsOf(run)).toEqual([['cameraProblem']]);
		const problem = run.emissions.at(-1)!.items[0].json;
		expect(problem.problem).toEqual({ kind: 'status', message: expect.stringContaining('answered 503'), since: new Date(T0 + SECOND).toISOString() });
		expect(run.saved.trigger).toMatchObject({ problem: { kind: 'status' } });
		camera().answerWith(undefined);
		for (let second = 1; second <= 120; second++) await run.tick(now + second * SECOND);
		expect(kindsOf(run)).toEqual([['cameraProblem'], ['cameraBack']]);
		expect(run.saved.trigger).not.toHaveProperty('problem');
	});

	it('a restart while the problem is announced still sends one Camera Back, not a second Camera Problem', async () => {
		camera().script([EMPTY]);
		const first = await activate({}, { reportCameraProblemsAfter: 1 });
		await first.tick(T0);
		camera().answerWith((_q, r) => r.writeHead(503).end());
		for (let second = 1; second <= 70; second++) await first.tick(T0 + second * SECOND);
		await first.close();
		expect(kindsOf(first)).toEqual([['cameraProblem']]);
		const second = await activateTrigger({ parameters: parameters({}, { reportCameraProblemsAfter: 1 }), credentials: credentials(), saved: first.saved });
		for (let s = 100; s <= 200; s++) await second.tick(T0 + s * SECOND);
		camera().answerWith(undefined);
		for (let s = 201; s <= 300; s++) await second.tick(T0 + s * SECOND);
		expect(kindsOf(second)).toEqual([['cameraBack']]);
	});

	it('a frozen picture (the same bytes Frozen Picture After Looks times) is a camera problem', async () => {
		camera().script([EMPTY]);
		const run = await activate({}, { frozenAfterLooks: 3, reportCameraProblemsAfter: 0.05 });
		for (let second = 0; second < 20; second++) await run.tick(T0 + second * SECOND);
		expect(run.logged.filter((line) => line.startsWith('warn'))).toEqual([expect.stringContaining('exactly the same picture 3 looks in a row')]);
		expect(kindsOf(run)).toEqual([['cameraProblem']]);
		expect(run.emissions.at(-1)!.items[0].json.problem).toMatchObject({ kind: 'frozen' });
	});

	it('Basic and Header Token logins go with every request; Digest asks without a login and answers the challenge, never sending the password', async () => {
		const password = 'pa:ss"word';
		const realm = 'IP Camera';
		const nonce = 'n0nce';
		camera().answerWith((request, response) => {
			const authorization = request.headers.authorization ?? '';
			const response401 = () => response.writeHead(401, { 'www-authenticate': `Digest realm="${realm}", qop="auth", nonce="${nonce}", algorithm=MD5` }).end();
			if (!authorization.startsWith('Digest ')) return response401();
			const field = (name: string) => new RegExp(`${name}="?([^",]+)"?`).exec(authorization)?.[1] ?? '';
			const ha1 = md5Hex(`admin:${realm}:${password}`);
			const ha2 = md5Hex(`GET:${field('uri')}`);
			const expected = md5Hex(`${ha1}:${nonce}:${field('nc')}:${field('cnonce')}:auth:${ha2}`);
			if (field('response') !== expected || field('uri') !== '/snapshot.jpg') return response401();
			response.writeHead(200, { 'content-type': 'image/png' }).end(EMPTY);
			return undefined;
		});
		const run = await activateTrigger({
			parameters: parameters({ authentication: 'cameraApi', events: ['look'] }),
			credentials: credentials(),
			camera: { loginType: 'digest', username: 'admin', password },
		});
		await run.tick(T0);
		expect(kindsOf(run)).toEqual([['look']]);
		expect(camera().requests.map(({ headers }) => headers.authorization?.split(' ')[0])).toEqual([undefined, 'Digest']);
		expect(JSON.stringify(camera().requests)).not.toContain(password);

		camera().answerWith(undefined);
		camera().script([EMPTY]);
		const basic = await activateTrigger({ parameters: parameters({ authentication: 'cameraApi', events: ['look'] }), credentials: credentials(), camera: { loginType: 'basic', username: 'admin', password: 'secret' } });
		await basic.tick(T0);
		expect(camera().requests.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('admin:secret').toString('base64')}`);
		const token = await activateTrigger({ parameters: parameters({ authentication: 'cameraApi', events: ['look'] }), credentials: credentials(), camera: { loginType: 'header', headerName: 'X-Api-Key', headerValue: 'tok' } });
		await token.tick(T0);
		expect(camera().requests.at(-1)?.headers['x-api-key']).toBe('tok');
		// the service never gets the camera's login, the camera never the service's key
		expect(JSON.stringify(camera().requests)).not.toContain(server().apiKey);
	});

	it('an answer larger than 25 MB is cut off as it comes, not held whole', async () => {
		let sent = 0;
		camera().answerWith((_q, response) => {
			response.writeHead(200, { 'content-type': 'image/jpeg' });
			const chunk = Buffer.alloc(1024 * 1024, 0xff);
			const push = () => {
				while (sent < 200 * 1024 * 1024 && !response.destroyed) {
					sent += chunk.length;
					if (!response.write(chunk)) return void response.once('drain', push);
				}
				response.end();
			};
			push();
		});
		const run = await activate({}, { cameraTimeout: 20 });
		await run.tick(T0);
		expect(run.logged.filter((line) => line.startsWith('warn'))).toEqual([expect.stringContaining('larger than 25 MB')]);
		expect(sent).toBeLessThan(64 * 1024 * 1024);
	});
});
