/**
 * A Watch Key's looks through the node's own detection pipeline (placing, zones, counts,
 * Compare With Previous Look, Track Objects Across Looks), without HTTP: the service's answer is
 * the objects given, in a picture of 1,000 × 1,000 pixels, so a relative box of 0.123 is 123
 * pixels. The settings are built as Detect's prepare builds them (the fingerprint of the steps'
 * options), for the unit tests and the model-based tests of the watch state.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CooldownScope, Watch } from '../../nodes/ImageInference/pipeline/comparison';
import { DEFAULT_COOLDOWN_SCOPE, settingsFingerprint } from '../../nodes/ImageInference/pipeline/comparison';
import type { StoredPicture } from '../../nodes/ImageInference/pipeline/geometry';
import { runDetectionPipeline } from '../../nodes/ImageInference/pipeline/steps';
import { defaultTrackingSettings } from '../../nodes/ImageInference/pipeline/tracking';
import type { DetectionOptions } from '../../nodes/ImageInference/pipeline/types';

export const PICTURE = 1000;
export const MINUTE = 60_000;

/** A rectangle in fractions of the picture: left, top, right, bottom. */
export type Rectangle = [x0: number, y0: number, x1: number, y1: number];

export interface WatchSettings {
	zones?: Array<{ name: string; rectangle: Rectangle }>;
	/** Track Objects Across Looks: on unless false. */
	tracking?: boolean;
	keepMissedLooks?: number;
	countAfterLooks?: number;
	minOverlap?: number;
	stayLimitMinutes?: number;
	zoneStayLimits?: Array<[zone: string, minutes: number]>;
	cooldownMinutes?: number;
	cooldownScope?: CooldownScope;
	departureAfterLooks?: number;
	/** The Confidence Threshold: another one is another baseline. */
	confidence?: number;
}

/** An object the service finds: its label and its box in fractions of the picture (x, y of its top-left corner). */
export interface SeenObject {
	label: string;
	box: [x: number, y: number, width: number, height: number];
}

export function detectionOptionsOf(settings: WatchSettings): DetectionOptions {
	const zones = (settings.zones ?? []).map(({ name, rectangle: [x0, y0, x1, y1] }) => ({
		name,
		points: [
			[x0, y0],
			[x1, y0],
			[x1, y1],
			[x0, y1],
		] as Array<[number, number]>,
	}));
	return { zonesAndSizes: { zones, units: 'relative', anchor: 'bottomCenter', onlyInZones: false, ...(settings.tracking === false ? {} : { tracked: true as const }) } };
}

export function watchOf(key: string, settings: WatchSettings): Watch {
	const options = detectionOptionsOf(settings);
	const zoned = options.zonesAndSizes.zones.length > 0;
	const watch: Watch = {
		key,
		cooldownMs: (settings.cooldownMinutes ?? 0) * MINUTE,
		cooldownScope: settings.cooldownScope ?? DEFAULT_COOLDOWN_SCOPE,
		departureAfterLooks: settings.departureAfterLooks ?? 1,
		settings: settingsFingerprint(settings.confidence ?? null, options),
	};
	if (settings.tracking === false) return watch;
	const defaults = defaultTrackingSettings('UTC', zoned);
	return {
		...watch,
		tracking: {
			...defaults,
			keepMissedLooks: settings.keepMissedLooks ?? defaults.keepMissedLooks,
			minOverlap: settings.minOverlap ?? defaults.minOverlap,
			countAfterLooks: settings.countAfterLooks ?? defaults.countAfterLooks,
			...(settings.stayLimitMinutes !== undefined ? { stayLimitMs: settings.stayLimitMinutes * MINUTE } : {}),
			zoneStayLimitsMs: (settings.zoneStayLimits ?? []).map(([zone, minutes]) => [zone, minutes * MINUTE]),
		},
	};
}

/** One look of `key` at `now`: the pipeline's result, as Detect's output takes it. */
export function lookAt(store: IDataObject, key: string, settings: WatchSettings, objects: SeenObject[], now: number) {
	return look(store, key, settings, objects, now, { width: PICTURE, height: PICTURE });
}

/** The same look of an image URL without the service's picture: the node learns no size, so no object is placed. */
export function lookWithoutSize(store: IDataObject, key: string, settings: WatchSettings, objects: SeenObject[], now: number) {
	return look(store, key, settings, objects, now, undefined);
}

function look(store: IDataObject, key: string, settings: WatchSettings, objects: SeenObject[], now: number, picture: StoredPicture | undefined) {
	const answer = {
		detections: objects.map(({ label, box: [x, y, width, height] }) => ({ label, confidence: 0.9, x: x * PICTURE, y: y * PICTURE, width: width * PICTURE, height: height * PICTURE })),
		image: null,
		labelsCount: [],
	};
	const result = runDetectionPipeline(answer, picture, detectionOptionsOf(settings), { watch: watchOf(key, settings), store, now });
	type Tracked = { trackId: number | null; seenForSeconds: number | null; secondsInZones?: Record<string, number> };
	return { ...result, detections: result.results.detections as Array<(typeof result.results.detections)[number] & Tracked> };
}
