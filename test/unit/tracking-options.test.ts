/**
 * Track Objects Across Looks read from an item's options: what is not set stays unset, so a
 * tracked look without Report Stays Longer Than reports no stay, however long an object stays.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { newTrackingState, readTracking, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

const T0 = Date.parse('2026-11-28T08:00:00Z');
const context = {
	getNode: () => ({ id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0], parameters: {} }),
	getTimezone: () => 'Europe/Vienna',
} as unknown as IExecuteFunctions;

describe('Track Objects Across Looks with only the option itself on', () => {
	it('has no stay limits, and reports no stay after a day', () => {
		const settings = readTracking.call(context, 0, { compareWithPreviousLook: true, trackObjects: true }, true, ['bay'])!;
		expect(settings).toEqual({
			minOverlap: 0.3,
			keepMissedLooks: 1,
			countAfterLooks: 1,
			zoneStayLimitsMs: [],
			arrivalsPeriod: 'firstLook',
			timeZone: 'Europe/Vienna',
			zoned: true,
		});
		expect(settings).not.toHaveProperty('stayLimitMs');
		const state = newTrackingState(T0);
		const parked = [{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['bay'] }];
		trackObjects(state, parked, settings, T0);
		const dayLater = trackObjects(state, parked, settings, T0 + 24 * 3_600_000);
		expect(dayLater.detections[0].seenForSeconds).toBe(86_400);
		expect(dayLater.result.overstays).toEqual([]);
	});
});

describe('Track Objects Across Looks off for the item, or Compare With Previous Look off for it (either by an expression)', () => {
	// options n8n keeps beside an expression, some of them out of bounds: nothing of them is read
	const trackingOptions = { trackMinOverlap: 5, trackKeepMissedLooks: 2, countArrivalsPer: 'week', zoneStayLimits: 'nowhere: 5' };

	it('track nothing and refuse nothing', () => {
		expect(readTracking.call(context, 0, { compareWithPreviousLook: false, trackObjects: true, ...trackingOptions }, false, [])).toBeUndefined();
		expect(readTracking.call(context, 0, { compareWithPreviousLook: true, trackObjects: false, ...trackingOptions }, true, [])).toBeUndefined();
		expect(readTracking.call(context, 0, { compareWithPreviousLook: true, ...trackingOptions }, true, [])).toBeUndefined();
		// on with Compare on: the same options are read, and refused
		expect(() => readTracking.call(context, 0, { compareWithPreviousLook: true, trackObjects: true, ...trackingOptions }, true, [])).toThrow('Track Min Overlap must be a number from 0 to 1, got 5');
	});
});
