/**
 * What a look keeps and measures: a look that changes nothing keeps the objects the look before it
 * kept and is not counted again; a look that changes something gets its own, and never changes the
 * look before it; a look read from the static data is read as it was saved.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { prepare } from '../../nodes/ImageInference/actions/detect/detect.operation';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { MAX_WATCH_BYTES, MAX_WATCH_KEYS, compareWithPreviousLook, settingsFingerprint } from '../../nodes/ImageInference/pipeline/comparison';
import { countDetections } from '../../nodes/ImageInference/pipeline/counts';
import * as lengths from '../../nodes/ImageInference/pipeline/jsonLength';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const watchOf = (watch: Partial<Watch> = {}): Watch => ({ key: 'gate', cooldownMs: 0, cooldownScope: 'label', departureAfterLooks: 1, settings: 'one', ...watch });
type Look = { counts: IDataObject; zones?: IDataObject; cooldowns?: IDataObject; lowerFor?: IDataObject; seenAt: string };
const lookOf = (store: IDataObject, key = 'gate') => (store.looks as Record<string, Look>)[key];

describe('a look that changes nothing', () => {
	it('keeps the counts, zones and running cooldowns the look before it kept, as they were', () => {
		const store: IDataObject = {};
		const watch = watchOf({ cooldownMs: 10 * MINUTE });
		compareWithPreviousLook(store, watch, { counts: { car: 1 }, zones: { drive: { car: 1 }, street: {} } }, T0);
		compareWithPreviousLook(store, watch, { counts: { car: 2 }, zones: { drive: { car: 2 }, street: {} } }, T0 + MINUTE);
		const changed = lookOf(store);
		const saved = JSON.stringify(changed);
		expect(changed.cooldowns).toEqual({ '["arrival","car"]': '2026-05-01T08:01:00.000Z' });
		const same = compareWithPreviousLook(store, watch, { counts: { car: 2 }, zones: { drive: { car: 2 }, street: {} } }, T0 + 2 * MINUTE);
		expect(same.changed).toBe(false);
		const kept = lookOf(store);
		expect(kept).not.toBe(changed);
		expect([kept.counts, kept.zones, kept.cooldowns]).toEqual([changed.counts, changed.zones, changed.cooldowns]);
		expect(kept.counts).toBe(changed.counts);
		expect(kept.zones).toBe(changed.zones);
		expect(kept.cooldowns).toBe(changed.cooldowns);
		expect(JSON.stringify(changed)).toBe(saved);
	});

	it('is not counted again: only its key is measured', () => {
		const store: IDataObject = {};
		const watch = watchOf({ cooldownMs: 10 * MINUTE });
		const look = (counts: IDataObject, at: number) => compareWithPreviousLook(store, watch, { counts: counts as never, zones: { drive: counts as never } }, at);
		look({ car: 1 }, T0);
		look({ car: 2 }, T0 + MINUTE);
		const measured = jest.spyOn(lengths, 'jsonLength');
		try {
			look({ car: 2 }, T0 + 2 * MINUTE);
			look({ car: 2 }, T0 + 3 * MINUTE);
			expect(measured.mock.calls.filter(([value]) => typeof value !== 'string')).toEqual([]);
			// a change is counted
			look({ car: 3 }, T0 + 20 * MINUTE);
			expect(measured.mock.calls.some(([value]) => value === lookOf(store))).toBe(true);
		} finally {
			measured.mockRestore();
		}
		expect(JSON.stringify(store.looks).length).toBeLessThanOrEqual(MAX_WATCH_BYTES);
	});
});

describe('a look that changes something', () => {
	it('gets counts and zones of its own, and leaves the look before it as it was', () => {
		const store: IDataObject = {};
		const watch = watchOf({ cooldownMs: 10 * MINUTE });
		compareWithPreviousLook(store, watch, { counts: { car: 1, dog: 1 }, zones: { drive: { car: 1 }, street: { dog: 1 } } }, T0);
		compareWithPreviousLook(store, watch, { counts: { car: 2, dog: 1 }, zones: { drive: { car: 2 }, street: { dog: 1 } } }, T0 + MINUTE);
		const before = lookOf(store);
		const saved = JSON.stringify(before);
		// a dog arrives in the street: a second cooldown starts while the car's runs
		const next = compareWithPreviousLook(store, watch, { counts: { car: 2, dog: 2 }, zones: { drive: { car: 2 }, street: { dog: 2 } } }, T0 + 2 * MINUTE);
		expect(next.changeByLabel).toEqual({ dog: 1 });
		const after = lookOf(store);
		expect(JSON.stringify(before)).toBe(saved);
		expect(after.counts).not.toBe(before.counts);
		expect(after.zones).not.toBe(before.zones);
		expect(after.cooldowns).not.toBe(before.cooldowns);
		expect(after.cooldowns).toEqual({ '["arrival","car"]': '2026-05-01T08:01:00.000Z', '["arrival","dog"]': '2026-05-01T08:02:00.000Z' });
		expect(after.zones).toEqual({ drive: { car: 2 }, street: { dog: 2 } });
	});

	it('keeps no cooldown that has ended', () => {
		const store: IDataObject = {};
		const watch = watchOf({ cooldownMs: 5 * MINUTE });
		compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0);
		compareWithPreviousLook(store, watch, { counts: { car: 2 } }, T0 + MINUTE);
		expect(Object.keys(lookOf(store).cooldowns ?? {})).toEqual(['["arrival","car"]']);
		const later = compareWithPreviousLook(store, watch, { counts: { car: 2 } }, T0 + 10 * MINUTE);
		expect(later.cooldownUntil).toBeNull();
		expect(lookOf(store)).not.toHaveProperty('cooldowns');
	});

	it('keeps counting a drop held back while another label arrives', () => {
		const store: IDataObject = {};
		const watch = watchOf({ departureAfterLooks: 2 });
		compareWithPreviousLook(store, watch, { counts: { car: 1 } }, T0);
		const held = compareWithPreviousLook(store, watch, { counts: { dog: 1 } }, T0 + MINUTE);
		expect([held.appeared, held.heldBack.map(({ label, lowerForLooks }) => [label, lowerForLooks])]).toEqual([['dog'], [['car', 1]]]);
		const gone = compareWithPreviousLook(store, watch, { counts: { dog: 1 } }, T0 + 2 * MINUTE);
		expect([gone.disappeared, gone.heldBack]).toEqual([['car'], []]);
	});

	it('without zones gives a comparison without zones', () => {
		const comparison = compareWithPreviousLook({}, watchOf(), { counts: { car: 1 } }, T0);
		expect(comparison).not.toHaveProperty('zones');
	});
});

describe('a look read from the static data', () => {
	it('continues a drop held back when it was saved', () => {
		// as n8n saved it after the execution before: a car's drop seen for one look of two
		const saved = { looks: { gate: { seenAt: '2026-05-01T08:00:00.000Z', counts: { car: 1 }, lowerFor: { '[null,"car"]': 1 }, settings: 'one' } } };
		const store = JSON.parse(JSON.stringify(saved)) as IDataObject;
		const next = compareWithPreviousLook(store, watchOf({ departureAfterLooks: 2 }), { counts: {} }, T0 + MINUTE);
		expect([next.disappeared, next.heldBack]).toEqual([['car'], []]);
	});
});

describe('the bound on the looks kept', () => {
	const counts = (labelLength: number) => ({ ['l'.repeat(labelLength)]: 1 });

	it('keeps exactly MAX_WATCH_KEYS keys: one more forgets the one seen longest ago', () => {
		const store: IDataObject = {};
		for (let key = 0; key < MAX_WATCH_KEYS; key++) compareWithPreviousLook(store, watchOf({ key: `camera ${key}` }), { counts: { car: 1 } }, T0 + key * MINUTE);
		expect(Object.keys(store.looks as object)).toHaveLength(MAX_WATCH_KEYS);
		compareWithPreviousLook(store, watchOf({ key: 'camera 0' }), { counts: { car: 1 } }, T0 + 200 * MINUTE);
		expect(Object.keys(store.looks as object)).toHaveLength(MAX_WATCH_KEYS);
		compareWithPreviousLook(store, watchOf({ key: 'one more' }), { counts: { car: 1 } }, T0 + 201 * MINUTE);
		expect(Object.keys(store.looks as object)).toHaveLength(MAX_WATCH_KEYS);
		expect(store.looks).not.toHaveProperty('camera 1');
		expect(store.looks).toHaveProperty('camera 0');
	});

	it('keeps looks of exactly MAX_WATCH_BYTES characters: one more forgets the one seen longest ago', () => {
		for (const over of [0, 1]) {
			const store: IDataObject = {};
			compareWithPreviousLook(store, watchOf({ key: 'old' }), { counts: counts(10) }, T0);
			compareWithPreviousLook(store, watchOf({ key: 'new' }), { counts: counts(10) }, T0 + MINUTE);
			// the new key's label grown so the looks' JSON is exactly the bound, or one character over
			const grow = MAX_WATCH_BYTES - JSON.stringify(store.looks).length + over;
			compareWithPreviousLook(store, watchOf({ key: 'new' }), { counts: counts(10 + grow) }, T0 + 2 * MINUTE);
			expect([over, Object.keys(store.looks as object)]).toEqual([over, over === 0 ? ['old', 'new'] : ['new']]);
			if (over === 0) expect(JSON.stringify(store.looks).length).toBe(MAX_WATCH_BYTES);
		}
	});
});

describe('texts counted as JSON writes them', () => {
	it('every text of up to three of a letter, both halves of a surrogate pair and their ends', () => {
		const units = ['a', '\ud800', '\udbff', '\udc00', '\udfff', '\ud7ff', '\ue000'];
		const texts = [''];
		for (let size = 1; size <= 3; size++) for (const text of texts.filter((other) => other.length === size - 1)) for (const unit of units) texts.push(text + unit);
		expect(texts.filter((text) => lengths.textLength(text) !== JSON.stringify(text).length)).toEqual([]);
	});
});

describe('counts per zone', () => {
	it('a detection without zones counts in none', () => {
		const image = { zones: [{ name: 'drive', points: [] }] };
		const counts = countDetections([{ label: 'car', confidence: 1, x: 0, y: 0, width: 1, height: 1, relativeBox: null }], [], image as never);
		expect(counts.countsByZone).toEqual({ drive: {} });
	});
});

describe('the settings a look is taken under', () => {
	const watchFor = (options: IDataObject) => {
		const node = { id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0], parameters: { options } };
		const context = {
			getNode: () => node,
			getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name === 'options' ? structuredClone(options) : fallback),
			getTimezone: () => 'UTC',
		} as unknown as IExecuteFunctions;
		return prepare.call(context, 0, 'binary').watch!;
	};

	it('include the Confidence Threshold: another threshold is another baseline, none set is none', () => {
		const watching = { compareWithPreviousLook: true };
		const unset = watchFor(watching);
		expect(unset.settings).toBe(settingsFingerprint(null, { zonesAndSizes: { zones: [], units: 'relative', anchor: 'center', onlyInZones: false } }));
		const half = watchFor({ ...watching, confidence: 0.5 });
		expect(half.settings).toBe(settingsFingerprint(0.5, { zonesAndSizes: { zones: [], units: 'relative', anchor: 'center', onlyInZones: false } }));
		expect(new Set([unset.settings, half.settings, watchFor({ ...watching, confidence: 0.6 }).settings]).size).toBe(3);
	});
});
