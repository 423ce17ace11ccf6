import type { DetectedObject } from '../contract';
import type { Anchor, BoundedPolygon, Box, Point, Size, StoredPicture } from './geometry';

/** A detection as the steps see it: the service's, with its box in fractions of the image (null when the size is unknown) and, with zones set, the zones its anchor is in. */
export type PlacedDetection = DetectedObject & { relativeBox: Box | null; zones?: string[] };

export interface Zone {
	name: string;
	/** In the zone's units: fractions of the image (relative) or pixels from its top-left corner. */
	points: Point[];
	/** What an object must be to count in this zone; absent when the zone sets none. */
	rules?: ZoneRules;
}

/** A zone's own rules for the objects whose anchor is in it: the labels it counts, and sizes instead of the node's. */
export interface ZoneRules {
	labels?: string[];
	/** Fractions of the image's area. */
	minSize?: number;
	maxSize?: number;
}

export const ZONE_UNITS = ['relative', 'pixels'] as const;
export const ZONE_ANCHORS = ['center', 'bottomCenter'] as const;

/** Detect's options about where objects are and how big they are. */
export interface ZoneAndSizeOptions {
	zones: Zone[];
	/** Polygons in the zones' units where objects are left out; absent when none is set. */
	ignoreRegions?: Point[][];
	units: (typeof ZONE_UNITS)[number];
	anchor: Anchor;
	/** Leave out the objects whose anchor is in no zone. */
	onlyInZones: boolean;
	/** Fractions of the image's area. */
	minSize?: number;
	maxSize?: number;
	/** A box's width ÷ height, as the picture is seen. */
	minAspectRatio?: number;
	maxAspectRatio?: number;
	/** Track Objects Across Looks is on: it matches boxes in fractions of the image. */
	tracked?: true;
}

/** Minimum Confidence per Label: [label, minimum] pairs (a list, so the settings' fingerprint sees them), and the minimum of the labels not named. */
export interface LabelMinimums {
	byLabel: Array<[label: string, minimum: number]>;
	others?: number;
}

/** What the node keeps of the service's detections, read from one item's options before any request. */
export interface DetectionOptions {
	labelMinimums?: LabelMinimums;
	/** Labels to keep, exactly as the service spells them; undefined keeps all. */
	onlyLabels?: string[];
	ignoreLabels?: string[];
	zonesAndSizes: ZoneAndSizeOptions;
	/** Keep the most confident this many. */
	maxObjects?: number;
}

/** What the steps know of the image: its pixel size as people see it, when known, and the zones in those pixels. */
export interface ImageFacts {
	size?: Size;
	/** The pixels the service's boxes are in, when they are shown turned or mirrored (EXIF orientation). */
	stored?: StoredPicture;
	zones: Array<Pick<Zone, 'name' | 'rules'> & BoundedPolygon>;
	/** The Ignore Regions in those pixels. */
	ignoreRegions?: BoundedPolygon[];
}

/** One step of what happens to the service's detections; adding one is a file and a line in steps.ts. */
export interface DetectionStep {
	/** The step's entry in the counts of what each step left out. */
	key: string;
	/** How the execution hint names the step. */
	name: string;
	/** The detections the step keeps, in the order it keeps them. */
	keep(detections: PlacedDetection[], image: ImageFacts, options: DetectionOptions): PlacedDetection[];
}
