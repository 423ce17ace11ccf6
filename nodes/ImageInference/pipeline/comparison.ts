import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readChoice, readOptionalBoolean, readOptionalNumber, truncate } from '../parameters/readers';
import { fnv1a } from './hash';
import { isStoredTime, isoTime } from './isoTime';
import { jsonLength } from './jsonLength';
import { countOneMore, hasOwnField, isRecord, ownField, setOwnField } from './records';
import type { StoredTrack, TrackingSettings, TrackingState } from './tracking';
import { isCounts, trackingStateJsonLength, trackingStateProblem } from './tracking';
import type { DetectionOptions } from './types';

/**
 * Compare With Previous Look: each watch key's last counts, kept in the workflow's static data
 * (`getWorkflowStaticData('node')`, which n8n saves after production executions only: see
 * docs/watching.md), and what changed since they were last reported.
 */

/** The most watch keys kept; beyond it the key seen longest ago is forgotten. */
export const MAX_WATCH_KEYS = 100;
/**
 * The most the node keeps in static data, as JSON characters: n8n writes a workflow's static data
 * back after each production execution that changed it. Beyond it the keys seen longest ago are
 * forgotten (a key with 20 zones of 30 short labels each takes about 7 KB; docs/watching.md).
 */
export const MAX_WATCH_BYTES = 100_000;
export const MAX_WATCH_KEY_LENGTH = 200;
/**
 * The most keys whose tracks the bound dropped that the static data keeps a note of (`forgottenTracks`), beside the looks' MAX_WATCH_BYTES: each its key's JSON
 * (at most 1,202 characters, 6 for each control character or lone surrogate) and under 120 more.
 */
export const MAX_FORGOTTEN_NOTES = 20;
/** A week. */
export const COOLDOWN_BOUNDS = { min: 0, max: 10_080 };
export const DEFAULT_WATCH_KEY = 'default';
/** What one cooldown covers: every change of a kind for the key, per label, or per zone and label. */
export const COOLDOWN_SCOPES = ['watchKey', 'label', 'zoneAndLabel'] as const;
export type CooldownScope = (typeof COOLDOWN_SCOPES)[number];
export const DEFAULT_COOLDOWN_SCOPE: CooldownScope = 'watchKey';
export const DEPARTURE_AFTER_LOOKS_BOUNDS = { min: 1, max: 100, integer: true };
export const DEFAULT_DEPARTURE_AFTER_LOOKS = 1;

export type Counts = Record<string, number>;

export interface Watch {
	key: string;
	cooldownMs: number;
	cooldownScope: CooldownScope;
	/** How many looks in a row a count must stay lower than reported before the drop is reported. */
	departureAfterLooks: number;
	/** A fingerprint of what decides the counts (the model, threshold, labels, zones, sizes): a look under other settings is not compared. */
	settings?: string;
	tracking?: TrackingSettings;
}

type ChangeKind = 'arrival' | 'departure';

/** What the static data keeps of a key. */
interface RememberedLook {
	/** When the key's last look was taken. */
	seenAt: string;
	/** The counts as last reported (or of the baseline look): each look compares with them. */
	counts: Counts;
	zones?: Record<string, Counts>;
	/** The running cooldowns: JSON of [kind, …the scope's zone and label] → when the change that started it was reported. */
	cooldowns?: Record<string, string>;
	/** Per JSON [zone or null, label]: how many looks in a row the count has been lower than reported. */
	lowerFor?: Record<string, number>;
	/** The settings the counts were taken under (Watch.settings). */
	settings?: string;
	/** Track Objects Across Looks: the key's tracks. */
	tracking?: TrackingState;
	/** The tracks were set aside by looks with tracking off (PausedTracks). */
	paused?: PausedTracks;
}

/**
 * Beside tracks set aside by looks with Track Objects Across Looks off: since when, and whether a
 * look among them was taken under other settings than the look before it (then the look with
 * tracking on again is tracking's baseline, as the look under other settings would have been).
 */
interface PausedTracks {
	since: string;
	changed?: true;
}

/**
 * What the static data keeps of a key whose tracks the bound dropped (`forgottenTracks`): when, its
 * next track id, how many tracks it held.
 */
interface ForgottenNote {
	at: string;
	nextId: number;
	tracks: number;
	/** Counts the notes written: the cap drops the lowest (a record lists integer-like keys first, whatever the order they were set in). */
	order: number;
}

