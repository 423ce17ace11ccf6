import type { IDataObject } from 'n8n-workflow';

import type { ProblemKind } from '../camera/snapshot';
import { TRIGGER_WATCH_KEY } from './detectContext';

/**
 * What the trigger keeps in the node's static data beside Detect's looks, under `trigger`. n8n
 * writes a trigger's static data after its activation and when it emits (2.41.1:
 * workflows/triggers/trigger-execution-context.factory.js, `emit` calls saveStaticData;
 * 1.123.81: active-workflow-manager.js, the same in its emit), so what is saved is what was announced.
 */
export interface TriggerState {
	/** Made at the first activation (n8n saves it then): the first part of every event id. */
	id: string;
	/** How many looks have been announced: each emitting look's number. */
	looks: number;
	/** The camera problem announced (Camera Problem emitted), until its Camera Back. */
	problem?: { kind: ProblemKind; since: string };
}

const STATE_FIELD = 'trigger';

/** Twelve hex digits; node code may not import `crypto`, and the id need only differ between triggers' states. */
export const newStateId = (): string =>
	Array.from({ length: 12 }, () => Math.floor(Math.random() * 16).toString(16)).join('');

function isState(value: unknown): value is TriggerState {
	if (typeof value !== 'object' || value === null) return false;
	const { id, looks } = value as IDataObject;
	return typeof id === 'string' && id !== '' && typeof looks === 'number' && Number.isInteger(looks) && looks >= 0;
}

/** The kept state, or a new one when there is none (a first activation, or static data lost or damaged). */
export function readTriggerState(staticData: IDataObject): TriggerState {
	const kept = staticData[STATE_FIELD];
	if (isState(kept)) return kept;
	const state: TriggerState = { id: newStateId(), looks: 0 };
	writeTriggerState(staticData, state);
	return state;
}

/**
 * Sets the state as a new object on the node's static data: n8n notices a change only through a
 * set on an object it observes, and an object set during the activation is stored unobserved
 * (n8n-workflow's observable-object.js: its `set` trap marks the change but does not wrap the value).
 */
export function writeTriggerState(staticData: IDataObject, state: TriggerState): void {
	const { id, looks, problem } = state;
	staticData[STATE_FIELD] = { id, looks, ...(problem ? { problem: { ...problem } } : {}) };
}

/**
 * What the next look's events are worked out against, from Detect's look kept under the trigger's
 * Watch Key: the counts as last reported (per zone when zones are set: events are per zone then,
 * so a car passing outside them changes nothing) and the settings they were taken under. Its
 * time, and tracks that only moved, are left out: losing them to a restart loses no event.
 */
export function comparedLook(staticData: IDataObject): string {
	const looks = staticData.looks as IDataObject | undefined;
	const look = (looks?.[TRIGGER_WATCH_KEY] ?? {}) as IDataObject;
	return JSON.stringify([look.zones ?? look.counts ?? null, look.settings ?? null]);
}
