import type { IDataObject } from 'n8n-workflow';

import { MAX_TOOL_RESULT_CHARS } from '../../nodes/ImageInference/output/toolResult';
import { CAMERA, cameraFrame } from '../harness/images';
import { detectParameters, failureOf, useServer } from './setup';

type Detection = {
	label: string;
	confidence: number;
	x: number;
	y: number;
	width: number;
	height: number;
};
type Tracked = {
	label: string;
	trackId: number | null;
	firstSeenAt: string | null;
	seenForSeconds: number | null;
	secondsInZones?: Record<string, number>;
};

// The service's boxes are scripted here: tracking is under test, not the detector. The camera's
// frame gives the node the image's size (CAMERA), as a snapshot would.
const { width: W, height: H } = CAMERA;
const frame = () => ({
	binary: {
		data: {
			bytes: cameraFrame('empty'),
			fileName: 'snapshot.png',
			mimeType: 'image/png',
		},
	},
});
const car = (x: number, y = 0.6): Detection => ({
	label: 'car',
	confidence: 0.9,
	x: Math.round(x * W),
	y: Math.round(y * H),
	width: Math.round(0.2 * W),
	height: Math.round(0.15 * H),
});
const bay = {
	zones: { zone: [{ name: 'no-parking', points: '0,0.5 0.5,0.5 0.5,1 0,1' }] },
	zoneAnchor: 'bottomCenter',
};
const tracking = (extra: IDataObject = {}) => ({
	compareWithPreviousLook: true,
	watchKey: 'bay camera',
	trackObjects: true,
	outputImages: 'none',
	...bay,
	...extra,
});

