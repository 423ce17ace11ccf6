import type { IDataObject } from 'n8n-workflow';

import { MAX_TOOL_RESULT_CHARS } from '../../nodes/ImageInference/output/toolResult';
import { CAMERA, CAMERA_CAR_BOX, cameraFrame, colourScene } from '../harness/images';
import { sha256 } from '../reference-server/faults';
import type { FrameName } from '../watch/frames';
import { DRIVEWAY } from '../watch/frames';
import { detectParameters, failureOf, useServer } from './setup';

type Placed = { label: string; confidence: number; relativeBox: { x: number; y: number; width: number; height: number } | null; zones?: string[] };

// The zones are under test here, not the detector: the camera's frames are made for the
// reference server's fast colour-region model, a red block on a grey road standing in for a car
// where car.jpg has it (test/harness/images.ts). watch.e2e.test.ts watches the real car in real n8n.
const CAR = 'red';
const CAR_BOX = CAMERA_CAR_BOX;
const { width: W, height: H } = CAMERA;
const photoItem = (name: FrameName) => ({ binary: { data: { bytes: cameraFrame(name), fileName: `${name}.png`, mimeType: 'image/png' } } });
const driveway = (extra: Record<string, unknown> = {}) => ({ zones: { zone: [{ name: 'driveway', points: DRIVEWAY }] }, zoneAnchor: 'bottomCenter', ...extra });

