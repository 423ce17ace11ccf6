import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { namedEntries, numberFromText, readChoice, readOptionalBoolean, readOptionalNumber, shownValue, truncate } from '../parameters/readers';
import type { Box } from './geometry';
import { isStoredTime, isoTime } from './isoTime';
import { jsonLength, numberLength, textLength } from './jsonLength';
import { countOneMore, hasOwnField, isRecord, ownField, setOwnField } from './records';

type Counts = Record<string, number>;

/**
 * Track Objects Across Looks: the same object from one look of a Watch Key to the next, by its
 * label and how much its box overlaps (intersection over union, in fractions of the image), and how
 * long it has stayed. Not re-identification: an object that leaves and comes back is a new track.
 */

/** The most tracks a key keeps; the objects past it in a look are not tracked (`untracked`). */
export const MAX_TRACKS = 100;
export const MIN_OVERLAP_BOUNDS = { min: 0, max: 1 };
export const DEFAULT_MIN_OVERLAP = 0.3;
export const KEEP_MISSED_LOOKS_BOUNDS = { min: 0, max: 100, integer: true };
export const DEFAULT_KEEP_MISSED_LOOKS = 1;
export const COUNT_AFTER_LOOKS_BOUNDS = { min: 1, max: 100, integer: true };
export const DEFAULT_COUNT_AFTER_LOOKS = 1;
/** From 6 seconds to a week. */
export const STAY_MINUTES_BOUNDS = { min: 0.1, max: 10_080 };
export const ARRIVALS_PERIODS = ['firstLook', 'day'] as const;
export type ArrivalsPeriod = (typeof ARRIVALS_PERIODS)[number];
export const DEFAULT_ARRIVALS_PERIOD: ArrivalsPeriod = 'firstLook';

export interface TrackingSettings {
	/** The least intersection over union for a detection to continue a track; above 0 always. */
	minOverlap: number;
	/** How many looks in a row a track may be missing and still continue. */
	keepMissedLooks: number;
	/** How many looks in a row a new track must be seen before it counts as an arrival. */
	countAfterLooks: number;
	/** Report Stays Longer Than, for the whole image, in milliseconds. */
	stayLimitMs?: number;
	/** The same per zone: [zone, milliseconds]. */
	zoneStayLimitsMs: Array<[zone: string, ms: number]>;
	arrivalsPeriod: ArrivalsPeriod;
	/** The workflow's time zone: where a day of arrivals starts. */
	timeZone: string;
	/** Whether zones are set: the detections gain their seconds in each zone, the arrivals are counted per zone. */
	zoned: boolean;
}

/** A track as the static data keeps it: times in epoch milliseconds, the box in fractions to 4 decimals. */
export interface StoredTrack {
	id: number;
	label: string;
	box: [x: number, y: number, width: number, height: number];
	firstSeen: number;
	lastSeen: number;
	/** Looks in a row it was seen in (counted up to Arrival After Looks). */
	seenLooks: number;
	/** Looks in a row it was missing from. */
	missedLooks: number;
	/** Whether it counted past Arrival After Looks (its departure and stays are reported). */
	arrived: boolean;
	/** Each zone its anchor is in, and since when. */
	zones: Record<string, number>;
	/** The stays already reported as over their limit: "" for the whole image, else the zone. */
	overstaysReported: string[];
	/** Seen first on a baseline look: it was standing there, and is never an arrival. */
	baseline?: true;
	/** The zones its anchor left for fewer looks than Track Kept Through Missed Looks allows: [since, looks away]. */
	zonesLeft?: Record<string, [since: number, looks: number]>;
	/** Seen first on the look after the key's tracks were forgotten: it may have stood there, and been alerted, before. */
	resumedAfterLoss?: true;
	/** Counted past Arrival After Looks by looks with tracking off: its arrival is reported by the next look with tracking (not a baseline look). */
	arrivedWhileOff?: true;
}

