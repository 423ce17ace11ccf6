import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DetectedObject } from '../contract';
import type { Anchor, Box, Point, Size } from './geometry';
import { anchorPoint, areaFraction, insidePolygon, relativeBox, toPixels } from './geometry';
import { choiceOf, readOptionalBoolean, readOptionalNumber, shownValue, truncate } from './parameters';

/** Where the detections are (zones) and how big they are: Detect's options about places in the image. */

export const MAX_ZONES = 20;
export const MAX_ZONE_POINTS = 100;
const SIZE_BOUNDS = { min: 0, max: 1 };
const ZONE_UNITS = ['relative', 'pixels'] as const;
const ANCHORS = ['center', 'bottomCenter'] as const;

export interface Zone {
	name: string;
	/** In the zone's units: fractions of the image (relative) or pixels from its top-left corner. */
	points: Point[];
}

export interface PlaceOptions {
	zones: Zone[];
	units: (typeof ZONE_UNITS)[number];
	anchor: Anchor;
	/** Drop the objects whose anchor is in no zone. */
	onlyInZones: boolean;
	/** Fractions of the image's area. */
	minSize?: number;
	maxSize?: number;
}

/** A detection with where it is: its box in fractions of the image (null when the size is unknown) and its zones. */
export type PlacedDetection = DetectedObject & { relativeBox: Box | null; zones?: string[] };

/** Reads and checks the zone and size options of one item (an item error names what to fix). */
export function readPlaceOptions(this: IExecuteFunctions, itemIndex: number, options: IDataObject): PlaceOptions {
	const fail = (message: string, description: string): never => {
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	};
	const units = choiceOf(options.zoneCoordinates ?? 'relative', ZONE_UNITS) ?? fail(`Zone Coordinates must be relative or pixels, got ${shownValue(options.zoneCoordinates)}`, 'Choose Relative (0–1 of the image) or Pixels.');
	const anchor = choiceOf(options.zoneAnchor ?? 'center', ANCHORS) ?? fail(`Zone Anchor Point must be center or bottomCenter, got ${shownValue(options.zoneAnchor)}`, 'Choose Box Centre or Bottom Centre.');
	const zones = readZones(options.zones, units, fail);
	const onlyInZones = readOptionalBoolean.call(this, itemIndex, options, 'onlyInZones', 'Only Objects in Zones') ?? false;
	if (onlyInZones && zones.length === 0) fail('Only Objects in Zones is on, but no zone is set', 'Add a zone under Zones, or turn Only Objects in Zones off.');
	const minSize = readOptionalNumber.call(this, itemIndex, options, 'minObjectSize', 'Min Object Size', SIZE_BOUNDS);
	const maxSize = readOptionalNumber.call(this, itemIndex, options, 'maxObjectSize', 'Max Object Size', SIZE_BOUNDS);
	if (minSize !== undefined && maxSize !== undefined && minSize > maxSize) {
		fail(`Min Object Size (${minSize}) is larger than Max Object Size (${maxSize})`, 'Both are fractions of the image’s area: make Min Object Size the smaller one.');
	}
	return { zones, units, anchor, onlyInZones, minSize, maxSize };
}

function readZones(value: unknown, units: PlaceOptions['units'], fail: (message: string, description: string) => never): Zone[] {
	const entries = value && typeof value === 'object' ? (value as { zone?: unknown }).zone : undefined;
	if (entries === undefined || entries === null) return [];
	if (!Array.isArray(entries)) return fail('Zones must be a list of named zones', 'Add each zone with Add Zone: a name and its points.');
	if (entries.length > MAX_ZONES) fail(`${entries.length} zones are set; at most ${MAX_ZONES} are allowed`, 'Remove zones, or split the watch over several nodes.');
	const names = new Set<string>();
	return entries.map((entry: IDataObject, index) => {
		const name = typeof entry?.name === 'string' ? entry.name.trim() : '';
		if (name === '') fail(`Zone ${index + 1} has no name`, 'Give each zone a name (e.g. "driveway"): countsByZone and each object’s zones use it.');
		if (names.has(name)) fail(`Zone name "${truncate(name, 40)}" is used twice`, 'Give each zone its own name.');
		names.add(name);
		const parsed = parsePoints(entry.points, units);
		if (typeof parsed === 'string') {
			return fail(`Zone "${truncate(name, 40)}": ${parsed}`, `Write the points as x,y pairs separated by spaces, e.g. "0.1,0.6 0.5,0.6 0.5,1 0.1,1" (${units === 'relative' ? 'fractions 0–1 of the image’s width and height' : 'pixels from the image’s top-left corner'}).`);
		}
		return { name, points: parsed };
	});
}

/**
 * A polygon's points from text ("0.1,0.6 0.5,0.6 0.5,1") or, from an expression, a list of
 * [x, y] pairs, {x, y} objects or "x,y" texts; a string saying what is wrong otherwise.
 */
