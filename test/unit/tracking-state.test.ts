/**
 * Each execution's first look of a key moves on a copy of the tracks read from the static data (n8n
 * hands them over wrapped in ObservableObject's proxies); every look after moves on that copy.
 */
import type { IDataObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import type { TrackingState } from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, movedOnStateJsonLength, stateToMoveOn, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

const T0 = Date.UTC(2026, 10, 28, 8);
const MINUTE = 60_000;

describe('The tracking state a look moves on', () => {
	const settings = { ...defaultTrackingSettings('Europe/Berlin', true), arrivalsPeriod: 'day' as const, stayLimitMs: MINUTE };
	const objects = [
		{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['bay'] },
		{ label: 'person', relativeBox: { x: 0.6, y: 0.4, width: 0.05, height: 0.2 } },
	];

	it('a key’s first tracked look: a new state, moved on in place by the looks after', () => {
		const state = stateToMoveOn(undefined, T0);
		expect(state).toEqual({ nextId: 1, tracks: [], arrivals: { since: T0, byLabel: {}, byZone: {} } });
		trackObjects(state, objects, settings, T0);
		expect(stateToMoveOn(state, T0 + MINUTE)).toBe(state);
	});

	it('a state read from the static data: a copy with every field, no proxy, moved on from then on', () => {
		const made = stateToMoveOn(undefined, T0);
		trackObjects(made, objects, settings, T0);
		trackObjects(made, objects, settings, T0 + 2 * MINUTE);
		const saved = JSON.stringify(made);
		// as n8n loads the static data for the next execution
		const staticData = ObservableObject.create(JSON.parse(JSON.stringify({ looks: { gate: { tracking: made } } })) as IDataObject) as unknown as { looks: { gate: { tracking: TrackingState } } };
		const loaded = staticData.looks.gate.tracking;

		const copy = stateToMoveOn(loaded, T0 + 3 * MINUTE);
		expect(copy).not.toBe(loaded);
		expect(JSON.stringify(copy)).toBe(saved);
		expect(copy.tracks[0].overstaysReported).toEqual(['']);
		expect(copy.arrivals.day).toBe('2026-11-28');
		// nothing of it is the loaded objects: structuredClone refuses a proxy
		expect(() => structuredClone(copy)).not.toThrow();
		expect(() => structuredClone(loaded)).toThrow();
		expect(stateToMoveOn(copy, T0 + 4 * MINUTE)).toBe(copy);

		// moving the copy on leaves what was loaded as it was
		trackObjects(copy, [objects[0]], settings, T0 + 3 * MINUTE);
		expect(JSON.stringify(loaded)).toBe(saved);
	});

	it('a state counted since the first look has no day to copy', () => {
		const made = stateToMoveOn(undefined, T0);
		trackObjects(made, objects, defaultTrackingSettings('UTC', false), T0);
		const loaded = JSON.parse(JSON.stringify(made)) as TrackingState;
		expect(Object.keys(stateToMoveOn(loaded, T0).arrivals)).toEqual(['since', 'byLabel', 'byZone']);
	});

	it('a state of its own is counted field by field, as long as its JSON, look after look', () => {
		let seed = 5;
		const next = (below: number) => (seed = (seed * 48_271) % 2_147_483_647) % below;
		const zoned = { ...settings, zoneStayLimitsMs: [['bay', 2 * MINUTE]] as Array<[string, number]>, keepMissedLooks: 2 };
		const state = stateToMoveOn(undefined, T0);
		expect(movedOnStateJsonLength(state)).toBe(JSON.stringify(state).length);
		const lengths: Array<[number, number | undefined, number]> = [];
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
			lengths.push([look, movedOnStateJsonLength(state), JSON.stringify(state).length]);
		}
		expect(lengths.filter(([, counted, written]) => counted !== written)).toEqual([]);
		expect(state.tracks.some((track) => track.overstaysReported.length > 1)).toBe(true);
		expect(state.nextId).toBeGreaterThan(1_000);
	});

	it('a state it did not make or copy is not counted field by field', () => {
		const made = stateToMoveOn(undefined, T0);
		trackObjects(made, objects, settings, T0);
		expect(movedOnStateJsonLength(JSON.parse(JSON.stringify(made)) as TrackingState)).toBeUndefined();
	});
});
