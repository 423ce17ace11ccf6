import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DetectedObject } from '../contract';
import { numberFromText, readChoice, readOptionalBoolean, readOptionalNumber, shownValue, truncate } from '../parameters/readers';
import type { Box, Point, Size, StoredPicture } from './geometry';
import { anchorPoint, areaFraction, boundedPolygon, edgesCross, inAngleOrder, insideBoundedPolygon, polygonArea, relativeBox, toPixels, uprightBox, uprightSize } from './geometry';
import { parseLabelList } from './labels';
import { madeOncePer } from './madeOnce';
import type { DetectionStep, ImageFacts, PlacedDetection, Zone, ZoneAndSizeOptions, ZoneRules } from './types';
import { ZONE_ANCHORS, ZONE_UNITS } from './types';

/** Where the detections are (zones) and how big they are: Detect's options about places in the image. */

export const MAX_ZONES = 20;
export const MAX_ZONE_POINTS = 100;
export const DEFAULT_ZONE_UNITS = 'relative';
export const DEFAULT_ZONE_ANCHOR = 'center';
const SIZE_BOUNDS = { min: 0, max: 1 };
export const ASPECT_RATIO_BOUNDS = { min: 0.01, max: 100 };

/**
 * Only Objects in Zones, Min and Max Object Size, Min and Max Aspect Ratio, and the zones' own
 * rules: one step, as one option set decides them. A zone with rules keeps in its `zones` only the
 * objects of its labels and sizes; an object that fits a zone it is in is kept whatever the node's
 * sizes, and one that fits none is judged as an object in no zone.
 */
export const zonesAndSizes: DetectionStep = {
	key: 'zonesAndSizes',
	name: 'the zone and size options',
	keep(detections, image, { zonesAndSizes: options }) {
		const { size } = image;
		const bySize = size !== undefined && (options.minSize !== undefined || options.maxSize !== undefined);
		const byShape = options.minAspectRatio !== undefined || options.maxAspectRatio !== undefined;
		const rulesOf = zoneRulesByName(image.zones);
		if (!bySize && !byShape && !options.onlyInZones && rulesOf.size === 0) return detections;
		const fits = (detection: PlacedDetection, minSize: number | undefined, maxSize: number | undefined) => {
			if (size === undefined) return true;
			const area = areaFraction(detection, size);
			return !(minSize !== undefined && area < minSize) && !(maxSize !== undefined && area > maxSize);
		};
		return detections.filter((detection) => {
			if (rulesOf.size > 0 && detection.zones?.length) {
				const fitting = detection.zones.filter((name) => {
					const rules = rulesOf.get(name);
					if (!rules) return fits(detection, options.minSize, options.maxSize);
					return (!rules.labels || rules.labels.includes(detection.label)) && fits(detection, rules.minSize ?? options.minSize, rules.maxSize ?? options.maxSize);
				});
				// the list placeDetection sized to its names is kept when every zone counts the object
				if (fitting.length < detection.zones.length) detection.zones = fitting;
			}
			const inAZone = (detection.zones?.length ?? 0) > 0;
			if (!(rulesOf.size > 0 && inAZone) && !fits(detection, options.minSize, options.maxSize)) return false;
			if (byShape) {
				// as people see the picture: a phone photo stored sideways swaps width and height
				const seen = seenBox(detection, image);
				const ratio = seen.width / seen.height;
				if (options.minAspectRatio !== undefined && !(ratio >= options.minAspectRatio)) return false;
				if (options.maxAspectRatio !== undefined && !(ratio <= options.maxAspectRatio)) return false;
			}
			return !options.onlyInZones || inAZone;
		});
	},
};