export interface TrackingState {
	/** The next track's id: a key's first tracked look starts it at its time in milliseconds, so that tracks started afresh never take an id the key gave before. */
	nextId: number;
	/**
	 * After the bound dropped the key's tracks: how many more looks (baseline looks not counted)
	 * start tracks flagged `resumedAfterLoss`, as an object hidden on the look after the loss may
	 * have stood there before it.
	 */
	resumedLooks?: number;
	tracks: StoredTrack[];
	/** Track Min Overlap and Track Kept Through Missed Looks at the last look with tracking: looks with tracking off move the tracks on with them. */
	matching?: { minOverlap: number; keepMissedLooks: number; countAfterLooks: number };
	/** The tracks that ended while tracking was off, reported as departed by the next look with tracking (not a baseline look). */
	endedWhileOff?: StoredTrack[];
	arrivals: {
		since: number;
		day?: string;
		byLabel: Counts;
		byZone: Record<string, Counts>;
	};
}

/** What tracking needs of a kept detection: its label, its box in fractions of the image, the zones its anchor is in. */
export interface TrackedObject {
	label: string;
	relativeBox: Box;
	zones?: string[];
}

/** What each detection of the look gains. */
export interface DetectionTrack {
	trackId: number | null;
	firstSeenAt: string | null;
	seenForSeconds: number | null;
	/** Seconds its anchor has been in each zone it is in (with zones set). */
	secondsInZones?: Record<string, number>;
}

export interface TrackSummary {
	trackId: number;
	label: string;
	zones: string[];
}

export interface Departure extends TrackSummary {
	firstSeenAt: string;
	lastSeenAt: string;
	stayedSeconds: number;
	/** The track was started on the look after the key's tracks were forgotten: it may have stood there longer. */
	resumedAfterLoss?: true;
}

export interface Overstay extends TrackSummary {
	/** null: the stay in the image; else the stay in this zone. */
	zone: string | null;
	stayedSeconds: number;
	limitMinutes: number;
	/** false on the look its stay first passed the limit: an IF on it alerts once per stay. */
	alreadyReported: boolean;
	/** The track was started on the look after the key's tracks were forgotten: its stay may have been alerted before. */
	resumedAfterLoss?: true;
}

export interface TrackingResult {
	arrivals: TrackSummary[];
	departed: Departure[];
	overstays: Overstay[];
	newOverstayCount: number;
	arrivalsByLabel: Counts;
	arrivalsByZone?: Record<string, Counts>;
	/** Since when the arrivals are counted (ISO time): the key's first tracked look, or the day's start of counting. */
	arrivalsSince: string;
	tracked: number;
	/** Objects of this look past the MAX_TRACKS a key keeps. */
	untracked: number;
}

/** Each track's firstSeenAt text, made once: every look of a track gives it. */
const firstSeenTexts = new WeakMap<StoredTrack, string>();

function firstSeenAt(track: StoredTrack): string {
	let text = firstSeenTexts.get(track);
	if (text === undefined) {
		text = isoTime(track.firstSeen);
		firstSeenTexts.set(track, text);
	}
	return text;
}
const seconds = (ms: number) => Math.round(ms / 1000);
const rounded = (value: number) => Math.round(value * 10_000) / 10_000;

/** Intersection over union of two boxes. */
export function overlap(a: readonly number[], b: readonly number[]): number {
	const width = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
	const height = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
	if (width <= 0 || height <= 0) return 0;
	const shared = width * height;
	return shared / (a[2] * a[3] + b[2] * b[3] - shared);
}

/** A format per time zone, made once: making one takes longer than a look's tracking. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The date in the time zone, as YYYY-MM-DD. */
function dayIn(timeZone: string, ms: number): string {
	let format = dayFormats.get(timeZone);
	if (format === undefined) {
		format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
		dayFormats.set(timeZone, format);
	}
	return format.format(ms);
}

/**
 * One look of a key: each detection continues the track it overlaps most (same label, overlap at
 * least the minimum), greedily from the largest overlap down, so each track and each detection is
 * matched at most once and the result does not depend on the detections' order; ties go to the
 * older track, then to the box nearer the top-left corner. `state` is changed in place.
 *
 * A `baseline` look (the key's first, or the first under other settings) reports no arrival and
 * no departure: an object no track holds is standing there, tracked but never an arrival; a track
 * it does not see is not counted missing. While `state.resumedLooks` lasts, the tracks a look
 * starts carry `resumedAfterLoss`.
 */
