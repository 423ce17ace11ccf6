import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readOptionalBoolean, readOptionalNumber } from '../parameters/readers';

/**
 * Compare With Previous Look: each watch key's last counts, kept in the workflow's static data
 * (`getWorkflowStaticData('node')`, which n8n saves after production executions only: see
 * docs/watching.md), and what changed since.
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
/** A week. */
export const COOLDOWN_BOUNDS = { min: 0, max: 10_080 };
export const DEFAULT_WATCH_KEY = 'default';

export type Counts = Record<string, number>;

export interface Watch {
	key: string;
	cooldownMs: number;
	/** A fingerprint of what decides the counts (threshold, labels, zones, sizes): a look under other settings is not compared. */
	settings?: string;
}

/** What the static data keeps of a key's last look. */
interface RememberedLook {
	seenAt: string;
	counts: Counts;
	zones?: Record<string, Counts>;
	/** When a change was last reported for this key: the cooldown runs from it. */
	reportedAt?: string;
	/** The settings the look was taken under (Watch.settings). */
	settings?: string;
}

export interface Change {
	/** Labels whose count went from 0 to more. */
	appeared: string[];
	/** Labels whose count went to 0. */
	disappeared: string[];
	/** The difference per label whose count changed (+2, -1). */
	changeByLabel: Counts;
	previousCountsByLabel: Counts;
}

export interface Comparison extends Change {
	key: string;
	changed: boolean;
	reason: string;
	/** When the previous look was taken (ISO time); null on a key's first look. */
	previousSeenAt: string | null;
	/** Until when changes for this key are not reported (ISO time); null when no cooldown runs. */
	cooldownUntil: string | null;
	/** The same per zone, when zones are set. */
	zones?: Record<string, Change>;
}

export function readWatch(this: IExecuteFunctions, itemIndex: number, options: IDataObject): Watch | undefined {
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
	return { key, cooldownMs: minutes * 60_000 };
}

/**
 * Compares this look's counts with the key's last look, and keeps this look as the key's last.
 * A key's first look is the baseline: nothing is reported. A change within the cooldown of the
 * last reported one is kept (the next look compares with it) but not reported.
 */
export function compareWithPreviousLook(
	store: IDataObject,
	watch: Watch,
	current: { counts: Counts; zones?: Record<string, Counts> },
	now: number,
): Comparison {
	const looks = (store.looks ??= {}) as Record<string, RememberedLook>;
	const previous = Object.prototype.hasOwnProperty.call(looks, watch.key) ? looks[watch.key] : undefined;
	const overall = changeBetween(previous?.counts ?? {}, current.counts);
	const zones = current.zones && Object.fromEntries(Object.entries(current.zones).map(([zone, counts]) => [zone, changeBetween(previous?.zones?.[zone] ?? {}, counts)]));
	const differs = hasChange(overall) || Object.values(zones ?? {}).some(hasChange);
	const lastReport = previous?.reportedAt ? Date.parse(previous.reportedAt) : undefined;
	const coolingUntil = lastReport !== undefined && watch.cooldownMs > 0 && now < lastReport + watch.cooldownMs ? lastReport + watch.cooldownMs : undefined;

	let reason: string;
	let changed = false;
	let reportedAt = previous?.reportedAt;
	if (!previous) reason = 'first look for this key: nothing to compare with yet';
	else if (previous.settings !== watch.settings) reason = 'the threshold, labels, zones or sizes changed since the last look: this look is the new baseline';
	else if (!differs) reason = 'no change since the last look';
	else if (coolingUntil !== undefined) reason = `changed since the last look, not reported: within the cooldown after the change at ${previous.reportedAt}`;
	else {
		reason = 'changed since the last look';
		changed = true;
		reportedAt = new Date(now).toISOString();
	}
	const asReported = (change: Change): Change => (changed ? change : { ...noChange(), previousCountsByLabel: change.previousCountsByLabel });

	const look: RememberedLook = {
		seenAt: new Date(now).toISOString(),
		counts: { ...current.counts },
		...(current.zones ? { zones: Object.fromEntries(Object.entries(current.zones).map(([zone, counts]) => [zone, { ...counts }])) } : {}),
		...(reportedAt ? { reportedAt } : {}),
		...(watch.settings !== undefined ? { settings: watch.settings } : {}),
	};
	// defined first, so a key such as "__proto__" is a key like any other; then assigned, as n8n
	// saves static data only when its proxy sees a set (n8n-workflow's ObservableObject has no
	// defineProperty trap)
	Object.defineProperty(looks, watch.key, { value: look, enumerable: true, writable: true, configurable: true });
	looks[watch.key] = look;
	forgetOldest(looks, watch.key);
	const cooldownEnd = reportedAt && watch.cooldownMs > 0 ? Date.parse(reportedAt) + watch.cooldownMs : undefined;
	return {
		key: watch.key,
		changed,
		reason,
		...asReported(overall),
		previousSeenAt: previous?.seenAt ?? null,
		cooldownUntil: cooldownEnd !== undefined && cooldownEnd > now ? new Date(cooldownEnd).toISOString() : null,
		...(zones ? { zones: Object.fromEntries(Object.entries(zones).map(([zone, change]) => [zone, asReported(change)])) } : {}),
	};
}

function changeBetween(previous: Counts, current: Counts): Change {
	const change: Change = { appeared: [], disappeared: [], changeByLabel: {}, previousCountsByLabel: { ...previous } };
	for (const label of new Set([...Object.keys(previous), ...Object.keys(current)])) {
		const before = previous[label] ?? 0;
		const now = current[label] ?? 0;
		if (before === now) continue;
		change.changeByLabel[label] = now - before;
		if (before === 0) change.appeared.push(label);
		if (now === 0) change.disappeared.push(label);
	}
	return change;
}

const hasChange = (change: Change) => Object.keys(change.changeByLabel).length > 0;
const noChange = (): Change => ({ appeared: [], disappeared: [], changeByLabel: {}, previousCountsByLabel: {} });

/** Forgets the keys seen longest ago while more than MAX_WATCH_KEYS are kept or they take more than MAX_WATCH_BYTES; never `current`. */
function forgetOldest(looks: Record<string, RememberedLook>, current: string): void {
	const keys = Object.keys(looks);
	let size = JSON.stringify(looks).length;
	if (keys.length <= MAX_WATCH_KEYS && size <= MAX_WATCH_BYTES) return;
	const bySeen = keys.filter((key) => key !== current).sort((a, b) => Date.parse(looks[a].seenAt) - Date.parse(looks[b].seenAt));
	for (const key of bySeen) {
		if (Object.keys(looks).length <= MAX_WATCH_KEYS && size <= MAX_WATCH_BYTES) return;
		// the entry's own characters, its key and the comma between entries
		size -= JSON.stringify(looks[key]).length + JSON.stringify(key).length + 2;
		delete looks[key];
	}
}

/** A short fingerprint of a value's JSON (FNV-1a, 32 bits): enough to tell settings apart, small to keep. */
export function fingerprint(value: unknown): string {
	let hash = 0x811c9dc5;
	for (const char of JSON.stringify(value) ?? '') {
		hash ^= char.codePointAt(0)!;
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16).padStart(8, '0');
}