export interface Change {
	/** Labels whose count went from 0 to more. */
	appeared: string[];
	/** Labels whose count went to 0. */
	disappeared: string[];
	/** The difference per label whose count changed (+2, -1). */
	changeByLabel: Counts;
	/** The counts as last reported. */
	previousCountsByLabel: Counts;
}

/** A change that differs from the counts as last reported but is not reported by this look. */
export interface HeldBackChange {
	label: string;
	/** null: the whole image. */
	zone: string | null;
	change: number;
	kind: ChangeKind;
	heldBy: 'cooldown' | 'departureAfterLooks';
	/** With heldBy cooldown: which cooldown, and until when it runs (ISO time). */
	cooldownScope?: CooldownScope;
	until?: string;
	/** With heldBy departureAfterLooks: how many looks in a row the count has been lower. */
	lowerForLooks?: number;
}

export interface Comparison extends Change {
	key: string;
	changed: boolean;
	reason: string;
	/** When the previous look was taken (ISO time); null on a key's first look. */
	previousSeenAt: string | null;
	/** When the last of the key's running cooldowns ends (ISO time); null when none runs. */
	cooldownUntil: string | null;
	heldBack: HeldBackChange[];
	/** The same per zone, when zones are set. */
	zones?: Record<string, Change>;
}

export function readWatch(this: IExecuteFunctions, itemIndex: number, options: IDataObject): Watch | undefined {
	// off for this item (Compare set by an expression): its options, which n8n keeps beside an
	// expression (n8n-workflow's NodeHelpers.displayParameter), apply to nothing
	if (!readOptionalBoolean.call(this, itemIndex, options, 'compareWithPreviousLook', 'Compare With Previous Look')) return undefined;
	const raw = options.watchKey;
	const key = raw === undefined ? DEFAULT_WATCH_KEY : typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (key === '' || key.length > MAX_WATCH_KEY_LENGTH) {
		throw new NodeOperationError(this.getNode(), key === '' ? 'Watch Key is empty' : `Watch Key is longer than ${MAX_WATCH_KEY_LENGTH} characters`, {
			itemIndex,
			description: `Give each watched place a short key, e.g. the camera’s name or {{ $json.cameraId }}; remove the option to use one key ("${DEFAULT_WATCH_KEY}") for the node.`,
		});
	}
	const minutes = readOptionalNumber.call(this, itemIndex, options, 'cooldownMinutes', 'Cooldown (Minutes)', COOLDOWN_BOUNDS) ?? 0;
	const cooldownScope = readChoice(this, itemIndex, options.cooldownScope ?? DEFAULT_COOLDOWN_SCOPE, COOLDOWN_SCOPES, OPTION_LABELS.cooldownScope);
	const departureAfterLooks =
		readOptionalNumber.call(this, itemIndex, options, 'departureAfterLooks', OPTION_LABELS.departureAfterLooks, DEPARTURE_AFTER_LOOKS_BOUNDS) ?? DEFAULT_DEPARTURE_AFTER_LOOKS;
	return { key, cooldownMs: minutes * 60_000, cooldownScope, departureAfterLooks };
}

const OPTION_LABELS = { cooldownScope: 'Cooldown Scope', departureAfterLooks: 'Departure After Looks' };

/** A key's tracks moved on by a look, and the tracks its objects continue or start (told by matching, not by time: two looks may share a millisecond). */
export interface MovedTracks {
	state: TrackingState;
	seen: ReadonlySet<StoredTrack>;
}

/**
 * Compares this look's counts with the key's counts as last reported, and keeps what the next look
 * needs. A key's first look, and the first under other settings, is the baseline: nothing is
 * reported. A change held back (by a running cooldown of its kind and scope, or a drop not yet
 * seen for Departure After Looks) is not taken into the reported counts: a later look reports it
 * if it still holds. Looks of another shape in the static data are started afresh, each said in
 * `warnings`.
 */