export function trackObjects(
	state: TrackingState,
	objects: TrackedObject[],
	settings: TrackingSettings,
	now: number,
	baseline = false,
): { detections: DetectionTrack[]; result: TrackingResult; seen: Set<StoredTrack> } {
	if (settings.arrivalsPeriod === 'day') {
		const day = dayIn(settings.timeZone, now);
		if (state.arrivals.day !== day) state.arrivals = { since: now, day, byLabel: {}, byZone: {} };
	} else if (state.arrivals.day !== undefined) state.arrivals = { since: now, byLabel: {}, byZone: {} };

	state.matching = { minOverlap: settings.minOverlap, keepMissedLooks: settings.keepMissedLooks, countAfterLooks: settings.countAfterLooks };
	const boxes = boxesOf(objects);
	const { trackOf, matchedTracks } = matchTracks(state.tracks, objects, boxes, settings.minOverlap);

	const arrivals: TrackSummary[] = [];
	const reportArrival = (track: StoredTrack) => {
		arrivals.push(summary(track));
		countOneMore(state.arrivals.byLabel, track.label);
		for (const zone of Object.keys(track.zones)) {
			if (!hasOwnField(state.arrivals.byZone, zone)) setOwnField(state.arrivals.byZone, zone, {});
			countOneMore(ownField(state.arrivals.byZone, zone)!, track.label);
		}
	};
	const departed: Departure[] = [];
	if (!baseline) {
		// the arrivals counted while tracking was off, then the departures of the tracks that ended meanwhile
		const ended = state.endedWhileOff;
		for (const track of ended ? [...ended, ...state.tracks] : state.tracks) {
			if (track.arrivedWhileOff) reportArrival(track);
			delete track.arrivedWhileOff;
		}
		if (ended) departed.push(...ended.map(departure));
		delete state.endedWhileOff;
	}
	endMissedTracks(state, matchedTracks, settings.keepMissedLooks, baseline, (track) => track.arrived && departed.push(departure(track)));
	const resumed = state.resumedLooks !== undefined;
	if (resumed && !baseline) {
		state.resumedLooks! -= 1;
		if (state.resumedLooks! <= 0) delete state.resumedLooks;
	}

	let untracked = 0;
	const seen = new Set<StoredTrack>();
	const overstays: Overstay[] = [];
	const detections = objects.map((object, objectIndex): DetectionTrack => {
		let track = trackOf[objectIndex];
		if (!track) {
			if (state.tracks.length >= MAX_TRACKS) {
				untracked += 1;
				return {
					trackId: null,
					firstSeenAt: null,
					seenForSeconds: null,
					...(settings.zoned ? { secondsInZones: {} } : {}),
				};
			}
			track = {
				id: state.nextId++,
				label: object.label,
				box: boxes[objectIndex],
				firstSeen: now,
				lastSeen: now,
				seenLooks: 0,
				missedLooks: 0,
				arrived: false,
				zones: {},
				overstaysReported: [],
				...(baseline ? { baseline } : {}),
				...(resumed ? { resumedAfterLoss: true as const } : {}),
			};
			state.tracks.push(track);
		}
		seen.add(track);
		track.box = boxes[objectIndex];
		track.lastSeen = now;
		track.missedLooks = 0;
		track.seenLooks = Math.min(track.seenLooks + 1, settings.countAfterLooks);
		moveZones(track, object.zones ?? [], settings.keepMissedLooks, now);
		// an object that arrived before a baseline look is reported as an arrival at the next look
		if (!track.arrived && track.seenLooks >= settings.countAfterLooks && !(baseline && !track.baseline)) {
			track.arrived = true;
			if (!track.baseline) reportArrival(track);
		}
		if (track.arrived) addOverstays(overstays, track, settings, now);
		return {
			trackId: track.id,
			firstSeenAt: firstSeenAt(track),
			seenForSeconds: seconds(now - track.firstSeen),
			...(settings.zoned ? { secondsInZones: secondsInZones(track.zones, now) } : {}),
		};
	});

	return {
		detections,
		result: {
			arrivals,
			departed,
			overstays,
			newOverstayCount: overstays.filter((stay) => !stay.alreadyReported).length,
			arrivalsByLabel: { ...state.arrivals.byLabel },
			...(settings.zoned ? { arrivalsByZone: copyOfZoneCounts(state.arrivals.byZone) } : {}),
			arrivalsSince: isoTime(state.arrivals.since),
			tracked: state.tracks.length,
			untracked,
		},
		seen,
	};
}