/** Reads and checks the zone and size options of one item (an item error names what to fix). */
export function readZoneAndSizeOptions(this: IExecuteFunctions, itemIndex: number, options: IDataObject): ZoneAndSizeOptions {
	const fail = (message: string, description: string): never => {
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	};
	const units = readChoice(this, itemIndex, options.zoneCoordinates ?? DEFAULT_ZONE_UNITS, ZONE_UNITS, 'Zone Coordinates', 'Choose Relative (0–1 of the image) or Pixels.');
	const anchor = readChoice(this, itemIndex, options.zoneAnchor ?? DEFAULT_ZONE_ANCHOR, ZONE_ANCHORS, 'Zone Anchor Point', 'Choose Box Centre or Bottom Centre.');
	const zones = readZones(options.zones, units, fail);
	const ignoreRegions = readIgnoreRegions(options.ignoreRegions, units, fail);
	const onlyInZones = readOptionalBoolean.call(this, itemIndex, options, 'onlyInZones', 'Only Objects in Zones') ?? false;
	if (onlyInZones && zones.length === 0) fail('Only Objects in Zones is on, but no zone is set', 'Add a zone under Zones, or turn Only Objects in Zones off.');
	const minSize = readOptionalNumber.call(this, itemIndex, options, 'minObjectSize', 'Min Object Size', SIZE_BOUNDS);
	const maxSize = readOptionalNumber.call(this, itemIndex, options, 'maxObjectSize', 'Max Object Size', SIZE_BOUNDS);
	if (minSize !== undefined && maxSize !== undefined && minSize > maxSize) {
		fail(`Min Object Size (${minSize}) is larger than Max Object Size (${maxSize})`, 'Both are fractions of the image’s area: make Min Object Size the smaller one.');
	}
	const minAspectRatio = readOptionalNumber.call(this, itemIndex, options, 'minAspectRatio', 'Min Aspect Ratio', ASPECT_RATIO_BOUNDS);
	const maxAspectRatio = readOptionalNumber.call(this, itemIndex, options, 'maxAspectRatio', 'Max Aspect Ratio', ASPECT_RATIO_BOUNDS);
	if (minAspectRatio !== undefined && maxAspectRatio !== undefined && minAspectRatio > maxAspectRatio) {
		fail(`Min Aspect Ratio (${minAspectRatio}) is larger than Max Aspect Ratio (${maxAspectRatio})`, 'Both are a box’s width divided by its height: make Min Aspect Ratio the smaller one.');
	}
	// Track Objects applies only with Compare on for the item (pipeline/tracking.ts, readTracking)
	const tracked =
		readOptionalBoolean.call(this, itemIndex, options, 'compareWithPreviousLook', 'Compare With Previous Look') === true &&
		readOptionalBoolean.call(this, itemIndex, options, 'trackObjects', 'Track Objects Across Looks') === true;
	return { zones, ...(ignoreRegions.length ? { ignoreRegions } : {}), units, anchor, onlyInZones, minSize, maxSize, minAspectRatio, maxAspectRatio, ...(tracked ? { tracked } : {}) };
}

function readZones(value: unknown, units: ZoneAndSizeOptions['units'], fail: (message: string, description: string) => never): Zone[] {
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
		if (typeof parsed === 'string') return fail(`Zone "${truncate(name, 40)}": ${parsed}`, pointsFormat(units));
		const problem = shapeProblem(parsed, units);
		if (problem) fail(`Zone "${truncate(name, 40)}": ${problem.message}`, problem.description);
		const rules = readZoneRules(entry, `Zone "${truncate(name, 40)}"`, fail);
		return { name, points: parsed, ...(rules ? { rules } : {}) };
	});
}

/** A zone's Only These Labels and Min / Max Object Size: blank, 0 or absent is the node's. */
function readZoneRules(entry: IDataObject, zone: string, fail: (message: string, description: string) => never): ZoneRules | undefined {
	const rules: ZoneRules = {};
	const labels = parseLabelList(entry.labels);
	if (labels?.length) rules.labels = labels;
	for (const [key, field, label] of [
		['minSize', 'minObjectSize', 'Min Object Size'],
		['maxSize', 'maxObjectSize', 'Max Object Size'],
	] as const) {
		const value = entry[field];
		if (value === undefined || value === null || value === '' || value === 0) continue;
		const fraction = numberFromText(value);
		if (typeof fraction !== 'number' || !(fraction > 0 && fraction <= 1)) return fail(`${zone}: ${label} must be a fraction from 0 to 1, got ${shownValue(value)}`, `A fraction of the image’s area, e.g. 0.002 (0.2 %); 0 uses the node’s ${label}.`);
		rules[key] = fraction;
	}
	if (rules.minSize !== undefined && rules.maxSize !== undefined && rules.minSize > rules.maxSize) {
		fail(`${zone}: Min Object Size (${rules.minSize}) is larger than Max Object Size (${rules.maxSize})`, 'Both are fractions of the image’s area: make Min Object Size the smaller one.');
	}
	return Object.keys(rules).length > 0 ? rules : undefined;
}

function readIgnoreRegions(value: unknown, units: ZoneAndSizeOptions['units'], fail: (message: string, description: string) => never): Point[][] {
	const entries = value && typeof value === 'object' ? (value as { region?: unknown }).region : undefined;
	if (entries === undefined || entries === null) return [];
	if (!Array.isArray(entries)) return fail('Ignore Regions must be a list of regions', 'Add each region with Add Ignore Region: its points.');
	if (entries.length > MAX_ZONES) fail(`${entries.length} ignore regions are set; at most ${MAX_ZONES} are allowed`, 'Remove regions, or join neighbouring ones into one polygon.');
	return entries.map((entry: IDataObject, index) => {
		const parsed = parsePoints(entry?.points, units, 'region');
		if (typeof parsed === 'string') return fail(`Ignore Region ${index + 1}: ${parsed}`, pointsFormat(units));
		const problem = shapeProblem(parsed, units);
		if (problem) fail(`Ignore Region ${index + 1}: ${problem.message}`, problem.description);
		return parsed;
	});
}