export function compareWithPreviousLook(
	store: IDataObject,
	watch: Watch,
	/**
	 * `tracking` moves the previous look's tracks on (in place) and gives the tracks to keep; the
	 * tracks outlive a change of the settings. `baseline`: the look reports no arrival or departure
	 * (the key's first look, the first under other settings, or the first with tracks). `lost`:
	 * the key was forgotten by the bound with tracks, which gave ids up to `nextId`.
	 */
	current: {
		counts: Counts;
		zones?: Record<string, Counts>;
		tracking?: (previous: TrackingState | undefined, baseline: boolean, lost?: { nextId: number }) => MovedTracks;
		/** With tracking off: moves the tracks set aside on with this look's objects (moveSetAsideTracks); `baseline`: a look under other settings, which counts no track missing. Gives the tracks the look sees. */
		setAside?: (tracks: TrackingState, baseline: boolean) => ReadonlySet<StoredTrack>;
	},
	now: number,
	warnings: string[] = [],
): Comparison {
	const { looks, memo } = looksToWrite(store, warnings, watch.key);
	const hadKey = hasOwnField(looks, watch.key);
	const previous = hadKey ? looks[watch.key] : undefined;
	// the note of tracks dropped is said by the key's next look that tracks again
	const lost = current.tracking && previous?.tracking === undefined ? takeForgottenNote(store, watch.key) : undefined;
	if (lost) {
		warnings.push(
			`Track Objects Across Looks: the tracks of Watch Key "${truncate(watch.key, 40)}" (${lost.tracks === 0 ? 'none standing, in the looks after an earlier loss' : `${lost.tracks} ${lost.tracks === 1 ? 'track' : 'tracks'}`}) were forgotten at ${lost.at} to keep the workflow’s static data within ${MAX_WATCH_BYTES.toLocaleString('en-US')} characters; they start afresh with this look: the stays of the objects standing now count from it and carry resumedAfterLoss`,
		);
	}
	// the cooldowns still running, and when the last of them ends
	let cooldowns: Record<string, string> = {};
	let cooldownCount = 0;
	let endedCooldowns = 0;
	let lastEnd = -Infinity;
	const previousCooldowns = previous?.cooldowns ?? {};
	for (const name in previousCooldowns) {
		const start = previousCooldowns[name];
		const end = cooldownEnd(start, watch);
		if (end <= now) {
			endedCooldowns++;
			continue;
		}
		cooldowns[name] = start;
		cooldownCount++;
		lastEnd = Math.max(lastEnd, end);
	}
	const comparing = previous !== undefined && previous.settings === watch.settings;

	const judging: Judging = { watch, comparing, cooldowns, lowerForBefore: previous?.lowerFor ?? {}, startedCooldowns: [], lowerFor: {}, lowerForCount: 0, heldBack: [] };
	const overall = judge(judging, null, previous?.counts ?? {}, current.counts);
	let keptByZone: Record<string, Counts> | undefined;
	let changeByZone: Record<string, Change> | undefined;
	if (current.zones) {
		keptByZone = {};
		changeByZone = {};
		let zoneCount = 0;
		let keptAsReported = true;
		for (const zone in current.zones) {
			const reported = previous?.zones && ownField(previous.zones, zone);
			const { change, kept } = judge(judging, zone, reported ?? {}, current.zones[zone]);
			setOwnField(keptByZone, zone, kept);
			setOwnField(changeByZone, zone, change);
			zoneCount++;
			keptAsReported &&= kept === reported;
		}
		// no zone's counts changed: the look keeps the reported ones, as it does the counts of the whole image
		if (keptAsReported && previous?.zones && Object.keys(previous.zones).length === zoneCount) keptByZone = previous.zones;
	}
	const { startedCooldowns, lowerFor, heldBack } = judging;
	const changed = startedCooldowns.length > 0;

	// measured before tracking moves the previous look's tracks on, in place
	const keysBefore = Object.keys(looks).length;
	const written = memo.written.get(watch.key);
	const previousLength = previous === undefined ? 0 : written?.look === previous ? written.length : lookLength(previous);
	const measured = memo.measured.keys === keysBefore ? memo.measured.length : jsonLength(looks);
	// without the key's entry, and the comma that joins it to another
	const sizeWithoutThisKey = previous === undefined ? measured : measured - entryLength(watch.key, previousLength) - (keysBefore > 1 ? 1 : 0);
	// the settings changed while tracking was off: a baseline for the tracks, as it would have been with it on
	const trackingBaseline = !comparing || previous.tracking === undefined || previous.paused?.changed === true;
	const moved = current.tracking?.(previous?.tracking, trackingBaseline, lost);
	const tracking = moved?.state;
	// a look with tracking off moves the key's tracks on without starting or reporting any, for when it is on again
	const seen = moved ? moved.seen : previous?.tracking && current.setAside?.(previous.tracking, !comparing);
	const tracks = tracking ?? previous?.tracking;
	if (tracks && previous?.tracking && !comparing) keepCountedWhileTracked(tracks, seen, previous, judging, overall.kept, keptByZone);
	const nowIso = isoTime(now);
	// none ended, none started: the look keeps the cooldowns it had
	if (previous?.cooldowns && endedCooldowns === 0 && !(watch.cooldownMs > 0 && changed)) cooldowns = previous.cooldowns;
	if (watch.cooldownMs > 0 && changed) {
		for (const name of startedCooldowns) {
			if (!hasOwnField(cooldowns, name)) cooldownCount++;
			cooldowns[name] = nowIso;
		}
		lastEnd = Math.max(lastEnd, cooldownEnd(nowIso, watch));
	}
	const look: RememberedLook = { seenAt: nowIso, counts: overall.kept };
	if (keptByZone) look.zones = keptByZone;
	if (cooldownCount > 0) look.cooldowns = cooldowns;
	if (judging.lowerForCount > 0) look.lowerFor = lowerFor;
	if (watch.settings !== undefined) look.settings = watch.settings;
	if (tracking) look.tracking = tracking;
	else if (previous?.tracking) {
		look.tracking = previous.tracking;
		const changed = previous.paused?.changed === true || !comparing;
		look.paused = { since: previous.paused?.since ?? nowIso, ...(changed ? { changed } : {}) };
	}
	const length = previous !== undefined && keepsWhatItKept(look, previous) ? previousLength : lookLength(look);
	setOwnField(looks, watch.key, look);
	memo.written.set(watch.key, { look, length });
	// set at every look: n8n saves the static data only when its proxy sees a set, and may keep the
	// same static data objects from one execution to the next (looksToWrite)
	store.looks = looks;
	forgetOldest(store, looks, memo, watch.key, keysBefore + (hadKey ? 0 : 1), sizeWithoutThisKey + entryLength(watch.key, length), nowIso);

	const comparison = {
		key: watch.key,
		changed,
		reason: reasonFor(previous === undefined, comparing, changed, heldBack),
		appeared: overall.change.appeared,
		disappeared: overall.change.disappeared,
		changeByLabel: overall.change.changeByLabel,
		previousCountsByLabel: overall.change.previousCountsByLabel,
		previousSeenAt: previous?.seenAt ?? null,
		cooldownUntil: lastEnd > -Infinity ? isoTime(lastEnd) : null,
		heldBack,
	};
	// in the one literal: the output keeps the comparison, and a field added afterwards gets a store of its own
	return changeByZone ? { ...comparison, zones: changeByZone } : comparison;
}