const boxesOf = (objects: TrackedObject[]) => objects.map(({ relativeBox: box }): StoredTrack['box'] => [rounded(box.x), rounded(box.y), rounded(box.width), rounded(box.height)]);

/**
 * Which detection continues each track: the one of its label it overlaps most (at least
 * `minOverlap`), greedily from the largest overlap down, each track and detection at most once.
 */
function matchTracks(tracks: StoredTrack[], objects: TrackedObject[], boxes: Array<StoredTrack['box']>, minOverlap: number) {
	// each track is matched against the detections of its label only
	const objectsByLabel = new Map<string, number[]>();
	objects.forEach(({ label }, objectIndex) => {
		const same = objectsByLabel.get(label);
		if (same) same.push(objectIndex);
		else objectsByLabel.set(label, [objectIndex]);
	});
	const pairs: Array<{ track: number; object: number; overlap: number }> = [];
	const pairsOfTrack = new Array<number>(tracks.length).fill(0);
	const pairsOfObject = new Array<number>(objects.length).fill(0);
	tracks.forEach((track, trackIndex) => {
		for (const objectIndex of objectsByLabel.get(track.label) ?? []) {
			const shared = overlap(track.box, boxes[objectIndex]);
			if (shared > 0 && shared >= minOverlap) {
				pairs.push({ track: trackIndex, object: objectIndex, overlap: shared });
				pairsOfTrack[trackIndex]++;
				pairsOfObject[objectIndex]++;
			}
		}
	});
	const trackOf: Array<StoredTrack | undefined> = [];
	const matchedTracks: boolean[] = [];
	const match = (pair: { track: number; object: number }) => {
		matchedTracks[pair.track] = true;
		trackOf[pair.object] = tracks[pair.track];
	};
	// a pair whose track and detection are in no other pair is matched whatever the order: only the others are sorted
	const contested = pairs.filter((pair) => pairsOfTrack[pair.track] > 1 || pairsOfObject[pair.object] > 1);
	for (const pair of pairs) if (pairsOfTrack[pair.track] === 1 && pairsOfObject[pair.object] === 1) match(pair);
	// the tracks are kept oldest first and the sort is stable: of equal overlaps, the older track's comes first
	contested.sort(
		(a, b) =>
			b.overlap - a.overlap ||
			boxes[a.object][0] - boxes[b.object][0] ||
			boxes[a.object][1] - boxes[b.object][1] ||
			boxes[a.object][2] - boxes[b.object][2] ||
			boxes[a.object][3] - boxes[b.object][3],
	);
	for (const pair of contested) if (!matchedTracks[pair.track] && trackOf[pair.object] === undefined) match(pair);
	return { trackOf, matchedTracks };
}

/** A track that ended, as `departed` lists it. */
function departure(track: StoredTrack): Departure {
	return Object.assign(
		summary(track),
		{
			// the zones it was last in, as the tolerance holds them: also those its anchor was out of for the looks Track Kept Through Missed Looks allows
			zones: track.zonesLeft ? [...Object.keys(track.zones), ...Object.keys(track.zonesLeft)] : Object.keys(track.zones),
			firstSeenAt: firstSeenAt(track),
			lastSeenAt: isoTime(track.lastSeen),
			stayedSeconds: seconds(track.lastSeen - track.firstSeen),
		},
		resumedField(track),
	);
}

/**
 * A look with Track Objects Across Looks off, on the tracks it sets aside: each track it sees (a
 * detection of its label overlapping it, as with tracking on) is seen again, each it does not see
 * missed, and one missed longer than Track Kept Through Missed Looks ends, to be reported departed
 * when tracking is on again; no track starts, nothing is reported (an object counted past Arrival
 * After Looks is reported arrived by that look). So an object that leaves while tracking is off,
 * and another that takes its place, are two tracks, as with tracking on. The objects are placed in
 * the image: a look without the image's size (an image URL) cannot place them, not even none, and
 * leaves the tracks as they are (runDetectionPipeline). A `baseline` look (under other settings)
 * counts no track missing and ends none, as with tracking on. Gives the tracks the look sees.
 */
