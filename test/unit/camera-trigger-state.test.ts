import { ObservableObject } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { cameraOf, keepLooksOf, newStateId, readTriggerState, writeTriggerState } from '../../nodes/ImageInferenceTrigger/look/triggerState';

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

describe('The state across a change of camera, and damaged', () => {
	it('a problem that is not one is no announced problem', () => {
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2, problem: 'down' } })).toEqual({ id: 'abc', looks: 2, problem: undefined });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2, problem: { kind: 'login' } } })).toEqual({ id: 'abc', looks: 2, problem: undefined });
		expect(readTriggerState({ trigger: { id: 'abc', looks: 2, camera: 7 } })).toMatchObject({ looks: 0 });
	});

	it('another camera forgets the looks and keeps the state; the same camera keeps both; the address itself is not kept', () => {
		const looks = { camera: { counts: { car: 1 } } };
		const first: IDataObject = { looks, forgottenTracks: {}, trigger: { id: 'abc', looks: 3 } };
		keepLooksOf(first, 'http://cam/a.jpg');
		// a state from before cameras were kept: its looks are taken as this camera's
		expect(first).toEqual({ looks, forgottenTracks: {}, trigger: { id: 'abc', looks: 3, camera: cameraOf('http://cam/a.jpg') } });
		keepLooksOf(first, 'http://cam/a.jpg');
		expect(first.looks).toBe(looks);
		keepLooksOf(first, 'http://cam/b.jpg');
		expect(first).toEqual({ trigger: { id: 'abc', looks: 3, camera: cameraOf('http://cam/b.jpg') } });
		expect(JSON.stringify(first)).not.toContain('cam/');
		expect(cameraOf('')).toBe('811c9dc5');
		expect(cameraOf('a')).toBe('e40c292c');
	});
});
