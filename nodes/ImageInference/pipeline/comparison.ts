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
export const MAX_WATCH_KEY_LENGTH = 200;
/** A week. */
export const COOLDOWN_BOUNDS = { min: 0, max: 10_080 };
export const DEFAULT_WATCH_KEY = 'default';

export type Counts = Record<string, number>;

export interface Watch {
	key: string;
	cooldownMs: number;
}

/** What the static data keeps of a key's last look. */
interface RememberedLook {
	seenAt: string;
	counts: Counts;
	zones?: Record<string, Counts>;
	/** When a change was last reported for this key: the cooldown runs from it. */
	reportedAt?: string;
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
	else if (!differs) reason = 'no change since the last look';
	else if (coolingUntil !== undefined) reason = `changed since the last look, not reported: within the cooldown after the change at ${previous.reportedAt}`;
	else {
		reason = 'changed since the last look';
		changed = true;
		reportedAt = new Date(now).toISOString();
	}
	const asReported = (change: Change): Change => (changed ? change : { ...noChange(), previousCountsByLabel: change.previousCountsByLabel });

	looks[watch.key] = {
		seenAt: new Date(now).toISOString(),
		counts: { ...current.counts },
		...(current.zones ? { zones: Object.fromEntries(Object.entries(current.zones).map(([zone, counts]) => [zone, { ...counts }])) } : {}),
		...(reportedAt ? { reportedAt } : {}),
	};
	forgetOldest(looks);
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

function forgetOldest(looks: Record<string, RememberedLook>): void {
	const keys = Object.keys(looks);
	if (keys.length <= MAX_WATCH_KEYS) return;
	const bySeen = keys.sort((a, b) => Date.parse(looks[a].seenAt) - Date.parse(looks[b].seenAt));
	for (const key of bySeen.slice(0, keys.length - MAX_WATCH_KEYS)) delete looks[key];
}

