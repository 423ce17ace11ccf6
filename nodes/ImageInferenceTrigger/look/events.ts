import type { IDataObject } from 'n8n-workflow';

import { fnv1a } from '../../ImageInference/pipeline/hash';
import { isRecord } from '../../ImageInference/pipeline/records';

/** The events a user can start the workflow on. */
export const EVENT_KINDS = ['arrival', 'departure', 'stay', 'change', 'look'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
/** The trigger's own events about the camera, with Report Camera Problems After set. */
export type CameraEventKind = 'cameraProblem' | 'cameraBack';

/** 0 (never) to a week. */
export const PROBLEM_MINUTES_BOUNDS = { min: 0, max: 10_080 };

/** What each event item carries as `event`, before the trigger gives it its id. */
export interface LookEvent {
	kind: EventKind | CameraEventKind;
	label: string | null;
	zone: string | null;
	trackId: number | null;
	/** Without tracking: by how many the label's count went up or down. */
	count?: number;
	/** A stay: how long, in seconds. */
	stayedSeconds?: number;
}

type Fields = Record<string, unknown>;

const list = (value: unknown): Fields[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** One event per zone the object is in; without zones, one for the image. With zones, an object in none of them is no event, as it is none without tracking. */
function perZone(kind: EventKind, summary: Fields, zoned: boolean, extra: Partial<LookEvent> = {}): LookEvent[] {
	const zones = Array.isArray(summary.zones) ? summary.zones.filter((zone): zone is string => typeof zone === 'string') : [];
	const base = { kind, label: text(summary.label), trackId: number(summary.trackId), ...extra };
	if (zones.length === 0) return zoned ? [] : [{ ...base, zone: null }];
	return zones.map((zone) => ({ ...base, zone }));
}

/** Each label's number in each scope (a zone, or the image: null), as [zone, label, number]; what is not a number is left out. */
function labelNumbers(scopes: Array<[string | null, unknown]>): Array<[string | null, string, number]> {
	return scopes.flatMap(([zone, byLabel]) =>
		isRecord(byLabel) ? Object.entries(byLabel).flatMap(([label, value]): Array<[string | null, string, number]> => (typeof value === 'number' ? [[zone, label, value]] : [])) : [],
	);
}

/** Arrivals and departures of a compared look without tracking: per zone when zones are set, else per label of the image. */
function countChanges(comparison: Fields, kinds: ReadonlySet<EventKind>): LookEvent[] {
	const zones = isRecord(comparison.zones) ? Object.entries(comparison.zones) : [];
	const scopes: Array<[string | null, unknown]> = zones.length ? zones.map(([zone, change]) => [zone, isRecord(change) ? change.changeByLabel : undefined]) : [[null, comparison.changeByLabel]];
	const events: LookEvent[] = [];
	for (const [zone, label, change] of labelNumbers(scopes)) {
		const kind: EventKind = change > 0 ? 'arrival' : 'departure';
		if (change !== 0 && kinds.has(kind)) events.push({ kind, label, zone, trackId: null, count: Math.abs(change) });
	}
	return events;
}

/**
 * The events of one look, from Detect's output item for it (its `comparison` and `tracking`), in
 * the order arrivals, departures, stays, change, look; only the kinds picked.
 */
export function eventsOfLook(output: IDataObject, kinds: ReadonlySet<EventKind>): LookEvent[] {
	const comparison = isRecord(output.comparison) ? output.comparison : {};
	const tracking = isRecord(output.tracking) ? output.tracking : undefined;
	const zoned = isRecord(output.countsByZone);
	const events: LookEvent[] = [];
	if (tracking) {
		if (kinds.has('arrival')) events.push(...list(tracking.arrivals).flatMap((arrival) => perZone('arrival', arrival, zoned)));
		if (kinds.has('departure')) {
			events.push(...list(tracking.departed).flatMap((departed) => perZone('departure', departed, zoned, { stayedSeconds: number(departed.stayedSeconds) ?? undefined })));
		}
		if (kinds.has('stay')) {
			for (const overstay of list(tracking.overstays)) {
				if (overstay.alreadyReported !== false) continue;
				events.push({ kind: 'stay', label: text(overstay.label), zone: text(overstay.zone), trackId: number(overstay.trackId), stayedSeconds: number(overstay.stayedSeconds) ?? undefined });
			}
		}
	} else {
		events.push(...countChanges(comparison, kinds));
	}
	const changed = comparison.changed === true || events.some((event) => event.kind === 'arrival' || event.kind === 'departure');
	if (kinds.has('change') && changed) events.push({ kind: 'change', label: null, zone: null, trackId: null });
	if (kinds.has('look')) events.push({ kind: 'look', label: null, zone: null, trackId: null });
	return events;
}

/**
 * What a test run shows when its look has none of the events picked: an event of the first kind
 * picked for each label in view (per zone, with zones), with its count, so the nodes after the
 * trigger get an item of the shape they will work with (without a track's id or stay, which only
 * tracking across looks gives). None for an arrival, departure or stay when nothing is in view.
 */
export function sampleEventsOfLook(output: IDataObject, kinds: ReadonlySet<EventKind>): LookEvent[] {
	const kind = EVENT_KINDS.find((candidate) => kinds.has(candidate));
	if (kind === undefined) return [];
	if (kind === 'change' || kind === 'look') return [{ kind, label: null, zone: null, trackId: null }];
	const scopes: Array<[string | null, unknown]> = isRecord(output.countsByZone) ? Object.entries(output.countsByZone) : [[null, output.countsByLabel]];
	return labelNumbers(scopes)
		.filter(([, , count]) => count > 0)
		.map(([zone, label, count]) => ({ kind, label, zone, trackId: null, count }));
}

/**
 * An event's id: the trigger's state id, the number of the look that announced it, and what it is.
 * A look worked out again after a crash before n8n saved its state gets the same ids.
 */
export function eventId(stateId: string, lookNumber: number, event: LookEvent): string {
	// a label or zone with a colon in it keeps the parts apart: % and : written as %25 and %3A
	const part = (value: string | null) => (value ?? '').replace(/%/g, '%25').replace(/:/g, '%3A');
	return [stateId, lookNumber, event.kind, part(event.label), part(event.zone), event.trackId ?? ''].join(':');
}

/**
 * The key n8n 2.x drops a repeated execution by (`emit`'s 4th argument; a unique column of 255
 * characters over all executions: @n8n/db's AddExecutionDeduplicationKey migration): the state,
 * the look's number, and a hash of its events' ids, so only the same events announced again are
 * dropped, not another event that comes to the same number after a crash.
 */
export function deduplicationKey(stateId: string, lookNumber: number, ids: readonly string[]): string {
return `image-inference-trigger:${stateId}:${lookNumber}:${fnv1a(ids.join('\n')).toString(16)}`;
}
