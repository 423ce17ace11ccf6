import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_WATCH_KEY, MAX_WATCH_BYTES, MAX_WATCH_KEYS, MAX_WATCH_KEY_LENGTH, compareWithPreviousLook, fingerprint, readWatch } from '../../nodes/ImageInference/pipeline/comparison';
import { failureOf } from '../node/setup';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-01T08:00:00.000Z');

describe('Compare With Previous Look', () => {
	const watch = { key: 'gate', cooldownMs: 0 };

	it('takes a key’s first look as the baseline: nothing reported', () => {
		const store: IDataObject = {};
		const first = compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0);
		expect(first).toMatchObject({ key: 'gate', changed: false, appeared: [], disappeared: [], previousSeenAt: null, cooldownUntil: null });
		expect(first.reason).toMatch(/first look/);
	});

	it('reports labels that appeared, disappeared and changed, with the previous counts and when they were seen', () => {
		const store: IDataObject = {};
		compareWithPreviousLook(store, watch, { counts: { car: 1, person: 2 } }, T0);
		const next = compareWithPreviousLook(store, watch, { counts: { person: 3, dog: 1 } }, T0 + MINUTE);
		expect(next).toEqual({
			key: 'gate',
			changed: true,
			reason: 'changed since the last look',
			appeared: ['dog'],
			disappeared: ['car'],
			changeByLabel: { car: -1, person: 1, dog: 1 },
			previousCountsByLabel: { car: 1, person: 2 },
			previousSeenAt: '2026-05-01T08:00:00.000Z',
			cooldownUntil: null,
		});
		const same = compareWithPreviousLook(store, watch, { counts: { person: 3, dog: 1 } }, T0 + 2 * MINUTE);
		expect(same).toMatchObject({ changed: false, reason: 'no change since the last look', changeByLabel: {}, previousCountsByLabel: { person: 3, dog: 1 } });
	});

	it('compares per zone too: a car moving out of the zone is a change even when the label totals stay', () => {
		const store: IDataObject = {};
		compareWithPreviousLook(store, watch, { counts: { car: 1 }, zones: { driveway: { car: 1 } } }, T0);
		const moved = compareWithPreviousLook(store, watch, { counts: { car: 1 }, zones: { driveway: {} } }, T0 + MINUTE);
		expect(moved.changed).toBe(true);
		expect(moved.changeByLabel).toEqual({});
		expect(moved.zones).toEqual({ driveway: { appeared: [], disappeared: ['car'], changeByLabel: { car: -1 }, previousCountsByLabel: { car: 1 } } });
	});

	it('keeps each key apart', () => {
		const store: IDataObject = {};
		compareWithPreviousLook(store, { key: 'gate', cooldownMs: 0 }, { counts: {} }, T0);
		compareWithPreviousLook(store, { key: 'yard', cooldownMs: 0 }, { counts: { dog: 1 } }, T0);
		expect(compareWithPreviousLook(store, { key: 'gate', cooldownMs: 0 }, { counts: { car: 1 } }, T0 + MINUTE).appeared).toEqual(['car']);
		expect(compareWithPreviousLook(store, { key: 'yard', cooldownMs: 0 }, { counts: { dog: 1 } }, T0 + MINUTE).changed).toBe(false);
	});

	it('does not report a change within the cooldown of the last reported one, then reports again', () => {
		const store: IDataObject = {};
		const cooled = { key: 'gate', cooldownMs: 10 * MINUTE };
		compareWithPreviousLook(store, cooled, { counts: {} }, T0);
		const arrival = compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
		expect(arrival).toMatchObject({ changed: true, appeared: ['car'], cooldownUntil: '2026-05-01T08:11:00.000Z' });

		const gone = compareWithPreviousLook(store, cooled, { counts: {} }, T0 + 2 * MINUTE);
		expect(gone).toMatchObject({ changed: false, appeared: [], disappeared: [], changeByLabel: {}, cooldownUntil: '2026-05-01T08:11:00.000Z' });
		expect(gone.reason).toMatch(/within the cooldown after the change at 2026-05-01T08:01:00.000Z/);

		// the look within the cooldown is kept: this one compares with it (0 cars), not with the arrival
		const back = compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + 3 * MINUTE);
		expect(back).toMatchObject({ changed: false, previousCountsByLabel: {} });

		const afterCooldown = compareWithPreviousLook(store, cooled, { counts: { car: 2 } }, T0 + 11 * MINUTE);
		expect(afterCooldown).toMatchObject({ changed: true, changeByLabel: { car: 1 }, cooldownUntil: '2026-05-01T08:21:00.000Z' });
	});

	it('a cooldown ends at its last millisecond: a change then is reported, one a millisecond earlier is not', () => {
		const cooled = { key: 'gate', cooldownMs: 10 * MINUTE };
		const lookAt = (lastLook: number) => {
			const store: IDataObject = {};
			compareWithPreviousLook(store, cooled, { counts: {} }, T0);
			compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
			return compareWithPreviousLook(store, cooled, { counts: {} }, lastLook);
		};
		expect(lookAt(T0 + 11 * MINUTE - 1)).toMatchObject({ changed: false, cooldownUntil: '2026-05-01T08:11:00.000Z' });
		expect(lookAt(T0 + 11 * MINUTE)).toMatchObject({ changed: true, disappeared: ['car'], cooldownUntil: '2026-05-01T08:21:00.000Z' });
		// a look with no change at the cooldown's end: the cooldown is over, none is running
		const store: IDataObject = {};
		compareWithPreviousLook(store, cooled, { counts: {} }, T0);
		compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
		expect(compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + 11 * MINUTE)).toMatchObject({ changed: false, cooldownUntil: null });
	});

	it('without a cooldown every change is reported, and no cooldown is named', () => {
		const store: IDataObject = {};
		compareWithPreviousLook(store, watch, { counts: {} }, T0);
		expect(compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0)).toMatchObject({ changed: true, cooldownUntil: null });
		expect(compareWithPreviousLook(store, watch, { counts: {} }, T0)).toMatchObject({ changed: true, disappeared: ['car'], cooldownUntil: null });
	});

	it(`keeps at most ${MAX_WATCH_KEYS} keys, forgetting the one seen longest ago`, () => {
		const store: IDataObject = {};
		for (let camera = 0; camera < MAX_WATCH_KEYS; camera++) {
			compareWithPreviousLook(store, { key: `camera ${camera}`, cooldownMs: 0 }, { counts: {} }, T0 + camera * MINUTE);
		}
		// camera 0 looks again: now camera 1 is the one seen longest ago
		compareWithPreviousLook(store, { key: 'camera 0', cooldownMs: 0 }, { counts: {} }, T0 + MAX_WATCH_KEYS * MINUTE);
		compareWithPreviousLook(store, { key: 'new camera', cooldownMs: 0 }, { counts: {} }, T0 + (MAX_WATCH_KEYS + 1) * MINUTE);
		const keys = Object.keys(store.looks as object);
		expect(keys).toHaveLength(MAX_WATCH_KEYS);
		expect(keys).toContain('camera 0');
		expect(keys).toContain('new camera');
		expect(keys).not.toContain('camera 1');
		expect(keys).toContain('camera 2');
	});

	it(`keeps at most ${MAX_WATCH_BYTES} characters of looks: at 20 zones of 30 labels, the newest keys that fit`, () => {
		const store: IDataObject = {};
		const labels = Array.from({ length: 30 }, (_, index) => `label number ${index}`);
		const counts = Object.fromEntries(labels.map((label, index) => [label, index + 1]));
		const zones = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`zone number ${index}`, counts]));
		const settings = fingerprint({ every: 'option' });
		for (let camera = 0; camera < MAX_WATCH_KEYS; camera++) {
			compareWithPreviousLook(store, { key: `camera ${camera}`, cooldownMs: 0, settings }, { counts, zones }, T0 + camera * MINUTE);
			expect(JSON.stringify(store.looks).length).toBeLessThanOrEqual(MAX_WATCH_BYTES);
		}
		const keys = Object.keys(store.looks as object);
		const kept = JSON.stringify(store.looks).length;
		// the newest keys that fit: one more would not
		expect(kept + kept / keys.length).toBeGreaterThan(MAX_WATCH_BYTES);
		expect(keys).toEqual(Array.from({ length: keys.length }, (_, index) => `camera ${MAX_WATCH_KEYS - keys.length + index}`));
	});

	it('a single key larger than the bound is still kept: the look just taken is never forgotten', () => {
		const store: IDataObject = {};
		const counts = Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`a rather long label ${index}`, 1]));
		compareWithPreviousLook(store, { key: 'big', cooldownMs: 0 }, { counts: { car: 1 } }, T0);
		compareWithPreviousLook(store, { key: 'huge', cooldownMs: 0 }, { counts, zones: { a: counts } }, T0 + MINUTE);
		expect(Object.keys(store.looks as object)).toEqual(['huge']);
	});

	it('tells settings apart by a short fingerprint', () => {
		expect(fingerprint({ confidence: 0.5, zones: [] })).toMatch(/^[0-9a-f]{8}$/);
		expect(fingerprint({ confidence: 0.5, zones: [] })).toBe(fingerprint({ confidence: 0.5, zones: [] }));
		expect(fingerprint({ confidence: 0.5, zones: [] })).not.toBe(fingerprint({ confidence: 0.4, zones: [] }));
		expect(fingerprint({ a: 'é' })).not.toBe(fingerprint({ a: 'e' }));
	});

	it('keeps a copy of the counts: changing the output later does not change the kept look', () => {
		const store: IDataObject = {};
		const counts = { car: 1 };
		compareWithPreviousLook(store, watch, { counts }, T0);
		counts.car = 5;
		expect(compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0 + MINUTE).changed).toBe(false);
	});
});

