import type { IDataObject } from 'n8n-workflow';

import { fnv1a } from '../../ImageInference/pipeline/hash';
import { isRecord } from '../../ImageInference/pipeline/records';
import type { StoredTrack } from '../../ImageInference/pipeline/tracking';
import { DEFAULT_MIN_OVERLAP, overlap } from '../../ImageInference/pipeline/tracking';
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
	/**
	 * What the kept looks are of (looksOf: a hash of Camera Snapshot URL and whether objects are
	 * tracked): another camera, or events from the other source, start afresh.
	 */
	looksOf?: string;
}

const STATE_FIELD = 'trigger';

/** Twelve hex digits; node code may not import `crypto`, and the id need only differ between triggers' states. */
export const newStateId = (): string =>
	Array.from({ length: 12 }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** Longer ids are not the trigger's own (newStateId): n8n's deduplication key must stay within its 255 characters. */
const MAX_ID_LENGTH = 64;

function isState(value: unknown): value is TriggerState {
	if (typeof value !== 'object' || value === null) return false;
	const { id, looks, looksOf } = value as IDataObject;
	// past 2^53 a look's number + 1 is the same number: two looks would share their event ids
	const counted = typeof looks === 'number' && Number.isSafeInteger(looks + 1) && looks >= 0;
	return typeof id === 'string' && id !== '' && id.length <= MAX_ID_LENGTH && counted && (looksOf === undefined || typeof looksOf === 'string');
}

function isProblem(value: unknown): value is NonNullable<TriggerState['problem']> {
	if (typeof value !== 'object' || value === null) return false;
	const { kind, since } = value as IDataObject;
	return typeof kind === 'string' && typeof since === 'string';
}

/** The kept state, or a new one when there is none (a first activation, or static data lost or damaged). */
export function readTriggerState(staticData: IDataObject): TriggerState {
	const kept = staticData[STATE_FIELD];
	// a damaged problem is no announced problem: no Camera Back follows it
	if (isState(kept)) return isProblem(kept.problem) || kept.problem === undefined ? kept : { ...kept, problem: undefined };
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
	const { id, looks, problem, looksOf } = state;
	staticData[STATE_FIELD] = { id, looks, ...(problem ? { problem: { ...problem } } : {}), ...(looksOf ? { looksOf } : {}) };
}

/** Detect's look kept under the trigger's Watch Key, or nothing of it. */
function keptLook(staticData: IDataObject): Record<string, unknown> {
	const looks = staticData.looks;
	const look = isRecord(looks) ? looks[TRIGGER_WATCH_KEY] : undefined;
	return isRecord(look) ? look : {};
}

/**
 * What the next look's events are worked out against, from Detect's look kept under the trigger's
 * Watch Key: the counts as last reported (per zone when zones are set: events are per zone then,
 * so a car passing outside them changes nothing) and the settings they were taken under. Its
 * time, and tracks that only moved, are left out: losing them to a restart loses no event.
 */
export function comparedLook(staticData: IDataObject): string {
	const look = keptLook(staticData);
	return JSON.stringify([look.zones ?? look.counts ?? null, look.settings ?? null]);
}

const isBox = (value: unknown): value is StoredTrack['box'] => Array.isArray(value) && value.length === 4 && value.every((side) => typeof side === 'number' && Number.isFinite(side));

/** The tracks of Detect's kept look that can be read: static data edited or damaged holds anything (Detect itself drops such a look at its next look). */
function keptTracks(tracking: unknown): Array<{ id: number; box: StoredTrack['box'] }> {
	const tracks = isRecord(tracking) && Array.isArray(tracking.tracks) ? tracking.tracks : [];
	return tracks.filter((track): track is { id: number; box: StoredTrack['box'] } => isRecord(track) && typeof track.id === 'number' && isBox(track.box));
}

/** The tracks of Detect's look under the trigger's Watch Key, by id: their boxes as they stand. */
export function trackBoxes(staticData: IDataObject): Map<number, StoredTrack['box']> {
	// copies: the tracker moves a track's box on in place
	return new Map(keptTracks(keptLook(staticData).tracking).map((track) => [track.id, [...track.box] as StoredTrack['box']]));
}

/**
 * Whether a track has moved so far from its box as last saved that, after a restart, the tracker
 * would not take it for the same object (their overlap under Track Min Overlap): it would be
 * announced again as an arrival. Such a look is saved like a change.
 */
export function tracksMovedAway(staticData: IDataObject, saved: ReadonlyMap<number, StoredTrack['box']>): boolean {
	const { tracking } = keptLook(staticData);
	const kept = isRecord(tracking) && isRecord(tracking.matching) ? tracking.matching.minOverlap : undefined;
	const minOverlap = typeof kept === 'number' ? kept : DEFAULT_MIN_OVERLAP;
	return keptTracks(tracking).some((track) => {
		const before = saved.get(track.id);
		return before !== undefined && overlap(before, track.box) < minOverlap;
	});
}

/** A hash (FNV-1a) of the camera's address and whether objects are tracked, so that static data does not hold the address itself. */
export function looksOf(settings: { cameraUrl: string; tracking: boolean }): string {
	return fnv1a(`${settings.tracking ? 'tracked' : 'counted'}\n${settings.cameraUrl}`).toString(16);
}

/**
 * The looks kept are of this camera, tracked or counted as now, or forgotten; the first look after
 * is a baseline, not a change:
 * - a new Camera Snapshot URL is another place;
 * - Track Objects Across Looks turned on or off switches where the events come from (the tracks,
 *   or the counts): an object announced from the one would be announced again from the other.
 * The state's id, its count and an announced problem stay.
 */
export function keepLooksOf(staticData: IDataObject, settings: { cameraUrl: string; tracking: boolean }): void {
	const state = readTriggerState(staticData);
	const of = looksOf(settings);
	if (state.looksOf === of) return;
	if (state.looksOf !== undefined) {
		delete staticData.looks;
		delete staticData.forgottenTracks;
	}
	writeTriggerState(staticData, { ...state, looksOf: of });
}
