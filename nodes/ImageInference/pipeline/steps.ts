import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DetectResult } from '../contract';
import { readOptionalNumber } from '../parameters/readers';
import type { Comparison, Watch } from './comparison';
import { compareWithPreviousLook } from './comparison';
import type { DetectionCounts } from './counts';
import { countDetections } from './counts';
import type { StoredPicture } from './geometry';
import { ignoreRegions } from './ignoreRegions';
import { labelMinimums, readLabelMinimums } from './labelMinimums';
import { ignoreTheseLabels, onlyTheseLabels, readLabelFilters } from './labels';
import { MAX_OBJECTS_BOUNDS, maxObjects } from './maxObjects';
import type { DetectionTrack, StoredTrack, TrackedObject, TrackingResult, TrackingState } from './tracking';
import { moveSetAsideTracks, newTrackingState, trackObjects } from './tracking';
import type { DetectionOptions, DetectionStep, PlacedDetection } from './types';
import { imageFacts, placeDetection, readZoneAndSizeOptions, zonesAndSizes, zonesPastTheImage } from './zones';

/**
 * What the node does with the service's detections, in this order: each step keeps some and the
 * next sees only those. The execution hint, docs/watching.md and the tests read this list.
 */
export const DETECTION_STEPS: readonly DetectionStep[] = [labelMinimums, onlyTheseLabels, ignoreTheseLabels, ignoreRegions, zonesAndSizes, maxObjects];

/** How many of the service's objects each step left out, by step key. */
export type LeftOutCounts = Record<string, number>;

export type DetectionResults = { detections: PlacedDetection[] } & DetectionCounts;

/** Each node run's last options read (the object, and its JSON): items with the same options are read once. */
const lastRead = new WeakMap<IExecuteFunctions, { options: IDataObject; json: string; detectionOptions: DetectionOptions }>();

/**
 * Reads and checks the steps' options of one item, before any request. Reading zones, regions and
 * minimums from their text is most of a watch's cost per item, so an item whose options are those
 * of the item before (the same object when they hold no expression: readOptions) gets the same
 * (never changed) result.
 */
export function readDetectionOptions(this: IExecuteFunctions, itemIndex: number, options: IDataObject): DetectionOptions {
	const last = lastRead.get(this);
	if (last?.options === options) return last.detectionOptions;
	const json = JSON.stringify(options);
	if (last?.json === json) return last.detectionOptions;
	const detectionOptions: DetectionOptions = {
		...readLabelMinimums.call(this, itemIndex, options),
		...readLabelFilters.call(this, itemIndex, options),
		zonesAndSizes: readZoneAndSizeOptions.call(this, itemIndex, options),
	};
	const most = readOptionalNumber.call(this, itemIndex, options, 'maxObjects', 'Max Objects', MAX_OBJECTS_BOUNDS);
	if (most !== undefined) detectionOptions.maxObjects = most;
	lastRead.set(this, { options, json, detectionOptions });
	return detectionOptions;
}

/**
 * The service's answer through the steps, then counted, then (with a Watch Key) compared with the
 * key's previous look in `store`, the workflow's static data. `placed` is every detection of the
 * answer placed in the picture, before any step. `picture` is the image the boxes
 * are in: its pixel size and EXIF orientation.
 */
export function runDetectionPipeline(
	answer: DetectResult,
	picture: StoredPicture | undefined,
	options: DetectionOptions,
	watch?: { watch: Watch; store: IDataObject; now: number },
): { results: DetectionResults; placed: PlacedDetection[]; leftOut: LeftOutCounts; warnings: string[]; comparison?: Comparison; tracking?: TrackingResult } {
	const image = imageFacts(options.zonesAndSizes, picture);
	// every object the service found, placed: what Blur These Labels hides, whatever the steps keep
	const placed = answer.detections.map((detection) => placeDetection(detection, image, options.zonesAndSizes.anchor));
	let detections = placed;
	const leftOut: LeftOutCounts = {};
	for (const step of DETECTION_STEPS) {
		const kept = step.keep(detections, image, options);
		leftOut[step.key] = detections.length - kept.length;
		detections = kept;
	}
	const results: DetectionResults = { detections, ...countDetections(detections, answer.labelsCount, image) };
	const warnings = zonesPastTheImage(options.zonesAndSizes, image.size);
	if (!watch) return { results, placed, leftOut, warnings };
	let tracked: ReturnType<typeof trackObjects> | undefined;
	const settings = watch.watch.tracking;
	const tracking =
		settings &&
		((previous: TrackingState | undefined, baseline: boolean, lost?: { nextId: number }) => {
			// the previous look is replaced by this one: its tracks (plain objects: looksToWrite) move on in place
			// after a loss, the looks in which an object hidden at the loss may come back: Track Kept Through Missed Looks, and one
			const state = previous ?? newTrackingState(watch.now, lost && { nextId: lost.nextId, resumedLooks: settings.keepMissedLooks + 1 });
			// tracking needs the image's size (requireSize): every box is in fractions of the image
			tracked = trackObjects(state, detections as TrackedObject[], settings, watch.now, baseline);
			return { state, seen: tracked.seen };
		});
	// without the image's size (an image URL) the objects cannot be placed, not even none: the tracks stay as they are
	const setAside = (state: TrackingState, baseline: boolean) => (image.size ? moveSetAsideTracks(state, detections as TrackedObject[], watch.now, baseline) : new Set<StoredTrack>());
	const look = { counts: results.countsByLabel, zones: results.countsByZone, tracking, setAside };
	const comparison = compareWithPreviousLook(watch.store, watch.watch, look, watch.now, warnings);
	if (!tracked) return { results, placed, leftOut, warnings, comparison };
	// the detections are this answer's own (placeDetection made them): each gains its track's fields
	tracked.detections.forEach((track, index) => {
		const detection: PlacedDetection & Partial<DetectionTrack> = detections[index];
		detection.trackId = track.trackId;
		detection.firstSeenAt = track.firstSeenAt;
		detection.seenForSeconds = track.seenForSeconds;
		if (track.secondsInZones) detection.secondsInZones = track.secondsInZones;
	});
	return { results, placed, leftOut, warnings, comparison, tracking: tracked.result };
}