describe('Watching a place: zones, object sizes, relative boxes', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('gives each object its zones and relative box, and counts per zone', async () => {
		const { items } = await run(detectParameters(server(), { options: driveway({ zones: { zone: [{ name: 'driveway', points: DRIVEWAY }, { name: 'sky', points: '0,0 1,0 1,0.3 0,0.3' }] } }) }), [photoItem('carInZone')]);
		const json = items[0].json;
		const [car] = json.detections as Placed[];
		expect(car.label).toBe(CAR);
		expect(car.zones).toEqual(['driveway']);
		expect(car.relativeBox!.x).toBeCloseTo(CAR_BOX.x / W, 3);
		expect(car.relativeBox!.y).toBeCloseTo(CAR_BOX.y / H, 3);
		expect(car.relativeBox!.width).toBeCloseTo(CAR_BOX.width / W, 3);
		expect(car.relativeBox!.height).toBeCloseTo(CAR_BOX.height / H, 3);
		expect(json.countsByZone).toEqual({ driveway: { [CAR]: 1 }, sky: {} });
		expect(json.summary).toBe('1 red');
	});

	it('a car outside the zone is in no zone; Only Objects in Zones leaves it out of counts and summary', async () => {
		const all = await run(detectParameters(server(), { options: driveway() }), [photoItem('carOutsideZone')]);
		expect((all.items[0].json.detections as Placed[]).map(({ label, zones }) => ({ label, zones }))).toEqual([{ label: CAR, zones: [] }]);
		expect(all.items[0].json.countsByZone).toEqual({ driveway: {} });

		const inZones = await run(detectParameters(server(), { options: driveway({ onlyInZones: true }) }), [photoItem('carOutsideZone')]);
		expect(inZones.items[0].json).toMatchObject({ detections: [], totalDetections: 0, countsByLabel: {}, summary: 'nothing detected', countsByZone: { driveway: {} } });
		// the annotated picture still shows every box the service drew
		expect(inZones.items[0].binary?.data.fileName).toBe('carOutsideZone.annotated.png');
	});

	it('the anchor decides: a zone that holds the car’s centre but not its bottom centre', async () => {
		// a band across the car's middle, y 205–217 of 380: its centre (y 210) is in it, its bottom (y 225) is not
		const band = { zones: { zone: [{ name: 'band', points: '0.4,0.54 0.5,0.54 0.5,0.57 0.4,0.57' }] } };
		const centre = await run(detectParameters(server(), { options: band }), [photoItem('carInZone')]);
		const bottom = await run(detectParameters(server(), { options: { ...band, zoneAnchor: 'bottomCenter' } }), [photoItem('carInZone')]);
		expect(centre.items[0].json.countsByZone).toEqual({ band: { [CAR]: 1 } });
		expect(bottom.items[0].json.countsByZone).toEqual({ band: {} });
	});

	it('takes zones in pixels', async () => {
		const pixels = { zones: { zone: [{ name: 'entrance', points: '250,190 360,190 360,240 250,240' }] }, zoneCoordinates: 'pixels' };
		const { items } = await run(detectParameters(server(), { options: pixels }), [photoItem('carInZone')]);
		expect(items[0].json.countsByZone).toEqual({ entrance: { [CAR]: 1 } });
		expect(items[0].json.warnings).toBeUndefined();
	});

	it('warns of a zone in pixels that reaches past the image, once its size is known, and still counts', async () => {
		const pixels = { zones: { zone: [{ name: 'entrance', points: '250,190 360,190 360,240 250,240' }, { name: 'street', points: `0,0 ${W + 500},0 ${W + 500},${H}` }] }, zoneCoordinates: 'pixels' };
		const { items } = await run(detectParameters(server(), { options: pixels }), [photoItem('carInZone')]);
		expect(items[0].json.countsByZone).toMatchObject({ entrance: { [CAR]: 1 } });
		expect(items[0].json.warnings).toEqual([
			`Zone "street" reaches past the image (${W} × ${H} pixels) at point 2 (${W + 500},0): it was drawn for another size, or Relative (0–1) is meant`,
		]);
	});

	it('Min and Max Object Size, as fractions of the image’s area (the car is 900 of 256,880 pixels, about 0.0035)', async () => {
		const total = async (options: IDataObject) => (await run(detectParameters(server(), { options }), [photoItem('carInZone')])).items[0].json.totalDetections;
		expect(await total({ minObjectSize: 0.003 })).toBe(1);
		expect(await total({ minObjectSize: 0.004 })).toBe(0);
		expect(await total({ maxObjectSize: 0.004 })).toBe(1);
		expect(await total({ maxObjectSize: 0.003 })).toBe(0);
	});

	it('Max Objects counts after the zone filter: the most confident object in the zone, not in the photo', async () => {
		const scene = colourScene();
		const answer = server().predict('detect', scene, {}) as { detections: Array<{ label: string; confidence: number; x: number; y: number; width: number; height: number }> };
		// the zone is the scene's bottom-right quarter (480 × 320)
		const inCell = answer.detections.filter(({ x, y, width, height }) => x + width / 2 >= 240 && y + height / 2 >= 160);
		const outside = answer.detections.filter((detection) => !inCell.includes(detection));
		expect(inCell.length).toBeGreaterThan(0);
		expect(Math.max(...outside.map(({ confidence }) => confidence))).toBeGreaterThan(Math.max(...inCell.map(({ confidence }) => confidence)));
		const { items } = await run(
			detectParameters(server(), { options: { zones: { zone: [{ name: 'bottomRight', points: '0.5,0.5 1,0.5 1,1 0.5,1' }] }, onlyInZones: true, maxObjects: 1 } }),
			[{ binary: { data: { bytes: scene, fileName: 'scene.png', mimeType: 'image/png' } } }],
		);
		const best = [...inCell].sort((a, b) => b.confidence - a.confidence)[0];
		expect((items[0].json.detections as Placed[]).map(({ label, confidence }) => ({ label, confidence }))).toEqual([{ label: best.label, confidence: best.confidence }]);
		expect(items[0].json.totalDetections).toBe(1);
	});

	it('One Item per Object: each object item carries its zones and relative box', async () => {
		const { items } = await run(detectParameters(server(), { outputItems: 'object', options: driveway() }), [photoItem('carInZone')]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ label: CAR, zones: ['driveway'], objectIndex: 0, objectCount: 1 });
		expect((items[0].json.relativeBox as { x: number }).x).toBeCloseTo(CAR_BOX.x / W, 3);
	});

	it('an image URL without the annotated picture: relativeBox null and said so; pixel zones still work', async () => {
		const url = server().hostImage(cameraFrame('carInZone'), 'image/png');
		const pixels = { zones: { zone: [{ name: 'entrance', points: '250,190 360,190 360,240 250,240' }] }, zoneCoordinates: 'pixels', outputImages: 'none' };
		const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url, options: pixels }), [{ json: {} }]);
		const json = items[0].json;
		expect(json).toMatchObject({ imageWidth: null, imageHeight: null, countsByZone: { entrance: { [CAR]: 1 } } });
		expect((json.detections as Placed[])[0].relativeBox).toBeNull();
		expect(json.warnings).toEqual([expect.stringMatching(/size is unknown.*relativeBox is null/)]);

		// with the annotated picture, its size is known
		const annotated = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url, options: driveway() }), [{ json: {} }]);
		expect(annotated.items[0].json).toMatchObject({ imageWidth: W, imageHeight: H, countsByZone: { driveway: { [CAR]: 1 } } });
	});
});