/**
 * On the first look under other settings, the objects this look does not see whose tracks go on
 * (a track unseen on a baseline look is not counted missing) stay in the baseline's counts, per
 * label and per zone they were last in, as far as the counts last reported held them: the
 * comparison reports them gone by the looks after it, as tracking reports their departure, rather
 * than never; a drop it already reported is not reported again. The looks such a count was lower
 * for go on (without this look), as the tracks' missed looks do.
 */
function keepCountedWhileTracked(
	tracking: TrackingState,
	seen: ReadonlySet<StoredTrack> | undefined,
	previous: RememberedLook,
	judging: Judging,
	counts: Counts,
	byZone: Record<string, Counts> | undefined,
): void {
	const held: Counts = {};
	const heldByZone: Record<string, Counts> = {};
	for (const track of tracking.tracks) {
		if (seen?.has(track)) continue;
		countOneMore(held, track.label);
		for (const zone in track.zones) {
			if (!hasOwnField(heldByZone, zone)) setOwnField(heldByZone, zone, {});
			countOneMore(ownField(heldByZone, zone)!, track.label);
		}
	}
	addHeld(judging, null, counts, held, previous.counts);
	for (const zone in heldByZone) {
		const zoneCounts = byZone && ownField(byZone, zone);
		const reported = previous.zones && ownField(previous.zones, zone);
		if (zoneCounts && reported) addHeld(judging, zone, zoneCounts, heldByZone[zone], reported);
	}
}