export function moveSetAsideTracks(state: TrackingState, objects: TrackedObject[], now: number, baseline = false): Set<StoredTrack> {
	const seen = new Set<StoredTrack>();
	const { minOverlap, keepMissedLooks, countAfterLooks } = state.matching ?? { minOverlap: DEFAULT_MIN_OVERLAP, keepMissedLooks: DEFAULT_KEEP_MISSED_LOOKS, countAfterLooks: DEFAULT_COUNT_AFTER_LOOKS };
	const boxes = boxesOf(objects);
	const { trackOf, matchedTracks } = matchTracks(state.tracks, objects, boxes, minOverlap);
	for (const [objectIndex, track] of trackOf.entries()) {
		if (!track) continue;
		seen.add(track);
		track.box = boxes[objectIndex];
		track.lastSeen = now;
		track.missedLooks = 0;
		// counted towards Arrival After Looks: the arrival is reported by the look with tracking on again
		track.seenLooks = Math.min(track.seenLooks + 1, countAfterLooks);
		if (!track.arrived && track.seenLooks >= countAfterLooks) {
			track.arrived = true;
			if (!track.baseline) track.arrivedWhileOff = true;
		}
		moveZones(track, objects[objectIndex].zones ?? [], keepMissedLooks, now);
	}
	endMissedTracks(state, matchedTracks, keepMissedLooks, baseline, (track) => track.arrived && (state.endedWhileOff ??= []).push(track));
	return seen;
}

/**
 * Each track the look does not see is missed (a baseline look counts no miss, and ends no track);
 * a track missed for longer than Track Kept Through Missed Looks ends, handed to `end`.
 */
function endMissedTracks(state: TrackingState, matchedTracks: boolean[], keepMissedLooks: number, baseline: boolean, end: (track: StoredTrack) => void): void {
	state.tracks = state.tracks.filter((track, trackIndex) => {
		if (!matchedTracks[trackIndex] && !baseline) {
			track.missedLooks += 1;
			track.seenLooks = 0;
		}
		if (baseline || track.missedLooks <= keepMissedLooks) return true;
		end(track);
		return false;
	});
}

/**
 * The zones the track's anchor is in at this look, each with the time it entered it: a zone left
 * for no more looks in a row than Track Kept Through Missed Looks keeps its entry time, as a track
 * missing for that long keeps its id (a box that jitters across a zone's edge for a look).
 */
function moveZones(track: StoredTrack, zones: string[], keepMissedLooks: number, now: number): void {
	const zonesSince: Record<string, number> = {};
	for (const zone of zones) setOwnField(zonesSince, zone, ownField(track.zones, zone) ?? (track.zonesLeft && ownField(track.zonesLeft, zone)?.[0]) ?? now);
	const left: Record<string, [number, number]> = {};
	let leftCount = 0;
	const keepLeft = (zone: string, since: number, looks: number) => {
		if (looks > keepMissedLooks || hasOwnField(zonesSince, zone)) return;
		setOwnField(left, zone, [since, looks]);
		leftCount++;
	};
	for (const zone in track.zones) keepLeft(zone, track.zones[zone], 1);
	for (const zone in track.zonesLeft) keepLeft(zone, track.zonesLeft[zone][0], track.zonesLeft[zone][1] + 1);
	track.zones = zonesSince;
	if (leftCount > 0) track.zonesLeft = left;
	else delete track.zonesLeft;
	// a zone left for longer ended its stay: the next stay in it is alerted again
	track.overstaysReported = track.overstaysReported.filter((name) => name === '' || hasOwnField(zonesSince, name) || hasOwnField(left, name));
}

function summary(track: StoredTrack): TrackSummary {
	return {
		trackId: track.id,
		label: track.label,
		zones: Object.keys(track.zones),
	};
}

function resumedField(track: StoredTrack): { resumedAfterLoss?: true } {
	return track.resumedAfterLoss ? { resumedAfterLoss: true } : {};
}

function copyOfZoneCounts(byZone: Record<string, Counts>): Record<string, Counts> {
	return Object.fromEntries(Object.entries(byZone).map(([zone, counts]) => [zone, { ...counts }]));
}

function secondsInZones(zones: Record<string, number>, now: number): Record<string, number> {
	const secondsByZone: Record<string, number> = {};
	for (const zone in zones) setOwnField(secondsByZone, zone, seconds(now - zones[zone]));
	return secondsByZone;
}