describe('Compare With Previous Look: the options', () => {
	const node = { id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
	const context = { getNode: () => node } as unknown as IExecuteFunctions;
	const read = (options: IDataObject) => readWatch.call(context, 3, options);
	const failure = async (options: IDataObject) => await failureOf((async () => read(options))());

	it('off unless turned on; on, the key is "default" unless given, trimmed, and a number is a key too', () => {
		expect(read({})).toBeUndefined();
		expect(read({ compareWithPreviousLook: false, watchKey: 'gate' })).toBeUndefined();
		expect(read({ compareWithPreviousLook: true })).toEqual({ key: DEFAULT_WATCH_KEY, cooldownMs: 0 });
		expect(read({ compareWithPreviousLook: 'true', watchKey: '  gate ', cooldownMinutes: 2 })).toEqual({ key: 'gate', cooldownMs: 2 * MINUTE });
		expect(read({ compareWithPreviousLook: true, watchKey: 7 })).toEqual({ key: '7', cooldownMs: 0 });
	});

	it(`a key of ${MAX_WATCH_KEY_LENGTH} characters is kept; one more, an empty key or one that is not text fails its item, saying what to fix`, async () => {
		expect(read({ compareWithPreviousLook: true, watchKey: 'k'.repeat(MAX_WATCH_KEY_LENGTH) })?.key).toHaveLength(MAX_WATCH_KEY_LENGTH);
		const advice = expect.stringContaining('Give each watched place a short key');
		expect(await failure({ compareWithPreviousLook: true, watchKey: 'k'.repeat(MAX_WATCH_KEY_LENGTH + 1) })).toEqual({ message: `Watch Key is longer than ${MAX_WATCH_KEY_LENGTH} characters`, description: advice, itemIndex: 3 });
		expect(await failure({ compareWithPreviousLook: true, watchKey: ' ' })).toEqual({ message: 'Watch Key is empty', description: advice, itemIndex: 3 });
		for (const watchKey of [{ camera: 'gate' }, true, ['gate']]) {
			expect(await failure({ compareWithPreviousLook: true, watchKey })).toEqual({ message: 'Watch Key is empty', description: advice, itemIndex: 3 });
		}
	});

	it('names the option whose value is wrong: Compare With Previous Look not a yes/no, Cooldown (Minutes) past a week or below 0', async () => {
		expect(await failure({ compareWithPreviousLook: 'yes' })).toMatchObject({ message: 'Compare With Previous Look must be true or false, got "yes"', itemIndex: 3 });
		expect(read({ compareWithPreviousLook: true, cooldownMinutes: 10_080 })?.cooldownMs).toBe(10_080 * MINUTE);
		for (const cooldownMinutes of [10_081, -1]) {
			expect(await failure({ compareWithPreviousLook: true, cooldownMinutes })).toMatchObject({ message: expect.stringMatching(/^Cooldown \(Minutes\) must be a number from 0 to 10080/), itemIndex: 3 });
		}
	});
});

describe('Compare With Previous Look: what is kept', () => {
	it('zones set after the key’s last look: each zone compares with nothing, and its objects appear', () => {
		const store: IDataObject = {};
		const watch = { key: 'gate', cooldownMs: 0 };
		compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0);
		const withZones = compareWithPreviousLook(store, watch, { counts: { car: 1 }, zones: { driveway: { car: 1 } } }, T0 + MINUTE);
		expect(withZones).toMatchObject({ changed: true, changeByLabel: {}, zones: { driveway: { appeared: ['car'], changeByLabel: { car: 1 }, previousCountsByLabel: {} } } });
	});

	it('forgets the key seen longest ago even when it was written last', () => {
		const store: IDataObject = {};
		// the keys' order in the store is not the order they were seen in
		for (let camera = 1; camera < MAX_WATCH_KEYS; camera++) {
			compareWithPreviousLook(store, { key: `camera ${camera}`, cooldownMs: 0 }, { counts: {} }, T0 + camera * MINUTE);
		}
		compareWithPreviousLook(store, { key: 'camera 0', cooldownMs: 0 }, { counts: {} }, T0);
		compareWithPreviousLook(store, { key: 'new camera', cooldownMs: 0 }, { counts: {} }, T0 + MAX_WATCH_KEYS * MINUTE);
		const keys = Object.keys(store.looks as object);
		expect(keys).toHaveLength(MAX_WATCH_KEYS);
		expect(keys).not.toContain('camera 0');
		expect(keys).toContain('camera 1');
	});
});