/** Each label's count raised towards the count last reported, by at most the tracks held unseen; a raised count keeps its looks lower. */
function addHeld(judging: Judging, zone: string | null, counts: Counts, held: Counts, reported: Counts): void {
	for (const label in held) {
		const seen = ownField(counts, label) ?? 0;
		const kept = Math.min(seen + held[label], Math.max(seen, ownField(reported, label) ?? 0));
		if (kept <= seen) continue;
		setOwnField(counts, label, kept);
		const where = JSON.stringify([zone, label]);
		const lowerForLooks = ownField(judging.lowerForBefore, where);
		if (lowerForLooks !== undefined) {
			judging.lowerFor[where] = lowerForLooks;
			judging.lowerForCount++;
		}
	}
}

/** What judging one look gathers across the whole image and its zones. */
interface Judging {
	watch: Watch;
	/** The previous look was taken under the same settings: its counts are compared with. */
	comparing: boolean;
	/** The running cooldowns, by name (cooldownName's JSON) → when the change that started it was reported. */
	cooldowns: Record<string, string>;
	/** The previous look's lowerFor. */
	lowerForBefore: Record<string, number>;
	/** The names of the cooldowns the changes this look reports start. */
	startedCooldowns: string[];
	/** Per JSON [zone or null, label]: how many looks in a row the count has been lower than reported. */
	lowerFor: Record<string, number>;
	lowerForCount: number;
	heldBack: HeldBackChange[];
}

/**
 * Judges each label's difference from the counts as last reported; gives what is reported and
 * the counts to keep (the reported counts themselves when none of them changes: a look is never
 * changed once kept).
 */
function judge(judging: Judging, zone: string | null, reported: Counts, counts: Counts): { change: Change; kept: Counts } {
	const change: Change = { appeared: [], disappeared: [], changeByLabel: {}, previousCountsByLabel: { ...reported } };
	if (!judging.comparing) return { change, kept: { ...counts } };
	let kept = reported;
	for (const label in reported) {
		const after = ownField(counts, label) ?? 0;
		if (reports(judging, change, zone, label, reported[label], after)) kept = keptWith(kept, reported, label, after);
	}
	for (const label in counts) {
		if (!hasOwnField(reported, label) && reports(judging, change, zone, label, 0, counts[label])) kept = keptWith(kept, reported, label, counts[label]);
	}
	return { change, kept };
}

/** Whether this look reports a change of the label's count (into `change`); false when the count is the same, or the change is held back (into `judging.heldBack`). */
function reports(judging: Judging, change: Change, zone: string | null, label: string, before: number, after: number): boolean {
	if (before === after) return false;
	const { watch } = judging;
	const kind: ChangeKind = after > before ? 'arrival' : 'departure';
	const held = { label, zone, change: after - before, kind };
	const where = JSON.stringify([zone, label]);
	if (kind === 'departure') {
		const lowerForLooks = (ownField(judging.lowerForBefore, where) ?? 0) + 1;
		judging.lowerFor[where] = lowerForLooks;
		judging.lowerForCount++;
		if (lowerForLooks < watch.departureAfterLooks) {
			judging.heldBack.push({ ...held, heldBy: 'departureAfterLooks', lowerForLooks });
			return false;
		}
	}
	const cooldown = JSON.stringify(cooldownName(kind, watch.cooldownScope, zone, label));
	const start = ownField(judging.cooldowns, cooldown);
	if (start !== undefined) {
		judging.heldBack.push({ ...held, heldBy: 'cooldown', cooldownScope: watch.cooldownScope, until: isoTime(cooldownEnd(start, watch)) });
		return false;
	}
	if (hasOwnField(judging.lowerFor, where)) {
		delete judging.lowerFor[where];
		judging.lowerForCount--;
	}
	judging.startedCooldowns.push(cooldown);
	setOwnField(change.changeByLabel, label, held.change);
	if (before === 0) change.appeared.push(label);
	if (after === 0) change.disappeared.push(label);
	return true;
}

/** The counts to keep with a reported change of `label`: a copy of the reported counts the first time one changes. */
function keptWith(kept: Counts, reported: Counts, label: string, after: number): Counts {
	const counts = kept === reported ? { ...reported } : kept;
	if (after === 0) delete counts[label];
	else setOwnField(counts, label, after);
	return counts;
}

function cooldownEnd(start: string, watch: Watch): number {
	return Date.parse(start) + watch.cooldownMs;
}