describe('Watching a place: bad options fail before any request, naming the item and what to fix', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	const cases: Array<[string, IDataObject, RegExp, RegExp]> = [
		['a polygon of two points', { zones: { zone: [{ name: 'gate', points: '0.1,0.1 0.5,0.5' }] } }, /^Zone "gate": only 2 points; a zone needs at least 3$/, /x,y pairs/],
		['a point that is not two numbers', { zones: { zone: [{ name: 'gate', points: '0.1,0.1 0.5 0.5,0.9' }] } }, /^Zone "gate": point 2 "0.5" is not two numbers/, /x,y pairs/],
		['relative coordinates outside 0–1', { zones: { zone: [{ name: 'gate', points: '0.1,0.1 1.5,0.5 0.5,0.9' }] } }, /point 2 \(1.5,0.5\) is outside 0–1/, /fractions 0–1/],
		['a zone name used twice', { zones: { zone: [{ name: 'gate', points: '0,0 1,0 1,1' }, { name: 'gate', points: '0,0 1,0 0,1' }] } }, /^Zone name "gate" is used twice$/, /its own name/],
		['a zone without a name', { zones: { zone: [{ name: ' ', points: '0,0 1,0 1,1' }] } }, /^Zone 1 has no name$/, /name/],
		['a size fraction above 1', { minObjectSize: 2 }, /^Min Object Size must be a number from 0 to 1, got 2$/, /Min Object Size/],
		['min above max', { minObjectSize: 0.3, maxObjectSize: 0.1 }, /^Min Object Size \(0.3\) is larger than Max Object Size \(0.1\)$/, /smaller/],
		['an empty watch key', { compareWithPreviousLook: true, watchKey: '  ' }, /^Watch Key is empty$/, /key/],
		['Only Objects in Zones without zones', { onlyInZones: true }, /no zone is set/, /Add a zone/],
		['a pixel zone that is not three points', { zoneCoordinates: 'pixels', zones: { zone: [{ name: 'gate', points: '10,10 20,20' }] } }, /^Zone "gate": only 2 points/, /\(pixels from the image’s top-left corner\)\.$/],
		['a zone whose name is a number', { zones: { zone: [{ name: 7, points: '0,0 1,0 1,1' }] } }, /^Zone 1 has no name$/, /name/],
		['a zone an expression left empty', { zones: { zone: [null] } }, /^Zone 1 has no name$/, /name/],
		['Zone Coordinates an expression set to something else', { zoneCoordinates: 'meters', zones: { zone: [{ name: 'gate', points: '0,0 1,0 1,1' }] } }, /^Zone Coordinates must be one of relative, pixels, got "meters"$/, /^Choose Relative \(0–1 of the image\) or Pixels\.$/],
		['Zone Anchor Point an expression set to something else', { zoneAnchor: 'top', zones: { zone: [{ name: 'gate', points: '0,0 1,0 1,1' }] } }, /^Zone Anchor Point must be one of center, bottomCenter, got "top"$/, /^Choose Box Centre or Bottom Centre\.$/],
		['a zone of more points than allowed', { zones: { zone: [{ name: 'gate', points: Array.from({ length: 101 }, (_, index) => `${index / 100},0.5`).join(' ') }] } }, /^Zone "gate": 101 points; a zone has at most 100$/, /x,y pairs/],
		['a zone of one point', { zones: { zone: [{ name: 'gate', points: '0.1,0.1' }] } }, /^Zone "gate": only 1 point; a zone needs at least 3$/, /x,y pairs/],
		['a zone without points', { zones: { zone: [{ name: 'gate' }] } }, /^Zone "gate": no points; a zone needs at least 3$/, /x,y pairs/],
		['a relative point left of the image', { zones: { zone: [{ name: 'gate', points: '0.1,0.1 -0.1,0.5 0.5,0.9' }] } }, /^Zone "gate": point 2 \(-0.1,0.5\) is outside 0–1; relative coordinates are fractions of the image \(use Zone Coordinates: Pixels for pixels\)$/, /fractions 0–1/],
		['a relative point above the image', { zones: { zone: [{ name: 'gate', points: '0.1,0.1 0.5,-0.1 0.5,0.9' }] } }, /^Zone "gate": point 2 \(0.5,-0.1\) is outside 0–1; relative coordinates are fractions of the image/, /fractions 0–1/],
		['a pixel point left of the image', { zoneCoordinates: 'pixels', zones: { zone: [{ name: 'gate', points: '10,10 -1,20 30,40' }] } }, /^Zone "gate": point 2 \(-1,20\) is negative; pixels count from the image’s top-left corner$/, /\(pixels from the image’s top-left corner\)\.$/],
		['a pixel point above the image', { zoneCoordinates: 'pixels', zones: { zone: [{ name: 'gate', points: '10,10 20,-1 30,40' }] } }, /^Zone "gate": point 2 \(20,-1\) is negative; pixels count from the image’s top-left corner$/, /\(pixels from the image’s top-left corner\)\.$/],
		['Only Objects in Zones an expression set to text', { onlyInZones: 'yes', zones: { zone: [{ name: 'gate', points: '0,0 1,0 1,1' }] } }, /^Only Objects in Zones must be true or false, got "yes"$/, /^Turn "Only Objects in Zones" on or off, or make the expression that sets it give true or false\.$/],
		['a rectangle with its corners in the wrong order (a bow-tie)', { zones: { zone: [{ name: 'gate', points: '0,0 1,1 1,0 0,1' }] } }, /^Zone "gate": its edges cross: the points are not in the order of its corners$/, /^Give the corners in the order you walk around the zone, e\.g\. "0,0 1,0 1,1 0,1"\.$/],
		['three points on one line', { zones: { zone: [{ name: 'gate', points: '0,0 0.5,0.5 1,1' }] } }, /^Zone "gate": its points lie on one line, so it has no area$/, /not on one line/],
		['relative numbers under Pixels', { zoneCoordinates: 'pixels', zones: { zone: [{ name: 'gate', points: '0.1,0.6 0.5,0.6 0.5,1 0.1,1' }] } }, /^Zone "gate": every point is within 0–1, in Pixels: a zone of at most one pixel$/, /^Set Zone Coordinates to Relative \(0–1\)/],
		['a Max Object Size above 1', { maxObjectSize: 2 }, /^Max Object Size must be a number from 0 to 1, got 2$/, /^Change the "Max Object Size" option \(or the expression that sets it\)\.$/],
	];

	/**
	 * The options as n8n can set them for item 1 alone, item 0 good: each option by an expression
	 * (n8n drops a collection set by one), and each zone's name and points by one, item 0's a
	 * zone of its own.
	 */
	const badForItem1 = (bad: IDataObject): Record<string, unknown> => {
		const byItem = (item1: unknown, item0: unknown) => (itemIndex: number) => (itemIndex === 1 ? item1 : item0);
		return Object.fromEntries(
			Object.entries(bad).map(([name, value]) => {
				if (name !== 'zones') return [name, byItem(value, undefined)];
				const zones = (value as { zone: Array<IDataObject | null> }).zone;
				return [name, { zone: zones.map((zone, index) => ({ name: byItem(zone?.name, `zone ${index}`), points: byItem(zone?.points, '0,0 1,0 1,1') })) }];
			}),
		);
	};

	it.each(cases)('%s', async (_case, badOptions, message, description) => {
		const failure = await failureOf(run(detectParameters(server(), { options: badForItem1(badOptions) }), [photoItem('empty'), photoItem('empty')]));
		expect(failure.message).toMatch(message);
		expect(failure.description).toMatch(description);
		expect(failure.itemIndex).toBe(1);
		expect(server().requests).toHaveLength(0);
	});

	it('more zones than allowed (a list n8n gives every item alike)', async () => {
		const zones = { zone: Array.from({ length: 21 }, (_, index) => ({ name: `zone ${index}`, points: '0,0 1,0 1,1' })) };
		const failure = await failureOf(run(detectParameters(server(), { options: { zones } }), [photoItem('empty')]));
		expect([failure.message, failure.itemIndex]).toEqual(['21 zones are set; at most 20 are allowed', 0]);
		expect(failure.description).toMatch(/split the watch/);
		expect(server().requests).toHaveLength(0);
	});

	it('accepts the same Min and Max Object Size, and zones an expression left empty', async () => {
		const { items } = await run(detectParameters(server(), { options: { minObjectSize: 0.003, maxObjectSize: 0.003, zones: {} } }), [photoItem('carInZone')]);
		expect(items[0].json.totalDetections).toBe(0);
		expect(items[0].json.countsByZone).toBeUndefined();
		// the whole Zones collection an expression left null: no zones either
		const unset = await run(detectParameters(server(), { options: { zones: null } }), [photoItem('carInZone')]);
		expect(unset.items[0].json.countsByZone).toBeUndefined();
	});

	it('relative zones or size options with an image URL and no annotated picture: refused before the request', async () => {
		for (const options of [
			{ ...driveway(), outputImages: 'none' },
			{ minObjectSize: 0.001, annotate: false },
		]) {
			const failure = await failureOf(run(detectParameters(server(), { imageSource: 'url', imageUrl: 'http://127.0.0.1:9/cam.jpg', options }), [{ json: {} }]));
			expect(failure.message).toMatch(/need(s)? the image’s size, which the node does not learn from an image URL without the annotated picture/);
			expect(failure.description).toMatch(/Zone Coordinates: Pixels/);
			expect(failure.itemIndex).toBe(0);
		}
		expect(server().requests).toHaveLength(0);
	});
});

