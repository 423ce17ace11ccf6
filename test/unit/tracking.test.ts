import type { TrackedObject, TrackingSettings, TrackingState } from '../../nodes/ImageInference/pipeline/tracking';
import { MAX_TRACKS, defaultTrackingSettings, newTrackingState, overlap, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

const T0 = Date.parse('2026-11-27T08:00:00Z');
const MINUTE = 60_000;
const settingsOf = (overrides: Partial<TrackingSettings> = {}): TrackingSettings => ({ ...defaultTrackingSettings('UTC', false), ...overrides });
const object = (label: string, x: number, y: number, width = 0.2, height = 0.1, zones?: string[]): TrackedObject => ({
	label,
	relativeBox: { x, y, width, height },
	...(zones ? { zones } : {}),
});

/** Looks of one key, a minute apart from T0 unless `at` says otherwise; its ids counted from 1, as a key whose tracks were saved counting from 1 goes on. */
function watch(settings: TrackingSettings) {
	const state: TrackingState = { ...newTrackingState(T0), nextId: 1 };
	let looks = 0;
	return {
		state,
		look: (objects: TrackedObject[], at = T0 + looks * MINUTE) => {
			looks += 1;
			return trackObjects(state, objects, settings, at);
		},
	};
}

describe('overlap: intersection over union of two boxes', () => {
	it('is 1 for the same box, 0 apart or touching, and shared ÷ union between', () => {
		expect(overlap([0, 0, 2, 1], [0, 0, 2, 1])).toBe(1);
		expect(overlap([0, 0, 1, 1], [1, 0, 1, 1])).toBe(0);
		expect(overlap([0, 0, 1, 1], [0, 1, 1, 1])).toBe(0);
		expect(overlap([0, 0, 1, 1], [3, 3, 1, 1])).toBe(0);
		// apart side by side, or one above the other: no overlap, whatever the other side's extent
		expect(overlap([0, 0, 1, 1], [3, 0, 1, 1])).toBe(0);
		expect(overlap([0, 0, 1, 1], [0, 3, 1, 1])).toBe(0);
		// 1 shared of 2 + 2 - 1
		expect(overlap([0, 0, 2, 1], [1, 0, 2, 1])).toBeCloseTo(1 / 3, 10);
		// a box inside another: its own area over the larger one's
		expect(overlap([0, 0, 4, 4], [1, 1, 2, 2])).toBeCloseTo(4 / 16, 10);
	});
});

describe('Track Objects Across Looks', () => {
	it('two cars parked side by side keep their own ids, whatever order the service lists them in', () => {
		const { look } = watch(settingsOf());
		const first = look([object('car', 0.1, 0.5), object('car', 0.32, 0.5)]);
		expect(first.detections.map((track) => track.trackId)).toEqual([1, 2]);
		const second = look([object('car', 0.33, 0.51), object('car', 0.11, 0.49)]);
		expect(second.detections.map((track) => track.trackId)).toEqual([2, 1]);
		expect(second.detections[0]).toMatchObject({
			firstSeenAt: '2026-11-27T08:00:00.000Z',
			seenForSeconds: 60,
		});
		expect(second.result).toMatchObject({
			arrivals: [],
			departed: [],
			tracked: 2,
			untracked: 0,
		});
	});

	it('a box overlapping two tracks continues the one it overlaps most; the other is missing', () => {
		const { look } = watch(settingsOf({ minOverlap: 0.1 }));
		look([object('car', 0.1, 0.5), object('car', 0.25, 0.5)]);
		// overlaps car 1 by 0.15 of 0.2 width, car 2 by 0.1 of it
		const next = look([object('car', 0.15, 0.5)]);
		expect(next.detections.map((track) => track.trackId)).toEqual([1]);
		expect(next.result.tracked).toBe(2);
	});

	it('an equal overlap goes to the older track', () => {
		// exact fractions: the box between the two overlaps each by exactly 0.125 of its 0.25 width
		for (const parked of [
			[object('car', 0.125, 0.5, 0.25, 0.125), object('car', 0.375, 0.5, 0.25, 0.125)],
			[object('car', 0.375, 0.5, 0.25, 0.125), object('car', 0.125, 0.5, 0.25, 0.125)],
		]) {
			const { look } = watch(settingsOf());
			look(parked);
			expect(look([object('car', 0.25, 0.5, 0.25, 0.125)]).detections.map((track) => track.trackId)).toEqual([1]);
		}
	});

	it('the same place with another label, or an overlap under the minimum, is a new object', () => {
		const { look } = watch(settingsOf({ minOverlap: 0.5 }));
		look([object('car', 0.1, 0.5)]);
		const next = look([object('truck', 0.1, 0.5), object('car', 0.2, 0.5)]);
		// the car moved half its width: overlap 1/3, under 0.5
		expect(next.detections.map((track) => track.trackId)).toEqual([2, 3]);
		expect(next.result.arrivals.map((arrival) => arrival.label)).toEqual(['truck', 'car']);
	});

	it('a minimum overlap of 0 takes any overlap, not a box elsewhere', () => {
		const { look } = watch(settingsOf({ minOverlap: 0 }));
		look([object('car', 0.1, 0.5)]);
		expect(look([object('car', 0.29, 0.5)]).detections[0].trackId).toBe(1);
		expect(look([object('car', 0.6, 0.5)]).detections[0].trackId).toBe(2);
	});

	it('the largest overlap is matched first, whichever track or detection comes first', () => {
		const { look } = watch(settingsOf({ minOverlap: 0.05 }));
		look([object('car', 0.1, 0.5), object('car', 0.3, 0.5)]);
		// A overlaps car 1 by 0.14 and car 2 by 0.6; B overlaps car 1 by 0.82 and car 2 by 0.05: A is car 2, B car 1
		expect(look([object('car', 0.25, 0.5), object('car', 0.12, 0.5)]).detections.map((track) => track.trackId)).toEqual([2, 1]);
	});

	it('of two detections overlapping a track equally, the one nearer the top-left corner continues it, in whatever order they come', () => {
		// fractions a float holds exactly, so that the overlaps are equal to the last bit
		const cases: Array<[TrackedObject, TrackedObject]> = [
			// left and right of the track
			[object('car', 0.125, 0.5, 0.25, 0.125), object('car', 0.375, 0.5, 0.25, 0.125)],
			// above and below
			[object('car', 0.25, 0.4375, 0.25, 0.125), object('car', 0.25, 0.5625, 0.25, 0.125)],
			// the same corner, each overlapping the track by half: the narrower, then the lower box first
			[object('car', 0.25, 0.5, 0.125, 0.125), object('car', 0.25, 0.5, 0.5, 0.125)],
			[object('car', 0.25, 0.5, 0.25, 0.0625), object('car', 0.25, 0.5, 0.25, 0.25)],
		];
		for (const [first, second] of cases) {
			for (const order of [
				[first, second],
				[second, first],
			]) {
				const { look } = watch(settingsOf({ minOverlap: 0.1 }));
				look([object('car', 0.25, 0.5, 0.25, 0.125)]);
				expect(look(order).detections[order.indexOf(first)].trackId).toBe(1);
			}
		}
	});

	it('an overlap of exactly the minimum continues the track', () => {
		const { look } = watch(settingsOf({ minOverlap: 0.5 }));
		look([object('car', 0, 0, 0.5, 0.25)]);
		// 0.0625 shared of 0.125 + 0.0625 - 0.0625
		expect(look([object('car', 0, 0, 0.5, 0.125)]).detections[0].trackId).toBe(1);
	});

	it('a car missing from one look keeps its id; missing from two, it has departed, with how long it stayed', () => {
		const { look } = watch(settingsOf());
		look([object('car', 0.1, 0.5)]);
		look([object('car', 0.1, 0.5)]);
		const missed = look([]);
		expect(missed.result).toMatchObject({ departed: [], tracked: 1 });
		expect(look([object('car', 0.1, 0.5)]).detections[0]).toMatchObject({
			trackId: 1,
			seenForSeconds: 180,
		});
		look([]);
		const gone = look([]);
		expect(gone.result.departed).toEqual([
			{
				trackId: 1,
				label: 'car',
				zones: [],
				firstSeenAt: '2026-11-27T08:00:00.000Z',
				lastSeenAt: '2026-11-27T08:03:00.000Z',
				stayedSeconds: 180,
			},
		]);
		expect(gone.result.tracked).toBe(0);
	});

	it('with Track Kept Through Missed Looks 0, the first look without the car ends it', () => {
		const { look } = watch(settingsOf({ keepMissedLooks: 0 }));
		look([object('car', 0.1, 0.5)]);
		expect(look([]).result.departed.map((departure) => departure.trackId)).toEqual([1]);
	});

	it('Arrival After Looks 2: one false detection arrives and departs unseen; a car seen twice arrives once', () => {
		const { look } = watch(settingsOf({ countAfterLooks: 2 }));
		expect(look([object('person', 0.5, 0.1)]).result.arrivals).toEqual([]);
		const falseOne = [look([]), look([])];
		expect(falseOne.map((result) => result.result.departed)).toEqual([[], []]);
		expect(look([object('car', 0.1, 0.5)]).result.arrivals).toEqual([]);
		const arrived = look([object('car', 0.1, 0.5)]);
		expect(arrived.result.arrivals).toEqual([{ trackId: 2, label: 'car', zones: [] }]);
		expect(arrived.result.arrivalsByLabel).toEqual({ car: 1 });
		expect(look([object('car', 0.1, 0.5)]).result.arrivals).toEqual([]);
	});

	it('Arrival After Looks counts looks in a row: seen, missed, seen is not two', () => {
		const { look } = watch(settingsOf({ countAfterLooks: 2, keepMissedLooks: 2 }));
		look([object('car', 0.1, 0.5)]);
		look([]);
		expect(look([object('car', 0.1, 0.5)]).result.arrivals).toEqual([]);
		expect(look([object('car', 0.1, 0.5)]).result.arrivals.map((arrival) => arrival.trackId)).toEqual([1]);
	});

	it('a stay over the limit is reported once as new, then as already reported; at the limit exactly it is not over', () => {
		const { look, state } = watch(settingsOf({ stayLimitMs: 10 * MINUTE }));
		for (let minute = 0; minute <= 10; minute++) expect(look([object('car', 0.1, 0.5)]).result.overstays).toEqual([]);
		const over = look([object('car', 0.1, 0.5)]);
		expect(over.result.overstays).toEqual([
			{
				trackId: 1,
				label: 'car',
				zones: [],
				zone: null,
				stayedSeconds: 660,
				limitMinutes: 10,
				alreadyReported: false,
			},
		]);
		expect(over.result.newOverstayCount).toBe(1);
		expect(state.tracks[0].overstaysReported).toEqual(['']);
		const again = look([object('car', 0.1, 0.5)]);
		expect(again.result.overstays).toMatchObject([{ trackId: 1, stayedSeconds: 720, alreadyReported: true }]);
		expect(again.result.newOverstayCount).toBe(0);
	});

	it('a zone’s limit counts the time in that zone, reported with the zone; seconds in each zone on the detection', () => {
		const { look, state } = watch(settingsOf({ zoneStayLimitsMs: [['no-parking', 2 * MINUTE]], zoned: true }));
		look([object('car', 0.1, 0.5, 0.2, 0.1, ['street'])]);
		look([object('car', 0.1, 0.5, 0.2, 0.1, ['street', 'no-parking'])]);
		const inZone = look([object('car', 0.1, 0.5, 0.2, 0.1, ['street', 'no-parking'])]);
		expect(inZone.detections[0].secondsInZones).toEqual({
			street: 120,
			'no-parking': 60,
		});
		expect(inZone.result.overstays).toEqual([]);
		look([object('car', 0.1, 0.5, 0.2, 0.1, ['street', 'no-parking'])]);
		const over = look([object('car', 0.1, 0.5, 0.2, 0.1, ['street', 'no-parking'])]);
		expect(over.result.overstays).toEqual([
			{
				trackId: 1,
				label: 'car',
				zones: ['street', 'no-parking'],
				zone: 'no-parking',
				stayedSeconds: 180,
				limitMinutes: 2,
				alreadyReported: false,
			},
		]);
		expect(over.result.arrivalsByZone).toEqual({ street: { car: 1 } });
		expect(state.tracks[0].overstaysReported).toEqual(['no-parking']);
	});

	it('counts arrivals per label and zone since the first look, or per day in the workflow’s time zone', () => {
		const lateEvening = Date.parse('2026-11-27T22:30:00Z');
		const settings = settingsOf({ arrivalsPeriod: 'day', timeZone: 'Europe/Berlin', zoned: true });
		const { look } = watch(settings);
		look([object('car', 0.1, 0.5, 0.2, 0.1, ['bay'])], lateEvening);
		const sameDay = look([object('car', 0.1, 0.5, 0.2, 0.1, ['bay']), object('car', 0.5, 0.5, 0.2, 0.1, [])], lateEvening + 20 * MINUTE);
		expect(sameDay.result).toMatchObject({
			arrivalsByLabel: { car: 2 },
			arrivalsByZone: { bay: { car: 1 } },
			arrivalsSince: '2026-11-27T22:30:00.000Z',
		});
		// 00:10 in Berlin: a new day
		const nextDay = look(
			[object('car', 0.1, 0.5, 0.2, 0.1, ['bay']), object('car', 0.5, 0.5, 0.2, 0.1, []), object('car', 0.8, 0.2, 0.1, 0.1, [])],
			lateEvening + 40 * MINUTE,
		);
		expect(nextDay.result).toMatchObject({
			arrivalsByLabel: { car: 1 },
			arrivalsByZone: {},
			arrivalsSince: '2026-11-27T23:10:00.000Z',
		});

		const { look: sinceFirst } = watch(settingsOf());
		sinceFirst([object('car', 0.1, 0.5)], lateEvening);
		expect(sinceFirst([object('car', 0.5, 0.5)], lateEvening + 40 * MINUTE).result).toMatchObject({
			arrivalsByLabel: { car: 2 },
			arrivalsSince: '2026-11-27T08:00:00.000Z',
		});
		// without zones set, no counts per zone
		expect(sinceFirst([object('car', 0.5, 0.5)], lateEvening + 41 * MINUTE).result).not.toHaveProperty('arrivalsByZone');
	});

	it('turning Per Day off starts the counts again from that look', () => {
		const state = newTrackingState(T0);
		trackObjects(state, [object('car', 0.1, 0.5)], settingsOf({ arrivalsPeriod: 'day' }), T0);
		const after = trackObjects(state, [object('car', 0.1, 0.5), object('car', 0.5, 0.5)], settingsOf(), T0 + MINUTE);
		expect(after.result).toMatchObject({
			arrivalsByLabel: { car: 1 },
			arrivalsSince: '2026-11-27T08:01:00.000Z',
		});
	});

	it('a new object still waiting for Arrival After Looks has no stay to report, however long it has been seen', () => {
		const { look } = watch(settingsOf({ countAfterLooks: 5, stayLimitMs: MINUTE }));
		for (let minute = 0; minute < 4; minute++) expect(look([object('car', 0.1, 0.5)]).result.overstays).toEqual([]);
		expect(look([object('car', 0.1, 0.5)]).result).toMatchObject({ arrivals: [{ trackId: 1 }], newOverstayCount: 1 });
	});

	it(`keeps at most ${MAX_TRACKS} tracks: the objects past them get no id and are counted as untracked`, () => {
		const { look } = watch(settingsOf());
		const many = Array.from({ length: MAX_TRACKS + 2 }, (_, index) => object('bottle', (index % 20) / 20, Math.floor(index / 20) / 10, 0.04, 0.05));
		const first = look(many);
		expect(first.result).toMatchObject({ tracked: MAX_TRACKS, untracked: 2 });
		expect(first.detections.slice(-3).map((track) => track.trackId)).toEqual([MAX_TRACKS, null, null]);
		expect(first.detections[MAX_TRACKS]).toEqual({ trackId: null, firstSeenAt: null, seenForSeconds: null });
		const zoned = watch(settingsOf({ zoned: true })).look(many.map((bottle) => ({ ...bottle, zones: [] })));
		expect(zoned.detections[MAX_TRACKS]).toEqual({ trackId: null, firstSeenAt: null, seenForSeconds: null, secondsInZones: {} });
	});

	it('keeps a key with 50 objects under 10,500 characters of static data', () => {
		const state = newTrackingState(T0);
		const look = (objects: TrackedObject[], minute: number) => trackObjects(state, objects, settingsOf({ stayLimitMs: MINUTE }), T0 + minute * MINUTE);
		const objects = Array.from({ length: 50 }, (_, index) => object(index % 2 ? 'car' : 'person', 0.123456 + (index % 10) / 11, 0.1 + Math.floor(index / 10) / 6, 0.0712345, 0.1123456));
		for (let minute = 0; minute < 5; minute++) look(objects, minute);
		expect(state.tracks).toHaveLength(50);
		expect(JSON.stringify(state).length).toBeLessThan(10_500);
	});

	it('keeps a track small: its box to 4 decimals', () => {
		const { look, state } = watch(settingsOf());
		look([object('car', 0.123456, 0.5, 0.2, 0.1)]);
		expect(state.tracks[0].box).toEqual([0.1235, 0.5, 0.2, 0.1]);
	});
});

describe('times written once', () => {
	it('a track’s first-seen time and the arrivals’ since time are written at the first look, not at each look after', () => {
		const { look } = watch(settingsOf());
		const parked = [object('car', 0.1, 0.1), object('car', 0.5, 0.1), object('person', 0.1, 0.6)];
		const first = look(parked);
		expect(first.result.arrivalsSince).toBe('2026-11-27T08:00:00.000Z');
		const written = jest.spyOn(Date.prototype, 'toISOString');
		try {
			for (let again = 1; again <= 3; again++) {
				const next = look(parked);
				expect(next.result.arrivalsSince).toBe('2026-11-27T08:00:00.000Z');
				expect(next.detections.map((detection) => detection.firstSeenAt)).toEqual(first.detections.map((detection) => detection.firstSeenAt));
			}
			expect(written).not.toHaveBeenCalled();
		} finally {
			written.mockRestore();
		}
	});
});