/**
 * What this process knows of a looks object it made (looksToWrite): the JSON length of the whole
 * and its number of keys when last measured, and for each key the look it last wrote there with
 * that look's JSON length. Each look measures its own entry, not every key's (all of them would
 * make each look cost as much as the 100 keys). Only this file writes the looks; a number of keys
 * that differs, or a look that is not the one written, was changed elsewhere and is measured again.
 */
interface LooksMemo {
	measured: { length: number; keys: number };
	written: Map<string, { look: RememberedLook; length: number }>;
}

const looksMemos = new WeakMap<object, LooksMemo>();

/**
 * The static data's looks, as plain objects of this process. Read from the static data (each
 * execution's first look), they are n8n's proxy, each nested object too (n8n-workflow's
 * ObservableObject.create), through which each look would list, read and write up to 100 keys and
 * tracking every track's fields; they are copied once, through their JSON (whose length is the
 * first measure of the bound), and set in their place. n8n saves the static data when its proxies
 * saw a set at any depth: a set marks the whole workflow's static data changed (`__dataChanged`
 * of its root, which n8n's WorkflowStaticDataService.saveStaticData checks; Workflow.getStaticData
 * gives a node's static data that root as parent), so each look sets `looks` again on the node's
 * static data (n8n-workflow's workflow.js and observable-object.js, n8n's
 * workflow-static-data.service.js, 1.123.81 and 2.41.1).
 */
function looksToWrite(store: IDataObject, warnings: string[], key: string): { looks: Record<string, RememberedLook>; memo: LooksMemo } {
	const looks = store.looks as Record<string, RememberedLook> | undefined;
	const memo = looks !== undefined ? looksMemos.get(looks) : undefined;
	if (looks !== undefined && memo !== undefined) return { looks, memo };
	let json = looks === undefined ? '{}' : JSON.stringify(looks);
	let plain = JSON.parse(json) as unknown;
	const warned = warnings.length;
	if (!isRecord(plain)) {
		warnings.push(`Compare With Previous Look: the looks kept in the workflow’s static data are not an object (${kindOf(plain)}), so every Watch Key starts afresh with its next look`);
		plain = {};
		json = '{}';
	}
	const readable = plain as Record<string, RememberedLook>;
	// an item's output (a webhook's answer) names its own key only: the others are counted
	let othersUnread = 0;
	for (const name of Object.keys(readable)) {
		const problem = lookProblem(readable[name]);
		if (problem === undefined) continue;
		if (name === key) warnings.push(`Compare With Previous Look: the look kept for Watch Key "${truncate(name, 40)}" ${problem}, so the key starts afresh with its next look`);
		else othersUnread++;
		delete readable[name];
	}
	if (othersUnread > 0) {
		warnings.push(
			othersUnread === 1
				? 'Compare With Previous Look: 1 other Watch Key’s look kept in the workflow’s static data could not be read, so it starts afresh with its next look'
				: `Compare With Previous Look: ${othersUnread} other Watch Keys’ looks kept in the workflow’s static data could not be read, so they start afresh with their next look`,
		);
	}
	if (warnings.length > warned) json = JSON.stringify(readable);
	store.looks = readable;
	const made: LooksMemo = { measured: { length: json.length, keys: Object.keys(readable).length }, written: new Map() };
	looksMemos.set(readable, made);
	return { looks: readable, memo: made };
}

/** What a value that should be an object is, without its content (which may name keys). */
function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return 'a text';
	if (typeof value === 'number') return 'a number';
	return String(value);
}

const isTimeText = (value: unknown) => typeof value === 'string' && isStoredTime(Date.parse(value));
/** A cooldown's start: its end, up to the longest cooldown later, is a time Date can hold too. */
const isCooldownStart = (value: unknown) => isTimeText(value) && isStoredTime(Date.parse(value as string) + COOLDOWN_BOUNDS.max * 60_000);