describe('Compare With Previous Look', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const watchOptions = (extra: Record<string, unknown> = {}) => driveway({ onlyInZones: true, minObjectSize: 0.003, compareWithPreviousLook: true, ...extra });

	it('a camera’s sequence: baseline, a car arrives, stays, leaves the zone, the road is empty', async () => {
		const staticData: IDataObject = {};
		const look = async (name: FrameName) =>
			(await run(detectParameters(server(), { options: watchOptions() }), [photoItem(name)], { staticData })).items[0].json.comparison as IDataObject;

		expect(await look('empty')).toMatchObject({ key: 'default', changed: false, reason: expect.stringMatching(/first look/), previousSeenAt: null });
		const arrival = await look('carInZone');
		expect(arrival).toMatchObject({ changed: true, appeared: [CAR], disappeared: [], changeByLabel: { [CAR]: 1 }, previousCountsByLabel: {} });
		expect(arrival.zones).toEqual({ driveway: { appeared: [CAR], disappeared: [], changeByLabel: { [CAR]: 1 }, previousCountsByLabel: {} } });
		expect(Date.parse(arrival.previousSeenAt as string)).toBeLessThanOrEqual(Date.now());

		expect(await look('carInZone')).toMatchObject({ changed: false, appeared: [], reason: 'no change since the counts last reported', previousCountsByLabel: { [CAR]: 1 } });
		expect(await look('carOutsideZone')).toMatchObject({ changed: true, appeared: [], disappeared: [CAR], changeByLabel: { [CAR]: -1 } });
		expect(await look('empty')).toMatchObject({ changed: false, reason: 'no change since the counts last reported' });
	});

	it('as n8n keeps static data (saved only when its proxy saw a change): every look is kept for the next execution', async () => {
		// the harness keeps static data as n8n does (test/harness/execute.ts, RunOptions.staticData)
		const staticData: IDataObject = {};
		const look = async (name: FrameName) => {
			const result = await run(detectParameters(server(), { options: watchOptions() }), [photoItem(name)], { staticData });
			expect(result.staticDataSaved).toBe(true);
			return result.items[0].json.comparison as IDataObject;
		};
		expect(await look('empty')).toMatchObject({ reason: expect.stringMatching(/first look/) });
		expect(await look('carInZone')).toMatchObject({ changed: true, appeared: [CAR] });
		expect(await look('carInZone')).toMatchObject({ changed: false, reason: 'no change since the counts last reported' });
		expect(await look('empty')).toMatchObject({ changed: true, disappeared: [CAR] });
	});

	it('a cooldown per kind of change: the car leaving within the arrival’s cooldown is reported; coming back within the departure’s, it waits for its end', async () => {
		const staticData: IDataObject = {};
		let now = Date.parse('2026-05-01T08:00:00.000Z');
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
		try {
			const look = async (name: FrameName, minutesLater: number) => {
				now += minutesLater * 60_000;
				return (await run(detectParameters(server(), { options: watchOptions({ cooldownMinutes: 10 }) }), [photoItem(name)], { staticData })).items[0].json.comparison as IDataObject;
			};
			await look('empty', 0);
			expect(await look('carInZone', 1)).toMatchObject({ changed: true, appeared: [CAR], cooldownUntil: '2026-05-01T08:11:00.000Z' });
			expect(await look('empty', 1)).toMatchObject({ changed: true, disappeared: [CAR], cooldownUntil: '2026-05-01T08:12:00.000Z' });
			expect(await look('carInZone', 1)).toMatchObject({ changed: false, appeared: [], heldBack: [{ label: CAR, zone: null, kind: 'arrival' }, { label: CAR, zone: 'driveway' }] });
			expect(await look('carInZone', 8)).toMatchObject({ changed: true, appeared: [CAR], cooldownUntil: '2026-05-01T08:21:00.000Z' });
		} finally {
			clock.mockRestore();
		}
	});

	it('one key per camera by expression: each camera compares with its own last look, in the node’s static data', async () => {
		const staticData: IDataObject = {};
		const parameters = detectParameters(server(), { options: watchOptions({ watchKey: (itemIndex: number) => (itemIndex === 0 ? 'gate' : 'yard') }) });
		await run(parameters, [photoItem('empty'), photoItem('carInZone')], { staticData });
		const { items } = await run(parameters, [photoItem('carInZone'), photoItem('carInZone')], { staticData });
		expect(items.map((item) => item.json.comparison)).toMatchObject([
			{ key: 'gate', changed: true, appeared: [CAR] },
			{ key: 'yard', changed: false },
		]);
		expect(Object.keys(staticData.looks as object).sort()).toEqual(['gate', 'yard']);
	});

	it('several images of one key in one execution are compared in input order, whichever answer comes first', async () => {
		const staticData: IDataObject = {};
		// the first image's answer comes after the second's
		server().addFault({ match: { imageSha256: sha256(cameraFrame('empty')) }, action: { type: 'delay', ms: 300 } });
		const { items } = await run(detectParameters(server(), { options: watchOptions({ concurrency: 2 }) }), [photoItem('empty'), photoItem('carInZone')], { staticData });
		expect(server().faultsFired()).toEqual([1]);
		expect(items.map((item) => item.json.comparison)).toMatchObject([
			{ changed: false, reason: expect.stringMatching(/first look/) },
			{ changed: true, appeared: [CAR], disappeared: [] },
		]);
	});

	it('an execution stopped by a failed request keeps no look: the next one reports what it saw', async () => {
		const staticData: IDataObject = {};
		const parameters = detectParameters(server(), { options: watchOptions({ watchKey: (itemIndex: number) => (itemIndex === 0 ? 'gate' : 'yard'), concurrency: 1 }) });
		await run(parameters, [photoItem('empty'), photoItem('empty')], { staticData });
		const kept = JSON.stringify(staticData);
		server().requests.splice(0);
		// the gate's car is answered, then the yard's request fails and the node stops: nothing went on to report the car
		server().addFault({ match: { imageSha256: sha256(cameraFrame('carOutsideZone')) }, action: { type: 'status', status: 400, body: { message: 'bad image' } } });
		expect(await failureOf(run(parameters, [photoItem('carInZone'), photoItem('carOutsideZone')], { staticData }))).toMatchObject({ itemIndex: 1 });
		expect(server().requests.map((request) => request.status)).toEqual([200, 400]);
		expect(JSON.stringify(staticData)).toBe(kept);
		server().clearFaults();
		const { items } = await run(parameters, [photoItem('carInZone'), photoItem('empty')], { staticData });
		expect(items.map((item) => item.json.comparison)).toMatchObject([
			{ key: 'gate', changed: true, appeared: [CAR] },
			{ key: 'yard', changed: false, reason: 'no change since the counts last reported' },
		]);
	});

	it('a look under other settings (a zone redrawn, a label filter, the threshold) starts a new baseline instead of reporting a false arrival', async () => {
		const staticData: IDataObject = {};
		const look = async (extra: IDataObject) =>
			(await run(detectParameters(server(), { options: watchOptions(extra) }), [photoItem('carInZone')], { staticData })).items[0].json.comparison as IDataObject;
		// the first zone misses the parked car; redrawn, it holds it: not an arrival
		await look({ zones: { zone: [{ name: 'driveway', points: '0,0 0.1,0 0.1,0.1 0,0.1' }] } });
		const redrawn = await look({});
		expect(redrawn).toMatchObject({ changed: false, appeared: [], reason: 'the threshold, labels, zones or sizes changed since the last look: this look is the new baseline' });
		expect(await look({})).toMatchObject({ changed: false, reason: 'no change since the counts last reported' });
		expect(await look({ confidence: 0.2 })).toMatchObject({ changed: false, reason: expect.stringMatching(/new baseline/) });
		expect(await look({ confidence: 0.2, ignoreLabels: 'truck' })).toMatchObject({ changed: false, reason: expect.stringMatching(/new baseline/) });
	});

	it('static data of another shape (looks: null after a hand edit) starts the looks afresh once, in the item’s warnings, and the next look compares', async () => {
		const staticData: IDataObject = { looks: null };
		const look = async (name: FrameName) => (await run(detectParameters(server(), { options: watchOptions() }), [photoItem(name)], { staticData })).items[0].json;
		const repaired = await look('empty');
		expect(repaired.warnings).toEqual(['Compare With Previous Look: the looks kept in the workflow’s static data are not an object (null), so every Watch Key starts afresh with its next look']);
		expect(repaired.comparison).toMatchObject({ changed: false, reason: expect.stringMatching(/^first look/) });
		const next = await look('carInZone');
		expect(next.warnings).toBeUndefined();
		expect(next.comparison).toMatchObject({ changed: true, appeared: [CAR] });
	});

	it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('the Watch Key "%s" is a key like any other', async (watchKey) => {
		const staticData: IDataObject = {};
		const look = async (name: FrameName) =>
			(await run(detectParameters(server(), { options: watchOptions({ watchKey }) }), [photoItem(name)], { staticData })).items[0].json.comparison as IDataObject;
		expect(await look('empty')).toMatchObject({ key: watchKey, reason: expect.stringMatching(/first look/) });
		expect(await look('carInZone')).toMatchObject({ key: watchKey, changed: true, appeared: [CAR] });
		expect(Object.keys(staticData.looks as object)).toEqual([watchKey]);
		expect(JSON.parse(JSON.stringify(staticData)).looks[watchKey].counts).toEqual({ [CAR]: 1 });
	});

	it('hints a key’s first look, and a look a manual run does not keep', async () => {
		const staticData: IDataObject = {};
		const parameters = detectParameters(server(), { options: watchOptions({ watchKey: (itemIndex: number) => (itemIndex === 0 ? 'gate' : 'yard') }) });
		const lookHints = (hints: Array<{ message: string }>) => hints.map((hint) => hint.message).filter((message) => message.startsWith('Compare With Previous Look'));
		const first = await run(parameters, [photoItem('empty'), photoItem('empty')], { staticData });
		expect(lookHints(first.hints)).toEqual([
			'Compare With Previous Look: the first look for Watch Keys "gate" and "yard" (items 0 and 1), so there was nothing to compare with and comparison.changed is false; the next look compares with this one.',
		]);
		const again = await run(parameters, [photoItem('empty'), photoItem('empty')], { staticData });
		expect(lookHints(again.hints)).toEqual([]);
		const manual = await run(parameters, [photoItem('empty'), photoItem('carInZone')], { staticData: {}, mode: 'manual' });
		expect(lookHints(manual.hints)).toEqual([
			expect.stringMatching(/^Compare With Previous Look: the first look for Watch Keys "gate" and "yard"/),
			"Compare With Previous Look: this is a manual run, and n8n keeps a workflow's static data only for runs of the active workflow, so the looks of items 0 and 1 were not kept: the next look compares with the last one an active run kept. Activate the workflow to watch the place.",
		]);
	});
});

