import type { IDataObject } from 'n8n-workflow';

import { CAMERA, CAMERA_CAR_BOX, cameraFrame } from '../harness/images';
import { fillRect } from '../reference-server/draw';
import { encodeImage } from '../reference-server/image-codec';
const carAt = (dx: number) => { const image = { ...CAMERA, data: Buffer.alloc(CAMERA.width * CAMERA.height * 4, 128) }; fillRect(image, CAMERA_CAR_BOX.x + dx, CAMERA_CAR_BOX.y, 30, 30, [230, 40, 40]); return encodeImage(image, 'png'); };
import type { StandInCamera } from '../harness/standInCamera';
import { startStandInCamera } from '../harness/standInCamera';
import type { TriggerRun } from '../harness/trigger';
import { activateTrigger } from '../harness/trigger';
import { DRIVEWAY } from '../watch/frames';
import { useServer } from './setup';

const EMPTY = cameraFrame('empty');
const CAR_IN = cameraFrame('carInZone');
const CAR_OUT = cameraFrame('carOutsideZone');
const T0 = Date.parse('2026-11-30T08:00:00Z');
const SECOND = 1000;
const evs = (run: TriggerRun) => run.emissions.map(({ items }) => items.map((item) => item.json.event as IDataObject));

describe('review', () => {
	const { server, credentials } = useServer({ defaultModels: 'synthetic' });
	let camera: StandInCamera;
	beforeEach(async () => {
		camera = await startStandInCamera();
	});
	afterEach(async () => {
		await camera.close();
	});
	const parameters = (extra: IDataObject = {}, options: IDataObject = {}, zones = true): IDataObject => ({
		cameraUrl: camera.url,
		modelId: { __rl: true, mode: 'id', value: server().models.detect },
		lookEvery: 5,
		lookEveryUnit: 'seconds',
		events: ['arrival'],
		options: { ...(zones ? { zones: { zone: [{ name: 'driveway', points: DRIVEWAY }] }, zoneAnchor: 'bottomCenter' } : {}), ...options },
		...extra,
	});

	it.skip('R1 frozenAfterLooks 1: every look fails', async () => {
		camera.script([EMPTY, CAR_IN, EMPTY, CAR_IN]);
		const run = await activateTrigger({ parameters: parameters({ events: ['look'] }, { frozenAfterLooks: 1 }), credentials: credentials() });
		for (let i = 0; i < 4; i++) await run.tick(T0 + i * 60 * SECOND);
		console.log('R1', run.emissions.length, run.logged);
	});

	it.skip('R2 tracking with zones: a car outside every zone arrives?', async () => {
		camera.script([EMPTY, CAR_OUT]);
		const run = await activateTrigger({ parameters: parameters({ events: ['arrival'] }, { trackObjects: true }), credentials: credentials() });
		for (let i = 0; i < 2; i++) await run.tick(T0 + i * 5 * SECOND);
		console.log('R2 tracking', JSON.stringify(evs(run)));
		camera.script([EMPTY, CAR_OUT]);
		const run2 = await activateTrigger({ parameters: parameters({ events: ['arrival'] }, {}), credentials: credentials() });
		for (let i = 0; i < 2; i++) await run2.tick(T0 + i * 5 * SECOND);
		console.log('R2 no tracking', JSON.stringify(evs(run2)));
	});

	it.skip('R3 Any Change: car moving out of the zone (image count same)', async () => {
		camera.script([CAR_OUT, CAR_IN, CAR_OUT]);
		const run = await activateTrigger({ parameters: parameters({ events: ['change'] }), credentials: credentials() });
		for (let i = 0; i < 3; i++) await run.tick(T0 + i * 5 * SECOND);
		console.log('R3', JSON.stringify(evs(run)));
	});

	it.skip('R4 URL changed between activations: compared with the other camera', async () => {
		camera.script([EMPTY, CAR_IN]);
		const first = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'] }), credentials: credentials() });
		for (let i = 0; i < 2; i++) await first.tick(T0 + i * 5 * SECOND);
		await first.close();
		const other = await startStandInCamera([EMPTY]);
		try {
			const second = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'], cameraUrl: other.url }), credentials: credentials(), saved: first.saved });
			await second.tick(T0 + 60 * SECOND);
			console.log('R4', JSON.stringify(evs(first)), JSON.stringify(evs(second)));
		} finally {
			await other.close();
		}
	});

	it.skip('R5 bad header name in camera credential: how is it reported', async () => {
		camera.script([EMPTY]);
		const run = await activateTrigger({
			parameters: parameters({ authentication: 'cameraApi', events: ['look'] }, { reportCameraProblemsAfter: 0.05 }),
			credentials: credentials(),
			camera: { loginType: 'header', headerName: 'X Api Key', headerValue: 'tok' },
		});
		for (let i = 0; i < 10; i++) await run.tick(T0 + i * 5 * SECOND);
		console.log('R5', run.logged, JSON.stringify(run.emissions.map((e) => e.items[0].json)));
	});

	it.skip('R6 header value with a newline / non-latin1', async () => {
		camera.script([EMPTY]);
		const run = await activateTrigger({
			parameters: parameters({ authentication: 'cameraApi', events: ['look'] }),
			credentials: credentials(),
			camera: { loginType: 'header', headerName: 'Authorization', headerValue: 'Bearer tok\nX-Evil: 1' },
		});
		await run.tick(T0);
		console.log('R6', run.logged, camera.requests.map((r) => r.headers));
	});

	it.skip('R7 activation inputs', async () => {
		for (const extra of [
			{ lookEvery: '5' },
			{ lookEvery: 3600 },
			{ lookEvery: 1440, lookEveryUnit: 'minutes' },
			{ lookEvery: 0.5 },
			{ cameraUrl: ' http://127.0.0.1:1/snap shot.jpg ' },
			{ cameraUrl: 'http://192.168.1.20/cgi-bin/snapshot.cgi?user=admin&pwd=secret' },
			{ events: ['stay'] },
		] as IDataObject[]) {
			try {
				const run = await activateTrigger({ parameters: parameters(extra), credentials: credentials() });
				console.log('R7 ok', JSON.stringify(extra), run.cron);
			} catch (error) {
				console.log('R7 refused', JSON.stringify(extra), (error as Error).message);
			}
		}
	});

	it('R8 tracking: a car that moved while nothing was announced is announced again after a restart', async () => {
		const frames = [EMPTY, ...Array.from({ length: 16 }, (_, i) => carAt(i * 15))];
		camera.script(frames);
		const first = await activateTrigger({ parameters: parameters({ events: ['arrival'] }, { trackObjects: true }, false), credentials: credentials() });
		for (let i = 0; i < frames.length; i++) await first.tick(T0 + i * 5 * SECOND);
		console.log('R8 first', JSON.stringify(evs(first).map((e) => e.map((x) => [x.kind, x.trackId]))), first.emissions.length);
		// the same car, still there, where it was at the last look, after n8n restarts
		camera.script([frames.at(-1)!]);
		const second = await activateTrigger({ parameters: parameters({ events: ['arrival'] }, { trackObjects: true }, false), credentials: credentials(), saved: first.saved });
		await second.tick(T0 + 200 * SECOND);
		console.log('R8 second', JSON.stringify(evs(second).map((e) => e.map((x) => [x.kind, x.trackId]))));
		// without the restart: nothing
		await first.tick(T0 + 200 * SECOND);
		console.log('R8 first continued', first.emissions.length);
	});

	it.skip('R9 after a save lost, a different event reuses the dedup key of the one announced', async () => {
		camera.script([EMPTY, CAR_IN]);
		const first = await activateTrigger({ parameters: parameters({ events: ['arrival'] }, { reportCameraProblemsAfter: 0.05 }), credentials: credentials() });
		const atActivation = JSON.parse(JSON.stringify(first.saved)) as IDataObject;
		await first.tick(T0);
		await first.tick(T0 + 5 * SECOND);
		// n8n crashed before its (unawaited) write: the DB still has the activation's static data
		camera.answerWith((_q, r) => r.writeHead(503).end());
		const second = await activateTrigger({ parameters: parameters({ events: ['arrival'] }, { reportCameraProblemsAfter: 0.05 }), credentials: credentials(), saved: atActivation });
		for (let s = 0; s < 20; s++) await second.tick(T0 + 100 * SECOND + s * SECOND);
		console.log('R9', second.logged, JSON.stringify(first.emissions.map((e) => [e.deduplicationKey, e.items.map((i) => i.json.event)])), JSON.stringify(second.emissions.map((e) => [e.deduplicationKey, e.items.map((i) => i.json.event)])));
	});

	it.skip('R10 damaged problem field; tracking toggled across activations', async () => {
		camera.script([EMPTY]);
		const run = await activateTrigger({ parameters: parameters({ events: ['arrival'] }), credentials: credentials(), saved: { trigger: { id: 'abcabcabcabc', looks: 2, problem: 'garbage' } } });
		await run.tick(T0);
		console.log('R10a', JSON.stringify(evs(run)), JSON.stringify(run.saved.trigger));

		camera.script([EMPTY, CAR_IN]);
		const on = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'] }, { trackObjects: true }), credentials: credentials() });
		await on.tick(T0); await on.tick(T0 + 5 * SECOND);
		camera.script([CAR_IN]);
		const off = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'] }, {}), credentials: credentials(), saved: on.saved });
		await off.tick(T0 + 60 * SECOND); await off.tick(T0 + 65 * SECOND);
		const on2 = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'] }, { trackObjects: true }), credentials: credentials(), saved: off.saved });
		await on2.tick(T0 + 120 * SECOND); await on2.tick(T0 + 125 * SECOND);
		console.log('R10b', JSON.stringify(evs(on).map((e) => e.map((x) => x.kind))), JSON.stringify(evs(off).map((e) => e.map((x) => x.kind))), JSON.stringify(evs(on2).map((e) => e.map((x) => x.kind))));
	});
});
