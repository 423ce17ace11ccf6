import { ObservableObject } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { newStateId, readTriggerState, writeTriggerState } from '../../nodes/ImageInferenceTrigger/look/triggerState';

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