const pointsFormat = (units: ZoneAndSizeOptions['units']) =>
	`Write the points as x,y pairs separated by spaces, e.g. "0.1,0.6 0.5,0.6 0.5,1 0.1,1" (${units === 'relative' ? 'fractions 0–1 of the image’s width and height' : 'pixels from the image’s top-left corner'}).`;

/**
 * A polygon's points from text ("0.1,0.6 0.5,0.6 0.5,1") or, from an expression, a list of
 * [x, y] pairs, {x, y} objects or "x,y" texts; a string saying what is wrong otherwise.
 */
export function parsePoints(value: unknown, units: ZoneAndSizeOptions['units'], shape: 'zone' | 'region' = 'zone'): Point[] | string {
	const pieces: unknown[] =
		typeof value === 'string'
			? value.trim().replace(/\s*,\s*/g, ',').split(/[\s;]+/).filter(Boolean)
			: Array.isArray(value)
				? value
				: [];
	if (pieces.length > MAX_ZONE_POINTS) return `${pieces.length} points; a ${shape} has at most ${MAX_ZONE_POINTS}`;
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
	if (points.length < 3) return `${points.length === 0 ? 'no points' : `only ${points.length} point${points.length === 1 ? '' : 's'}`}; a ${shape} needs at least 3`;
	return points;
}

/** What is wrong with a zone's shape as drawn (its edges cross, it has no area, its pixels look relative); undefined when nothing is. */
export function shapeProblem(points: Point[], units: ZoneAndSizeOptions['units']): { message: string; description: string } | undefined {
	const text = (polygon: readonly Point[]) => polygon.map(([x, y]) => `${x},${y}`).join(' ');
	// a bow-tie's two halves cancel out in the area: crossing edges are told first
	if (edgesCross(points)) {
		const walked = inAngleOrder(points);
		return {
			message: 'its edges cross: the points are not in the order of its corners',
			description: edgesCross(walked)
				? 'Give the corners in the order you walk around the zone, each next to the one before.'
				: `Give the corners in the order you walk around the zone, e.g. "${text(walked)}".`,
		};
	}
	if (polygonArea(points) === 0) {
		return { message: 'its points lie on one line, so it has no area', description: 'Give at least three corners that are not on one line, e.g. "0.1,0.6 0.5,0.6 0.5,1".' };
	}
	if (units === 'pixels' && points.every(([x, y]) => x <= 1 && y <= 1)) {
		return {
			message: 'every point is within 0–1, in Pixels: a zone of at most one pixel',
			description: 'Set Zone Coordinates to Relative (0–1) if these are fractions of the image, or give the points in pixels.',
		};
	}
	return undefined;
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

/** The option that needs the image's pixel size (relative zones, object sizes), if any. */
function optionNeedingImageSize(options: ZoneAndSizeOptions): string | undefined {
	if (options.minSize !== undefined) return 'Min Object Size';
	if (options.maxSize !== undefined) return 'Max Object Size';
	if (options.zones.length && options.units === 'relative') return 'Zones in relative coordinates';
	if (options.ignoreRegions && options.units === 'relative') return 'Ignore Regions in relative coordinates';
	if (options.zones.some(({ rules }) => rules?.minSize !== undefined || rules?.maxSize !== undefined)) return 'A zone’s Min / Max Object Size';
	if (options.tracked) return 'Track Objects Across Looks';
	return undefined;
}

function sizeNeeded(this: IExecuteFunctions, itemIndex: number, option: string, why: string, description: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), `${option} need${option.includes(' in ') ? '' : 's'} the image’s size, ${why}`, { itemIndex, description });
}

/**
 * Refuses, before any request, options that need the image's size for an image URL whose size
 * the node will not learn (it never reads the image, and no annotated picture comes back).
 */
export function checkSizeKnowable(this: IExecuteFunctions, itemIndex: number, options: ZoneAndSizeOptions, picture: { url: boolean; annotated: boolean }): void {
	const option = optionNeedingImageSize(options);
	if (!option || !picture.url || picture.annotated) return;
	throw sizeNeeded.call(
		this,
		itemIndex,
		option,
		'which the node does not learn from an image URL without the annotated picture',
		'Set Output Images to Annotated with Annotate Image on (the size is read from the returned picture), give the zones in pixels (Zone Coordinates: Pixels), or pass the image as a file (download it with HTTP Request first).',
	);
}

/** Whether an option needs the image's pixel size. */
export function needsImageSize(options: ZoneAndSizeOptions): boolean {
	return optionNeedingImageSize(options) !== undefined;
}