describe('Warnings of an image that gives no output item', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('One Item per Object without objects: the warnings of the look go to the execution hint, not lost', async () => {
		const parameters = detectParameters(server(), { outputItems: 'object', options: { compareWithPreviousLook: true, watchKey: 'gate' } });
		const { items, hints } = await run(parameters, [photoItem('empty')], { staticData: { looks: null } as unknown as IDataObject });
		expect(items).toEqual([]);
		expect(hints.filter((hint) => hint.message.startsWith('One Item per Object'))).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'One Item per Object gave no output item for 1 image without objects (Include Images Without Objects is off), so its warnings are given here: item 0: Compare With Previous Look: the looks kept in the workflow’s static data are not an object (null), so every Watch Key starts afresh with its next look',
			},
		]);
	});
});

describe('Zones in tool mode', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('the compact result gains the zone counts, and stays within the cap with many zones and labels', async () => {
		const base64 = cameraFrame('carInZone').toString('base64');
		const zone = (index: number) => ({ name: `${index} ${'zone with a very long name '.repeat(4)}`, points: '0,0 1,0 1,1 0,1' });
		const one = await run(detectParameters(server(), { imageSource: 'base64', imageBase64: base64, options: { zones: { zone: [zone(0)] } } }), [{}], { asTool: true });
		const json = one.items[0].json;
		expect(Object.keys(json.countsByZone as object)).toEqual([`${zone(0).name.slice(0, 63)}…`]);
		expect(Object.values(json.countsByZone as object)[0]).toEqual(json.countsByLabel);
		expect(Object.keys(json.countsByLabel as object).length).toBeGreaterThan(0);
		// every zone listed: nothing to say about zones left out
		expect(json).not.toHaveProperty('zonesNotListed');

		// 30 labels of 60 characters, every object in each of 20 zones: far more than the cap holds
		const labels = Array.from({ length: 30 }, (_, index) => `label ${String(index).padStart(2, '0')} ${'x'.repeat(51)}`);
		const detections = labels.map((label, index) => ({ label, confidence: 0.9 - index / 100, x: 10 + index * 20, y: 100, width: 10, height: 10 }));
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: { detections, image: null, labelsCount: labels.map((label) => ({ label, total: 1 })) } } });
		const zones = Array.from({ length: 20 }, (_, index) => zone(index));
		const many = await run(detectParameters(server(), { imageSource: 'base64', imageBase64: base64, options: { zones: { zone: zones } } }), [{}], { asTool: true });
		const compact = many.items[0].json;
		expect(JSON.stringify(compact).length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
		expect(compact.totalDetections).toBe(30);
		expect(compact.detectionsNotListed).toBe(30);
		expect(compact.zonesNotListed).toBeGreaterThan(0);
		expect(Object.keys(compact.countsByZone as object).length + (compact.zonesNotListed as number)).toBe(20);
	});
});

