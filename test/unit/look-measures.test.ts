/**
 * How the static data's bound is measured, and how often: the looks read from the static data by
 * their JSON, once an execution; each look once, when written; a tracked look's tracks counted
 * field by field.
 */
import type { IDataObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import type { Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { compareWithPreviousLook } from '../../nodes/ImageInference/pipeline/comparison';
import * as lengths from '../../nodes/ImageInference/pipeline/jsonLength';
import * as tracking from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, newTrackingState, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-28T08:00:00.000Z');
const settings = { ...defaultTrackingSettings('UTC', true), stayLimitMs: MINUTE, zoneStayLimitsMs: [['bay', MINUTE]] as Array<[string, number]> };
const parked = [
	{ label: 'car', relativeBox: { x: 0.1, y: 0.5, width: 0.2, height: 0.1 }, zones: ['bay'] },
	{ label: 'car', relativeBox: { x: 0.5, y: 0.5, width: 0.2, height: 0.1 }, zones: ['bay', 'gate'] },
];
const watchOf = (key: string): Watch => ({ key, cooldownMs: 0, cooldownScope: 'watchKey', departureAfterLooks: 1, settings: 'one', tracking: settings });

function trackedLook(store: IDataObject, key: string, now: number) {
	return compareWithPreviousLook(store, watchOf(key), { counts: { car: 2 }, tracking: (previous) => {
		const state = previous ?? newTrackingState(now);
		const { seen } = trackObjects(state, parked, settings, now);
		return { state, seen };
	} }, now);
}

function spied<T extends object>(module: T, name: keyof T & string) {
	return jest.spyOn(module as Record<string, (...args: unknown[]) => unknown>, name);
}

afterEach(() => jest.restoreAllMocks());

describe('The static data’s bound, measured', () => {
	it('an execution’s first look takes the length of the looks read from the static data from their JSON, not field by field', () => {
		const saved: IDataObject = {};
		for (let camera = 0; camera < 5; camera++) trackedLook(saved, `camera ${camera}`, T0 + camera * MINUTE);
		// as n8n hands the node its static data in the next execution
		const store = ObservableObject.create(JSON.parse(JSON.stringify(saved)) as IDataObject);
		const measured = spied(lengths, 'jsonLength');
		trackedLook(store, 'camera 2', T0 + 10 * MINUTE);
		expect(measured.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'camera 4' in value)).toEqual([]);
	});

	it('a tracked look is counted once, when written: the next look takes its length as written', () => {
		const store: IDataObject = {};
		const counted = spied(tracking, 'trackingStateJsonLength');
		for (let look = 0; look < 3; look++) trackedLook(store, 'bay', T0 + look * MINUTE);
		expect(counted).toHaveBeenCalledTimes(3);
	});

	it('a state the node wrote, with zones and reported stays, is counted as long as its JSON', () => {
		const state = newTrackingState(T0);
		trackObjects(state, parked, settings, T0);
		trackObjects(state, parked, settings, T0 + 2 * MINUTE);
		expect(state.tracks.map((track) => track.overstaysReported)).toEqual([
			['', 'bay'],
			['', 'bay'],
		]);
		expect(tracking.trackingStateJsonLength(state)).toBe(JSON.stringify(state).length);
	});
});
