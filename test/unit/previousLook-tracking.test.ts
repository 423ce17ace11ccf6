/**
 * The static data's bound with tracked looks: a look whose tracks are counted field by field is
 * counted as long as its JSON, so a key is forgotten exactly when the looks would pass the bound,
 * whether the looks were written in this run or read from the static data (n8n's proxies).
 */
import type { IDataObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { DEFAULT_COOLDOWN_SCOPE, DEFAULT_DEPARTURE_AFTER_LOOKS, MAX_WATCH_BYTES, compareWithPreviousLook } from '../../nodes/ImageInference/pipeline/comparison';
import type { TrackedObject, TrackingState } from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, newTrackingState, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

const T0 = Date.parse('2026-11-28T08:00:00.000Z');
const MINUTE = 60_000;
const watchOf = (key: string): Watch => ({ key, cooldownMs: 0, cooldownScope: DEFAULT_COOLDOWN_SCOPE, departureAfterLooks: DEFAULT_DEPARTURE_AFTER_LOOKS });
const settings = { ...defaultTrackingSettings('UTC', true), stayLimitMs: 2 * MINUTE };

describe('Compare With Previous Look’s bound, with tracked looks', () => {
	it('a key is forgotten exactly when the looks would pass the bound, across runs that reload the static data', () => {
		let seed = 3;
		const next = (below: number) => (seed = (seed * 48_271) % 2_147_483_647) % below;
		const objectsOf = (count: number): TrackedObject[] =>
			Array.from({ length: count }, (_, index) => ({
				label: index % 3 ? 'car' : 'person',
				relativeBox: { x: (index % 10) / 10 + next(5) / 10_000, y: Math.floor(index / 10) / 10, width: 0.0812, height: 0.05 },
				...(index % 2 ? { zones: ['bay'] } : {}),
			}));
		let saved: IDataObject = {};
		let forgotten = 0;
		for (let run = 0; run < 8; run++) {
			// as n8n hands the node its static data in each execution
			const store = ObservableObject.create(JSON.parse(JSON.stringify(saved)) as IDataObject);
			for (let step = 0; step < 40; step++) {
				const key = `camera ${next(12)}`;
				const before = JSON.parse(JSON.stringify(store.looks ?? {})) as IDataObject;
				const now = T0 + (run * 40 + step) * MINUTE;
				const objects = objectsOf(next(4) === 0 ? 2 : 20 + next(60));
				compareWithPreviousLook(store, watchOf(key), { counts: { car: objects.length }, tracking: (previous?: TrackingState) => {
					const state = previous ?? newTrackingState(now);
					const { seen } = trackObjects(state, objects, settings, now);
					return { state, seen };
				} }, now);
				const looks = store.looks as IDataObject;
				const everyKey = { ...before, [key]: looks[key] };
				const passesBound = JSON.stringify(everyKey).length > MAX_WATCH_BYTES;
				expect([run, step, Object.keys(looks).length < Object.keys(everyKey).length]).toEqual([run, step, passesBound]);
				expect(JSON.stringify(looks).length).toBeLessThanOrEqual(MAX_WATCH_BYTES);
				if (passesBound) forgotten++;
			}
			saved = JSON.parse(JSON.stringify(store)) as IDataObject;
		}
		expect(forgotten).toBeGreaterThan(10);
	});

	it.each([
		[0, ['cam', 'pad']],
		[1, ['pad']],
	])('a tracked look counted to the character: %s over the bound, the keys kept are %j', (over, kept) => {
		const store: IDataObject = {};
		const objects: TrackedObject[] = Array.from({ length: 50 }, (_, index) => ({
			label: index % 2 ? 'car' : 'a "quoted" person',
			relativeBox: { x: (index % 10) / 10, y: Math.floor(index / 10) / 10, width: 0.0812, height: 1 / 3 },
			...(index % 3 ? { zones: ['bay'] } : {}),
		}));
		for (const [look, now] of [T0, T0 + 3 * MINUTE].entries()) {
			compareWithPreviousLook(store, watchOf('cam'), { counts: { car: 25 - look }, tracking: (previous?: TrackingState) => {
				const state = previous ?? newTrackingState(now);
				const { seen } = trackObjects(state, look ? objects.slice(1) : objects, settings, now);
				return { state, seen };
			} }, now);
		}
		const later = T0 + 4 * MINUTE;
		const withPad = (label: string) => JSON.stringify({ ...(store.looks as IDataObject), pad: { seenAt: new Date(later).toISOString(), counts: { [label]: 1 } } }).length;
		const label = 'x'.repeat(MAX_WATCH_BYTES - withPad('') + over);
		expect(withPad(label)).toBe(MAX_WATCH_BYTES + over);
		compareWithPreviousLook(store, watchOf('pad'), { counts: { [label]: 1 } }, later);
		expect(Object.keys(store.looks as IDataObject)).toEqual(kept);
	});
});
