/**
 * The watch state of a key under change: the settings edited mid-stay, the tracks lost (the
 * static data, the bound, tracking turned off), a baseline look, a box that jitters across a
 * zone's edge, and static data of another shape. Each look runs the node's pipeline (placing,
 * zones, counts, comparison, tracking) on the objects given.
 */
import type { IDataObject } from 'n8n-workflow';

import { compareWithPreviousLook } from '../../nodes/ImageInference/pipeline/comparison';
import { newTrackingState, trackObjects, trackingStateJsonLength } from '../../nodes/ImageInference/pipeline/tracking';
import type { SeenObject, WatchSettings } from '../harness/watchLooks';
import { MINUTE, lookAt, lookWithoutSize } from '../harness/watchLooks';

const T0 = Date.parse('2026-11-28T08:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MINUTE;
const car = (x: number, y = 0.6): SeenObject => ({ label: 'car', box: [x, y, 0.2, 0.15] });
// the cars' bottom centres: (0.2, 0.75) and (0.7, 0.75); the bay holds the first
const PARKED = car(0.1);
const OTHER = car(0.6);
const THIRD = car(0.35, 0.2);
const bay = (right: number) => ({ name: 'bay', rectangle: [0, 0.5, right, 1] as [number, number, number, number] });

describe('a settings change mid-stay keeps the tracks', () => {
	it('the issue’s car: a zone point moved at 08:40 under a 30-minute limit: one id, one arrival count, one overstay, a departure of 80 minutes', () => {
		const store: IDataObject = {};
		const before: WatchSettings = { zones: [bay(0.5)], stayLimitMinutes: 30 };
		const after: WatchSettings = { zones: [bay(0.55)], stayLimitMinutes: 30 };
		const alerts: Array<[number, number]> = [];
		const looks: Array<ReturnType<typeof lookAt>> = [];
		for (let minute = 0; minute <= 80; minute += 5) {
			const look = lookAt(store, 'bay camera', minute < 40 ? before : after, minute === 0 ? [PARKED] : [PARKED, OTHER], at(minute));
			for (const stay of look.tracking!.overstays) if (!stay.alreadyReported) alerts.push([stay.trackId, minute]);
			looks.push(look);
		}
		const [, second] = looks;
		const moved = looks[8];
		expect(second.tracking!.arrivals).toEqual([{ trackId: at(0) + 1, label: 'car', zones: [] }]);
		expect(moved.comparison).toMatchObject({ changed: false, reason: 'the threshold, labels, zones or sizes changed since the last look: this look is the new baseline' });
		expect(moved.detections.map((detection) => [detection.trackId, detection.seenForSeconds, detection.secondsInZones])).toEqual([
			[at(0), 2400, { bay: 2400 }],
			[at(0) + 1, 2100, {}],
		]);
		expect(moved.tracking).toMatchObject({ arrivals: [], departed: [], arrivalsByLabel: { car: 1 }, arrivalsSince: '2026-11-28T08:00:00.000Z' });
		// each car alerted once, when its stay passed 30 minutes: the second on the baseline look, as on any look
		expect(alerts).toEqual([
			[at(0), 35],
			[at(0) + 1, 40],
		]);
		const left = [85, 90].map((minute) => lookAt(store, 'bay camera', after, [OTHER], at(minute)));
		expect(left.map((look) => look.tracking!.departed)).toEqual([
			[],
			[{ trackId: at(0), label: 'car', zones: ['bay'], firstSeenAt: '2026-11-28T08:00:00.000Z', lastSeenAt: '2026-11-28T09:20:00.000Z', stayedSeconds: 4800 }],
		]);
	});

	it('an object that arrived before the baseline look and counts on it (Arrival After Looks 2) is reported at the next look', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { countAfterLooks: 2 };
		lookAt(store, 'gate', settings, [], at(0));
		expect(lookAt(store, 'gate', settings, [PARKED], at(1)).tracking!.arrivals).toEqual([]);
		const baseline = lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED], at(2));
		expect([baseline.comparison!.reason, baseline.tracking!.arrivals]).toEqual([expect.stringMatching(/new baseline/), []]);
		expect(lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED], at(3)).tracking).toMatchObject({ arrivals: [{ trackId: at(0) }], arrivalsByLabel: { car: 1 } });
	});

	it('a baseline look counts no miss: a track it does not see departs a look later, never on it', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { keepMissedLooks: 0 };
		lookAt(store, 'gate', settings, [], at(0));
		lookAt(store, 'gate', settings, [PARKED], at(1));
		const baseline = lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [], at(2));
		expect(baseline.tracking).toMatchObject({ departed: [], tracked: 1 });
		expect(lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [], at(3)).tracking!.departed).toEqual([
			{ trackId: at(0), label: 'car', zones: [], firstSeenAt: '2026-11-28T08:01:00.000Z', lastSeenAt: '2026-11-28T08:01:00.000Z', stayedSeconds: 0 },
		]);
	});

	it('a baseline look ends no track, also one missing longer than a Track Kept Through Missed Looks lowered with it', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', { keepMissedLooks: 2 }, [PARKED], at(0));
		lookAt(store, 'gate', { keepMissedLooks: 2 }, [], at(1));
		lookAt(store, 'gate', { keepMissedLooks: 2 }, [], at(2));
		const lowered: WatchSettings = { keepMissedLooks: 0, confidence: 0.4 };
		expect(lookAt(store, 'gate', lowered, [], at(3)).tracking).toMatchObject({ departed: [], tracked: 1 });
		expect(lookAt(store, 'gate', lowered, [], at(4)).tracking).toMatchObject({ departed: [{ trackId: at(0) }], tracked: 0 });
	});
});

