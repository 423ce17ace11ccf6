/**
 * What a look of tracking does, and does not do, for its result: the pairs a track and a detection
 * share with no other are matched without sorting; a day's date format is made once per time zone;
 * a zone's since times and seconds, and the overstays, are the same whatever the zone is called.
 */
import type { TrackedObject, TrackingSettings } from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, newTrackingState, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

const T0 = Date.parse('2026-11-28T08:00:00Z');
/** A key's tracks with ids counted from 1, as a key whose tracks were saved counting from 1 goes on. */
const countedFromOne = () => ({ ...newTrackingState(T0), nextId: 1 });
const MINUTE = 60_000;
const car = (x: number, y = 0.5, width = 0.1, zones?: string[]): TrackedObject => ({ label: 'car', relativeBox: { x, y, width, height: 0.1 }, ...(zones ? { zones } : {}) });

function sortedLists<T>(run: () => T): { result: T; sorted: number[] } {
	const sort = jest.spyOn(Array.prototype, 'sort');
	try {
		const result = run();
		return { result, sorted: sort.mock.contexts.map((list) => (list as unknown[]).length) };
	} finally {
		sort.mockRestore();
	}
}

describe('A look of tracking', () => {
	const settings = defaultTrackingSettings('UTC', false);

	it('matches the pairs a track and a detection share with no other without sorting them', () => {
		const state = countedFromOne();
		const row = [car(0.1), car(0.3), car(0.5), car(0.7)];
		trackObjects(state, row, settings, T0);
		const { result, sorted } = sortedLists(() => trackObjects(state, row.map((object) => car(object.relativeBox.x + 0.01)), settings, T0 + MINUTE));
		expect(result.detections.map((detection) => detection.trackId)).toEqual([1, 2, 3, 4]);
		expect(sorted).toEqual([0]);
	});

	it('sorts only the pairs that share a track or a detection with another pair', () => {
		const state = countedFromOne();
		trackObjects(state, [car(0.1, 0.5, 0.2), car(0.25, 0.5, 0.2), car(0.6, 0.5, 0.2)], settings, T0);
		// the first detection overlaps both first tracks, the second track both first detections; the third stands alone
		const { result, sorted } = sortedLists(() => trackObjects(state, [car(0.15, 0.5, 0.2), car(0.22, 0.5, 0.2), car(0.6, 0.5, 0.2)], settings, T0 + MINUTE));
		expect(result.detections.map((detection) => detection.trackId)).toEqual([1, 2, 3]);
		expect(sorted).toEqual([3]);
	});

	it('a track in two pairs whose detections are in one each continues with the one it overlaps most', () => {
		const state = countedFromOne();
		trackObjects(state, [car(0.1, 0.5, 0.2)], settings, T0);
		const { detections } = trackObjects(state, [car(0.17, 0.5, 0.2), car(0.05, 0.5, 0.2)], settings, T0 + MINUTE);
		expect(detections.map((detection) => detection.trackId)).toEqual([2, 1]);
	});

	it('a detection in two pairs whose tracks are in one each continues the track it overlaps most', () => {
		const state = countedFromOne();
		trackObjects(state, [car(0, 0.5, 0.2), car(0.15, 0.5, 0.2)], settings, T0);
		const { detections } = trackObjects(state, [car(0.1, 0.5, 0.2)], settings, T0 + MINUTE);
		expect(detections.map((detection) => detection.trackId)).toEqual([2]);
		expect(state.tracks.map((track) => [track.id, track.missedLooks])).toEqual([
			[1, 1],
			[2, 0],
		]);
	});

	it('makes a day’s date format once per time zone, look after look', () => {
		const perDay = (timeZone: string): TrackingSettings => ({ ...defaultTrackingSettings(timeZone, false), arrivalsPeriod: 'day' });
		const made = jest.spyOn(Intl, 'DateTimeFormat');
		try {
			const chatham = newTrackingState(T0);
			const kiritimati = newTrackingState(T0);
			for (let look = 0; look < 3; look++) {
				trackObjects(chatham, [car(0.1)], perDay('Pacific/Chatham'), T0 + look * 12 * 60 * MINUTE);
				trackObjects(kiritimati, [car(0.1)], perDay('Pacific/Kiritimati'), T0 + look * 12 * 60 * MINUTE);
			}
			expect(made.mock.calls.map(([, options]) => options?.timeZone)).toEqual(['Pacific/Chatham', 'Pacific/Kiritimati']);
			// 08:00 UTC is 21:45 in Chatham and 22:00 in Kiritimati: the third look, a day later, is in the next day of both,
			// where the car, arrived the day before, is no arrival
			expect([chatham.arrivals.day, kiritimati.arrivals.day]).toEqual(['2026-11-29', '2026-11-29']);
			expect([chatham.arrivals.byLabel, kiritimati.arrivals.byLabel]).toEqual([{}, {}]);
		} finally {
			made.mockRestore();
		}
	});

	it('a zone called "__proto__" keeps its since time, its seconds and its overstay like any other', () => {
		const zoned: TrackingSettings = { ...defaultTrackingSettings('UTC', true), zoneStayLimitsMs: [['__proto__', MINUTE]] };
		const state = countedFromOne();
		const inZones = () => car(0.1, 0.5, 0.1, ['__proto__', 'bay']);
		trackObjects(state, [inZones()], zoned, T0);
		const { detections, result } = trackObjects(state, [inZones()], zoned, T0 + 2 * MINUTE);
		expect(Object.keys(state.tracks[0].zones)).toEqual(['__proto__', 'bay']);
		expect(Object.getPrototypeOf(state.tracks[0].zones)).toBe(Object.prototype);
		expect(JSON.stringify(detections[0].secondsInZones)).toBe('{"__proto__":120,"bay":120}');
		expect(result.overstays.map((stay) => [stay.zone, stay.stayedSeconds, stay.alreadyReported])).toEqual([['__proto__', 120, false]]);
	});

	it('reports a stay in the image before the stays in zones, each zone in the order its limit is set', () => {
		const zoned: TrackingSettings = {
			...defaultTrackingSettings('UTC', true),
			stayLimitMs: MINUTE,
			zoneStayLimitsMs: [
				['gate', MINUTE],
				['bay', MINUTE],
				['yard', MINUTE],
			],
		};
		const state = countedFromOne();
		trackObjects(state, [car(0.1, 0.5, 0.1, ['bay', 'gate'])], zoned, T0);
		const { result } = trackObjects(state, [car(0.1, 0.5, 0.1, ['bay', 'gate'])], zoned, T0 + 2 * MINUTE);
		expect(result.overstays.map((stay) => stay.zone)).toEqual([null, 'gate', 'bay']);
		expect(state.tracks[0].overstaysReported).toEqual(['', 'gate', 'bay']);
	});
});
