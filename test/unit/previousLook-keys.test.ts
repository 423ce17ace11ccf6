/**
 * Compare With Previous Look keeps at most MAX_WATCH_KEYS keys: a look of a key already kept never
 * makes another go, a new key past the most makes the one seen longest ago go.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { DEFAULT_COOLDOWN_SCOPE, DEFAULT_DEPARTURE_AFTER_LOOKS, MAX_WATCH_KEYS, compareWithPreviousLook } from '../../nodes/ImageInference/pipeline/comparison';

const T0 = Date.parse('2026-11-28T08:00:00.000Z');
const MINUTE = 60_000;
const watchOf = (key: string): Watch => ({ key, cooldownMs: 0, cooldownScope: DEFAULT_COOLDOWN_SCOPE, departureAfterLooks: DEFAULT_DEPARTURE_AFTER_LOOKS });

describe('Compare With Previous Look’s most keys', () => {
	it('at the most keys, a look of a kept key keeps them all; a new key makes the oldest go', () => {
		const store: IDataObject = {};
		const keys = () => Object.keys(store.looks as IDataObject);
		for (let camera = 0; camera < MAX_WATCH_KEYS; camera++) compareWithPreviousLook(store, watchOf(`camera ${camera}`), { counts: { car: 1 } }, T0 + camera * MINUTE);
		expect(keys()).toHaveLength(MAX_WATCH_KEYS);

		compareWithPreviousLook(store, watchOf('camera 50'), { counts: { car: 2 } }, T0 + MAX_WATCH_KEYS * MINUTE);
		expect(keys()).toHaveLength(MAX_WATCH_KEYS);
		expect(keys()).toContain('camera 0');

		compareWithPreviousLook(store, watchOf('camera new'), { counts: { car: 1 } }, T0 + (MAX_WATCH_KEYS + 1) * MINUTE);
		expect(keys()).toHaveLength(MAX_WATCH_KEYS);
		expect(keys()).not.toContain('camera 0');
		expect(keys()).toContain('camera 1');
		expect(keys()).toContain('camera new');
	});
});