describe('an object gone exactly on the look the settings changed', () => {
	it('the issue’s car: seen at 1 and 2, gone at 3 under another threshold: the comparison reports it gone at 4, tracking its departure at 5', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', {}, [PARKED], at(1));
		lookAt(store, 'gate', {}, [PARKED], at(2));
		const looks = [3, 4, 5].map((minute) => lookAt(store, 'gate', { confidence: 0.4 }, [], at(minute)));
		expect(looks.map((look) => [look.comparison!.disappeared, look.comparison!.changeByLabel, look.tracking!.departed.map((departure) => departure.trackId)])).toEqual([
			[[], {}, []],
			[['car'], { car: -1 }, []],
			[[], {}, [at(1)]],
		]);
	});

	it('one of two cars gone, and in its zone: the baseline keeps it counted, per label and per zone, for the comparison to report', () => {
		const store: IDataObject = {};
		const before: WatchSettings = { zones: [bay(0.5)], departureAfterLooks: 2 };
		const after: WatchSettings = { zones: [bay(0.45)], departureAfterLooks: 2 };
		lookAt(store, 'gate', before, [PARKED, OTHER], at(1));
		lookAt(store, 'gate', after, [OTHER], at(2));
		expect((store.looks as Record<string, { counts: unknown; zones: unknown }>).gate).toMatchObject({ counts: { car: 2 }, zones: { bay: { car: 1 } } });
		const held = lookAt(store, 'gate', after, [OTHER], at(3));
		expect(held.comparison!.heldBack).toEqual([
			{ label: 'car', zone: null, change: -1, kind: 'departure', heldBy: 'departureAfterLooks', lowerForLooks: 1 },
			{ label: 'car', zone: 'bay', change: -1, kind: 'departure', heldBy: 'departureAfterLooks', lowerForLooks: 1 },
		]);
		const reported = lookAt(store, 'gate', after, [OTHER], at(4));
		expect([reported.comparison!.changeByLabel, reported.comparison!.zones!.bay.disappeared, reported.tracking!.departed.map((departure) => departure.trackId)]).toEqual([{ car: -1 }, ['car'], [at(1)]]);
	});

	it('that look in the same millisecond as the look that saw the car (two items of one key): the comparison still reports it gone, as tracking its departure', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', {}, [PARKED], at(1));
		lookAt(store, 'gate', {}, [PARKED], at(2));
		lookAt(store, 'gate', { confidence: 0.4 }, [], at(2));
		const looks = [3, 4].map((minute) => lookAt(store, 'gate', { confidence: 0.4 }, [], at(minute)));
		expect(looks.map((look) => [look.comparison!.changeByLabel, look.tracking!.departed.length])).toEqual([
			[{ car: -1 }, 0],
			[{}, 1],
		]);
	});

	it('with tracking off on that look, in the same millisecond: the comparison still reports the car gone', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', {}, [PARKED], at(1));
		lookAt(store, 'gate', {}, [PARKED], at(2));
		lookAt(store, 'gate', { confidence: 0.4, tracking: false }, [], at(2));
		expect(lookAt(store, 'gate', { confidence: 0.4, tracking: false }, [], at(3)).comparison!.changeByLabel).toEqual({ car: -1 });
	});

	it('a car hidden on that look and seen again: neither reports anything', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', {}, [PARKED], at(1));
		lookAt(store, 'gate', { confidence: 0.4 }, [], at(2));
		const back = lookAt(store, 'gate', { confidence: 0.4 }, [PARKED], at(3));
		expect([back.comparison!.changed, back.comparison!.appeared, back.tracking!.arrivals]).toEqual([false, [], []]);
	});

	it('a track missing before that look is not counted again: its drop was the comparison’s to report under the old settings', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', {}, [PARKED], at(1));
		expect(lookAt(store, 'gate', {}, [], at(2)).comparison!.disappeared).toEqual(['car']);
		lookAt(store, 'gate', { confidence: 0.4 }, [], at(3));
		expect((store.looks as Record<string, { counts: unknown }>).gate.counts).toEqual({});
		expect(lookAt(store, 'gate', { confidence: 0.4 }, [], at(4)).comparison!.disappeared).toEqual([]);
	});
});

describe('tracks lost: a first look again, with ids the key never gave', () => {
	const settings: WatchSettings = { stayLimitMinutes: 30 };
	const tracked = (store: IDataObject) => {
		lookAt(store, 'gate', settings, [PARKED], at(0));
		return lookAt(store, 'gate', settings, [PARKED, OTHER], at(5));
	};

	it('the static data lost: the standing cars are no arrivals, their ids are new', () => {
		const first = tracked({});
		expect(first.detections.map((detection) => detection.trackId)).toEqual([at(0), at(0) + 1]);
		const lost = lookAt({}, 'gate', settings, [PARKED, OTHER], at(10));
		expect(lost.detections.map((detection) => detection.trackId)).toEqual([at(10), at(10) + 1]);
		expect(lost.tracking).toMatchObject({ arrivals: [], arrivalsByLabel: {}, arrivalsSince: '2026-11-28T08:10:00.000Z' });
		expect(lost.comparison!.reason).toMatch(/^first look/);
	});

	it('tracking turned off and on: the tracks go on with their ids, the standing cars are no arrivals, and the counts are compared', () => {
		const store: IDataObject = {};
		tracked(store);
		const off = lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED, OTHER], at(10));
		expect(off.tracking).toBeUndefined();
		expect(off.comparison!.reason).toBe('no change since the counts last reported');
		const on = lookAt(store, 'gate', settings, [PARKED, OTHER], at(15));
		expect(on.detections.map((detection) => [detection.trackId, detection.seenForSeconds])).toEqual([
			[at(0), 900],
			[at(0) + 1, 600],
		]);
		expect(on.tracking).toMatchObject({ arrivals: [], departed: [], arrivalsByLabel: { car: 1 } });
		expect(on.comparison!.reason).toBe('no change since the counts last reported');
		expect(on.warnings).toEqual([]);
	});

	it('a car gone on the look tracking is turned off, and one come on the look it is turned on again: the comparison reports each', () => {
		const store: IDataObject = {};
		tracked(store);
		expect(lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED], at(10)).comparison!.changeByLabel).toEqual({ car: -1 });
		expect(lookAt(store, 'gate', settings, [PARKED, THIRD], at(15)).comparison!.changeByLabel).toEqual({ car: 1 });
	});

	it('tracking turned on for a key compared without it: a baseline for tracking, even under the same settings', () => {
		const store: IDataObject = {};
		const counted = { counts: { car: 1 } };
		compareWithPreviousLook(store, { key: 'gate', cooldownMs: 0, cooldownScope: 'watchKey', departureAfterLooks: 1, settings: 'one' }, counted, at(0));
		let baseline: boolean | undefined;
		compareWithPreviousLook(store, { key: 'gate', cooldownMs: 0, cooldownScope: 'watchKey', departureAfterLooks: 1, settings: 'one' }, { ...counted, tracking: (previous, isBaseline) => {
			baseline = isBaseline;
			return { state: previous ?? newTrackingState(at(1)), seen: new Set() };
		} }, at(1));
		expect(baseline).toBe(true);
	});

	it('the key forgotten by the bound mid-stay: its next look is a first look, with new ids', () => {
		const store: IDataObject = {};
		tracked(store);
		// another key's look fills the static data's 100,000 characters
		lookAt(store, 'x'.repeat(10), { tracking: false }, Array.from({ length: 1 }, () => ({ label: 'y'.repeat(99_990), box: [0, 0, 0.1, 0.1] })), at(6));
		expect(Object.keys(store.looks as object)).toEqual(['xxxxxxxxxx']);
		const again = lookAt(store, 'gate', settings, [PARKED, OTHER], at(10));
		expect(again.comparison!.reason).toMatch(/^first look/);
		expect(again.detections.map((detection) => detection.trackId)).toEqual([at(10), at(10) + 1]);
		expect(again.tracking!.arrivals).toEqual([]);
	});
});

describe('a key’s first look', () => {
	it('tracks what stands there without calling it an arrival; its stay counts from that look: one overstay, a departure', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { stayLimitMinutes: 10, zones: [bay(0.5)] };
		const first = lookAt(store, 'gate', settings, [PARKED], at(0));
		expect(first.comparison).toMatchObject({ changed: false, reason: 'first look for this key: nothing to compare with yet' });
		expect(first.tracking).toMatchObject({ arrivals: [], arrivalsByLabel: {}, arrivalsByZone: {}, tracked: 1 });
		const arrival = lookAt(store, 'gate', settings, [PARKED, OTHER], at(5));
		expect(arrival.tracking).toMatchObject({ arrivals: [{ trackId: at(0) + 1 }], arrivalsByLabel: { car: 1 } });
		expect(arrival.comparison).toMatchObject({ changed: true, appeared: [], changeByLabel: { car: 1 } });
		const over = lookAt(store, 'gate', settings, [PARKED, OTHER], at(11));
		expect(over.tracking).toMatchObject({ newOverstayCount: 1, overstays: [{ trackId: at(0), stayedSeconds: 660, alreadyReported: false }] });
		expect(lookAt(store, 'gate', settings, [PARKED, OTHER], at(12)).tracking!.newOverstayCount).toBe(0);
		lookAt(store, 'gate', settings, [OTHER], at(13));
		expect(lookAt(store, 'gate', settings, [OTHER], at(14)).tracking!.departed).toMatchObject([{ trackId: at(0), stayedSeconds: 720 }]);
	});

	it('an object seen only on the first look still departs, as one seen once on any look does', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { keepMissedLooks: 0 };
		lookAt(store, 'gate', settings, [PARKED], at(0));
		expect(lookAt(store, 'gate', settings, [], at(1)).tracking!.departed).toMatchObject([{ trackId: at(0), stayedSeconds: 0 }]);
	});

	it('with Arrival After Looks 2, an object seen only on the first look is a false detection: dropped without a departure', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { keepMissedLooks: 0, countAfterLooks: 2 };
		lookAt(store, 'gate', settings, [PARKED], at(0));
		expect(lookAt(store, 'gate', settings, [], at(1)).tracking).toMatchObject({ departed: [], tracked: 0 });
	});
});