const SIZE_UNKNOWN = {
	beforeSending: {
		why: 'and the node could not read it from this file, so it was not sent',
		fix: 'The node reads the size from JPEG, PNG, WebP, GIF, BMP and TIFF headers, and this one gave none. Convert the image to JPEG or PNG with an Edit Image node before this one, or give the zones in pixels (Zone Coordinates: Pixels) without Min or Max Object Size.',
	},
	afterAnswer: {
		why: 'and it is unknown for this image',
		fix: 'The service sent no readable annotated picture and the node could not read the image’s size. Pass the image as a file, or give the zones in pixels.',
	},
} as const;

/**
 * Refuses to place objects when the size they need is unknown: before the request for a file
 * whose header gave none, or after the answer when no readable annotated picture gave it.
 */
export function requireSize(
	this: IExecuteFunctions,
	itemIndex: number,
	options: ZoneAndSizeOptions,
	size: Size | undefined,
	when: keyof typeof SIZE_UNKNOWN,
): void {
	const option = optionNeedingImageSize(options);
	if (!option || size) return;
	throw sizeNeeded.call(this, itemIndex, option, SIZE_UNKNOWN[when].why, SIZE_UNKNOWN[when].fix);
}

/**
 * What the steps know of the image: its size as people see it, and the zones in those pixels.
 * `picture` is the image the service's boxes are in: its stored pixels and EXIF orientation.
 */
export function imageFacts(options: ZoneAndSizeOptions, picture: StoredPicture | undefined): ImageFacts {
	const size = picture && uprightSize(picture);
	return {
		size,
		...placesInPixels(options, size),
		...(picture?.orientation !== undefined ? { stored: picture } : {}),
	};
}

/** The zones and regions in pixels for the last image size of each options object: a watch's images are mostly of one size. */
const lastPlaces = new WeakMap<ZoneAndSizeOptions, { width?: number; height?: number; places: Pick<ImageFacts, 'zones' | 'ignoreRegions'> }>();

function placesInPixels(options: ZoneAndSizeOptions, size: Size | undefined): Pick<ImageFacts, 'zones' | 'ignoreRegions'> {
	const last = lastPlaces.get(options);
	if (last && last.width === size?.width && last.height === size?.height) return last.places;
	const inPixels = (points: Point[]) => boundedPolygon(options.units === 'relative' && size ? toPixels(points, size) : points);
	const places = {
		zones: options.zones.map((zone) => ({ ...zone, ...inPixels(zone.points) })),
		...(options.ignoreRegions ? { ignoreRegions: options.ignoreRegions.map(inPixels) } : {}),
	};
	lastPlaces.set(options, { width: size?.width, height: size?.height, places });
	return places;
}

/** Each zone list's zones with rules of their own, by name. */
const zoneRulesByName = madeOncePer((zones: ImageFacts['zones']) => new Map(zones.flatMap(({ name, rules: own }) => (own ? [[name, own] as const] : []))));

/** A warning for each zone in pixels that reaches past the image, once its size is known: drawn on a larger frame, or a typo. */
export function zonesPastTheImage(options: ZoneAndSizeOptions, size: Size | undefined): string[] {
	if (options.units !== 'pixels' || !size) return [];
	return options.zones.flatMap(({ name, points }) => {
		const index = points.findIndex(([x, y]) => x > size.width || y > size.height);
		if (index === -1) return [];
		const [x, y] = points[index];
		return [`Zone "${truncate(name, 40)}" reaches past the image (${size.width} × ${size.height} pixels) at point ${index + 1} (${x},${y}): it was drawn for another size, or Relative (0–1) is meant`];
	});
}

/** A detection with where it is: its relative box and, with zones set, the zones its anchor is in. */
export function placeDetection(detection: DetectedObject, image: ImageFacts, anchor: ZoneAndSizeOptions['anchor']): PlacedDetection {
	// the contract's schema leaves a detection exactly these fields; built field by field, as spreads cost more
	const { label, confidence, x, y, width, height } = detection;
	const seen = seenBox(detection, image);
	const box = image.size ? relativeBox(seen, image.size) : null;
	if (!image.zones.length) return { label, confidence, x, y, width, height, relativeBox: box };
	const point = anchorPoint(seen, anchor);
	// each output detection keeps its list: map makes it to its length, where push or filter leave room for 17 names
	const zones = image.zones.filter((zone) => insideBoundedPolygon(point, zone)).map((zone) => zone.name);
	// in the one literal: a field added to an object afterwards is kept in a store of its own, one more object a detection
	return { label, confidence, x, y, width, height, relativeBox: box, zones };
}

/** Where the box is in the picture as people see it: zones and regions are drawn on that. */
export function seenBox(box: Box, image: ImageFacts): Box {
	return image.stored ? uprightBox(box, image.stored) : box;
}
