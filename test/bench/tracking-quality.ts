/**
 * Tracking quality on a synthetic scene: parked cars in rows of bays (side by side, touching or 1 %
 * of the image apart), people and cars standing or moving slowly above them, each box jittering a
 * little every look as a detector's would, sometimes missing for one look, leaving after minutes to
 * hours. Scored with the CLEAR-MOT counts (ID switches, fragments) and the stays the tracker
 * reports, for the node's tracker and for a naive nearest-centre tracker on the same looks.
 */
import type { TrackedObject, TrackingSettings } from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, newTrackingState, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';

export type Label = 'car' | 'person';
type Box = TrackedObject['relativeBox'];

/** A detection of a synthetic look, with the id of the true object it shows. */
export interface SyntheticDetection extends TrackedObject {
	objectId: number;
}

export interface SyntheticObject {
	id: number;
	label: Label;
	/** Moves across looks; the others stand (their box only jitters). */
	moving: boolean;
	/** Parked in a bay of a row, beside the bays next to it. */
	inBay: boolean;
}

export interface SyntheticSequence {
	start: number;
	intervalMs: number;
	looks: SyntheticDetection[][];
	objects: SyntheticObject[];
}

export interface SequenceOptions {
	seed: number;
	looks: number;
	intervalMs: number;
	start: number;
	/** The most objects present at once (the occluded ones included). */
	maxObjects: number;
	/** Each look, each of a box's x, y, width and height moves by up to ± this share of the box's own size. */
	jitter: number;
	/** The share of the objects outside the bays that move. */
	movingShare: number;
	/** How far a moving object goes each look, in shares of its width. */
	speed: [min: number, max: number];
	/** The chance an object is missing from a look (never its first or last, never two looks in a row). */
	occlusionShare: number;
	/** The share of the cars that park in a bay. */
	bayShare: number;
	/** How long an object stays, in looks, drawn log-uniformly (minutes to hours). */
	stayLooks: [min: number, max: number];
	/** Looks a place stays empty after its object left, so a newcomer there is not the same object to any tracker. */
	emptyLooksAfterLeaving: number;
}

export const DEFAULT_SEQUENCE_OPTIONS: SequenceOptions = {
	seed: 20_261_127,
	looks: 1000,
	intervalMs: 60_000,
	start: Date.parse('2026-11-27T06:00:00Z'),
	maxObjects: 50,
	jitter: 0.02,
	movingShare: 0.3,
	speed: [0.02, 0.05],
	occlusionShare: 0.03,
	bayShare: 0.6,
	stayLooks: [3, 300],
	emptyLooksAfterLeaving: 3,
};

/** The settings a user gets when turning Track Objects Across Looks on. */
export const DEFAULT_TRACKING_SETTINGS: TrackingSettings = defaultTrackingSettings('UTC', false);

/** Two rows of parking bays below the open area: one of bays touching, one with 1 % of the image between them. */
const BAY_ROWS = [
	{ y: 0.64, gap: 0 },
	{ y: 0.82, gap: 0.01 },
];
const BAY_WIDTH = 0.09;
const BAY_HEIGHT = 0.06;
/** Where the objects outside the bays stand and move, 1 % in from the image's edges. */
const OPEN_AREA: Box = { x: 0.01, y: 0.01, width: 0.98, height: 0.58 };
const PLACING_TRIES = 30;
/** Floating-point slack, so boxes that only touch do not count as overlapping. */
const EPSILON = 1e-9;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

const intersects = (a: Box, b: Box) =>
	Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > EPSILON && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > EPSILON;
const inside = (box: Box, area: Box) =>
	box.x >= area.x && box.y >= area.y && box.x + box.width <= area.x + area.width && box.y + box.height <= area.y + area.height;

/** A detector's boxes end at the image's edges. */
function withinImage(box: Box): Box {
	const x = Math.max(0, box.x);
	const y = Math.max(0, box.y);
	return { x, y, width: Math.min(box.x + box.width, 1) - x, height: Math.min(box.y + box.height, 1) - y };
}

function bayBoxes(): Box[] {
	const bays: Box[] = [];
	for (const row of BAY_ROWS) {
		for (let index = 0; ; index++) {
			const x = 0.02 + index * (BAY_WIDTH + row.gap);
			if (x + BAY_WIDTH > 0.98) break;
			bays.push({ x, y: row.y, width: BAY_WIDTH, height: BAY_HEIGHT });
		}
	}
	return bays;
}

interface Present extends SyntheticObject {
	box: Box;
	firstLook: number;
	lastLook: number;
	velocity: [dx: number, dy: number];
	occludedLastLook: boolean;
}