describe('a box that jitters across a zone’s edge', () => {
	// the anchor of a car at y 0.36 is at 0.51, in the bay; at y 0.34, at 0.49, just outside
	const inBay = car(0.1, 0.36);
	const outside = car(0.1, 0.34);
	const seconds = (store: IDataObject, settings: WatchSettings, object: SeenObject, minute: number) => lookAt(store, 'gate', settings, [object], at(minute)).detections[0].secondsInZones;

	it('out of the zone for one look of Track Kept Through Missed Looks 1: its time in the zone goes on (300, none, 420)', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(0.5)] };
		seconds(store, settings, inBay, 0);
		expect([seconds(store, settings, inBay, 5), seconds(store, settings, outside, 6), seconds(store, settings, inBay, 7)]).toEqual([{ bay: 300 }, {}, { bay: 420 }]);
	});

	it('out for two looks, or for one with Track Kept Through Missed Looks 0, it left the zone: its time starts again', () => {
		const twoLooks: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(0.5)] };
		seconds(twoLooks, settings, inBay, 0);
		seconds(twoLooks, settings, outside, 1);
		seconds(twoLooks, settings, outside, 2);
		expect(seconds(twoLooks, settings, inBay, 3)).toEqual({ bay: 0 });
		const none: IDataObject = {};
		const strict: WatchSettings = { ...settings, keepMissedLooks: 0 };
		seconds(none, strict, inBay, 0);
		seconds(none, strict, outside, 1);
		expect(seconds(none, strict, inBay, 2)).toEqual({ bay: 0 });
		const kept: IDataObject = {};
		const lenient: WatchSettings = { ...settings, keepMissedLooks: 2 };
		seconds(kept, lenient, inBay, 0);
		seconds(kept, lenient, outside, 1);
		seconds(kept, lenient, outside, 2);
		expect(seconds(kept, lenient, inBay, 3)).toEqual({ bay: 180 });
	});

	it('the zone’s stay limit counts the time kept: alerted once, at the look it is back past the limit', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(0.5)], zoneStayLimits: [['bay', 5]] };
		const newStays = [inBay, inBay, outside, inBay, inBay].map((object, index) => lookAt(store, 'gate', settings, [object], at([0, 4, 5, 6, 7][index])).tracking!.newOverstayCount);
		expect(newStays).toEqual([0, 0, 0, 1, 0]);
	});

	it('a car alerted in the bay that leaves it for longer and comes back: its second stay over the limit is alerted too', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(0.5)], zoneStayLimits: [['bay', 30]] };
		// tall boxes overlapping by a half: the anchor in the bay (y 0.55) or out of it (0.45)
		const inBay: SeenObject = { label: 'car', box: [0.1, 0.25, 0.2, 0.3] };
		const outOfBay: SeenObject = { label: 'car', box: [0.1, 0.15, 0.2, 0.3] };
		const minutes = Array.from({ length: 26 }, (_, index) => index * 5);
		const looks = minutes.map((minute) => lookAt(store, 'gate', settings, [minute >= 45 && minute <= 75 ? outOfBay : inBay], at(minute)));
		const alerts = looks.flatMap((look, index) => look.tracking!.overstays.filter((stay) => !stay.alreadyReported).map((stay) => [minutes[index], stay.trackId, stay.zone, stay.stayedSeconds]));
		expect(alerts).toEqual([
			[35, at(0), 'bay', 2100],
			[115, at(0), 'bay', 2100],
		]);
	});

	it('a departure whose last sighting was a tolerated look out of the zone names the zone (the issue’s car: in at 1, 5, 12, 13, out at 6 and 14)', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(1)] };
		const looks: Array<[number, SeenObject[]]> = [[1, [inBay]], [5, [inBay]], [6, [outside]], [7, []], [12, [inBay]], [13, [inBay]], [14, [outside]], [15, []], [16, []]];
		const departed = looks.map(([minute, objects]) => lookAt(store, 'gate', settings, objects, at(minute)).tracking!.departed);
		expect(departed.slice(0, 8).flat()).toEqual([]);
		expect(departed[8]).toEqual([{ trackId: at(1), label: 'car', zones: ['bay'], firstSeenAt: '2026-11-28T08:01:00.000Z', lastSeenAt: '2026-11-28T08:14:00.000Z', stayedSeconds: 780 }]);
	});

	it('a departure names the zones it was in and those left for a tolerated look, not one left for longer', () => {
		const store: IDataObject = {};
		// the bay holds the anchor at y 0.51 and 0.49; the strip only 0.51
		const settings: WatchSettings = { zones: [{ name: 'strip', rectangle: [0, 0.5, 1, 1] }, { name: 'lot', rectangle: [0, 0.45, 1, 1] }], keepMissedLooks: 1 };
		const looks: Array<[number, SeenObject[]]> = [[0, [inBay]], [1, [outside]], [2, []], [3, []]];
		const last = looks.map(([minute, objects]) => lookAt(store, 'gate', settings, objects, at(minute)).tracking!.departed).pop();
		expect(last).toMatchObject([{ zones: ['lot', 'strip'] }]);
		const longer: IDataObject = {};
		const twice: Array<[number, SeenObject[]]> = [[0, [inBay]], [1, [outside]], [2, [outside]], [3, []], [4, []]];
		expect(twice.map(([minute, objects]) => lookAt(longer, 'gate', settings, objects, at(minute)).tracking!.departed).pop()).toMatchObject([{ zones: ['lot'] }]);
	});

	it('a state with zones left and standing tracks is counted as long as its JSON', () => {
		const state = newTrackingState(T0);
		const settings = { ...lookSettings(), keepMissedLooks: 2 };
		trackObjects(state, [{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['bay', 'gate'] }], settings, T0, true);
		trackObjects(state, [{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: [] }], settings, T0 + MINUTE);
		expect(state.tracks[0]).toMatchObject({ baseline: true, zonesLeft: { bay: [T0, 1], gate: [T0, 1] } });
		expect(trackingStateJsonLength(state)).toBe(JSON.stringify(state).length);
		trackObjects(state, [{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['gate'] }], settings, T0 + 2 * MINUTE);
		expect(state.tracks[0]).toMatchObject({ zones: { gate: T0 }, zonesLeft: { bay: [T0, 2] } });
		trackObjects(state, [{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['gate'] }], settings, T0 + 3 * MINUTE);
		expect(state.tracks[0]).not.toHaveProperty('zonesLeft');
		expect(trackingStateJsonLength(state)).toBe(JSON.stringify(state).length);
	});
});

