/**
 * The tracking state a look moves on: each execution's first look of a key reads the tracks as a
 * plain copy of the static data (n8n hands them over wrapped in ObservableObject's proxies), and
 * every look after moves that copy on. Its JSON length is counted field by field.
 */
import type { IDataObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { DEFAULT_COOLDOWN_SCOPE, compareWithPreviousLook } from '../../nodes/ImageInference/pipeline/comparison';
import type { TrackingState } from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, newTrackingState, trackObjects, trackingStateJsonLength } from '../../nodes/ImageInference/pipeline/tracking';

const T0 = Date.UTC(2026, 10, 28, 8);
const MINUTE = 60_000;

describe('The tracking state a look moves on', () => {
	const settings = { ...defaultTrackingSettings('Europe/Berlin', true), arrivalsPeriod: 'day' as const, stayLimitMs: MINUTE };
	const objects = [
		{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['bay'] },
		{ label: 'person', relativeBox: { x: 0.6, y: 0.4, width: 0.05, height: 0.2 } },
	];
	const watch: Watch = { key: 'gate', cooldownMs: 0, cooldownScope: DEFAULT_COOLDOWN_SCOPE, departureAfterLooks: 1 };
	/** One look of the key: the state tracking is handed, moved on by `objects`. */
	const look = (store: IDataObject, now: number, seen = objects): TrackingState | undefined => {
		let handed: TrackingState | undefined;
		compareWithPreviousLook(store, watch, { counts: {}, tracking: (previous) => {
			handed = previous;
			const state = previous ?? newTrackingState(now);
			return { state, seen: trackObjects(state, seen, settings, now).seen };
		} }, now);
		return handed;
	};

	it('a state read from the static data: a plain copy with every field, moved on from then on; what was loaded stays as it was', () => {
		const written: IDataObject = {};
		expect(look(written, T0)).toBeUndefined();
		look(written, T0 + 2 * MINUTE);
		const saved = JSON.stringify(written);
		// as n8n hands the node its static data in the next execution
		const store = ObservableObject.create(JSON.parse(saved) as IDataObject) as IDataObject & { looks: { gate: { tracking: TrackingState } } };
		const loaded = store.looks.gate.tracking;

		const copy = look(store, T0 + 3 * MINUTE, [objects[0]])!;
		expect(copy).not.toBe(loaded);
		expect(copy.tracks.map((track) => track.overstaysReported)).toEqual([[''], ['']]);
		expect(copy.arrivals.day).toBe('2026-11-28');
		// nothing of it is the loaded objects: structuredClone refuses a proxy
		expect(() => structuredClone(copy)).not.toThrow();
		expect(() => structuredClone(loaded)).toThrow();
		expect(look(store, T0 + 4 * MINUTE)).toBe(copy);
		expect(JSON.stringify(loaded)).toBe(JSON.stringify(JSON.parse(saved).looks.gate.tracking));
	});

	it('a state is counted field by field, as long as its JSON, look after look', () => {
		let seed = 5;
		const next = (below: number) => (seed = (seed * 48_271) % 2_147_483_647) % below;
		const zoned = { ...settings, zoneStayLimitsMs: [['bay', 2 * MINUTE]] as Array<[string, number]>, keepMissedLooks: 2 };
		const state = newTrackingState(T0);
		expect(trackingStateJsonLength(state)).toBe(JSON.stringify(state).length);
		const lengths: Array<[number, number, number]> = [];
		for (let look = 1; look <= 300; look++) {
			const objects = Array.from({ length: next(60) }, () => {
				const width = (1 + next(3000)) / 10_000;
				return {
					label: ['car', 'person', 'a "quoted" van', 'vélo'][next(4)],
					relativeBox: { x: next(9000) / 10_000, y: next(9000) / 10_000, width, height: next(4) === 0 ? 1 / 3 : width * 2 },
					...(next(2) ? { zones: next(2) ? ['bay'] : ['bay', 'gate'] } : {}),
				};
			});
			const parked = [0.1, 0.4, 0.7].map((x) => ({ label: 'car', relativeBox: { x, y: 0.8, width: 0.1234, height: 0.1 }, zones: ['bay'] }));
			trackObjects(state, [...parked, ...objects], zoned, T0 + look * 17_003);
			lengths.push([look, trackingStateJsonLength(state), JSON.stringify(state).length]);
		}
		expect(lengths.filter(([, counted, written]) => counted !== written)).toEqual([]);
		expect(state.tracks.some((track) => track.overstaysReported.length > 1)).toBe(true);
		expect(state.nextId - T0).toBeGreaterThan(1_000);
	});

	it('values it did not write are counted as JSON.stringify writes them', () => {
		const state = newTrackingState(T0);
		trackObjects(state, objects, settings, T0);
		trackObjects(state, objects, settings, T0 + 2 * MINUTE);
		const [car, person] = state.tracks;
		expect(car.overstaysReported).toEqual(['']);
		Object.assign(car.zones, { gate: '2026-11-28', yard: undefined, 'a "lane"': 5 });
		Object.assign(person.zones, { bay: 12.5 });
		person.overstaysReported = ['', null, undefined, 7] as unknown as string[];
		expect(trackingStateJsonLength(state)).toBe(JSON.stringify(state).length);
	});
});