/** Adds the track's stays over their limits: in the image, then in each zone with a limit of its own. */
function addOverstays(overstays: Overstay[], track: StoredTrack, settings: TrackingSettings, now: number): void {
	const addIfOver = (zone: string | null, since: number, limitMs: number) => {
		if (now - since <= limitMs) return;
		const name = zone ?? '';
		const alreadyReported = track.overstaysReported.includes(name);
		if (!alreadyReported) track.overstaysReported.push(name);
		overstays.push(Object.assign(summary(track), { zone, stayedSeconds: seconds(now - since), limitMinutes: limitMs / 60_000, alreadyReported }, resumedField(track)));
	};
	if (settings.stayLimitMs !== undefined) addIfOver(null, track.firstSeen, settings.stayLimitMs);
	for (const [zone, limitMs] of settings.zoneStayLimitsMs) {
		const since = ownField(track.zones, zone);
		if (since !== undefined) addIfOver(zone, since, limitMs);
	}
}

/** Track Objects Across Looks with none of its options set, in the workflow's time zone, with or without zones. */
export function defaultTrackingSettings(timeZone: string, zoned: boolean): TrackingSettings {
	return {
		minOverlap: DEFAULT_MIN_OVERLAP,
		keepMissedLooks: DEFAULT_KEEP_MISSED_LOOKS,
		countAfterLooks: DEFAULT_COUNT_AFTER_LOOKS,
		zoneStayLimitsMs: [],
		arrivalsPeriod: DEFAULT_ARRIVALS_PERIOD,
		timeZone,
		zoned,
	};
}

/**
 * A key's tracking before its first tracked look, `now`. Its ids start at `now` in milliseconds:
 * tracks started afresh (the static data lost, the key forgotten by the bound) take ids above every
 * id the key gave before, as long as the key started fewer tracks than milliseconds passed; `lost`:
 * the bound dropped the key's tracks with ids below `nextId` (kept above them, a clock set back too), and the looks
 * that start tracks flagged `resumedAfterLoss`.
 */
export function newTrackingState(now: number, lost?: { nextId: number; resumedLooks: number }): TrackingState {
	return {
		nextId: Math.max(now, lost?.nextId ?? 0),
		...(lost ? { resumedLooks: lost.resumedLooks } : {}),
		tracks: [],
		arrivals: { since: now, byLabel: {}, byZone: {} },
	};
}

/** A state's JSON length, counted field by field: its tracks have every field, as trackObjects makes them (readTrackingState checks a state read from the static data). */
export function trackingStateJsonLength(state: TrackingState): number {
	let length = jsonLength({ ...state, tracks: [] }) + Math.max(state.tracks.length - 1, 0);
	for (const track of state.tracks) length += trackJsonLength(track);
	return length;
}

const TRACK_FIELDS = ['id', 'label', 'box', 'firstSeen', 'lastSeen', 'seenLooks', 'missedLooks', 'arrived', 'zones', 'overstaysReported'] as const satisfies ReadonlyArray<keyof StoredTrack>;
/** A track's braces, each field's quoted name and colon, and the commas between the fields. */
const TRACK_FRAME = 2 + TRACK_FIELDS.reduce((length, field) => length + field.length + 3, 0) + TRACK_FIELDS.length - 1;

function trackJsonLength(track: StoredTrack): number {
	const [x, y, width, height] = track.box;
	return (
		TRACK_FRAME +
		numberLength(track.id) +
		textLength(track.label) +
		// the box's brackets and commas
		5 +
		numberLength(x) +
		numberLength(y) +
		numberLength(width) +
		numberLength(height) +
		numberLength(track.firstSeen) +
		numberLength(track.lastSeen) +
		numberLength(track.seenLooks) +
		numberLength(track.missedLooks) +
		(track.arrived ? 4 : 5) +
		jsonLength(track.zones) +
		jsonLength(track.overstaysReported) +
		(track.baseline ? BASELINE_FIELD.length : 0) +
		(track.zonesLeft ? ZONES_LEFT_FIELD.length + jsonLength(track.zonesLeft) : 0) +
		(track.resumedAfterLoss ? RESUMED_FIELD.length : 0) +
		(track.arrivedWhileOff ? ARRIVED_WHILE_OFF_FIELD.length : 0)
	);
}