function lookSettings() {
	return { minOverlap: 0.3, keepMissedLooks: 1, countAfterLooks: 1, zoneStayLimitsMs: [], arrivalsPeriod: 'firstLook' as const, timeZone: 'UTC', zoned: true };
}

describe('the bound forgets a key mid-stay', () => {
	const settings: WatchSettings = { stayLimitMinutes: 30 };
	// a key whose one look takes the static data's 100,000 characters: every other key must go
	const fill = (store: IDataObject, minute: number) => lookAt(store, 'x'.repeat(10), { tracking: false }, [{ label: 'y'.repeat(99_990), box: [0, 0, 0.1, 0.1] }], at(minute));

	it('the issue’s car: its stay alerted at 35 and, flagged resumedAfterLoss, at 80; its departure flagged; the key’s next item says its tracks were forgotten', () => {
		const store: IDataObject = {};
		const alerts: Array<[number, number, boolean]> = [];
		const looks = new Map<number, ReturnType<typeof lookAt>>();
		const lookOfCar = (minute: number, objects: SeenObject[]) => {
			const look = lookAt(store, 'bay camera', settings, objects, at(minute));
			for (const stay of look.tracking!.overstays) if (!stay.alreadyReported) alerts.push([minute, stay.trackId, stay.resumedAfterLoss === true]);
			looks.set(minute, look);
		};
		for (let minute = 0; minute <= 40; minute += 5) lookOfCar(minute, [PARKED]);
		const filler = fill(store, 41);
		expect(filler.warnings).toEqual([]);
		for (let minute = 45; minute <= 90; minute += 5) lookOfCar(minute, [PARKED]);
		lookOfCar(95, []);
		lookOfCar(100, []);
		expect(alerts).toEqual([
			[35, at(0), false],
			[80, at(45), true],
		]);
		expect(looks.get(45)!.warnings).toEqual([
			'Track Objects Across Looks: the tracks of Watch Key "bay camera" (1 track) were forgotten at 2026-11-28T08:41:00.000Z to keep the workflow’s static data within 100,000 characters; they start afresh with this look: the stays of the objects standing now count from it and carry resumedAfterLoss',
		]);
		expect(looks.get(50)!.warnings).toEqual([]);
		expect(looks.get(45)!.tracking).toMatchObject({ arrivals: [], arrivalsSince: '2026-11-28T08:45:00.000Z' });
		expect(looks.get(95)!.tracking!.departed).toEqual([]);
		expect(looks.get(100)!.tracking!.departed).toEqual([
			{ trackId: at(45), label: 'car', zones: [], firstSeenAt: '2026-11-28T08:45:00.000Z', lastSeenAt: '2026-11-28T09:30:00.000Z', stayedSeconds: 2700, resumedAfterLoss: true },
		]);
	});

	it('tracks started while an object hidden at the loss may come back are flagged, later ones not; a key forgotten without tracks leaves no note', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(0));
		lookAt(store, 'yard', settings, [], at(0));
		fill(store, 1);
		// OTHER hidden on the look after the loss and the one after it (Track Kept Through Missed Looks 1): it may have stood there
		const again = lookAt(store, 'gate', settings, [PARKED], at(2));
		expect(again.warnings).toHaveLength(1);
		expect(lookAt(store, 'yard', settings, [], at(2)).warnings).toEqual([]);
		lookAt(store, 'gate', settings, [PARKED], at(3));
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(4));
		// a third car arrives on the next look: after the window
		lookAt(store, 'gate', settings, [PARKED, OTHER, THIRD], at(5));
		const over = lookAt(store, 'gate', settings, [PARKED, OTHER, THIRD], at(36));
		expect(over.tracking!.overstays.map((stay) => [stay.trackId, stay.resumedAfterLoss])).toEqual([
			[at(2), true],
			[at(2) + 1, true],
			[at(2) + 2, undefined],
		]);
		expect(over.tracking!.overstays[2]).not.toHaveProperty('resumedAfterLoss');
		expect((store.looks as Record<string, { tracking: object }>).gate.tracking).not.toHaveProperty('resumedLooks');
	});

	it('a settings change in the window does not shorten it: baseline looks are not counted', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(0));
		fill(store, 1);
		lookAt(store, 'gate', settings, [PARKED], at(2));
		lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED], at(3));
		lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED], at(4));
		lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED, OTHER], at(5));
		const over = lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED, OTHER], at(36));
		expect(over.tracking!.overstays.map((stay) => stay.resumedAfterLoss)).toEqual([true, true]);
	});

	it('forgets the keys without tracks before a key whose objects stand, each seen longest ago first', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', settings, [PARKED], at(0));
		for (let key = 1; key < 100; key++) lookAt(store, `camera ${key}`, settings, [], at(key));
		lookAt(store, 'new camera', settings, [], at(100));
		expect(Object.keys(store.looks as object)).toEqual(expect.arrayContaining(['gate', 'camera 2', 'new camera']));
		expect(store.looks).not.toHaveProperty(['camera 1']);
		// a key whose tracks are all gone is one without tracks
		lookAt(store, 'gate', { ...settings, keepMissedLooks: 0 }, [], at(101));
		lookAt(store, 'newer camera', settings, [], at(102));
		expect(store.looks).not.toHaveProperty(['camera 2']);
		lookAt(store, 'newest camera', settings, [], at(103));
		expect(store.looks).not.toHaveProperty(['camera 3']);
		expect(store.looks).toHaveProperty(['gate']);
	});
});

