/**
 * Labels and zone names that a plain object already has through Object.prototype ("constructor",
 * "toString", "__proto__"): a model may call a class "constructor", and a user may name a zone so.
 * Each is counted, compared and tracked as any other name.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { runDetectionPipeline } from '../../nodes/ImageInference/pipeline/steps';
import { defaultTrackingSettings } from '../../nodes/ImageInference/pipeline/tracking';
import type { DetectionOptions } from '../../nodes/ImageInference/pipeline/types';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
// two zones in pixels of a 100 × 100 image: the left half and the right half
const zonesAndSizes: DetectionOptions['zonesAndSizes'] = {
	zones: [
		{ name: '__proto__', points: [[0, 0], [50, 0], [50, 100], [0, 100]] },
		{ name: 'constructor', points: [[50, 0], [100, 0], [100, 100], [50, 100]] },
	],
	units: 'pixels',
	anchor: 'center',
	onlyInZones: false,
};
const left = (label: string, y = 10) => ({ label, confidence: 0.9, x: 10, y, width: 20, height: 20 });
const right = (label: string, y = 10) => ({ label, confidence: 0.9, x: 70, y, width: 20, height: 20 });
/** What a name-keyed object must hold: built from JSON, where "__proto__" is a field like any other. */
const fields = (json: string) => JSON.parse(json) as IDataObject;
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('labels and zones named as what every object has', () => {
	const watch: Watch = { key: 'gate', cooldownMs: 0, cooldownScope: 'label', departureAfterLooks: 1, settings: 'one', tracking: defaultTrackingSettings('UTC', true) };
	const look = (store: IDataObject, detections: ReturnType<typeof left>[], now: number) =>
		runDetectionPipeline({ detections, image: null, labelsCount: [] }, { width: 100, height: 100 }, { zonesAndSizes }, { watch, store, now });

	it('are counted per zone as any other label and zone', () => {
		const { results } = look({}, [left('constructor'), left('toString', 60), right('__proto__'), right('constructor', 60)], T0);
		expect(asJson(results.countsByZone)).toEqual(fields('{"__proto__":{"constructor":1,"toString":1},"constructor":{"__proto__":1,"constructor":1}}'));
		expect(Object.getPrototypeOf(results.countsByZone)).toBe(Object.prototype);
		expect(asJson(results.detections.map(({ zones }) => zones))).toEqual([['__proto__'], ['__proto__'], ['constructor'], ['constructor']]);
	});

	it('are compared with the previous look: each appears, changes and goes as any other', () => {
		const store: IDataObject = {};
		look(store, [left('car')], T0);
		const arrived = look(store, [left('car'), left('constructor', 60), right('__proto__')], T0 + MINUTE).comparison!;
		expect(asJson(arrived)).toMatchObject({ changed: true, appeared: ['constructor', '__proto__'], changeByLabel: fields('{"constructor":1,"__proto__":1}') });
		expect(asJson(arrived.zones)).toMatchObject(fields('{"__proto__":{"appeared":["constructor"]},"constructor":{"appeared":["__proto__"]}}'));
		const changed = look(store, [left('car'), right('__proto__'), right('__proto__', 60)], T0 + 2 * MINUTE).comparison!;
		expect(asJson(changed)).toMatchObject({
			changed: true,
			appeared: [],
			disappeared: ['constructor'],
			changeByLabel: fields('{"constructor":-1,"__proto__":1}'),
			previousCountsByLabel: fields('{"car":1,"constructor":1,"__proto__":1}'),
		});
		expect(asJson((store.looks as IDataObject).gate)).toMatchObject({ counts: fields('{"car":1,"__proto__":2}') });
		expect(look(store, [left('car'), right('__proto__'), right('__proto__', 60)], T0 + 3 * MINUTE).comparison!.changed).toBe(false);
	});

	it('are tracked: arrivals per label and per zone, time in each zone', () => {
		const store: IDataObject = {};
		// the key's first look: what stands there is tracked, not an arrival
		look(store, [], T0 - MINUTE);
		look(store, [left('constructor'), right('__proto__')], T0);
		const { tracking, results } = look(store, [left('constructor'), right('__proto__'), right('toString', 60)], T0 + MINUTE);
		expect(asJson(tracking!.arrivalsByLabel)).toEqual(fields('{"constructor":1,"__proto__":1,"toString":1}'));
		expect(asJson(tracking!.arrivalsByZone)).toEqual(fields('{"__proto__":{"constructor":1},"constructor":{"__proto__":1,"toString":1}}'));
		expect(asJson(results.detections.map((detection) => (detection as IDataObject).secondsInZones))).toEqual([
			fields('{"__proto__":60}'),
			fields('{"constructor":60}'),
			fields('{"constructor":0}'),
		]);
	});
});