/** A deterministic sequence of looks (same options, same looks), each detection carrying its true object's id. */
export function syntheticSequence(overrides: Partial<SequenceOptions> = {}): SyntheticSequence {
	const options = { ...DEFAULT_SEQUENCE_OPTIONS, ...overrides };
	const random = seededRandom(options.seed);
	const between = (min: number, max: number) => min + random() * (max - min);
	const [minStay, maxStay] = options.stayLooks;
	const meanStay = maxStay === minStay ? minStay : (maxStay - minStay) / Math.log(maxStay / minStay);
	const targetPresent = 0.8 * options.maxObjects;
	const poisson = (mean: number) => {
		const limit = Math.exp(-mean);
		let count = 0;
		for (let product = random(); product > limit; product *= random()) count++;
		return count;
	};

	const bays = bayBoxes();
	const objects: SyntheticObject[] = [];
	const looks: SyntheticDetection[][] = [];
	let present: Present[] = [];
	/** Boxes of objects that left, kept empty until the look given. */
	let leftPlaces: Array<{ box: Box; emptyUntil: number }> = [];
	const free = (box: Box, self?: Present) =>
		!present.some((other) => other !== self && intersects(box, other.box)) && !leftPlaces.some((left) => intersects(box, left.box));

	const placeInOpenArea = (label: Label): Box | undefined => {
		for (let tries = 0; tries < PLACING_TRIES; tries++) {
			const width = label === 'car' ? between(0.06, 0.15) : between(0.03, 0.06);
			const height = width * (label === 'car' ? between(0.55, 0.7) : between(2.2, 2.8));
			const box = {
				x: between(OPEN_AREA.x, OPEN_AREA.x + OPEN_AREA.width - width),
				y: between(OPEN_AREA.y, OPEN_AREA.y + OPEN_AREA.height - height),
				width,
				height,
			};
			if (free(box)) return box;
		}
		return undefined;
	};

	for (let look = 0; look < options.looks; look++) {
		leftPlaces = leftPlaces.filter((left) => left.emptyUntil > look);
		// Starts with the scene already busy, then arrivals at the rate that keeps it so.
		const arriving = poisson(look === 0 ? targetPresent : targetPresent / meanStay);
		for (let arrival = 0; arrival < arriving && present.length < options.maxObjects; arrival++) {
			const label: Label = random() < 0.5 ? 'car' : 'person';
			const inBay = label === 'car' && random() < options.bayShare;
			const freeBays = inBay ? bays.filter((bay) => free(bay)) : [];
			const box = inBay ? freeBays[Math.floor(random() * freeBays.length)] : placeInOpenArea(label);
			if (!box) continue;
			const moving = !inBay && random() < options.movingShare;
			const angle = random() * 2 * Math.PI;
			const speed = between(...options.speed) * box.width;
			const stay = Math.max(2, Math.round(minStay * Math.pow(maxStay / minStay, random())));
			const object: SyntheticObject = { id: objects.length + 1, label, moving, inBay };
			objects.push(object);
			present.push({
				...object,
				box: { ...box },
				firstLook: look,
				lastLook: look + stay - 1,
				velocity: moving ? [Math.cos(angle) * speed, Math.sin(angle) * speed] : [0, 0],
				occludedLastLook: false,
			});
		}

		const detections: SyntheticDetection[] = [];
		for (const object of present) {
			if (object.moving) {
				const next = { ...object.box, x: object.box.x + object.velocity[0], y: object.box.y + object.velocity[1] };
				// Turns back at the edge of the open area or at another object, rather than passing through it.
				if (!inside(next, OPEN_AREA) || !free(next, object)) object.velocity = [-object.velocity[0], -object.velocity[1]];
				else object.box = next;
			}
			const occluded = look !== object.firstLook && look !== object.lastLook && !object.occludedLastLook && random() < options.occlusionShare;
			object.occludedLastLook = occluded;
			if (occluded) continue;
			const { x, y, width, height } = object.box;
			const shake = () => (random() * 2 - 1) * options.jitter;
			detections.push({
				objectId: object.id,
				label: object.label,
				relativeBox: withinImage({ x: x + shake() * width, y: y + shake() * height, width: width * (1 + shake()), height: height * (1 + shake()) }),
			});
		}
		// A detector's order is not the objects' order.
		for (let index = detections.length - 1; index > 0; index--) {
			const other = Math.floor(random() * (index + 1));
			[detections[index], detections[other]] = [detections[other], detections[index]];
		}
		looks.push(detections);

		for (const object of present) {
			if (object.lastLook === look) leftPlaces.push({ box: object.box, emptyUntil: look + 1 + options.emptyLooksAfterLeaving });
		}
		present = present.filter((object) => object.lastLook > look);
	}
	return { start: options.start, intervalMs: options.intervalMs, looks, objects };
}

/** What a tracker says of one look: a track id per detection, in their order, and the tracks that ended. */
export interface LookTracks {
	trackIds: Array<number | null>;
	departed: Array<{ trackId: number; stayedSeconds: number }>;
}
export type Tracker = (objects: TrackedObject[], at: number) => LookTracks;

