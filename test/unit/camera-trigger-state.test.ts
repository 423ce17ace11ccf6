import { ObservableObject } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { keepLooksOf, looksOf, newStateId, readTriggerState, trackBoxes, tracksMovedAway, writeTriggerState } from '../../nodes/ImageInferenceTrigger/look/triggerState';

describe('The trigger’s state in static data', () => {
	it('is kept as it was saved', () => {
		const staticData: IDataObject = { trigger: { id: 'abc', looks: 3, problem: { kind: 'login', since: '2026-11-30T08:00:00.000Z' } } };
		expect(readTriggerState(staticData)).toEqual({ id: 'abc', looks: 3, problem: { kind: 'login', since: '2026-11-30T08:00:00.000Z' } });
	});

	it.each<[string, unknown]>([
		['none', undefined],
		['not an object', 'x'],
		['no id', { looks: 1 }],
		['an empty id', { id: '', looks: 1 }],
		['a count that is not one', { id: 'abc', looks: -1 }],
		['a fractional count', { id: 'abc', looks: 1.5 }],
		['a count as text', { id: 'abc', looks: '1' }],
		['null', null],
	])('a state that is %s is made anew, with a new id, and set on the static data', (_case, kept) => {
		const staticData: IDataObject = kept === undefined ? {} : { trigger: kept as IDataObject };
		const state = readTriggerState(staticData);
		expect(state).toEqual({ id: expect.stringMatching(/^[0-9a-f]{12}$/), looks: 0 });
		expect(staticData.trigger).toEqual(state);
	});

	it('is written as a new object, so n8n sees the change even when the old one was set unobserved', () => {
		const staticData = ObservableObject.create({}) as IDataObject & { __dataChanged?: boolean };
		const state = readTriggerState(staticData);
		staticData.__dataChanged = false;
		// the object n8n stored at activation is not observed: a change inside it is not seen
		(staticData.trigger as IDataObject).looks = 5;
		expect(staticData.__dataChanged).toBe(false);
		writeTriggerState(staticData, { ...state, looks: 6 });
		expect(staticData.__dataChanged).toBe(true);
		expect(staticData.trigger).toEqual({ id: state.id, looks: 6 });
		writeTriggerState(staticData, { id: state.id, looks: 7, problem: { kind: 'frozen', since: 'then' } });
		expect(staticData.trigger).toEqual({ id: state.id, looks: 7, problem: { kind: 'frozen', since: 'then' } });
	});

	it('ids differ', () => {
		const ids = new Set(Array.from({ length: 50 }, newStateId));
		expect(ids.size).toBe(50);
		const spy = jest.spyOn(Math, 'random').mockReturnValue(0.999);
		expect(newStateId()).toBe('ffffffffffff');
		spy.mockReturnValue(0);
		expect(newStateId()).toBe('000000000000');
		spy.mockRestore();
	});
});

describe('The state across a change of camera or of tracking, and damaged', () => {
	const A = { cameraUrl: 'http://cam/a.jpg', tracking: false };
	it('a problem that is not one is no announced problem; a count past 2^53, an id not the trigger’s or a looksOf not a hash is no state', () => {
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2, problem: 'down' } })).toEqual({ id: 'abc', looks: 2, problem: undefined });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2, problem: { kind: 'login' } } })).toEqual({ id: 'abc', looks: 2, problem: undefined });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2, looksOf: 7 } })).toMatchObject({ looks: 0 });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2 ** 53 - 2 } })).toMatchObject({ id: 'abc', looks: 2 ** 53 - 2 });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2 ** 53 - 1 } })).toMatchObject({ looks: 0 });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2 ** 53 } })).toMatchObject({ looks: 0 });
		expect(readTriggerState({ trigger: { id: 'a'.repeat(64), looks: 2 } })).toMatchObject({ id: 'a'.repeat(64), looks: 2 });
		expect(readTriggerState({ trigger: { id: 'a'.repeat(65), looks: 2 } })).toMatchObject({ looks: 0 });
	});

	it('another camera, or tracking turned on or off, forgets the looks and keeps the state; the same keeps both; the address itself is not kept', () => {
		const looks = { camera: { counts: { car: 1 } } };
		const first: IDataObject = { looks, forgottenTracks: {}, trigger: { id: 'abc', looks: 3 } };
		keepLooksOf(first, A);
		// a state that does not say what its looks are of: they are taken as this camera's
		expect(first).toEqual({ looks, forgottenTracks: {}, trigger: { id: 'abc', looks: 3, looksOf: looksOf(A) } });
		keepLooksOf(first, { ...A });
		expect(first.looks).toBe(looks);
		keepLooksOf(first, { ...A, tracking: true });
		expect(first).toEqual({ trigger: { id: 'abc', looks: 3, looksOf: looksOf({ ...A, tracking: true }) } });
		first.looks = looks;
		keepLooksOf(first, { ...A, cameraUrl: 'http://cam/b.jpg', tracking: true });
		expect(first).toEqual({ trigger: { id: 'abc', looks: 3, looksOf: looksOf({ cameraUrl: 'http://cam/b.jpg', tracking: true }) } });
		expect(JSON.stringify(first)).not.toContain('cam/');
		const hashes = [A, { ...A, tracking: true }, { ...A, cameraUrl: 'http://cam/b.jpg' }].map(looksOf);
		expect(new Set(hashes).size).toBe(3);
		for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{1,8}$/);
	});

	it('tracks that cannot be read are no tracks: the trigger activates and looks, and Detect starts its look afresh', () => {
		const saved = (tracking: unknown): IDataObject => ({ looks: { camera: { counts: {}, tracking } } as IDataObject });
		const box = [0.1, 0.1, 0.2, 0.2];
		for (const tracking of ['x', null, 5, { tracks: 'abc' }, { tracks: [null, 'x', { id: 1, box: null }, { id: 'one', box }, { id: 2, box: [1, 2, 3] }, { id: 3, box: [1, 2, 3, 'x'] }, { id: 4, box: [1, 2, 3, Infinity] }] }]) {
			expect(trackBoxes(saved(tracking))).toEqual(new Map());
			expect(tracksMovedAway(saved(tracking), new Map([[1, [0.5, 0.5, 0.6, 0.6]]]))).toBe(false);
		}
		for (const looks of ['x', [], { camera: 5 }, { camera: null }]) expect(trackBoxes({ looks } as IDataObject)).toEqual(new Map());
		const readable = saved({ tracks: [null, { id: 7, box }], matching: 0.3 });
		expect(trackBoxes(readable)).toEqual(new Map([[7, box]]));
		// a matching that cannot be read: the default Track Min Overlap (0.3)
		expect(tracksMovedAway(readable, new Map([[7, [0.1, 0.1, 0.2, 0.2]]]))).toBe(false);
		expect(tracksMovedAway(readable, new Map([[7, [0.5, 0.5, 0.6, 0.6]]]))).toBe(true);
		expect(tracksMovedAway(saved({ tracks: [{ id: 7, box }], matching: { minOverlap: 'x' } }), new Map([[7, [0.12, 0.1, 0.22, 0.2]]]))).toBe(false);
		expect(tracksMovedAway(saved({ tracks: [{ id: 7, box }], matching: { minOverlap: 0.9 } }), new Map([[7, [0.12, 0.1, 0.22, 0.2]]]))).toBe(true);
	});
});