export function parsePoints(value: unknown, units: PlaceOptions['units']): Point[] | string {
	const pieces: unknown[] =
		typeof value === 'string'
			? value.trim().replace(/\s*,\s*/g, ',').split(/[\s;]+/).filter(Boolean)
			: Array.isArray(value)
				? value
				: [];
	if (pieces.length > MAX_ZONE_POINTS) return `${pieces.length} points; a zone has at most ${MAX_ZONE_POINTS}`;
	const points: Point[] = [];
	for (const [index, piece] of pieces.entries()) {
		const point = toPoint(piece);
		if (!point) return `point ${index + 1} ${shownValue(piece)} is not two numbers (x,y)`;
		const [x, y] = point;
		if (units === 'relative' && (x < 0 || x > 1 || y < 0 || y > 1)) {
			return `point ${index + 1} (${x},${y}) is outside 0–1; relative coordinates are fractions of the image (use Zone Coordinates: Pixels for pixels)`;
		}
		if (units === 'pixels' && (x < 0 || y < 0)) return `point ${index + 1} (${x},${y}) is negative; pixels count from the image’s top-left corner`;
		points.push(point);
	}
	if (points.length < 3) return `${points.length === 0 ? 'no points' : `only ${points.length} point${points.length === 1 ? '' : 's'}`}; a zone needs at least 3`;
	return points;
}

function toPoint(piece: unknown): Point | undefined {
	const pair =
		typeof piece === 'string'
			? piece.split(',')
			: Array.isArray(piece)
				? piece
				: piece && typeof piece === 'object'
					? [(piece as IDataObject).x, (piece as IDataObject).y]
					: [];
	if (pair.length !== 2) return undefined;
	const [x, y] = pair.map((part) => (typeof part === 'number' ? part : typeof part === 'string' && part.trim() !== '' ? Number(part) : NaN));
	return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : undefined;
}

/** Whether the options need the image's pixel size (relative zones, object sizes). */
export function needsImageSize(place: PlaceOptions): string | undefined {
	if (place.minSize !== undefined) return 'Min Object Size';
	if (place.maxSize !== undefined) return 'Max Object Size';
	if (place.zones.length && place.units === 'relative') return 'Zones in relative coordinates';
	return undefined;
}

/**
 * Refuses, before any request, options that need the image's size for an image URL whose size
 * the node will not learn (it never reads the image, and no annotated picture comes back).
 */
export function checkSizeKnowable(this: IExecuteFunctions, itemIndex: number, place: PlaceOptions, picture: { url: boolean; annotated: boolean }): void {
	const needing = needsImageSize(place);
	if (!needing || !picture.url || picture.annotated) return;
	throw new NodeOperationError(this.getNode(), `${needing} need${needing.startsWith('Zones') ? '' : 's'} the image’s size, which the node does not learn from an image URL without the annotated picture`, {
		itemIndex,
		description:
			'Set Output Images to Annotated with Annotate Image on (the size is read from the returned picture), give the zones in pixels (Zone Coordinates: Pixels), or pass the image as a file (download it with HTTP Request first).',
	});
}

/** Refuses, after the answer, to place objects when the size they need is still unknown. */
export function requireSize(this: IExecuteFunctions, itemIndex: number, place: PlaceOptions, size: Size | undefined): void {
	const needing = needsImageSize(place);
	if (!needing || size) return;
	throw new NodeOperationError(this.getNode(), `${needing} need${needing.startsWith('Zones') ? '' : 's'} the image’s size, and it is unknown for this image`, {
		itemIndex,
		description: 'The service sent no readable annotated picture and the node could not read the image’s size. Pass the image as a file, or give the zones in pixels.',
	});
}

/** The zones in pixels, ready to test points against. */
export interface PlacedZones {
	place: PlaceOptions;
	polygons: Array<{ name: string; points: Point[] }>;
	size?: Size;
}

export function placeZones(place: PlaceOptions, size: Size | undefined): PlacedZones {
	const polygons = place.zones.map(({ name, points }) => ({ name, points: place.units === 'relative' && size ? toPixels(points, size) : points }));
	return { place, polygons, size };
}

export function zonesOf(placed: PlacedZones, box: Box): string[] {
	const anchor = anchorPoint(box, placed.place.anchor);
	const names: string[] = [];
	for (const { name, points } of placed.polygons) if (insidePolygon(anchor, points)) names.push(name);
	return names;
}

/** Whether an object passes the zone and size options (applied with the label filters). */
export function keepsPlace(placed: PlacedZones, detection: DetectedObject): boolean {
	const { place, size } = placed;
	if (size && (place.minSize !== undefined || place.maxSize !== undefined)) {
		const area = areaFraction(detection, size);
		if (place.minSize !== undefined && area < place.minSize) return false;
		if (place.maxSize !== undefined && area > place.maxSize) return false;
	}
	return !place.onlyInZones || zonesOf(placed, detection).length > 0;
}

/** Each kept detection with its relative box and (with zones) the zones it is in. */
export function placeDetections(placed: PlacedZones, detections: DetectedObject[]): PlacedDetection[] {
	const withZones = placed.polygons.length > 0;
	return detections.map((detection) => {
		// the contract's schema leaves a detection exactly these fields; built field by field, as spreads cost more
		const { label, confidence, x, y, width, height } = detection;
		const placedDetection: PlacedDetection = { label, confidence, x, y, width, height, relativeBox: placed.size ? relativeBox(detection, placed.size) : null };
		if (withZones) placedDetection.zones = zonesOf(placed, detection);
		return placedDetection;
	});
}

/** `{ zone: { label: count } }` for every zone, in the order the zones are set (an empty zone is `{}`). */
export function countsByZone(placed: PlacedZones, detections: PlacedDetection[]): Record<string, Record<string, number>> {
	const counts: Record<string, Record<string, number>> = {};
	for (const { name } of placed.polygons) counts[name] = {};
	for (const detection of detections) {
		for (const zone of detection.zones ?? []) counts[zone][detection.label] = (counts[zone][detection.label] ?? 0) + 1;
	}
	return counts;
}