describe('the notes of keys forgotten with tracks', () => {
	const settings: WatchSettings = { stayLimitMinutes: 30 };
	const fill = (store: IDataObject, minute: number) => lookAt(store, 'x'.repeat(10), { tracking: false }, [{ label: 'y'.repeat(99_990), box: [0, 0, 0.1, 0.1] }], at(minute));
	const note = (tracks: string) =>
		`Track Objects Across Looks: the tracks of Watch Key "gate" (${tracks}) were forgotten at 2026-11-28T08:01:00.000Z to keep the workflow’s static data within 100,000 characters; they start afresh with this look: the stays of the objects standing now count from it and carry resumedAfterLoss`;

	it('says how many tracks; keeps ids above those given, also with the clock set back; is said once', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(0));
		fill(store, 1);
		expect(store.forgottenTracks).toEqual({ gate: { at: '2026-11-28T08:01:00.000Z', nextId: at(0) + 2, tracks: 2, order: 0 } });
		const back = lookAt(store, 'gate', settings, [PARKED], at(-10));
		expect([back.warnings, back.detections[0].trackId]).toEqual([[note('2 tracks')], at(0) + 2]);
		expect(store).not.toHaveProperty('forgottenTracks');
		const state = (store.looks as Record<string, { tracking: Parameters<typeof trackingStateJsonLength>[0] }>).gate.tracking;
		expect(trackingStateJsonLength(state)).toBe(JSON.stringify(state).length);
	});

	it('keeps the 20 latest: of 21 keys forgotten with tracks, the first forgotten has none', () => {
		const store: IDataObject = {};
		for (let key = 0; key <= 20; key++) lookAt(store, `camera ${key}`, settings, [PARKED], at(key));
		fill(store, 30);
		expect(Object.keys(store.forgottenTracks as object)).toEqual(Array.from({ length: 20 }, (_, key) => `camera ${key + 1}`));
		expect(lookAt(store, 'camera 0', settings, [PARKED], at(31)).warnings).toEqual([]);
		expect(lookAt(store, 'camera 1', settings, [PARKED], at(31)).warnings).toHaveLength(1);
		expect(Object.keys(store.forgottenTracks as object)).toHaveLength(19);
	});

	it('keeps the 20 written last also for integer-like keys: of "20" to "0", seen in that order and all forgotten, "20" has none', () => {
		const store: IDataObject = {};
		for (let key = 20; key >= 0; key--) lookAt(store, String(key), settings, [PARKED], at(20 - key));
		fill(store, 30);
		const notes = store.forgottenTracks as Record<string, { order: number }>;
		expect(Object.keys(notes)).toHaveLength(20);
		expect(notes).not.toHaveProperty('20');
		// the 21 notes are written "20" first: "0" the last, the 21st
		expect([notes['19'].order, notes['0'].order]).toEqual([1, 20]);
		expect(lookAt(store, '20', settings, [PARKED], at(31)).warnings).toEqual([]);
		expect(lookAt(store, '0', settings, [PARKED], at(31)).warnings).toHaveLength(1);
	});

	it('the car hidden on the look after the loss, the key forgotten again: its next look says so and its stay alerted at 64 is flagged', () => {
		const store: IDataObject = {};
		const alerts: Array<[number, number, boolean]> = [];
		const warnings = new Map<number, string[]>();
		for (let minute = 0; minute <= 70; minute++) {
			const look = lookAt(store, 'gate', settings, minute === 32 ? [] : [PARKED], at(minute));
			warnings.set(minute, look.warnings);
			for (const stay of look.tracking!.overstays) if (!stay.alreadyReported) alerts.push([minute, stay.trackId, stay.resumedAfterLoss === true]);
			if (minute === 31 || minute === 32) fill(store, minute + 0.5);
		}
		expect(alerts).toEqual([
			[31, at(0), false],
			[64, at(33), true],
		]);
		expect(warnings.get(32)).toEqual([expect.stringContaining('(1 track) were forgotten at 2026-11-28T08:31:30.000Z to keep')]);
		expect(warnings.get(33)).toEqual([
			'Track Objects Across Looks: the tracks of Watch Key "gate" (none standing, in the looks after an earlier loss) were forgotten at 2026-11-28T08:32:30.000Z to keep the workflow’s static data within 100,000 characters; they start afresh with this look: the stays of the objects standing now count from it and carry resumedAfterLoss',
		]);
	});

	it('the bound forgets a key without tracks before one whose looks after a loss still flag new tracks', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', settings, [PARKED], at(0));
		lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED], at(1));
		// tracking on again with the car hidden: no track, its next looks still flag new ones
		lookAt(store, 'gate', settings, [], at(2));
		for (let key = 1; key < 100; key++) lookAt(store, `camera ${key}`, settings, [], at(key + 2));
		lookAt(store, 'new camera', settings, [], at(102));
		expect(store.looks).toHaveProperty(['gate']);
		expect(store.looks).not.toHaveProperty(['camera 1']);
	});

	it.each([
		['not an object', 'notes'],
		['a note that is not an object', { gate: 'note' }],
		['a note without a time', { gate: { at: 'soon', nextId: at(0) + 1, tracks: 1, order: 0 } }],
		['a note whose next id is no integer', { gate: { at: '2026-11-28T08:01:00.000Z', nextId: '5', tracks: 1, order: 0 } }],
		['a note whose track count is no integer', { gate: { at: '2026-11-28T08:01:00.000Z', nextId: at(0) + 1, tracks: 1.5, order: 0 } }],
		['a note without an order', { gate: { at: '2026-11-28T08:01:00.000Z', nextId: at(0) + 1, tracks: 1 } }],
	])('a note that cannot be read (%s) is passed over: the look is a first look without a warning', (_case, notes) => {
		const store: IDataObject = { forgottenTracks: notes as never };
		const look = lookAt(store, 'gate', settings, [PARKED], at(2));
		expect([look.warnings, look.detections[0].trackId]).toEqual([[], at(2)]);
	});

	it('a readable note beside an unreadable one is said, with 1 track', () => {
		const store: IDataObject = { forgottenTracks: { gate: { at: '2026-11-28T08:01:00.000Z', nextId: at(0) + 1, tracks: 1, order: 0 }, yard: 5 } };
		expect(lookAt(store, 'gate', settings, [PARKED], at(2)).warnings).toEqual([note('1 track')]);
		expect(store).not.toHaveProperty('forgottenTracks');
	});
});

describe('the baseline keeps counted what tracking holds unseen, as far as last reported', () => {
	it('a car missing before the change whose drop was held by Departure After Looks 2 is reported gone after it', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { departureAfterLooks: 2, keepMissedLooks: 2 };
		lookAt(store, 'gate', settings, [PARKED], at(1));
		expect(lookAt(store, 'gate', settings, [], at(2)).comparison!.heldBack).toHaveLength(1);
		lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [], at(3));
		expect((store.looks as Record<string, { counts: unknown }>).gate.counts).toEqual({ car: 1 });
		const looks = [4, 5].map((minute) => lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [], at(minute)));
		// its drop lower for 1 look before the change, 2 at 4: reported; its track missed 1 look before, 3 at 5: departed
		expect(looks.map((look) => [look.comparison!.disappeared, look.tracking!.departed.length])).toEqual([
			[['car'], 0],
			[[], 1],
		]);
	});

	it('the looks a drop was held for go on counting through the change, as the track’s misses do: both report on the same look', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(1)], departureAfterLooks: 3, keepMissedLooks: 2 };
		lookAt(store, 'gate', settings, [PARKED], at(1));
		lookAt(store, 'gate', settings, [], at(2));
		lookAt(store, 'gate', settings, [], at(3));
		const changed = { ...settings, confidence: 0.4 };
		lookAt(store, 'gate', changed, [], at(4));
		expect((store.looks as Record<string, { lowerFor: unknown }>).gate.lowerFor).toEqual({ '[null,"car"]': 2, '["bay","car"]': 2 });
		const after = lookAt(store, 'gate', changed, [], at(5));
		expect([after.comparison!.disappeared, after.comparison!.zones!.bay.disappeared, after.tracking!.departed.length]).toEqual([['car'], ['car'], 1]);
	});

	it('a car the look sees is not held as well: of three reported, one gone and held back by Departure After Looks, one seen, one unseen, the baseline counts two', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { keepMissedLooks: 0, departureAfterLooks: 3 };
		lookAt(store, 'gate', settings, [PARKED, OTHER, THIRD], at(1));
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(2));
		expect((store.looks as Record<string, { counts: unknown }>).gate.counts).toEqual({ car: 3 });
		lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED], at(3));
		expect((store.looks as Record<string, { counts: unknown }>).gate.counts).toEqual({ car: 2 });
	});

	it('two cars held, one counted as last reported: the baseline counts one more, not two', () => {
		const store: IDataObject = {};
		const settings: WatchSettings = { zones: [bay(1)], keepMissedLooks: 2 };
		// two cars in the bay, then one reported gone while its track is held
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(1));
		lookAt(store, 'gate', settings, [PARKED], at(2));
		lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [], at(3));
		expect((store.looks as Record<string, { counts: unknown; zones: unknown }>).gate).toMatchObject({ counts: { car: 1 }, zones: { bay: { car: 1 } } });
	});
});