/** The node's tracker, its state kept across looks as a Watch Key keeps it. */
export function nodeTracker(settings: TrackingSettings = DEFAULT_TRACKING_SETTINGS, start = 0): Tracker {
	const state = newTrackingState(start);
	return (objects, at) => {
		const { detections, result } = trackObjects(state, objects, settings, at);
		return {
			trackIds: detections.map((detection) => detection.trackId),
			departed: result.departed.map(({ trackId, stayedSeconds }) => ({ trackId, stayedSeconds })),
		};
	};
}

/**
 * The naive baseline: each detection continues the previous look's object of the same label with the
 * nearest box centre (greedy from the nearest pair, each used once, however far), else a new id; an
 * object missing from a look ends there, having stayed from its first look to its last.
 */
export function naiveTracker(): Tracker {
	let previous: Array<{ id: number; label: string; centre: [number, number]; firstSeen: number; lastSeen: number }> = [];
	let nextId = 1;
	return (objects, at) => {
		const centres = objects.map(({ relativeBox: box }): [number, number] => [box.x + box.width / 2, box.y + box.height / 2]);
		const pairs: Array<{ track: number; object: number; distance: number }> = [];
		previous.forEach((track, trackIndex) => {
			objects.forEach((object, objectIndex) => {
				if (object.label !== track.label) return;
				const [x, y] = centres[objectIndex];
				pairs.push({ track: trackIndex, object: objectIndex, distance: (x - track.centre[0]) ** 2 + (y - track.centre[1]) ** 2 });
			});
		});
		pairs.sort((a, b) => a.distance - b.distance || a.track - b.track || a.object - b.object);
		const trackOf = new Map<number, number>();
		const matched = new Set<number>();
		for (const pair of pairs) {
			if (matched.has(pair.track) || trackOf.has(pair.object)) continue;
			matched.add(pair.track);
			trackOf.set(pair.object, pair.track);
		}
		const departed = previous
			.filter((_, trackIndex) => !matched.has(trackIndex))
			.map((track) => ({ trackId: track.id, stayedSeconds: Math.round((track.lastSeen - track.firstSeen) / 1000) }));
		previous = objects.map((object, objectIndex) => {
			const continued = trackOf.get(objectIndex);
			const track = continued === undefined ? undefined : previous[continued];
			return { id: track?.id ?? nextId++, label: object.label, centre: centres[objectIndex], firstSeen: track?.firstSeen ?? at, lastSeen: at };
		});
		return { trackIds: previous.map((track) => track.id), departed };
	};
}

export interface TrackingScore {
	/** Detections scored (an occluded object's missing look is not one). */
	objectLooks: number;
	standingObjectLooks: number;
	/** CLEAR-MOT IDSW: a true object's track id differing from the one it had the last time it was tracked. */
	idSwitches: number;
	standingIdSwitches: number;
	/** Detections the tracker gave no track id. */
	untracked: number;
	/** Track ids past the first covering each true object, summed. */
	extraFragments: number;
	/** True objects covered by more than one track id. */
	fragmentedObjects: number;
	/** True objects that left before the last look, whose stay is scored. */
	staysScored: number;
	/** Stays reported within one interval of the true stay (last look seen − first look seen). */
	staysWithinInterval: number;
	/** Objects that left whose main track never departed. */
	staysMissing: number;
	/** The largest stay error, in intervals, of the stays reported. */
	largestStayErrorIntervals: number;
}

/** Empty looks after the sequence, so the tracks of objects that left near its end depart too. */
export const DRAIN_LOOKS = 5;