describe('Track Objects Across Looks, through the node', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const answer = (detections: Detection[]) =>
		server().addFault({
			match: { kind: 'detect' },
			times: 1,
			action: {
				type: 'status',
				status: 200,
				body: { detections, image: null },
			},
		});

	it('keeps each car’s id across looks kept in static data, reports the overstay once and the departure with its stay', async () => {
		const staticData: IDataObject = {};
		let now = Date.parse('2026-11-27T08:00:00.000Z');
		// the key's ids start at its first tracked look's time in milliseconds
		const [car1, car2] = [now, now + 1];
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
		try {
			const look = async (detections: Detection[], minutesLater: number) => {
				now += minutesLater * 60_000;
				answer(detections);
				const options = tracking({
					reportStaysLongerThan: 10,
					zoneStayLimits: 'no-parking: 5',
				});
				const { items, staticDataSaved } = await run(detectParameters(server(), { options }), [frame()], { staticData });
				expect(staticDataSaved).toBe(true);
				return items[0].json as IDataObject & {
					detections: Tracked[];
					tracking: IDataObject;
				};
			};
			const first = await look([car(0.1), car(0.6)], 0);
			expect(
				first.detections.map(({ trackId, seenForSeconds, secondsInZones }) => ({
					trackId,
					seenForSeconds,
					secondsInZones,
				})),
			).toEqual([
				{ trackId: car1, seenForSeconds: 0, secondsInZones: { 'no-parking': 0 } },
				{ trackId: car2, seenForSeconds: 0, secondsInZones: {} },
			]);
			// the key's first look: the cars standing there are tracked, not arrivals, as the comparison reports nothing
			expect(first.comparison).toMatchObject({ changed: false, reason: 'first look for this key: nothing to compare with yet' });
			expect(first.tracking).toMatchObject({
				arrivals: [],
				arrivalsByLabel: {},
				arrivalsByZone: {},
				overstays: [],
				newOverstayCount: 0,
			});
			// the service lists them the other way round, the cars a little moved
			const second = await look([car(0.61), car(0.11)], 3);
			expect(second.detections.map((detection) => detection.trackId)).toEqual([car2, car1]);
			// the parked car missed for a look keeps its id
			await look([car(0.6)], 3);
			const back = await look([car(0.1), car(0.6)], 1);
			expect(back.detections.map((detection) => [detection.trackId, detection.seenForSeconds])).toEqual([
				[car1, 420],
				[car2, 420],
			]);
			expect(back.tracking).toMatchObject({
				overstays: [
					{
						trackId: car1,
						zone: 'no-parking',
						stayedSeconds: 420,
						limitMinutes: 5,
						alreadyReported: false,
					},
				],
				newOverstayCount: 1,
			});
			const still = await look([car(0.1), car(0.6)], 4);
			// both cars past 10 minutes in the image: two new stays; the bay's is reported already
			expect(still.tracking).toMatchObject({
				newOverstayCount: 2,
				overstays: [
					{
						trackId: car1,
						zone: null,
						stayedSeconds: 660,
						alreadyReported: false,
					},
					{ trackId: car1, zone: 'no-parking', alreadyReported: true },
					{ trackId: car2, zone: null, alreadyReported: false },
				],
			});
			await look([car(0.6)], 1);
			const left = await look([car(0.6)], 1);
			expect(left.tracking).toMatchObject({
				departed: [
					{
						trackId: car1,
						label: 'car',
						zones: ['no-parking'],
						firstSeenAt: '2026-11-27T08:00:00.000Z',
						lastSeenAt: '2026-11-27T08:11:00.000Z',
						stayedSeconds: 660,
					},
				],
			});
			// the comparison's own fields are as without tracking
			expect(left.comparison).toMatchObject({
				changed: false,
				key: 'bay camera',
			});
		} finally {
			clock.mockRestore();
		}
	});

	it('a zone point moved mid-stay keeps the car’s track: no second arrival, no second alert, its whole stay at its departure', async () => {
		const staticData: IDataObject = {};
		let now = Date.parse('2026-11-27T08:00:00.000Z');
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
		const moved = { zones: { zone: [{ name: 'no-parking', points: '0,0 0.55,0 0.55,1 0,1' }] } };
		try {
			const look = async (detections: Detection[], minute: number, zone: IDataObject = {}) => {
				now = Date.parse('2026-11-27T08:00:00.000Z') + minute * 60_000;
				answer(detections);
				const { items } = await run(detectParameters(server(), { options: tracking({ reportStaysLongerThan: 30, ...zone }) }), [frame()], { staticData });
				return items[0].json as IDataObject & { detections: Tracked[]; tracking: IDataObject; comparison: IDataObject };
			};
			await look([], 0);
			const arrived = await look([car(0.1)], 5);
			const carId = arrived.detections[0].trackId;
			expect(arrived.tracking).toMatchObject({ arrivals: [{ trackId: carId }], arrivalsByLabel: { car: 1 } });
			expect((await look([car(0.1)], 40)).tracking).toMatchObject({ newOverstayCount: 1 });
			const edited = await look([car(0.1)], 45, moved);
			expect(edited.comparison).toMatchObject({ changed: false, reason: expect.stringMatching(/new baseline/) });
			expect(edited.detections.map(({ trackId, seenForSeconds }) => [trackId, seenForSeconds])).toEqual([[carId, 2400]]);
			expect(edited.tracking).toMatchObject({ arrivals: [], arrivalsByLabel: { car: 1 }, newOverstayCount: 0 });
			expect((await look([car(0.1)], 80, moved)).tracking).toMatchObject({ newOverstayCount: 0, overstays: [{ trackId: carId, alreadyReported: true }] });
			await look([], 85, moved);
			expect((await look([], 90, moved)).tracking).toMatchObject({ departed: [{ trackId: carId, stayedSeconds: 75 * 60 }] });
		} finally {
			clock.mockRestore();
		}
	});

	it('one item per object: each carries its own trackId beside the look’s tracking', async () => {
		answer([car(0.1), car(0.6)]);
		const now = Date.parse('2026-11-27T08:00:00.000Z');
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			const { items } = await run(
				detectParameters(server(), {
					options: tracking(),
					outputItems: 'object',
				}),
				[frame()],
				{ staticData: {} },
			);
			expect(items.map((item) => [item.json.trackId, (item.json.tracking as IDataObject).tracked])).toEqual([
				[now, 2],
				[now + 1, 2],
			]);
		} finally {
			clock.mockRestore();
		}
	});

	it('without Track Objects Across Looks, detections and the item have no tracking fields', async () => {
		answer([car(0.1)]);
		const { items } = await run(
			detectParameters(server(), {
				options: {
					compareWithPreviousLook: true,
					outputImages: 'none',
					...bay,
				},
			}),
			[frame()],
			{ staticData: {} },
		);
		expect(items[0].json).not.toHaveProperty('tracking');
		expect((items[0].json.detections as IDataObject[])[0]).not.toHaveProperty('trackId');
	});

	it('without zones, no seconds in zones and no arrivals per zone', async () => {
		const staticData: IDataObject = {};
		const options = { compareWithPreviousLook: true, trackObjects: true, outputImages: 'none' };
		answer([]);
		await run(detectParameters(server(), { options }), [frame()], { staticData });
		answer([car(0.1)]);
		const { items } = await run(detectParameters(server(), { options }), [frame()], { staticData });
		expect((items[0].json.detections as IDataObject[])[0]).toEqual(expect.objectContaining({ seenForSeconds: 0 }));
		expect((items[0].json.detections as IDataObject[])[0]).not.toHaveProperty('secondsInZones');
		expect(items[0].json.tracking).toMatchObject({ arrivalsByLabel: { car: 1 } });
		expect(items[0].json.tracking).not.toHaveProperty('arrivalsByZone');
	});

	it('as an agent’s tool, the compact result lists the stays over their limit and the departures, in minutes, within its cap', async () => {
		const staticData: IDataObject = {};
		let now = Date.parse('2026-11-27T08:00:00.000Z');
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
		const options = tracking({ reportStaysLongerThan: 1, trackKeepMissedLooks: 0 });
		const look = async (detections: Detection[]) => {
			answer(detections);
			return (await run(detectParameters(server(), { options }), [frame()], { staticData, asTool: true })).items[0].json;
		};
		try {
			await look([car(0.1), car(0.6)]);
			now += 90_000;
			expect(await look([car(0.1)])).toMatchObject({
				overstays: [{ trackId: Date.parse('2026-11-27T08:00:00.000Z'), label: 'car', zone: null, minutes: 1.5, new: true }],
				departed: [{ trackId: Date.parse('2026-11-27T08:00:00.000Z') + 1, label: 'car', minutes: 0 }],
				staysNotListed: 0,
			});
			// 60 objects of long labels, all staying too long: the result keeps to its cap
			const label = (index: number) => `label ${String(index).padStart(2, '0')} ${'x'.repeat(70)}`;
			const many = Array.from({ length: 60 }, (_, index) => ({
				...car((index % 10) / 10, 0.1 + Math.floor(index / 10) / 10),
				width: 30,
				height: 20,
				label: label(index),
			}));
			await look(many);
			now += 90_000;
			const compact = await look(many);
			expect(JSON.stringify(compact).length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
			expect((compact.overstays as unknown[]).length + (compact.staysNotListed as number)).toBe(60);
			expect((compact.overstays as IDataObject[])[0].label).toBe(`${label(0).slice(0, 63)}…`);
		} finally {
			clock.mockRestore();
		}
	});

	it('refuses what it cannot track, by the option’s name and the item, before any request', async () => {
		const limitsFormat = 'Write each entry as zone: minutes, separated by commas, naming zones set under Zones, e.g. "no-parking: 10, gate: 2".';
		const cases: Array<[IDataObject, string, string?]> = [
			[tracking({ trackMinOverlap: 1.5 }), 'Track Min Overlap must be a number from 0 to 1, got 1.5'],
			[tracking({ trackKeepMissedLooks: 1.5 }), 'Track Kept Through Missed Looks must be a whole number from 0 to 100, got 1.5'],
			[tracking({ trackCountAfterLooks: 0 }), 'Arrival After Looks must be a whole number from 1 to 100, got 0'],
			[tracking({ reportStaysLongerThan: 0 }), 'Report Stays Longer Than (Minutes) must be a number from 0.1 to 10080, got 0'],
			[tracking({ zoneStayLimits: 'gate: 5' }), 'Stay Limits per Zone: "gate" is not a zone set under Zones ("no-parking")', limitsFormat],
			[{ compareWithPreviousLook: true, trackObjects: true, outputImages: 'none', zoneStayLimits: 'gate: 5' }, 'Stay Limits per Zone: "gate" is not a zone set under Zones', limitsFormat],
			[tracking({ zoneStayLimits: 'no-parking 5' }), 'Stay Limits per Zone: "no-parking 5" is not zone: minutes', limitsFormat],
			[tracking({ zoneStayLimits: 'no-parking: 5, no-parking: 6' }), 'Stay Limits per Zone: "no-parking" is given twice'],
			[tracking({ zoneStayLimits: 'no-parking: 0' }), 'Stay Limits per Zone: the limit for "no-parking" must be a number of minutes from 0.1 to 10080, got "0"'],
			[tracking({ zoneStayLimits: 'no-parking: 10081' }), 'Stay Limits per Zone: the limit for "no-parking" must be a number of minutes from 0.1 to 10080, got "10081"'],
		];
		for (const [options, message, description] of cases) {
			const failure = await failureOf(run(detectParameters(server(), { options }), [frame(), frame()], { staticData: {} }));
			expect([failure.message, failure.itemIndex]).toEqual([message, 0]);
			if (description) expect(failure.description).toBe(description);
		}
		const week = await failureOf(run(detectParameters(server(), { options: tracking({ countArrivalsPer: 'week' }) }), [frame()], { staticData: {} }));
		expect(week.message).toMatch(/^Count Arrivals/);
		expect(server().requests).toHaveLength(0);
	});

	it('takes a zone’s limit at its bounds, and a limit list an expression leaves empty (null)', async () => {
		for (const zoneStayLimits of ['no-parking: 0.1', 'no-parking: 10080', null]) {
			answer([car(0.1)]);
			const { items } = await run(detectParameters(server(), { options: tracking({ zoneStayLimits }) }), [frame()], { staticData: {} });
			expect((items[0].json.tracking as IDataObject).tracked).toBe(1);
		}
	});

	it('an image URL without the annotated picture is refused unsent: tracking needs the image’s size', async () => {
		const failure = await failureOf(
			run(
				detectParameters(server(), {
					imageSource: 'url',
					imageUrl: 'http://127.0.0.1:9/cam.jpg',
					options: {
						compareWithPreviousLook: true,
						trackObjects: true,
						outputImages: 'none',
					},
				}),
				[{}],
			),
		);
		expect(failure.message).toMatch(/^Track Objects Across Looks needs the image’s size/);
		expect(server().requests).toHaveLength(0);
	});
});