/** What is wrong with a look as the static data holds it: the first field found wrong, or undefined when a look can compare with it. */
function lookProblem(look: unknown): string | undefined {
	if (!isRecord(look)) return 'is not an object';
	if (!isTimeText(look.seenAt)) return 'has no time it was seen';
	if (!isCounts(look.counts)) return 'has no counts';
	if (look.zones !== undefined && !(isRecord(look.zones) && Object.values(look.zones).every(isCounts))) return 'has no readable counts per zone';
	if (look.cooldowns !== undefined && !(isRecord(look.cooldowns) && Object.values(look.cooldowns).every(isCooldownStart))) return 'has no readable cooldowns';
	if (look.lowerFor !== undefined && !isCounts(look.lowerFor)) return 'has no readable counts of looks lower';
	if (look.settings !== undefined && typeof look.settings !== 'string') return 'has no readable settings';
	if (look.paused !== undefined && !isPausedTracks(look.paused)) return 'has no readable note of tracks set aside';
	const trackingProblem = look.tracking === undefined ? undefined : trackingStateProblem(look.tracking);
	return trackingProblem && `has tracks that are not readable: the state ${trackingProblem}`;
}

const isPausedTracks = (value: unknown): boolean => isRecord(value) && isTimeText(value.since) && (value.changed === undefined || value.changed === true);

/** The cooldown a change waits for: its kind, and the zone and label as far as the scope tells them apart. */
function cooldownName(kind: ChangeKind, scope: CooldownScope, zone: string | null, label: string): unknown[] {
	if (scope === 'label') return [kind, label];
	if (scope === 'zoneAndLabel') return [kind, zone, label];
	return [kind];
}

function reasonFor(firstLook: boolean, comparing: boolean, changed: boolean, heldBack: HeldBackChange[]): string {
	if (firstLook) return 'first look for this key: nothing to compare with yet';
	if (!comparing) return 'the threshold, labels, zones or sizes changed since the last look: this look is the new baseline';
	if (heldBack.length === 0) return changed ? 'changed since the counts last reported' : 'no change since the counts last reported';
	const why = [
		...new Set(
			heldBack.map((held) =>
				held.heldBy === 'cooldown'
					? `within the ${held.kind === 'arrival' ? 'arrivals’' : 'departures’'} cooldown until ${held.until}`
					: `lower for ${held.lowerForLooks} look(s) of the Departure After Looks`,
			),
		),
	].join('; ');
	return changed ? `changed since the counts last reported; some changes not reported yet: ${why}` : `changed since the counts last reported, not reported yet: ${why}`;
}

/** `"key":{…}` as JSON, for a look of `lookLength` characters. */
function entryLength(key: string, lookLength: number): number {
	return jsonLength(key) + 1 + lookLength;
}

const KEPT_FIELDS = ['counts', 'zones', 'cooldowns', 'lowerFor', 'settings'] as const;

/**
 * A look that keeps what the look before it kept (its counts, zones, cooldowns: the same objects),
 * only seen at another time of the same length, is as long as that look: most looks of a place
 * where nothing changes. Tracks move on in place: a tracked look is always measured.
 */
function keepsWhatItKept(look: RememberedLook, previous: RememberedLook): boolean {
	return look.tracking === undefined && previous.tracking === undefined && look.seenAt.length === previous.seenAt.length && KEPT_FIELDS.every((field) => look[field] === previous[field]);
}

function lookLength(look: RememberedLook): number {
	// tracking counts its state faster: the look's other fields, with "null" in its place
	return look.tracking === undefined ? jsonLength(look) : jsonLength({ ...look, tracking: null }) - 'null'.length + trackingStateJsonLength(look.tracking);
}

/**
 * Whether dropping these tracks leaves a note: the key holds tracks, or its looks after an earlier
 * loss still flag new tracks (an object hidden then may still come back), whose note this carries on.
 */
const leavesNote = (tracking: TrackingState) => tracking.tracks.length > 0 || tracking.resumedLooks !== undefined || tracking.endedWhileOff !== undefined;

/**
 * Forgets keys while more than MAX_WATCH_KEYS are kept or they take more than MAX_WATCH_BYTES;
 * never `current`. The keys that leave no note (leavesNote) go first, then those whose objects stand there (whose
 * stays and alerts would start again), each seen longest ago first; a key forgotten with tracks
 * leaves a note (noteForgotten). `keys`: how many the looks hold, `current`'s included; `entries`:
 * their JSON length without the entry of `current`, plus that entry; the comma joining it to the
 * others is counted here. The looks' keys are listed and sorted only when some must go.
 */
