import type { IDataObject } from 'n8n-workflow';

import { CAMERA, CAMERA_CAR_BOX, cameraFrame } from '../harness/images';
import { fillRect } from '../reference-server/draw';
import { sha256 } from '../reference-server/faults';
import { PNG } from 'pngjs';
import { startStandInCamera } from '../harness/standInCamera';
import type { TriggerRun } from '../harness/trigger';
import { activateTrigger } from '../harness/trigger';
import { useWatchedDriveway } from './triggerSetup';

const EMPTY = cameraFrame('empty');
const CAR_IN = cameraFrame('carInZone');
const CAR_OUT = cameraFrame('carOutsideZone');
const T0 = Date.parse('2026-11-30T08:00:00Z');
const SECOND = 1000;

type Event = { kind: string; label: string | null; zone: string | null; trackId: number | null; count?: number; id: string; at: string };
/** The events of each execution started, leaving out those that only save the state (no item). */
const eventsOf = (run: TriggerRun) => run.emissions.filter(({ items }) => items.length > 0).map(({ items }) => items.map((item) => item.json.event as Event));

describe('Image Inference Trigger: a camera watched, an execution only for the events picked', () => {
	const { credentials, camera, parameters, activate } = useWatchedDriveway({ lookEvery: 5 });

	it('a car arriving in the driveway starts one execution with one arrival item, its picture and the look’s detections', async () => {
		camera().script([EMPTY, EMPTY, CAR_IN, CAR_IN]);
		const run = await activate();
		expect(run.cron).toBe('* * * * * *');
		for (let look = 0; look < 4; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(camera().served).toBe(4);
		// the first look starts an execution with no item, so that n8n saves what later looks compare with
		expect(run.emissions.map(({ items }) => items.length)).toEqual([0, 1]);
		const [item] = run.emissions[1].items;
		const event = item.json.event as Event;
		const stateId = (run.saved.trigger as IDataObject).id as string;
		expect(event).toEqual({ kind: 'arrival', label: 'red', zone: 'driveway', trackId: null, count: 1, id: `${stateId}:2:arrival:red:driveway:`, at: new Date(T0 + 10 * SECOND).toISOString() });
		expect(item.json.countsByZone).toEqual({ driveway: { red: 1 } });
		expect((item.json.comparison as IDataObject).changed).toBe(true);
		expect(item.binary?.data.mimeType).toBe('image/png');
		expect(run.emissions[1].deduplicationKey).toMatch(new RegExp(`^image-inference-trigger:${stateId}:2:[0-9a-f]+$`));
		expect(run.emissions[0].deduplicationKey).not.toBe(run.emissions[1].deduplicationKey);
		// the state saved with the execution is the one that announced the arrival
		expect((run.emissions[1].saved.trigger as IDataObject).looks).toBe(2);
		expect((run.emissions[1].saved.looks as IDataObject).camera).toMatchObject({ counts: { red: 1 } });
	});

	it('looks every 5 seconds on a tick each second, never two at once, and not before the interval', async () => {
		camera().script([EMPTY]);
		const run = await activate();
		await run.tick(T0);
		for (let second = 1; second < 5; second++) await run.tick(T0 + second * SECOND);
		expect(camera().served).toBe(1);
		await run.tick(T0 + 5 * SECOND);
		expect(camera().served).toBe(2);
		await run.tick(T0 + 10 * SECOND - 400);
		expect(camera().served).toBe(3);
	});

	it('a look in minutes ticks each minute', async () => {
		camera().script([EMPTY]);
		const run = await activate({ lookEvery: 2, lookEveryUnit: 'minutes' });
		expect(run.cron).toBe('0 * * * * *');
		await run.tick(T0);
		await run.tick(T0 + 60 * SECOND);
		expect(camera().served).toBe(1);
		await run.tick(T0 + 120 * SECOND);
		expect(camera().served).toBe(2);
	});

	it('a car outside the zone, and a car standing still, start nothing; its departure starts one when picked', async () => {
		camera().script([EMPTY, CAR_OUT, CAR_IN, CAR_IN, EMPTY]);
		const run = await activate({ events: ['arrival', 'departure'] });
		for (let look = 0; look < 5; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(eventsOf(run).map((events) => events.map(({ kind, zone, count }) => ({ kind, zone, count })))).toEqual([
			[{ kind: 'arrival', zone: 'driveway', count: 1 }],
			[{ kind: 'departure', zone: 'driveway', count: 1 }],
		]);
	});

	it('Every Look starts an execution per look; Any Change one per look with a change', async () => {
		camera().script([EMPTY, CAR_IN, CAR_IN]);
		const run = await activate({ events: ['look', 'change'] });
		for (let look = 0; look < 3; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(eventsOf(run).map((events) => events.map(({ kind }) => kind))).toEqual([['look'], ['change', 'look'], ['look']]);
		const ids = eventsOf(run).flat().map(({ id }) => id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('with tracking, an arrival is one tracked object with its trackId', async () => {
		camera().script([EMPTY, CAR_IN]);
		const run = await activate({}, { trackObjects: true });
		for (let look = 0; look < 2; look++) await run.tick(T0 + look * 5 * SECOND);
		const [car] = run.emissions[1].items[0].json.detections as Array<{ trackId: number }>;
		expect(typeof car.trackId).toBe('number');
		expect(eventsOf(run)).toEqual([[expect.objectContaining({ kind: 'arrival', label: 'red', zone: 'driveway', trackId: car.trackId, id: expect.stringMatching(new RegExp(`:arrival:red:driveway:${car.trackId}$`)) })]]);
		expect(eventsOf(run)[0][0]).not.toHaveProperty('count');
	});

	it('after a restart, the first look compares with what the last execution saved: a departure not picked still started one, so the next arrival is not lost', async () => {
		camera().script([EMPTY, CAR_IN, EMPTY]);
		const first = await activate();
		for (let look = 0; look < 3; look++) await first.tick(T0 + look * 5 * SECOND);
		await first.close();
		// the first look and the departure (not picked) each started an execution with no item; the arrival one with its event
		expect(first.emissions.map(({ items }) => items.map((item) => (item.json.event as Event).kind))).toEqual([[], ['arrival'], []]);
		const saved = first.saved;
		expect((saved.looks as IDataObject).camera).toMatchObject({ counts: {} });
		// n8n restarts: what it saved is what the trigger looks with
		camera().script([CAR_IN]);
		const second = await activate({}, {}, saved);
		await second.tick(T0 + 60 * SECOND);
		expect(eventsOf(second)).toEqual([[expect.objectContaining({ kind: 'arrival', id: `${(saved.trigger as IDataObject).id as string}:4:arrival:red:driveway:` })]]);
		// and it is not announced twice after another restart
		const third = await activate({}, {}, second.saved);
		camera().script([CAR_IN]);
		await third.tick(T0 + 120 * SECOND);
		expect(third.emissions).toHaveLength(0);
	});

	it('looks that change nothing later looks compare with start nothing, also when the car moves or time passes', async () => {
		camera().script([EMPTY, CAR_IN, CAR_IN, CAR_IN]);
		const run = await activate({}, { trackObjects: true });
		for (let look = 0; look < 4; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(run.emissions.map(({ items }) => items.length)).toEqual([0, 1]);
		// with zones, the events are the zones': a car passing outside them changes nothing they are worked out against
		camera().script([EMPTY, CAR_OUT, EMPTY, CAR_OUT]);
		const zoned = await activate({ events: ['departure'] });
		for (let look = 0; look < 4; look++) await zoned.tick(T0 + look * 5 * SECOND);
		expect(zoned.emissions.map(({ items }) => items.length)).toEqual([0]);
		// without zones, it is an arrival and a departure of the image, each saved though not picked
		camera().script([EMPTY, CAR_OUT, CAR_OUT, EMPTY]);
		const whole = await activate({ options: {} });
		for (let look = 0; look < 4; look++) await whole.tick(T0 + look * 5 * SECOND);
		expect(whole.emissions.map(({ items }) => items.map((item) => (item.json.event as Event).kind))).toEqual([[], ['arrival'], []]);
	});

	it('reads the snapshot URL forms of the RTSP bridges: go2rtc’s frame.jpeg, Home Assistant’s camera proxy with a bearer token', async () => {
		const go2rtc = await startStandInCamera([CAR_IN], '/api/frame.jpeg');
		const homeAssistant = await startStandInCamera([CAR_IN], '/api/camera_proxy/camera.driveway');
		try {
			const bridged = await activateTrigger({ parameters: parameters({ cameraUrl: `${go2rtc.url}?src=driveway`, events: ['look'] }), credentials: credentials() });
			await bridged.tick(T0);
			expect(go2rtc.requests.map(({ url }) => url)).toEqual(['/api/frame.jpeg?src=driveway']);
			expect(bridged.emissions[0].items[0].json.countsByZone).toEqual({ driveway: { red: 1 } });

			const proxied = await activateTrigger({
				parameters: parameters({ cameraUrl: homeAssistant.url, authentication: 'cameraApi', events: ['look'] }),
				credentials: credentials(),
				camera: { loginType: 'header', headerName: 'Authorization', headerValue: 'Bearer long-lived-token' },
			});
			await proxied.tick(T0);
			expect(homeAssistant.requests.map(({ headers }) => headers.authorization)).toEqual(['Bearer long-lived-token']);
			expect(proxied.emissions).toHaveLength(1);
		} finally {
			await go2rtc.close();
			await homeAssistant.close();
		}
	});

	it('Execute step runs one look, shows what is in view as the event picked with a test id, and keeps nothing', async () => {
		camera().script([CAR_IN, EMPTY]);
		const saved = { trigger: { id: 'abc123abc123', looks: 4 } };
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), saved, mode: 'manual' });
		const items = await run.manual();
		expect(items).toHaveLength(1);
		expect(items[0].json.event).toMatchObject({ kind: 'arrival', label: 'red', zone: 'driveway', count: 1, id: 'test:abc123abc123:5:arrival:red:driveway:' });
		expect(items[0].json.countsByZone).toEqual({ driveway: { red: 1 } });
		expect(run.saved).toEqual(saved);
		// nothing in view: the run fails saying so, rather than hand the next node an event about nothing
		await expect(run.manual()).rejects.toThrow('Nothing in view to make a test event from');
		expect(run.saved).toEqual(saved);
	});

	it('Fetch Test Event against a failing camera fails with the camera’s problem', async () => {
		camera().answerWith((_request, response) => response.writeHead(401).end());
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), mode: 'manual' });
		await expect(run.manual()).rejects.toThrow('The camera refused the login (401)');
	});
});

describe('Image Inference Trigger with tracking: a car that moves on is saved before a restart would lose it', () => {
	const { credentials, camera, parameters } = useWatchedDriveway({ lookEvery: 5, options: { trackObjects: true } });
	/** The red block moved right along the road by `cells` of the colour model's 15-pixel grid (a PNG without row filters: quick to make). */
	const carMovedBy = (cells: number) => {
		const image = new PNG({ width: CAMERA.width, height: CAMERA.height });
		image.data.fill(128);
		fillRect(image, CAMERA_CAR_BOX.x + 15 * cells, CAMERA_CAR_BOX.y, CAMERA_CAR_BOX.width, CAMERA_CAR_BOX.height, [230, 40, 40]);
		return PNG.sync.write(image, { filterType: 0 });
	};

	it('a track whose box left its saved one starts an execution with no item; after a restart the car where it was last seen is the same track, not a second arrival', async () => {
		// no zones, and no picture drawn: the boxes are under test
		const activate = async (saved?: IDataObject) =>
			await activateTrigger({ parameters: parameters({}, { zones: {}, outputImages: 'none' }), credentials: credentials(), ...(saved ? { saved } : {}) });
		camera().script([EMPTY, carMovedBy(0), carMovedBy(1), carMovedBy(2), carMovedBy(3)]);
		const first = await activate();
		for (let look = 0; look < 5; look++) await first.tick(T0 + look * 5 * SECOND);
		// the first look; the arrival; the car two cells on (its box no longer overlaps the saved one: 0 < 0.3)
		expect(first.emissions.map(({ items }) => items.length)).toEqual([0, 1, 0]);
		await first.close();
		// after the restart the car stands where it was last seen: three cells from where it arrived, one from the save
		camera().script([carMovedBy(3)]);
		const second = await activate(first.saved);
		await second.tick(T0 + 60 * SECOND);
		expect(second.emissions).toHaveLength(0);
	}, 90_000);
});

describe('Image Inference Trigger: a new camera, and a look with several events', () => {
	const { credentials, camera, parameters } = useWatchedDriveway({ lookEvery: 5 });

	it('after Camera Snapshot URL changes, the first look is a baseline, not a change from the old camera', async () => {
		camera().script([CAR_IN]);
		const first = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'] }), credentials: credentials() });
		await first.tick(T0);
		await first.close();
		const other = await startStandInCamera([EMPTY]);
		try {
			const second = await activateTrigger({ parameters: parameters({ events: ['arrival', 'departure'], cameraUrl: other.url }), credentials: credentials(), saved: first.saved });
			await second.tick(T0 + 60 * SECOND);
			expect(eventsOf(second)).toEqual([]);
			expect((second.saved.trigger as IDataObject).id).toBe((first.saved.trigger as IDataObject).id);
		} finally {
			await other.close();
		}
	});

	it('the items of one look share its stored picture', async () => {
		camera().script([EMPTY, CAR_IN]);
		const run = await activateTrigger({ parameters: parameters({ events: ['arrival', 'change', 'look'] }), credentials: credentials() });
		await run.tick(T0);
		await run.tick(T0 + 5 * SECOND);
		const items = run.emissions.at(-1)!.items;
		expect(items.map((item) => (item.json.event as Event).kind)).toEqual(['arrival', 'change', 'look']);
		expect(items[1].binary?.data).toBe(items[0].binary?.data);
		expect(items[2].binary?.data).toBe(items[0].binary?.data);
		expect(items[1].binary).not.toBe(items[0].binary);
	});
});

describe('Image Inference Trigger across edits, damage and a failing binary data store', () => {
	const { server, credentials, camera, parameters, activate } = useWatchedDriveway({ lookEvery: 5 });
	const kindsOf = (run: TriggerRun) => eventsOf(run).flat().map(({ kind, label, zone }) => `${kind} ${label} ${zone}`);

	it('an arrival whose execution cannot be made (the binary data store fails) is not lost: the next look announces it, once', async () => {
		camera().script([EMPTY, CAR_IN, CAR_IN, CAR_IN]);
		let failing = false;
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), binaryStoreFails: () => failing });
		await run.tick(T0);
		failing = true;
		await run.tick(T0 + 5 * SECOND);
		failing = false;
		expect(run.logged).toEqual([expect.stringContaining('binary data store: no space left on device')]);
		expect(kindsOf(run)).toEqual([]);
		await run.tick(T0 + 10 * SECOND);
		await run.tick(T0 + 15 * SECOND);
		expect(kindsOf(run)).toEqual(['arrival red driveway']);
		// and across a restart from what n8n saved: not again
		await run.close();
		const again = await activate({}, {}, run.saved);
		await again.tick(T0 + 60 * SECOND);
		expect(kindsOf(again)).toEqual([]);
	});

	it('Track Objects Across Looks turned off and on again between runs: a car is announced once, by whichever is on when it comes', async () => {
		const events = { events: ['arrival', 'departure'] };
		const runs: TriggerRun[] = [];
		const runWith = async (tracking: boolean, frames: Buffer[], at: number) => {
			camera().script(frames);
			const run = await activate(events, { trackObjects: tracking }, runs.at(-1)?.saved);
			for (let look = 0; look < frames.length; look++) await run.tick(at + look * 5 * SECOND);
			await run.close();
			runs.push(run);
			return kindsOf(run);
		};
		expect(await runWith(true, [EMPTY, EMPTY], T0)).toEqual([]);
		expect(await runWith(false, [CAR_IN, CAR_IN], T0 + 60 * SECOND)).toEqual([]);
		expect(await runWith(true, [CAR_IN, CAR_IN, EMPTY, EMPTY, EMPTY], T0 + 120 * SECOND)).toEqual([expect.stringMatching(/^departure red driveway$/)]);
		expect(await runWith(false, [EMPTY, CAR_IN, CAR_IN], T0 + 240 * SECOND)).toEqual(['arrival red driveway']);
		expect(await runWith(true, [CAR_IN, CAR_IN, CAR_IN], T0 + 360 * SECOND)).toEqual([]);
		// each switch is a first look, saved with an execution with no item
		expect(runs.map((run) => run.emissions.filter(({ items }) => items.length === 0).length > 0)).toEqual([true, true, true, true, true]);
	});

	it('another model between runs: its first look is a baseline, not a departure of what the old one named and an arrival of what it names', async () => {
		const modelB = server().registerModel('detect');
		const asCar = server()
			.predict('detect', CAR_IN, {})
			.detections.map((detection) => ({ ...detection, label: 'car' }));
		server().addFault({ match: { kind: 'detect', modelId: modelB, imageSha256: sha256(CAR_IN) }, action: { type: 'status', status: 200, body: { detections: asCar, labelsCount: [{ label: 'car', total: asCar.length }], image: null } } });
		const events = { events: ['arrival', 'departure'] };
		camera().script([EMPTY, CAR_IN]);
		const first = await activate(events);
		await first.tick(T0);
		await first.tick(T0 + 5 * SECOND);
		expect(kindsOf(first)).toEqual(['arrival red driveway']);
		await first.close();
		camera().script([CAR_IN, CAR_IN, EMPTY]);
		const second = await activate({ ...events, modelId: { __rl: true, mode: 'id', value: modelB } }, {}, first.saved);
		for (let look = 0; look < 3; look++) await second.tick(T0 + (60 + 5 * look) * SECOND);
		expect(kindsOf(second)).toEqual(['departure car driveway']);
	});

	it('tracks in static data that cannot be read: the trigger activates and looks without an error', async () => {
		camera().script([CAR_IN, EMPTY, CAR_IN]);
		for (const tracking of [{ tracks: 'abc' }, { tracks: [null] }, { tracks: [{ id: 1, box: null }] }]) {
			const run = await activate({}, { trackObjects: true }, { looks: { camera: { counts: {}, tracking } } });
			await run.tick(T0);
			expect(run.logged).toEqual([]);
			await run.close();
		}
	});
	it('Execute step with the objects in view outside every zone says so, naming the zones', async () => {
		camera().script([CAR_OUT]);
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), mode: 'manual' });
		const failure = await run.manual().then(
			() => undefined,
			(error: unknown) => error as { message: string; description?: string },
		);
		expect(failure?.message).toBe('Nothing in view to make a test event from');
		expect(failure?.description).toMatch(/^The model found 1 object in the camera’s picture, none of them in your zones \(driveway\)\./);
		expect(run.saved).toEqual({});
	});

	it('Track Objects Across Looks given as the text "true" by an expression tracks for the trigger as for Detect', async () => {
		camera().script([EMPTY, CAR_IN]);
		const run = await activate({ events: ['stay', 'arrival'] }, { trackObjects: 'true' });
		await run.tick(T0);
		await run.tick(T0 + 5 * SECOND);
		expect(eventsOf(run).flat().map(({ kind, trackId }) => [kind, typeof trackId])).toEqual([['arrival', 'number']]);
	});
});
