import type { IDataObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { DEFAULT_COOLDOWN_SCOPE, DEFAULT_DEPARTURE_AFTER_LOOKS, DEFAULT_WATCH_KEY, MAX_WATCH_BYTES, MAX_WATCH_KEYS, MAX_WATCH_KEY_LENGTH, compareWithPreviousLook, fingerprint, readWatch, settingsFingerprint, settingsWithModel } from '../../nodes/ImageInference/pipeline/comparison';
import type { ZoneAndSizeOptions } from '../../nodes/ImageInference/pipeline/types';
import { failureOf, readerContext } from '../node/setup';

const MINUTE = 60_000;
/** A watch as readWatch gives it, with the defaults of the options not given. */
const watchOf = (watch: Pick<Watch, 'key' | 'cooldownMs'> & Partial<Watch>): Watch => ({ cooldownScope: DEFAULT_COOLDOWN_SCOPE, departureAfterLooks: DEFAULT_DEPARTURE_AFTER_LOOKS, ...watch });
const T0 = Date.parse('2026-05-01T08:00:00.000Z');

describe('Compare With Previous Look', () => {
	const watch = watchOf({ key: 'gate', cooldownMs: 0 });

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
			reason: 'changed since the counts last reported',
			appeared: ['dog'],
			disappeared: ['car'],
			changeByLabel: { car: -1, person: 1, dog: 1 },
			previousCountsByLabel: { car: 1, person: 2 },
			previousSeenAt: '2026-05-01T08:00:00.000Z',
			cooldownUntil: null,
			heldBack: [],
		});
		const same = compareWithPreviousLook(store, watch, { counts: { person: 3, dog: 1 } }, T0 + 2 * MINUTE);
		expect(same).toMatchObject({ changed: false, reason: 'no change since the counts last reported', changeByLabel: {}, previousCountsByLabel: { person: 3, dog: 1 } });
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
		compareWithPreviousLook(store, watchOf({ key: 'gate', cooldownMs: 0 }), { counts: {} }, T0);
		compareWithPreviousLook(store, watchOf({ key: 'yard', cooldownMs: 0 }), { counts: { dog: 1 } }, T0);
		expect(compareWithPreviousLook(store, watchOf({ key: 'gate', cooldownMs: 0 }), { counts: { car: 1 } }, T0 + MINUTE).appeared).toEqual(['car']);
		expect(compareWithPreviousLook(store, watchOf({ key: 'yard', cooldownMs: 0 }), { counts: { dog: 1 } }, T0 + MINUTE).changed).toBe(false);
	});

	it('holds back a change within the cooldown of its kind, compares with the counts as last reported, and reports what still holds when the cooldown ends', () => {
		const store: IDataObject = {};
		const cooled = watchOf({ key: 'gate', cooldownMs: 10 * MINUTE });
		compareWithPreviousLook(store, cooled, { counts: {} }, T0);
		const arrival = compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
		expect(arrival).toMatchObject({ changed: true, appeared: ['car'], cooldownUntil: '2026-05-01T08:11:00.000Z', heldBack: [] });

		const second = compareWithPreviousLook(store, cooled, { counts: { car: 2 } }, T0 + 2 * MINUTE);
		expect(second).toEqual({
			key: 'gate',
			changed: false,
			reason: 'changed since the counts last reported, not reported yet: within the arrivals’ cooldown until 2026-05-01T08:11:00.000Z',
			appeared: [],
			disappeared: [],
			changeByLabel: {},
			previousCountsByLabel: { car: 1 },
			previousSeenAt: '2026-05-01T08:01:00.000Z',
			cooldownUntil: '2026-05-01T08:11:00.000Z',
			heldBack: [{ label: 'car', zone: null, change: 1, kind: 'arrival', heldBy: 'cooldown', cooldownScope: 'watchKey', until: '2026-05-01T08:11:00.000Z' }],
		});
		// still compared with the one car reported, not with the two seen last
		expect(compareWithPreviousLook(store, cooled, { counts: { car: 2 } }, T0 + 5 * MINUTE)).toMatchObject({ changed: false, previousCountsByLabel: { car: 1 }, heldBack: [{ change: 1 }] });

		const afterCooldown = compareWithPreviousLook(store, cooled, { counts: { car: 2 } }, T0 + 11 * MINUTE);
		expect(afterCooldown).toMatchObject({ changed: true, appeared: [], changeByLabel: { car: 1 }, previousCountsByLabel: { car: 1 }, cooldownUntil: '2026-05-01T08:21:00.000Z', heldBack: [] });
	});

	it('a change held back that no longer holds is never reported: the second car seen once within the cooldown', () => {
		const store: IDataObject = {};
		const cooled = watchOf({ key: 'gate', cooldownMs: 10 * MINUTE });
		compareWithPreviousLook(store, cooled, { counts: {} }, T0);
		compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
		expect(compareWithPreviousLook(store, cooled, { counts: { car: 2 } }, T0 + 2 * MINUTE).heldBack).toHaveLength(1);
		const gone = compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + 3 * MINUTE);
		expect(gone).toMatchObject({ changed: false, reason: 'no change since the counts last reported', heldBack: [] });
		expect(compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + 12 * MINUTE)).toMatchObject({ changed: false, heldBack: [], cooldownUntil: null });
	});

	it('an arrival does not wait for a departure’s cooldown: the car leaves, another arrives 4 minutes later, both are reported', () => {
		const store: IDataObject = {};
		const cooled = watchOf({ key: 'gate', cooldownMs: 10 * MINUTE });
		compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0);
		expect(compareWithPreviousLook(store, cooled, { counts: {} }, T0 + MINUTE)).toMatchObject({ changed: true, disappeared: ['car'], cooldownUntil: '2026-05-01T08:11:00.000Z' });
		const arrival = compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + 5 * MINUTE);
		// the latest of the running cooldowns: the arrivals’
		expect(arrival).toMatchObject({ changed: true, appeared: ['car'], previousCountsByLabel: {}, cooldownUntil: '2026-05-01T08:15:00.000Z', heldBack: [] });
		const leavesAgain = compareWithPreviousLook(store, cooled, { counts: { dog: 1 } }, T0 + 6 * MINUTE);
		expect(leavesAgain).toMatchObject({
			changed: false,
			disappeared: [],
			heldBack: [
				{ label: 'car', kind: 'departure', until: '2026-05-01T08:11:00.000Z' },
				{ label: 'dog', kind: 'arrival', until: '2026-05-01T08:15:00.000Z' },
			],
		});
		expect(leavesAgain.reason).toBe(
			'changed since the counts last reported, not reported yet: within the departures’ cooldown until 2026-05-01T08:11:00.000Z; within the arrivals’ cooldown until 2026-05-01T08:15:00.000Z',
		);
		expect(compareWithPreviousLook(store, cooled, { counts: {} }, T0 + 11 * MINUTE)).toMatchObject({ changed: true, disappeared: ['car'], cooldownUntil: '2026-05-01T08:21:00.000Z' });
	});

	it('a cooldown ends at its last millisecond: a change then is reported, one a millisecond earlier is not', () => {
		const cooled = watchOf({ key: 'gate', cooldownMs: 10 * MINUTE });
		const lookAt = (lastLook: number) => {
			const store: IDataObject = {};
			compareWithPreviousLook(store, cooled, { counts: {} }, T0);
			compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
			return compareWithPreviousLook(store, cooled, { counts: { car: 2 } }, lastLook);
		};
		expect(lookAt(T0 + 11 * MINUTE - 1)).toMatchObject({ changed: false, cooldownUntil: '2026-05-01T08:11:00.000Z' });
		expect(lookAt(T0 + 11 * MINUTE)).toMatchObject({ changed: true, changeByLabel: { car: 1 }, cooldownUntil: '2026-05-01T08:21:00.000Z' });
		// a look with no change at the cooldown's end: the cooldown is over, none is running, none is kept
		const store: IDataObject = {};
		compareWithPreviousLook(store, cooled, { counts: {} }, T0);
		compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + MINUTE);
		expect(store.looks).toMatchObject({ gate: { cooldowns: { '["arrival"]': '2026-05-01T08:01:00.000Z' } } });
		expect(compareWithPreviousLook(store, cooled, { counts: { car: 1 } }, T0 + 11 * MINUTE)).toMatchObject({ changed: false, cooldownUntil: null });
		expect(store.looks).toEqual({ gate: { seenAt: '2026-05-01T08:11:00.000Z', counts: { car: 1 } } });
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
			compareWithPreviousLook(store, watchOf({ key: `camera ${camera}`, cooldownMs: 0 }), { counts: {} }, T0 + camera * MINUTE);
		}
		// camera 0 looks again: now camera 1 is the one seen longest ago
		compareWithPreviousLook(store, watchOf({ key: 'camera 0', cooldownMs: 0 }), { counts: {} }, T0 + MAX_WATCH_KEYS * MINUTE);
		compareWithPreviousLook(store, watchOf({ key: 'new camera', cooldownMs: 0 }), { counts: {} }, T0 + (MAX_WATCH_KEYS + 1) * MINUTE);
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
			compareWithPreviousLook(store, watchOf({ key: `camera ${camera}`, cooldownMs: 0, settings }), { counts, zones }, T0 + camera * MINUTE);
			expect(JSON.stringify(store.looks).length).toBeLessThanOrEqual(MAX_WATCH_BYTES);
		}
		const keys = Object.keys(store.looks as object);
		const kept = JSON.stringify(store.looks).length;
		// the newest keys that fit: one more would not
		expect(kept + kept / keys.length).toBeGreaterThan(MAX_WATCH_BYTES);
		expect(keys).toEqual(Array.from({ length: keys.length }, (_, index) => `camera ${MAX_WATCH_KEYS - keys.length + index}`));
	});

	it('a key is forgotten exactly when the looks would pass the bound, as looks grow, shrink and are changed by hand', () => {
		const store: IDataObject = {};
		const countsOf = (labels: number) => Object.fromEntries(Array.from({ length: labels }, (_, index) => [`label number ${index}`, index + 1]));
		let seed = 7;
		const next = (below: number) => (seed = (seed * 48_271) % 2_147_483_647) % below;
		let forgotten = 0;
		for (let step = 0; step < 400; step++) {
			if (step === 200) delete (store.looks as IDataObject)[Object.keys(store.looks as object)[0]];
			const key = `camera ${next(24)}`;
			const before = JSON.parse(JSON.stringify(store.looks ?? {})) as IDataObject;
			const labels = next(3) === 0 ? 5 : 150 + next(400);
			compareWithPreviousLook(store, watchOf({ key, cooldownMs: 0 }), { counts: countsOf(labels) }, T0 + step * MINUTE);
			const looks = store.looks as IDataObject;
			const everyKey = { ...before, [key]: looks[key] };
			const passesBound = JSON.stringify(everyKey).length > MAX_WATCH_BYTES;
			expect([step, Object.keys(looks).length < Object.keys(everyKey).length]).toEqual([step, passesBound]);
			expect(JSON.stringify(looks).length).toBeLessThanOrEqual(MAX_WATCH_BYTES);
			// and no more than needed: the last seen of the keys forgotten would not have fit
			const lastForgotten = Object.keys(everyKey)
				.filter((name) => !(name in looks))
				.sort((a, b) => Date.parse((everyKey[b] as IDataObject).seenAt as string) - Date.parse((everyKey[a] as IDataObject).seenAt as string))[0];
			if (lastForgotten) expect(JSON.stringify({ ...looks, [lastForgotten]: everyKey[lastForgotten] }).length).toBeGreaterThan(MAX_WATCH_BYTES);
			if (passesBound) forgotten++;
		}
		expect(forgotten).toBeGreaterThan(20);
	});

	it('a single key larger than the bound is still kept: the look just taken is never forgotten', () => {
		const store: IDataObject = {};
		const counts = Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`a rather long label ${index}`, 1]));
		compareWithPreviousLook(store, watchOf({ key: 'big', cooldownMs: 0 }), { counts: { car: 1 } }, T0);
		compareWithPreviousLook(store, watchOf({ key: 'huge', cooldownMs: 0 }), { counts, zones: { a: counts } }, T0 + MINUTE);
		expect(Object.keys(store.looks as object)).toEqual(['huge']);
	});

	it('fingerprints the settings of a look: the threshold and the steps’ options, once per options object and threshold', () => {
		const zonesAndSizes: ZoneAndSizeOptions = { zones: [], units: 'relative', anchor: 'center', onlyInZones: false };
		const options = { zonesAndSizes };
		expect(settingsFingerprint(0.5, options)).toBe(fingerprint({ confidence: 0.5, zonesAndSizes }));
		expect(settingsFingerprint(null, options)).toBe(fingerprint({ confidence: null, zonesAndSizes }));
		expect(settingsFingerprint(0.4, options)).not.toBe(settingsFingerprint(0.5, options));
		expect(settingsFingerprint(0.5, { zonesAndSizes: { ...zonesAndSizes, onlyInZones: true } })).not.toBe(settingsFingerprint(0.5, options));
		expect(settingsFingerprint(0.5, { ...options })).toBe(settingsFingerprint(0.5, options));
	});

	it('leaves Track Objects Across Looks out of the fingerprint: turning it on or off starts no new baseline', () => {
		const zonesAndSizes: ZoneAndSizeOptions = { zones: [], units: 'relative', anchor: 'center', onlyInZones: false };
		expect(settingsFingerprint(0.5, { zonesAndSizes: { ...zonesAndSizes, tracked: true } })).toBe(settingsFingerprint(0.5, { zonesAndSizes }));
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

describe('Compare With Previous Look in n8n’s static data', () => {
	// as n8n-workflow's Workflow builds it: the workflow's static data, and a node's inside it with the workflow's as parent
	const workflowStaticData = (saved: IDataObject = {}) => {
		const root = ObservableObject.create(saved, undefined, { ignoreEmptyOnFirstChild: true }) as IDataObject & { __dataChanged?: boolean };
		if (root['node:Watch'] === undefined) root['node:Watch'] = ObservableObject.create({}, root as never);
		return { root, node: root['node:Watch'] as IDataObject };
	};
	const watch = watchOf({ key: 'gate', cooldownMs: 0 });

	it('marks the workflow’s static data changed at every look, also when n8n keeps the same objects for the next execution', () => {
		const { root, node } = workflowStaticData();
		compareWithPreviousLook(node, watch, { counts: { car: 1 } }, T0);
		expect(root.__dataChanged).toBe(true);
		for (let execution = 1; execution <= 3; execution++) {
			// what n8n's WorkflowStaticDataService.saveStaticData does once it has saved them
			root.__dataChanged = false;
			const next = compareWithPreviousLook(node, watch, { counts: { car: execution % 2 === 0 ? 1 : 2 } }, T0 + execution * MINUTE);
			expect([execution, next.changed, root.__dataChanged]).toEqual([execution, true, true]);
		}
	});

	it('compares with the looks saved and read back, and saves the next look', () => {
		const first = workflowStaticData();
		compareWithPreviousLook(first.node, watch, { counts: { car: 1 }, zones: { drive: { car: 1 } } }, T0);
		const saved = JSON.parse(JSON.stringify(first.root)) as IDataObject;
		const second = workflowStaticData(saved);
		const next = compareWithPreviousLook(second.node, watch, { counts: { car: 2 }, zones: { drive: { car: 2 } } }, T0 + MINUTE);
		expect(next).toMatchObject({ changed: true, changeByLabel: { car: 1 }, zones: { drive: { changeByLabel: { car: 1 } } } });
		expect(second.root.__dataChanged).toBe(true);
		const savedAgain = JSON.parse(JSON.stringify(second.root)) as { 'node:Watch': { looks: IDataObject } };
		expect(savedAgain['node:Watch'].looks.gate).toMatchObject({ counts: { car: 2 }, zones: { drive: { car: 2 } } });
	});
});

describe('Compare With Previous Look: the options', () => {
	const context = readerContext();
	const read = (options: IDataObject) => readWatch.call(context, 3, options);
	const failure = async (options: IDataObject) => await failureOf((async () => read(options))());

	it('off unless turned on; on, the key is "default" unless given, trimmed, and a number is a key too', () => {
		expect(read({})).toBeUndefined();
		// an item whose Compare an expression made false: the options n8n kept beside it apply to nothing
		expect(read({ compareWithPreviousLook: false, watchKey: 'gate', cooldownMinutes: 5, cooldownScope: 'label', departureAfterLooks: 2 })).toBeUndefined();
		expect(read({ compareWithPreviousLook: true })).toEqual(watchOf({ key: DEFAULT_WATCH_KEY, cooldownMs: 0 }));
		expect(read({ compareWithPreviousLook: 'true', watchKey: '  gate ', cooldownMinutes: 2 })).toEqual(watchOf({ key: 'gate', cooldownMs: 2 * MINUTE }));
		expect(read({ compareWithPreviousLook: true, watchKey: 7 })).toEqual(watchOf({ key: '7', cooldownMs: 0 }));
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
		const watch = watchOf({ key: 'gate', cooldownMs: 0 });
		compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0);
		const withZones = compareWithPreviousLook(store, watch, { counts: { car: 1 }, zones: { driveway: { car: 1 } } }, T0 + MINUTE);
		expect(withZones).toMatchObject({ changed: true, changeByLabel: {}, zones: { driveway: { appeared: ['car'], changeByLabel: { car: 1 }, previousCountsByLabel: {} } } });
	});

	it('forgets the key seen longest ago even when it was written last', () => {
		const store: IDataObject = {};
		// the keys' order in the store is not the order they were seen in
		for (let camera = 1; camera < MAX_WATCH_KEYS; camera++) {
			compareWithPreviousLook(store, watchOf({ key: `camera ${camera}`, cooldownMs: 0 }), { counts: {} }, T0 + camera * MINUTE);
		}
		compareWithPreviousLook(store, watchOf({ key: 'camera 0', cooldownMs: 0 }), { counts: {} }, T0);
		compareWithPreviousLook(store, watchOf({ key: 'new camera', cooldownMs: 0 }), { counts: {} }, T0 + MAX_WATCH_KEYS * MINUTE);
		const keys = Object.keys(store.looks as object);
		expect(keys).toHaveLength(MAX_WATCH_KEYS);
		expect(keys).not.toContain('camera 0');
		expect(keys).toContain('camera 1');
	});
});

describe('Compare With Previous Look: Departure After Looks', () => {
	const twoLooks = watchOf({ key: 'gate', cooldownMs: 0, departureAfterLooks: 2 });

	it('a detector that misses the car for one look reports nothing; gone for two looks in a row, it is reported', () => {
		const store: IDataObject = {};
		compareWithPreviousLook(store, twoLooks, { counts: { car: 1 } }, T0);
		const missed = compareWithPreviousLook(store, twoLooks, { counts: {} }, T0 + MINUTE);
		expect(missed).toMatchObject({
			changed: false,
			disappeared: [],
			reason: 'changed since the counts last reported, not reported yet: lower for 1 look(s) of the Departure After Looks',
			heldBack: [{ label: 'car', zone: null, change: -1, kind: 'departure', heldBy: 'departureAfterLooks', lowerForLooks: 1 }],
		});
		expect(compareWithPreviousLook(store, twoLooks, { counts: { car: 1 } }, T0 + 2 * MINUTE)).toMatchObject({ changed: false, heldBack: [] });
		// the looks must be in a row: the miss above does not count any more
		expect(compareWithPreviousLook(store, twoLooks, { counts: {} }, T0 + 3 * MINUTE)).toMatchObject({ changed: false, heldBack: [{ lowerForLooks: 1 }] });
		expect(compareWithPreviousLook(store, twoLooks, { counts: {} }, T0 + 4 * MINUTE)).toMatchObject({ changed: true, disappeared: ['car'], changeByLabel: { car: -1 }, heldBack: [] });
		expect(compareWithPreviousLook(store, twoLooks, { counts: {} }, T0 + 5 * MINUTE)).toMatchObject({ changed: false, reason: 'no change since the counts last reported' });
	});

	it('an arrival is reported at once; a drop over two looks (2, 1, 0) is reported as one, from the counts last reported', () => {
		const store: IDataObject = {};
		compareWithPreviousLook(store, twoLooks, { counts: {} }, T0);
		expect(compareWithPreviousLook(store, twoLooks, { counts: { car: 2 } }, T0 + MINUTE)).toMatchObject({ changed: true, appeared: ['car'] });
		expect(compareWithPreviousLook(store, twoLooks, { counts: { car: 1 } }, T0 + 2 * MINUTE)).toMatchObject({ changed: false, heldBack: [{ change: -1, lowerForLooks: 1 }] });
		expect(compareWithPreviousLook(store, twoLooks, { counts: {} }, T0 + 3 * MINUTE)).toMatchObject({ changed: true, disappeared: ['car'], changeByLabel: { car: -2 }, previousCountsByLabel: { car: 2 } });
	});

	it('counts the looks per zone and label: a car leaving the driveway for the road is its own departure', () => {
		const store: IDataObject = {};
		const threeLooks = watchOf({ key: 'gate', cooldownMs: 0, departureAfterLooks: 3 });
		compareWithPreviousLook(store, threeLooks, { counts: { car: 1 }, zones: { driveway: { car: 1 } } }, T0);
		compareWithPreviousLook(store, threeLooks, { counts: { car: 1 }, zones: { driveway: {} } }, T0 + MINUTE);
		const second = compareWithPreviousLook(store, threeLooks, { counts: {}, zones: { driveway: {} } }, T0 + 2 * MINUTE);
		expect(second.heldBack).toEqual([
			{ label: 'car', zone: null, change: -1, kind: 'departure', heldBy: 'departureAfterLooks', lowerForLooks: 1 },
			{ label: 'car', zone: 'driveway', change: -1, kind: 'departure', heldBy: 'departureAfterLooks', lowerForLooks: 2 },
		]);
		const third = compareWithPreviousLook(store, threeLooks, { counts: {}, zones: { driveway: {} } }, T0 + 3 * MINUTE);
		expect(third).toMatchObject({ changed: true, changeByLabel: {}, zones: { driveway: { disappeared: ['car'] } }, heldBack: [{ zone: null, lowerForLooks: 2 }] });
		expect(third.reason).toBe('changed since the counts last reported; some changes not reported yet: lower for 2 look(s) of the Departure After Looks');
	});

	it('a drop held back by a cooldown keeps counting its looks: reported as soon as the cooldown ends', () => {
		const store: IDataObject = {};
		const both = watchOf({ key: 'gate', cooldownMs: 10 * MINUTE, departureAfterLooks: 2 });
		compareWithPreviousLook(store, both, { counts: { car: 1, dog: 1 } }, T0);
		compareWithPreviousLook(store, both, { counts: { car: 1 } }, T0 + MINUTE);
		expect(compareWithPreviousLook(store, both, { counts: { car: 1 } }, T0 + 2 * MINUTE)).toMatchObject({ changed: true, disappeared: ['dog'] });
		compareWithPreviousLook(store, both, { counts: {} }, T0 + 3 * MINUTE);
		expect(compareWithPreviousLook(store, both, { counts: {} }, T0 + 4 * MINUTE)).toMatchObject({ changed: false, heldBack: [{ heldBy: 'cooldown', until: '2026-05-01T08:12:00.000Z' }] });
		expect(compareWithPreviousLook(store, both, { counts: {} }, T0 + 12 * MINUTE)).toMatchObject({ changed: true, disappeared: ['car'] });
	});
});

describe('Compare With Previous Look: Cooldown Scope', () => {
	const door = (people: number): Record<string, number> => ({ person: people });
	const look = (store: IDataObject, watch: Watch, zones: Record<string, Record<string, number>>, minutes: number) => {
		const counts: Record<string, number> = {};
		for (const zoneCounts of Object.values(zones)) for (const [label, count] of Object.entries(zoneCounts)) counts[label] = (counts[label] ?? 0) + count;
		return compareWithPreviousLook(store, watch, { counts, zones }, T0 + minutes * MINUTE);
	};

	it('Watch Key: one cooldown of each kind for the key; Label: the cat in the garden is reported while the person’s cooldown runs', () => {
		for (const cooldownScope of ['watchKey', 'label'] as const) {
			const store: IDataObject = {};
			const watch = watchOf({ key: 'house', cooldownMs: 10 * MINUTE, cooldownScope });
			look(store, watch, { door: {}, garden: {} }, 0);
			expect(look(store, watch, { door: door(1), garden: {} }, 1)).toMatchObject({ changed: true, appeared: ['person'] });
			const cat = look(store, watch, { door: door(1), garden: { cat: 1 } }, 2);
			if (cooldownScope === 'watchKey') {
				expect(cat).toMatchObject({ changed: false, appeared: [], heldBack: [{ label: 'cat', zone: null, cooldownScope }, { label: 'cat', zone: 'garden', cooldownScope }] });
			} else {
				expect(cat).toMatchObject({ changed: true, appeared: ['cat'], zones: { garden: { appeared: ['cat'] } }, heldBack: [] });
				const both = look(store, watch, { door: door(2), garden: { cat: 1, dog: 1 } }, 3);
				expect(both).toMatchObject({ changed: true, appeared: ['dog'], changeByLabel: { dog: 1 }, heldBack: [{ label: 'person', zone: null, kind: 'arrival', cooldownScope: 'label', until: '2026-05-01T08:11:00.000Z' }, { label: 'person', zone: 'door' }] });
				expect(both.reason).toBe('changed since the counts last reported; some changes not reported yet: within the arrivals’ cooldown until 2026-05-01T08:11:00.000Z');
			}
		}
	});

	it('Zone and Label: a person in the garden is reported while the door’s cooldown runs; the whole image has cooldowns of its own', () => {
		const store: IDataObject = {};
		const watch = watchOf({ key: 'house', cooldownMs: 10 * MINUTE, cooldownScope: 'zoneAndLabel' });
		look(store, watch, { door: {}, garden: {} }, 0);
		look(store, watch, { door: door(1), garden: {} }, 1);
		const garden = look(store, watch, { door: door(1), garden: door(1) }, 2);
		expect(garden).toMatchObject({
			changed: true,
			changeByLabel: {},
			zones: { door: { changeByLabel: {} }, garden: { appeared: ['person'], changeByLabel: { person: 1 } } },
			heldBack: [{ label: 'person', zone: null, change: 1, kind: 'arrival', heldBy: 'cooldown', cooldownScope: 'zoneAndLabel', until: '2026-05-01T08:11:00.000Z' }],
			cooldownUntil: '2026-05-01T08:12:00.000Z',
		});
		expect(Object.keys((store.looks as IDataObject).house as IDataObject)).toContain('cooldowns');
		expect(((store.looks as IDataObject).house as { cooldowns: object }).cooldowns).toEqual({
			'["arrival",null,"person"]': '2026-05-01T08:01:00.000Z',
			'["arrival","door","person"]': '2026-05-01T08:01:00.000Z',
			'["arrival","garden","person"]': '2026-05-01T08:02:00.000Z',
		});
	});
});

describe('Compare With Previous Look: saved looks and settings', () => {
	it('under other settings the look is the new baseline: a drop counted for Departure After Looks starts again', () => {
		const store: IDataObject = {};
		const before = watchOf({ key: 'gate', cooldownMs: 0, departureAfterLooks: 2, settings: 'a' });
		compareWithPreviousLook(store, before, { counts: { car: 1 } }, T0);
		compareWithPreviousLook(store, before, { counts: {} }, T0 + MINUTE);
		const after = { ...before, settings: 'b' };
		expect(compareWithPreviousLook(store, after, { counts: {} }, T0 + 2 * MINUTE)).toMatchObject({ changed: false, reason: expect.stringMatching(/new baseline/), heldBack: [], previousCountsByLabel: { car: 1 } });
		expect(compareWithPreviousLook(store, after, { counts: { car: 1 } }, T0 + 3 * MINUTE)).toMatchObject({ changed: true, appeared: ['car'] });
	});
});

describe('Compare With Previous Look: Cooldown Scope and Departure After Looks, read', () => {
	const context = readerContext();
	const read = (options: IDataObject) => readWatch.call(context, 2, options);
	const failure = async (options: IDataObject) => await failureOf((async () => read(options))());

	it('reads each scope and a whole number of looks from 1 to 100', () => {
		for (const cooldownScope of ['watchKey', 'label', 'zoneAndLabel']) expect(read({ compareWithPreviousLook: true, cooldownScope })?.cooldownScope).toBe(cooldownScope);
		expect(read({ compareWithPreviousLook: true, departureAfterLooks: 1 })?.departureAfterLooks).toBe(1);
		expect(read({ compareWithPreviousLook: true, departureAfterLooks: '100' })?.departureAfterLooks).toBe(100);
	});

	it('a scope not in the list, or looks outside 1–100 or not whole, fails the item naming the option', async () => {
		expect(await failure({ compareWithPreviousLook: true, cooldownScope: 'zone' })).toMatchObject({ message: 'Cooldown Scope must be one of watchKey, label, zoneAndLabel, got "zone"', itemIndex: 2 });
		for (const departureAfterLooks of [0, 101, 1.5]) {
			expect(await failure({ compareWithPreviousLook: true, departureAfterLooks })).toMatchObject({ message: `Departure After Looks must be a whole number from 1 to 100, got ${departureAfterLooks}`, itemIndex: 2 });
		}
	});
});

describe('The settings a look is compared under, with its model', () => {
	it('differ by model and by settings, and are the same for the same both', () => {
		const settings = fingerprint({ confidence: 0.5 });
		const models = ['4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f', 'b5e07d93-2c4a-4f81-a6d2-9e3f1c8b7a50'];
		expect(settingsWithModel(settings, models[0])).toBe(settingsWithModel(settings, models[0]));
		expect(settingsWithModel(settings, models[0])).not.toBe(settingsWithModel(settings, models[1]));
		expect(settingsWithModel(settings, models[0])).not.toBe(settingsWithModel(fingerprint({ confidence: 0.6 }), models[0]));
		expect(settingsWithModel(undefined, models[0])).not.toBe(settingsWithModel(settings, models[0]));
		expect(settingsWithModel(settings, models[0])).toMatch(/^[0-9a-f]{1,8}$/);
	});
});