const BASELINE_FIELD = ',"baseline":true';
const ZONES_LEFT_FIELD = ',"zonesLeft":';
const RESUMED_FIELD = ',"resumedAfterLoss":true';
const ARRIVED_WHILE_OFF_FIELD = ',"arrivedWhileOff":true';

const LABELS = {
	trackObjects: 'Track Objects Across Looks',
	minOverlap: 'Track Min Overlap',
	keepMissedLooks: 'Track Kept Through Missed Looks',
	countAfterLooks: 'Arrival After Looks',
	stayLimit: 'Report Stays Longer Than (Minutes)',
	zoneStayLimits: 'Stay Limits per Zone',
	arrivalsPeriod: 'Count Arrivals',
} as const;

/**
 * Reads Track Objects Across Looks and its options of one item, before any request. `compare`:
 * whether Compare With Previous Look is on (tracking keeps its tracks in the look of the Watch
 * Key); `zones`: the names of the zones set.
 */
export function readTracking(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	compare: boolean,
	zones: string[],
): TrackingSettings | undefined {
	const fail = (message: string, description: string): never => {
		throw new NodeOperationError(this.getNode(), message, {
			itemIndex,
			description,
		});
	};
	// off for this item, or Compare off for it (either set by an expression): tracking's options,
	// which n8n keeps beside an expression (n8n-workflow's NodeHelpers.displayParameter), apply to nothing
	if (!compare || !readOptionalBoolean.call(this, itemIndex, options, 'trackObjects', LABELS.trackObjects)) return undefined;
	const minutes = readOptionalNumber.call(this, itemIndex, options, 'reportStaysLongerThan', LABELS.stayLimit, STAY_MINUTES_BOUNDS);
	const defaults = defaultTrackingSettings(this.getTimezone(), zones.length > 0);
	return {
		...defaults,
		minOverlap: readOptionalNumber.call(this, itemIndex, options, 'trackMinOverlap', LABELS.minOverlap, MIN_OVERLAP_BOUNDS) ?? defaults.minOverlap,
		keepMissedLooks:
			readOptionalNumber.call(this, itemIndex, options, 'trackKeepMissedLooks', LABELS.keepMissedLooks, KEEP_MISSED_LOOKS_BOUNDS) ?? defaults.keepMissedLooks,
		countAfterLooks:
			readOptionalNumber.call(this, itemIndex, options, 'trackCountAfterLooks', LABELS.countAfterLooks, COUNT_AFTER_LOOKS_BOUNDS) ?? defaults.countAfterLooks,
		...(minutes !== undefined ? { stayLimitMs: minutes * 60_000 } : {}),
		zoneStayLimitsMs: readZoneStayLimits(options.zoneStayLimits, zones, (message) =>
			fail(
				`${LABELS.zoneStayLimits}: ${message}`,
				`Write each entry as zone: minutes, separated by commas, naming zones set under Zones, e.g. "no-parking: 10, gate: 2".`,
			),
		),
		arrivalsPeriod: readChoice(this, itemIndex, options.countArrivalsPer ?? defaults.arrivalsPeriod, ARRIVALS_PERIODS, LABELS.arrivalsPeriod),
	};
}

function readZoneStayLimits(value: unknown, zones: string[], fail: (message: string) => never): Array<[string, number]> {
	if (value === undefined || value === null) return [];
	const seen = new Set<string>();
	return namedEntries(value, 'zone: minutes', fail).map(([zone, raw]) => {
		if (!zones.includes(zone))
			fail(`"${truncate(zone, 40)}" is not a zone set under Zones${zones.length ? ` (${zones.map((name) => `"${truncate(name, 40)}"`).join(', ')})` : ''}`);
		if (seen.has(zone)) fail(`"${truncate(zone, 40)}" is given twice`);
		seen.add(zone);
		const minutes = numberFromText(raw);
		if (typeof minutes !== 'number' || !(minutes >= STAY_MINUTES_BOUNDS.min && minutes <= STAY_MINUTES_BOUNDS.max)) {
			return fail(
				`the limit for "${truncate(zone, 40)}" must be a number of minutes from ${STAY_MINUTES_BOUNDS.min} to ${STAY_MINUTES_BOUNDS.max}, got ${shownValue(raw)}`,
			);
		}
		return [zone, minutes * 60_000];
	});
}