/** Runs the sequence through the tracker and counts its errors against the true object ids. */
export function scoreTracking(sequence: SyntheticSequence, tracker: Tracker, drainLooks = DRAIN_LOOKS): TrackingScore {
	const movingIds = new Set(sequence.objects.filter((object) => object.moving).map((object) => object.id));
	const score: TrackingScore = {
		objectLooks: 0,
		standingObjectLooks: 0,
		idSwitches: 0,
		standingIdSwitches: 0,
		untracked: 0,
		extraFragments: 0,
		fragmentedObjects: 0,
		staysScored: 0,
		staysWithinInterval: 0,
		staysMissing: 0,
		largestStayErrorIntervals: 0,
	};
	const lastTrackOf = new Map<number, number>();
	/** Per true object, the looks each track id covered, in the order the ids first covered it. */
	const tracksOf = new Map<number, Map<number, number>>();
	const seenLooks = new Map<number, { first: number; last: number }>();
	const stayedSeconds = new Map<number, number>();
	const lookCount = sequence.looks.length;

	for (let look = 0; look < lookCount + drainLooks; look++) {
		const detections = sequence.looks[look] ?? [];
		const { trackIds, departed } = tracker(
			detections.map(({ label, relativeBox }) => ({ label, relativeBox: { ...relativeBox } })),
			sequence.start + look * sequence.intervalMs,
		);
		if (trackIds.length !== detections.length) throw new Error(`look ${look}: ${trackIds.length} track ids for ${detections.length} detections`);
		for (const departure of departed) stayedSeconds.set(departure.trackId, departure.stayedSeconds);
		detections.forEach(({ objectId }, index) => {
			const standing = !movingIds.has(objectId);
			score.objectLooks++;
			if (standing) score.standingObjectLooks++;
			const seen = seenLooks.get(objectId);
			if (seen) seen.last = look;
			else seenLooks.set(objectId, { first: look, last: look });
			const trackId = trackIds[index];
			if (trackId === null) {
				score.untracked++;
				return;
			}
			const lastTrack = lastTrackOf.get(objectId);
			if (lastTrack !== undefined && lastTrack !== trackId) {
				score.idSwitches++;
				if (standing) score.standingIdSwitches++;
			}
			lastTrackOf.set(objectId, trackId);
			const tracks = tracksOf.get(objectId) ?? new Map<number, number>();
			tracks.set(trackId, (tracks.get(trackId) ?? 0) + 1);
			tracksOf.set(objectId, tracks);
		});
	}

	for (const tracks of tracksOf.values()) {
		if (tracks.size > 1) {
			score.extraFragments += tracks.size - 1;
			score.fragmentedObjects++;
		}
	}
	const intervalSeconds = sequence.intervalMs / 1000;
	for (const [objectId, seen] of seenLooks) {
		if (seen.last >= lookCount - 1) continue;
		score.staysScored++;
		let mainTrack: number | undefined;
		let mostLooks = 0;
		for (const [trackId, looks] of tracksOf.get(objectId) ?? []) {
			if (looks > mostLooks) [mainTrack, mostLooks] = [trackId, looks];
		}
		const reported = mainTrack === undefined ? undefined : stayedSeconds.get(mainTrack);
		if (reported === undefined) {
			score.staysMissing++;
			continue;
		}
		const error = Math.abs(reported - (seen.last - seen.first) * intervalSeconds);
		if (error <= intervalSeconds) score.staysWithinInterval++;
		score.largestStayErrorIntervals = Math.max(score.largestStayErrorIntervals, error / intervalSeconds);
	}
	return score;
}

export const perThousand = (count: number, of: number) => (of === 0 ? 0 : (1000 * count) / of);
const thousands = (value: number) => value.toLocaleString('en-US');
const percent = (count: number, of: number) => `${of === 0 ? '–' : ((100 * count) / of).toFixed(1)} %`;

function describeScore(score: TrackingScore): string {
	const missing = score.staysMissing ? `, ${thousands(score.staysMissing)} never departed` : '';
	return (
		`ID switches per 1,000 object-looks: standing ${perThousand(score.standingIdSwitches, score.standingObjectLooks).toFixed(2)} ` +
		`(${thousands(score.standingIdSwitches)} in ${thousands(score.standingObjectLooks)}), ` +
		`all ${perThousand(score.idSwitches, score.objectLooks).toFixed(2)} (${thousands(score.idSwitches)} in ${thousands(score.objectLooks)}); ` +
		`extra fragments ${thousands(score.extraFragments)} (${thousands(score.fragmentedObjects)} objects); ` +
		`stays within one interval ${percent(score.staysWithinInterval, score.staysScored)} ` +
		`(${thousands(score.staysWithinInterval)} of ${thousands(score.staysScored)}${missing}), ` +
		`largest error ${score.largestStayErrorIntervals.toFixed(0)} intervals`
	);
}

/** The benchmark's row: the node's tracker with default settings against the naive baseline, on the same looks. */
export async function trackingQualityRows(smoke: boolean): Promise<string[][]> {
	const options: SequenceOptions = { ...DEFAULT_SEQUENCE_OPTIONS, ...(smoke ? { looks: 100, maxObjects: 10 } : {}) };
	const sequence = syntheticSequence(options);
	const node = scoreTracking(sequence, nodeTracker(DEFAULT_TRACKING_SETTINGS, sequence.start));
	const naive = scoreTracking(sequence, naiveTracker());
	const name =
		`8. Tracking quality: ${thousands(options.looks)} looks a minute apart, ≤ ${options.maxObjects} objects, jitter ±${options.jitter * 100} %, ` +
		`${options.occlusionShare * 100} % missing for a look; the node's tracker, default settings`;
	return [
		[
			name,
			describeScore(node),
			`naive nearest-centre tracker: ${describeScore(naive)}`,
			'ID switches ≤ 1 per 1,000 object-looks for standing objects; stays within one interval',
		],
	];
}