describe('tracking turned off while objects stand, and on again', () => {
	const settings: WatchSettings = { stayLimitMinutes: 30 };
	const newAlerts = (looks: Array<ReturnType<typeof lookAt>>, minutes: number[]) =>
		looks.flatMap((look, index) => (look.tracking?.overstays ?? []).filter((stay) => !stay.alreadyReported).map((stay) => [minutes[index], stay.trackId, stay.resumedAfterLoss === true]));

	it('the car alerted at 35, tracking off at 40 and on at 45: one alert, and its departure’s stay counts from 08:00', () => {
		const store: IDataObject = {};
		const minutes = Array.from({ length: 19 }, (_, index) => index * 5);
		const looks = minutes.map((minute) => lookAt(store, 'gate', { ...settings, tracking: minute !== 40 }, [PARKED], at(minute)));
		expect(newAlerts(looks, minutes)).toEqual([[35, at(0), false]]);
		expect(looks.flatMap((look) => look.warnings)).toEqual([]);
		const left = [95, 100].map((minute) => lookAt(store, 'gate', settings, [], at(minute)));
		expect(left[1].tracking!.departed).toEqual([
			{ trackId: at(0), label: 'car', zones: [], firstSeenAt: '2026-11-28T08:00:00.000Z', lastSeenAt: '2026-11-28T09:30:00.000Z', stayedSeconds: 5400 },
		]);
	});

	it('a key forgotten by the bound whose next look has tracking off says so at its next look with tracking on', () => {
		const store: IDataObject = {};
		lookAt(store, 'gate', settings, [PARKED, OTHER], at(0));
		lookAt(store, 'x'.repeat(10), { tracking: false }, [{ label: 'y'.repeat(99_990), box: [0, 0, 0.1, 0.1] }], at(1));
		expect(lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED], at(2)).warnings).toEqual([]);
		const on = lookAt(store, 'gate', settings, [PARKED], at(3));
		expect(on.warnings).toEqual([expect.stringContaining('(2 tracks) were forgotten at 2026-11-28T08:01:00.000Z to keep')]);
		expect(on.detections[0].trackId).toBe(at(3));
	});

	it('a car gone while tracking is off departs at the first look with tracking past Track Kept Through Missed Looks, its stay up to the last look that saw it', () => {
		const store: IDataObject = {};
		for (const minute of [0, 5, 10]) lookAt(store, 'gate', settings, [PARKED], at(minute));
		lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED], at(15));
		lookAt(store, 'gate', { ...settings, tracking: false }, [], at(20));
		expect(store).not.toHaveProperty('forgottenTracks');
		// Track Kept Through Missed Looks 1: missed at 20 (tracking off) and 25: departed at 25
		const departed = lookAt(store, 'gate', settings, [], at(25));
		expect(departed.tracking!.departed).toEqual([
			{ trackId: at(0), label: 'car', zones: [], firstSeenAt: '2026-11-28T08:00:00.000Z', lastSeenAt: '2026-11-28T08:15:00.000Z', stayedSeconds: 900 },
		]);
		expect(lookAt(store, 'gate', settings, [], at(30)).tracking!.departed).toEqual([]);
	});

	it('the alerted car leaves while tracking is off and another parks in its place: the first departs when tracking is on again, the other is a new track, alerted', () => {
		const store: IDataObject = {};
		const minutes = [0, 5, 10, 15, 20, 25, 30, 35];
		const before = minutes.map((minute) => lookAt(store, 'gate', settings, [PARKED], at(minute)));
		expect(newAlerts(before, minutes)).toEqual([[35, at(0), false]]);
		// seen at 40, missed at 600 and 605 (Track Kept Through Missed Looks 1): its track ends; another car at 1200
		for (const [minute, objects] of [[40, [PARKED]], [600, []], [605, []], [1200, [PARKED]]] as const) lookAt(store, 'gate', { ...settings, tracking: false }, [...objects], at(minute));
		const on = lookAt(store, 'gate', settings, [PARKED], at(1205));
		expect(on.warnings).toEqual([]);
		expect(on.tracking!.departed).toEqual([
			{ trackId: at(0), label: 'car', zones: [], firstSeenAt: '2026-11-28T08:00:00.000Z', lastSeenAt: '2026-11-28T08:40:00.000Z', stayedSeconds: 2400 },
		]);
		expect(on.tracking!.arrivals).toEqual([{ trackId: at(0) + 1, label: 'car', zones: [] }]);
		const later = [1235, 1240].map((minute) => lookAt(store, 'gate', settings, [PARKED], at(minute)));
		expect(newAlerts(later, [1235, 1240])).toEqual([[1240, at(0) + 1, false]]);
	});

	it('a car missed by one look while tracking is off keeps its track, as with tracking on; a look under other settings counts no miss', () => {
		const store: IDataObject = {};
		for (const minute of [0, 5]) lookAt(store, 'gate', settings, [PARKED], at(minute));
		lookAt(store, 'gate', { ...settings, tracking: false }, [], at(10));
		lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED], at(15));
		lookAt(store, 'gate', { ...settings, tracking: false }, [], at(20));
		// under another threshold: no miss, so the car missed at 20 and 30 keeps its track
		lookAt(store, 'gate', { ...settings, tracking: false, confidence: 0.4 }, [], at(25));
		lookAt(store, 'gate', { ...settings, tracking: false, confidence: 0.4 }, [PARKED], at(30));
		const on = lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED], at(35));
		expect([on.warnings, on.tracking!.departed, on.detections.map((detection) => [detection.trackId, detection.seenForSeconds])]).toEqual([[], [], [[at(0), 2100]]]);
	});

	it('a person replaced while tracking is off leaves the car’s track as it was', () => {
		const store: IDataObject = {};
		const PERSON: SeenObject = { label: 'person', box: [0.6, 0.6, 0.1, 0.3] };
		for (const minute of [0, 5]) lookAt(store, 'gate', settings, [PARKED, PERSON], at(minute));
		for (const [minute, objects] of [[10, [PARKED]], [15, [PARKED]], [20, [PARKED, PERSON]]] as const) lookAt(store, 'gate', { ...settings, tracking: false }, [...objects], at(minute));
		const on = lookAt(store, 'gate', settings, [PARKED, PERSON], at(25));
		expect(on.detections.map((detection) => [detection.label, detection.trackId, detection.seenForSeconds])).toEqual([
			['car', at(0), 1500],
			['person', at(0) + 2, 0],
		]);
		expect(on.tracking!.departed.map((departure) => departure.trackId)).toEqual([at(0) + 1]);
	});

	it('the threshold changed while tracking is off: the look with tracking on again is tracking’s baseline, a car seen now no arrival', () => {
		const store: IDataObject = {};
		for (const minute of [0, 5]) lookAt(store, 'gate', settings, [PARKED], at(minute));
		lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED], at(10));
		lookAt(store, 'gate', { ...settings, tracking: false, confidence: 0.4 }, [PARKED, OTHER], at(15));
		const on = lookAt(store, 'gate', { ...settings, confidence: 0.4 }, [PARKED, OTHER], at(20));
		expect(on.tracking).toMatchObject({ arrivals: [], departed: [] });
		expect(on.detections.map((detection) => detection.trackId)).toEqual([at(0), at(0) + 1]);
		expect(on.warnings).toEqual([]);
	});

	it('the bound forgets a key without tracks first, then one whose tracks tracking off set aside, before a key tracking now, whatever the order they were seen in', () => {
		const store: IDataObject = {};
		lookAt(store, 'tracking now', settings, [PARKED], at(0));
		lookAt(store, 'set aside', settings, [PARKED], at(1));
		lookAt(store, 'set aside', { ...settings, tracking: false }, [PARKED], at(2));
		lookAt(store, 'untracked', { ...settings, tracking: false }, [PARKED], at(3));
		// the three keys' looks take about 1,070 characters ("untracked" about 90, "set aside" about 520): the filler's
		// look makes them more than 100,000 by less than the untracked key's, then by more than it, less than both
		lookAt(store, 'x'.repeat(10), { tracking: false }, [{ label: 'y'.repeat(98_880), box: [0, 0, 0.1, 0.1] }], at(4));
		expect(Object.keys(store.looks as object)).toEqual(['tracking now', 'set aside', 'x'.repeat(10)]);
		lookAt(store, 'x'.repeat(10), { tracking: false }, [{ label: 'y'.repeat(99_200), box: [0, 0, 0.1, 0.1] }], at(5));
		expect(Object.keys(store.looks as object)).toEqual(['tracking now', 'x'.repeat(10)]);
		expect(Object.keys(store.forgottenTracks as object)).toEqual(['set aside']);
	});

	it('a track ended while tracking is off is kept for its departure: the bound forgets its key after keys without tracks, noting it', () => {
		const store: IDataObject = {};
		for (const minute of [0, 5]) lookAt(store, 'ended', settings, [PARKED], at(minute));
		for (const minute of [10, 15]) lookAt(store, 'ended', { ...settings, tracking: false }, [], at(minute));
		lookAt(store, 'untracked', { ...settings, tracking: false }, [PARKED], at(20));
		// "untracked" takes about 90 characters, "ended" about 530: the filler's look makes them more than 100,000 by more than both
		lookAt(store, 'x'.repeat(10), { tracking: false }, [{ label: 'y'.repeat(99_700), box: [0, 0, 0.1, 0.1] }], at(25));
		expect(Object.keys(store.looks as object)).toEqual(['x'.repeat(10)]);
		expect(store.forgottenTracks).toEqual({ ended: { at: '2026-11-28T08:25:00.000Z', nextId: at(0) + 1, tracks: 1, order: expect.any(Number) } });
	});

	it('settings changed and changed back while tracking is off: the look with tracking on again is tracking’s baseline', () => {
		const store: IDataObject = {};
		for (const minute of [0, 5]) lookAt(store, 'gate', settings, [PARKED], at(minute));
		lookAt(store, 'gate', { ...settings, tracking: false, confidence: 0.4 }, [PARKED, OTHER], at(10));
		lookAt(store, 'gate', { ...settings, tracking: false }, [PARKED, OTHER], at(15));
		const on = lookAt(store, 'gate', settings, [PARKED, OTHER], at(20));
		expect([on.comparison!.reason, on.tracking!.arrivals]).toEqual(['no change since the counts last reported', []]);
		expect(on.detections.map((detection) => detection.trackId)).toEqual([at(0), at(0) + 1]);
	});

	it('a car that leaves its zone while tracking is off, and comes back later, has its time in the zone from its return', () => {
		const store: IDataObject = {};
		const zoned: WatchSettings = { ...settings, zones: [bay(0.5)] };
		// a tall box whose bottom centre is in the bay (y 0.55), then out of it (y 0.45), overlapping itself by half
		const IN: SeenObject = { label: 'car', box: [0.1, 0.25, 0.2, 0.3] };
		const OUT: SeenObject = { label: 'car', box: [0.1, 0.15, 0.2, 0.3] };
		for (const minute of [0, 5]) lookAt(store, 'gate', zoned, [IN], at(minute));
		for (const [minute, objects] of [[10, [OUT]], [15, [OUT]], [20, [IN]]] as const) lookAt(store, 'gate', { ...zoned, tracking: false }, [...objects], at(minute));
		const on = lookAt(store, 'gate', zoned, [IN], at(25));
		expect(on.detections.map((detection) => [detection.trackId, detection.seenForSeconds, detection.secondsInZones])).toEqual([[at(0), 1500, { bay: 300 }]]);
	});

	it('Arrival After Looks 2: an object missed by a look with tracking off is seen anew, as with tracking on', () => {
		const store: IDataObject = {};
		const twice: WatchSettings = { ...settings, countAfterLooks: 2 };
		lookAt(store, 'gate', twice, [], at(0));
		lookAt(store, 'gate', twice, [PARKED], at(5));
		lookAt(store, 'gate', { ...twice, tracking: false }, [], at(10));
		expect(lookAt(store, 'gate', twice, [PARKED], at(15)).tracking!.arrivals).toEqual([]);
		expect(lookAt(store, 'gate', twice, [PARKED], at(20)).tracking!.arrivals).toEqual([{ trackId: at(0), label: 'car', zones: [] }]);
	});

	it('a car gone on a look with tracking off under another threshold: the comparison reports it gone as with tracking on', () => {
		const departures = (tracking: boolean) => {
			const store: IDataObject = {};
			for (const minute of [0, 5]) lookAt(store, 'gate', settings, [PARKED], at(minute));
			return [10, 15, 20].map((minute) => lookAt(store, 'gate', { ...settings, tracking: tracking || minute === 20, confidence: 0.4 }, [], at(minute)).comparison!.changeByLabel);
		};
		expect(departures(false)).toEqual(departures(true));
		expect(departures(false).filter((change) => change.car === -1)).toHaveLength(1);
	});

	it('Arrival After Looks 3: looks with tracking off that see a new track count towards its arrival, reported by the look on again', () => {
		const store: IDataObject = {};
		const thrice: WatchSettings = { ...settings, countAfterLooks: 3 };
		lookAt(store, 'gate', thrice, [], at(0));
		lookAt(store, 'gate', thrice, [PARKED], at(5));
		for (const minute of [10, 15]) lookAt(store, 'gate', { ...thrice, tracking: false }, [PARKED], at(minute));
		expect(lookAt(store, 'gate', thrice, [PARKED], at(20)).tracking!.arrivals).toEqual([{ trackId: at(0), label: 'car', zones: [] }]);
	});

	it('Track Min Overlap 0 is kept with the tracks: the next look compares', () => {
		const store: IDataObject = {};
		const anyOverlap: WatchSettings = { ...settings, minOverlap: 0 };
		lookAt(store, 'gate', anyOverlap, [PARKED], at(0));
		// as the next execution reads it: from the saved JSON
		const next = lookAt(JSON.parse(JSON.stringify(store)) as IDataObject, 'gate', anyOverlap, [PARKED, OTHER], at(5));
		expect([next.warnings, next.tracking!.arrivals.length]).toEqual([[], 1]);
	});

	it('off at 32, on at 33 with the car hidden, off at 34, on at 35: one alert, the car’s track held through', () => {
		const store: IDataObject = {};
		const minutes = Array.from({ length: 71 }, (_, minute) => minute);
		const looks = minutes.map((minute) => lookAt(store, 'gate', { ...settings, tracking: minute !== 32 && minute !== 34 }, minute === 33 ? [] : [PARKED], at(minute)));
		expect(newAlerts(looks, minutes)).toEqual([[31, at(0), false]]);
		expect(looks[70].detections.map((detection) => [detection.trackId, detection.seenForSeconds])).toEqual([[at(0), 4200]]);
		expect(looks.flatMap((look) => look.warnings)).toEqual([]);
	});

	// each look as a new execution: the static data through JSON
	const lookAfresh = (store: IDataObject, looker: typeof lookAt, ...args: Parameters<typeof lookAt> extends [unknown, ...infer Rest] ? Rest : never) => {
		const next = JSON.parse(JSON.stringify(store)) as IDataObject;
		return { store: next, look: looker(next, ...args) };
	};
	const events = (looks: Array<ReturnType<typeof lookAt>>, minutes: number[]) =>
		looks.flatMap((look, index) => [
			...look.tracking!.arrivals.map((arrival) => `${minutes[index]} arrival ${arrival.trackId - T0}`),
			...look.tracking!.departed.map((departure) => `${minutes[index]} departed ${departure.trackId - T0} ${departure.stayedSeconds}`),
		]);

	it('Arrival After Looks 2, counted on a look with tracking off, the car gone before tracking is on again: its arrival, then its departure', () => {
		const twice: WatchSettings = { countAfterLooks: 2 };
		let store: IDataObject = {};
		const minutes = [0, 5, 10, 15, 20, 25];
		const looks = minutes.map((minute) => {
			const next = lookAfresh(store, lookAt, 'gate', { ...twice, tracking: minute !== 10 }, minute === 5 || minute === 10 ? [PARKED] : [], at(minute));
			store = next.store;
			return next.look;
		});
		// with tracking on throughout: arrival at 10, departure at 20; tracking reports the arrival by the look on again
		expect(events(looks.filter((_look, index) => minutes[index] !== 10), minutes.filter((minute) => minute !== 10))).toEqual(['15 arrival 0', '20 departed 0 300']);
		expect(looks[3].tracking!.arrivalsByLabel).toEqual({ car: 1 });
	});

	it('Arrival After Looks 2: a car standing at the key’s first look, counted with tracking off, then gone, departs', () => {
		const twice: WatchSettings = { countAfterLooks: 2 };
		let store: IDataObject = {};
		const minutes = [0, 5, 10, 15];
		const looks = minutes.map((minute) => {
			const next = lookAfresh(store, lookAt, 'gate', { ...twice, tracking: minute !== 5 }, minute < 10 ? [PARKED] : [], at(minute));
			store = next.store;
			return next.look;
		});
		expect(events([looks[0], looks[2], looks[3]], [0, 10, 15])).toEqual(['15 departed 0 300']);
	});

	/** The arrivals and departures of the looks at `minutes`, each a new execution under its settings and objects. */
	const eventsOf = (plan: Array<[minute: number, settings: WatchSettings, objects: SeenObject[]]>) => {
		let store: IDataObject = {};
		const looks = plan.map(([minute, settings, objects]) => {
			const next = lookAfresh(store, lookAt, 'gate', settings, objects, at(minute));
			store = next.store;
			return next.look;
		});
		return events(looks.map((look) => (look.tracking ? look : { ...look, tracking: { arrivals: [], departed: [] } as never })), plan.map(([minute]) => minute));
	};

	it('an arrival counted while tracking is off under other settings waits past the look on again, tracking’s baseline, as a departure does', () => {
		const twice: WatchSettings = { countAfterLooks: 2 };
		const other: WatchSettings = { countAfterLooks: 2, confidence: 0.4 };
		expect(
			eventsOf([
				[0, twice, []],
				[5, twice, [PARKED]],
				[10, { ...other, tracking: false }, [PARKED]],
				[15, other, []],
				[20, other, []],
				[25, other, []],
			]),
		).toEqual(['20 arrival 0', '25 departed 0 300']);
	});

	it('Arrival After Looks 3: a car seen twice, once with tracking off, then gone, is a false detection: no arrival, no departure', () => {
		const thrice: WatchSettings = { countAfterLooks: 3 };
		expect(
			eventsOf([
				[0, thrice, []],
				[5, thrice, [PARKED]],
				[10, { ...thrice, tracking: false }, [PARKED]],
				[15, thrice, []],
				[20, thrice, []],
				[25, thrice, []],
			]),
		).toEqual([]);
	});

	it('a car that arrived with tracking on, seen by a look with tracking off, is not reported arrived again', () => {
		expect(
			eventsOf([
				[0, {}, []],
				[5, {}, [PARKED]],
				[10, { tracking: false }, [PARKED]],
				[15, {}, [PARKED]],
			]),
		).toEqual(['5 arrival 0']);
	});

	it('Arrival After Looks 2: a car seen once, then missed by looks with tracking off past Track Kept Through Missed Looks, ends without a departure', () => {
		const twice: WatchSettings = { countAfterLooks: 2 };
		let store: IDataObject = {};
		const plan: Array<[number, WatchSettings, SeenObject[]]> = [
			[0, twice, []],
			[5, twice, [PARKED]],
			[10, { ...twice, tracking: false }, []],
			[15, { ...twice, tracking: false }, []],
			[20, twice, []],
		];
		const looks = plan.map(([minute, settings, objects]) => {
			const next = lookAfresh(store, lookAt, 'gate', settings, objects, at(minute));
			store = next.store;
			return next.look;
		});
		expect([looks[4].tracking!.departed, looks.flatMap((look) => look.warnings)]).toEqual([[], []]);
	});

	it('looks of an image URL with tracking off leave the tracks as they are, also those that see nothing: a car the detector misses now and then keeps its track', () => {
		let store: IDataObject = {};
		for (const minute of [0, 5]) store = lookAfresh(store, lookAt, 'gate', {}, [PARKED], at(minute)).store;
		[[PARKED], [], [PARKED], [], [PARKED]].forEach((objects, index) => {
			store = lookAfresh(store, lookWithoutSize, 'gate', { tracking: false }, objects, at(10 + index * 5)).store;
		});
		const back = lookAfresh(store, lookAt, 'gate', {}, [PARKED], at(35)).look;
		expect([back.tracking!.arrivals, back.tracking!.departed, back.detections.map((detection) => [detection.trackId, detection.seenForSeconds])]).toEqual([[], [], [[at(0), 2100]]]);
	});

	it('a look with tracking off under other settings, after a tracked one that lowered Track Kept Through Missed Looks, ends no track: the comparison reports the car gone as tracking does', () => {
		const before: WatchSettings = { keepMissedLooks: 2, departureAfterLooks: 3 };
		const lowered: WatchSettings = { keepMissedLooks: 0, departureAfterLooks: 3, confidence: 0.4 };
		const other: WatchSettings = { keepMissedLooks: 0, departureAfterLooks: 3, confidence: 0.3 };
		const gone = (trackingAt5: boolean) => {
			let store: IDataObject = {};
			const plan: Array<[WatchSettings, SeenObject[]]> = [[before, [PARKED]], [before, [PARKED]], [before, []], [before, []], [lowered, []], [{ ...other, tracking: trackingAt5 }, []], [other, []], [other, []], [other, []]];
			return plan.flatMap(([settings, objects], minute) => {
				const next = lookAfresh(store, lookAt, 'gate', settings, objects, at(minute));
				store = next.store;
				return [...(next.look.comparison!.changeByLabel.car === -1 ? [`${minute} count car -1`] : []), ...(next.look.tracking?.departed ?? []).map(() => `${minute} departed`)];
			});
		};
		expect(gone(true)).toEqual(['6 count car -1', '6 departed']);
		// the look on again after a settings change while off is tracking's baseline: the departure comes a look later
		expect(gone(false)).toEqual(['6 count car -1', '7 departed']);
	});
});