const isNumber = (value: unknown): value is number => Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const everyField = (record: Record<string, unknown>, test: (value: unknown) => boolean) => Object.values(record).every(test);
/** Counts per label, as a look keeps them: whole and not negative, or a hand edit would make up changes. */
export const isCounts = (value: unknown): value is Counts => isRecord(value) && everyField(value, isCount);

/**
 * What is wrong with a key's tracking state as the static data holds it (a hand edit, a restore, a
 * state of another shape), so that a look never fails on it: the first field found wrong, or
 * undefined when it is a state trackObjects can move on.
 */
export function trackingStateProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'is not an object';
	const { nextId, tracks, arrivals } = value;
	if (!Array.isArray(tracks)) return 'has no list of tracks';
	const trackIndex = tracks.findIndex((track) => !isStoredTrack(track));
	if (trackIndex >= 0) return `has a track without every field (track ${trackIndex + 1})`;
	if (new Set((tracks as StoredTrack[]).map((track) => track.id)).size < tracks.length) return 'has two tracks of one id';
	if (!isCount(nextId) || (tracks as StoredTrack[]).some((track) => track.id >= nextId)) return 'has no next track id above its tracks’ ids';
	if (value.resumedLooks !== undefined && !isCount(value.resumedLooks)) return 'has no readable count of looks resumed';
	const { matching, endedWhileOff } = value;
	if (matching !== undefined && !isMatching(matching)) return 'has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks';
	if (endedWhileOff !== undefined && !(Array.isArray(endedWhileOff) && endedWhileOff.length > 0 && endedWhileOff.every((track) => isStoredTrack(track) && track.arrived))) {
		return 'has no readable tracks ended while tracking was off';
	}
	const ended = (endedWhileOff ?? []) as StoredTrack[];
	if (new Set([...(tracks as StoredTrack[]), ...ended].map((track) => track.id)).size < tracks.length + ended.length) return 'has two tracks of one id';
	if (ended.some((track) => track.id >= (nextId as number))) return 'has no next track id above its tracks’ ids';
	if (!isRecord(arrivals) || !isStoredTime(arrivals.since) || !(arrivals.day === undefined || typeof arrivals.day === 'string') || !isCounts(arrivals.byLabel) || !isRecord(arrivals.byZone) || !everyField(arrivals.byZone, isCounts)) {
		return 'has no readable arrivals';
	}
	return undefined;
}

const within = (value: unknown, { min, max }: { min: number; max: number }) => isNumber(value) && value >= min && value <= max;
const isMatching = (value: unknown): boolean =>
	isRecord(value) &&
	within(value.minOverlap, MIN_OVERLAP_BOUNDS) &&
	isCount(value.keepMissedLooks) &&
	within(value.keepMissedLooks, KEEP_MISSED_LOOKS_BOUNDS) &&
	isCount(value.countAfterLooks) &&
	within(value.countAfterLooks, COUNT_AFTER_LOOKS_BOUNDS);

function isStoredTrack(value: unknown): value is StoredTrack {
	if (!isRecord(value)) return false;
	const { box, zones, zonesLeft, overstaysReported } = value;
	return (
		isCount(value.id) &&
		typeof value.label === 'string' &&
		Array.isArray(box) &&
		box.length === 4 &&
		box.every(isNumber) &&
		isStoredTime(value.firstSeen) &&
		isStoredTime(value.lastSeen) &&
		isCount(value.seenLooks) &&
		isCount(value.missedLooks) &&
		typeof value.arrived === 'boolean' &&
		isRecord(zones) &&
		everyField(zones, isStoredTime) &&
		Array.isArray(overstaysReported) &&
		overstaysReported.every((zone) => typeof zone === 'string') &&
		(value.baseline === undefined || value.baseline === true) &&
		(value.resumedAfterLoss === undefined || value.resumedAfterLoss === true) &&
		(value.arrivedWhileOff === undefined || (value.arrivedWhileOff === true && value.arrived === true)) &&
		(zonesLeft === undefined || (isRecord(zonesLeft) && everyField(zonesLeft, (left) => Array.isArray(left) && left.length === 2 && isStoredTime(left[0]) && isCount(left[1]))))
	);
}