describe('Zones and sizes that need the image’s size, for an image URL', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	// options that differ by item, as n8n sets them: each by an expression (item 0's zone in pixels, which need no size)
	const forItem1 = (options: IDataObject) => Object.fromEntries(Object.entries(options).map(([name, value]) => [name, (itemIndex: number) => (itemIndex === 1 ? value : undefined)]));
	const relativeZoneForItem1 = {
		zones: { zone: [{ name: 'all', points: (itemIndex: number) => (itemIndex === 1 ? '0,0 1,0 1,1 0,1' : '0,0 10,0 10,10 0,10') }] },
		zoneCoordinates: (itemIndex: number) => (itemIndex === 1 ? 'relative' : 'pixels'),
	};

	it('with an image URL and no annotated picture, refused before the request, saying which option needs the size', async () => {
		const url = 'http://127.0.0.1:9/cam.jpg';
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ ...relativeZoneForItem1, outputImages: 'none' }, 'Zones in relative coordinates need'],
			[{ ...forItem1({ minObjectSize: 0.001 }), annotate: false }, 'Min Object Size needs'],
			[{ ...forItem1({ maxObjectSize: 0.5 }), annotate: false }, 'Max Object Size needs'],
		];
		for (const [options, needs] of cases) {
			const parameters = detectParameters(server(), { imageSource: 'url', imageUrl: url, options });
			const failure = await failureOf(run(parameters, [{ json: {} }, { json: {} }]));
			expect(failure.message).toBe(`${needs} the image’s size, which the node does not learn from an image URL without the annotated picture`);
			expect(failure.itemIndex).toBe(1);
		}
		expect(server().requests).toHaveLength(0);
	});

	it('with an image URL whose annotated picture does not come back, fails the item saying the size is unknown', async () => {
		const url = server().hostImage(cameraFrame('carInZone'), 'image/png');
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: { detections: [], labelsCount: [], image: null } } });
		for (const [options, needs] of [
			[relativeZoneForItem1, 'Zones in relative coordinates need'],
			[forItem1({ minObjectSize: 0.001 }), 'Min Object Size needs'],
		] as Array<[Record<string, unknown>, string]>) {
			const parameters = detectParameters(server(), { imageSource: 'url', imageUrl: url, options });
			const failure = await failureOf(run(parameters, [{ json: {} }, { json: {} }]));
			expect(failure.message).toBe(`${needs} the image’s size, and it is unknown for this image`);
			expect(failure.description).toBe('The service sent no readable annotated picture and the node could not read the image’s size. Pass the image as a file, or give the zones in pixels.');
			expect(failure.itemIndex).toBe(1);
		}
	});

	it('with an image URL and no annotated picture, Only Objects in Zones with pixel zones still counts the car', async () => {
		const url = server().hostImage(cameraFrame('carInZone'), 'image/png');
		const options = { zones: { zone: [{ name: 'entrance', points: '250,190 360,190 360,240 250,240' }] }, zoneCoordinates: 'pixels', onlyInZones: true, outputImages: 'none' };
		const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url, options }), [{ json: {} }]);
		expect(items[0].json).toMatchObject({ imageWidth: null, totalDetections: 1, countsByZone: { entrance: { red: 1 } } });
	});
});