function forgetOldest(store: IDataObject, looks: Record<string, RememberedLook>, memo: LooksMemo, current: string, keys: number, entries: number, nowIso: string): void {
	let size = entries + (keys > 1 ? 1 : 0);
	if (keys > MAX_WATCH_KEYS || size > MAX_WATCH_BYTES) {
		// keys without tracks go first, then those whose tracks tracking turned off set aside, then those tracking
		const tracked = (key: string) => {
			const tracking = looks[key].tracking;
			if (!tracking || !leavesNote(tracking)) return 0;
			return looks[key].paused === undefined ? 2 : 1;
		};
		const byOrder = Object.keys(looks)
			.filter((key) => key !== current)
			.sort((a, b) => tracked(a) - tracked(b) || Date.parse(looks[a].seenAt) - Date.parse(looks[b].seenAt));
		for (const key of byOrder) {
			if (Object.keys(looks).length <= MAX_WATCH_KEYS && size <= MAX_WATCH_BYTES) break;
			const written = memo.written.get(key);
			// the entry's own characters and the comma between entries
			size -= entryLength(key, written?.look === looks[key] ? written.length : lookLength(looks[key])) + 1;
			const tracking = looks[key].tracking;
			if (tracking && leavesNote(tracking)) noteForgotten(store, key, { at: nowIso, nextId: tracking.nextId, tracks: tracking.tracks.length + (tracking.endedWhileOff?.length ?? 0) });
			delete looks[key];
			memo.written.delete(key);
		}
		keys = Object.keys(looks).length;
	}
	memo.measured = { length: size, keys };
}

/** The notes of keys forgotten with tracks, as the static data holds them: only the readable ones (a note only flags the key's next tracks). */
function forgottenNotes(store: IDataObject): Record<string, ForgottenNote> {
	const notes: Record<string, ForgottenNote> = {};
	const kept = store.forgottenTracks;
	if (!isRecord(kept)) return notes;
	for (const key of Object.keys(kept)) {
		const note = kept[key];
		if (isRecord(note) && isTimeText(note.at) && Number.isSafeInteger(note.nextId) && Number.isSafeInteger(note.tracks) && Number.isSafeInteger(note.order)) {
			setOwnField(notes, key, {
				at: note.at as string,
				nextId: note.nextId as number,
				tracks: note.tracks as number,
				order: note.order as number,
			});
		}
	}
	return notes;
}

/** Keeps a note that `key` was forgotten with tracks, for its next look; of more than MAX_FORGOTTEN_NOTES, the oldest goes. */
function noteForgotten(store: IDataObject, key: string, note: Omit<ForgottenNote, 'order'>): void {
	const notes = forgottenNotes(store);
	delete notes[key];
	const names = Object.keys(notes).sort((a, b) => notes[a].order - notes[b].order);
	const order = names.length > 0 ? notes[names[names.length - 1]].order + 1 : 0;
	setOwnField(notes, key, { ...note, order });
	for (const name of names.slice(0, Math.max(names.length + 1 - MAX_FORGOTTEN_NOTES, 0))) delete notes[name];
	store.forgottenTracks = notes;
}

/** The note of `key` forgotten with tracks, taken out of the static data; undefined when there is none. */
function takeForgottenNote(store: IDataObject, key: string): ForgottenNote | undefined {
	const notes = forgottenNotes(store);
	const note = ownField(notes, key);
	if (note === undefined) return undefined;
	delete notes[key];
	if (Object.keys(notes).length > 0) store.forgottenTracks = notes;
	else delete store.forgottenTracks;
	return note;
}

/**
 * The fingerprint of the settings a look is taken under: the service's threshold and the steps'
 * options. Track Objects Across Looks counts nothing, so turning it on or off is no other setting.
 */
export function settingsFingerprint(confidence: number | null, detectionOptions: DetectionOptions): string {
	return fingerprint({ confidence, ...detectionOptions, zonesAndSizes: { ...detectionOptions.zonesAndSizes, tracked: undefined } });
}

/**
 * The settings a look of `modelId` is compared under: another model names and finds things its own
 * way, so its first look is a new baseline, not a change.
 */
export function settingsWithModel(settings: string | undefined, modelId: string): string {
	return fingerprint([settings, modelId]);
}

/** A short fingerprint of a value's JSON (FNV-1a, 32 bits): enough to tell settings apart, small to keep. */
export function fingerprint(value: unknown): string {
	return fnv1a(JSON.stringify(value) ?? '').toString(16).padStart(8, '0');
}

