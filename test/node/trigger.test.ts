import type { IDataObject } from 'n8n-workflow';

import { cameraFrame } from '../harness/images';
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

type Event = { kind: string; label: string | null; zone: string | null; trackId: number | null; count?: number; id: string; at: string };
const eventsOf = (run: TriggerRun) => run.emissions.map(({ items }) => items.map((item) => item.json.event as Event));

describe('Image Inference Trigger: a camera watched, an execution only for the events picked', () => {
	const { server, credentials } = useServer({ defaultModels: 'synthetic' });
	let camera: StandInCamera;
	beforeEach(async () => {
		camera = await startStandInCamera();
	});
	afterEach(async () => {
		await camera.close();
	});

	const parameters = (extra: IDataObject = {}, options: IDataObject = {}): IDataObject => ({
		cameraUrl: camera.url,
		modelId: { __rl: true, mode: 'id', value: server().models.detect },
		lookEvery: 5,
		lookEveryUnit: 'seconds',
		events: ['arrival'],
		options: { zones: { zone: [{ name: 'driveway', points: DRIVEWAY }] }, zoneAnchor: 'bottomCenter', ...options },
		...extra,
	});
	const activate = async (extra: IDataObject = {}, options: IDataObject = {}, saved?: IDataObject) =>
		await activateTrigger({ parameters: parameters(extra, options), credentials: credentials(), ...(saved ? { saved } : {}) });

	it('a car arriving in the driveway starts one execution with one arrival item, its picture and the look’s detections', async () => {
		camera.script([EMPTY, EMPTY, CAR_IN, CAR_IN]);
		const run = await activate();
		expect(run.cron).toBe('* * * * * *');
		for (let look = 0; look < 4; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(camera.served).toBe(4);
		expect(run.emissions).toHaveLength(1);
		const [item] = run.emissions[0].items;
		const event = item.json.event as Event;
		const stateId = (run.saved.trigger as IDataObject).id as string;
		expect(event).toEqual({ kind: 'arrival', label: 'red', zone: 'driveway', trackId: null, count: 1, id: `${stateId}:1:arrival:red:driveway:`, at: new Date(T0 + 10 * SECOND).toISOString() });
		expect(item.json.countsByZone).toEqual({ driveway: { red: 1 } });
		expect((item.json.comparison as IDataObject).changed).toBe(true);
		expect(item.binary?.data.mimeType).toBe('image/png');
		expect(run.emissions[0].deduplicationKey).toBe(`${stateId}:1`);
		// the state saved with the execution is the one that announced the arrival
		expect((run.emissions[0].saved.trigger as IDataObject).looks).toBe(1);
	});

	it('looks every 5 seconds on a tick each second, never two at once, and not before the interval', async () => {
		camera.script([EMPTY]);
		const run = await activate();
		await run.tick(T0);
		for (let second = 1; second < 5; second++) await run.tick(T0 + second * SECOND);
		expect(camera.served).toBe(1);
		await run.tick(T0 + 5 * SECOND);
		expect(camera.served).toBe(2);
		await run.tick(T0 + 10 * SECOND - 400);
		expect(camera.served).toBe(3);
	});

	it('a look in minutes ticks each minute', async () => {
		camera.script([EMPTY]);
		const run = await activate({ lookEvery: 2, lookEveryUnit: 'minutes' });
		expect(run.cron).toBe('0 * * * * *');
		await run.tick(T0);
		await run.tick(T0 + 60 * SECOND);
		expect(camera.served).toBe(1);
		await run.tick(T0 + 120 * SECOND);
		expect(camera.served).toBe(2);
	});

	it('a car outside the zone, and a car standing still, start nothing; its departure starts one when picked', async () => {
		camera.script([EMPTY, CAR_OUT, CAR_IN, CAR_IN, EMPTY]);
		const run = await activate({ events: ['arrival', 'departure'] });
		for (let look = 0; look < 5; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(eventsOf(run).map((events) => events.map(({ kind, zone, count }) => ({ kind, zone, count })))).toEqual([
			[{ kind: 'arrival', zone: 'driveway', count: 1 }],
			[{ kind: 'departure', zone: 'driveway', count: 1 }],
		]);
	});

	it('Every Look starts an execution per look; Any Change one per look with a change', async () => {
		camera.script([EMPTY, CAR_IN, CAR_IN]);
		const run = await activate({ events: ['look', 'change'] });
		for (let look = 0; look < 3; look++) await run.tick(T0 + look * 5 * SECOND);
		expect(eventsOf(run).map((events) => events.map(({ kind }) => kind))).toEqual([['look'], ['change', 'look'], ['look']]);
		const ids = eventsOf(run).flat().map(({ id }) => id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('with tracking, an arrival is one tracked object with its trackId', async () => {
		camera.script([EMPTY, CAR_IN]);
		const run = await activate({}, { trackObjects: true });
		for (let look = 0; look < 2; look++) await run.tick(T0 + look * 5 * SECOND);
		const [car] = run.emissions[0].items[0].json.detections as Array<{ trackId: number }>;
		expect(typeof car.trackId).toBe('number');
		expect(eventsOf(run)).toEqual([[expect.objectContaining({ kind: 'arrival', label: 'red', zone: 'driveway', trackId: car.trackId, id: expect.stringMatching(new RegExp(`:arrival:red:driveway:${car.trackId}$`)) })]]);
		expect(eventsOf(run)[0][0]).not.toHaveProperty('count');
	});

	it('after a restart, the first look compares with the last look announced: an arrival seen but not yet announced is not lost', async () => {
		camera.script([EMPTY, EMPTY]);
		const first = await activate();
		await first.tick(T0);
		await first.tick(T0 + 5 * SECOND);
		await first.close();
		expect(first.emissions).toHaveLength(0);
		const saved = first.saved;
		// n8n restarts: the looks it did not announce are gone, the state made at activation stays
		camera.script([CAR_IN]);
		const second = await activate({}, {}, saved);
		await second.tick(T0 + 60 * SECOND);
		expect(eventsOf(second)).toEqual([[expect.objectContaining({ kind: 'arrival', id: `${(saved.trigger as IDataObject).id as string}:1:arrival:red:driveway:` })]]);
		// and it is not announced twice after another restart
		const third = await activate({}, {}, second.saved);
		camera.script([CAR_IN]);
		await third.tick(T0 + 120 * SECOND);
		expect(third.emissions).toHaveLength(0);
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

	it('Fetch Test Event runs one look, shows it as a look event with a test id, and keeps nothing', async () => {
		camera.script([CAR_IN]);
		const saved = { trigger: { id: 'abc123abc123', looks: 4 } };
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), saved, mode: 'manual' });
		const items = await run.manual();
		expect(items).toHaveLength(1);
		expect(items[0].json.event).toMatchObject({ kind: 'look', id: 'test:abc123abc123:5:look:::' });
		expect(items[0].json.countsByZone).toEqual({ driveway: { red: 1 } });
		expect(run.saved).toEqual(saved);
	});

	it('Fetch Test Event against a failing camera fails with the camera’s problem', async () => {
		camera.answerWith((_request, response) => response.writeHead(401).end());
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), mode: 'manual' });
		await expect(run.manual()).rejects.toThrow('The camera refused the login (401)');
	});
});
