import type { Box, Point, Size } from '../pipeline/geometry';
import type { DetectionTrack } from '../pipeline/tracking';
import type { PlacedDetection, ZoneAndSizeOptions } from '../pipeline/types';
import { decodePicture, encodeJpeg } from './codec/codec';
import type { RgbPicture } from './codec/codec';
import { cropAround } from './crop';
import type { Rect } from './draw/canvas';
import { drawTag, strokeBox, strokePolygon, tagHeight } from './draw/canvas';
import { IGNORE_REGION_COLOR, ZONE_COLOR, ZONE_EDGE_COLOR, labelColor } from './draw/palette';
import type { PrivacyEffect } from './privacy';
import { hideBoxes } from './privacy';
import { shrinkPicture, sizeWithin } from './resize';
import type { YieldToEventLoop } from './slices';
import { sliceTimer } from './slices';
import { uprightPicture } from './upright';

/** What the node draws: the detections it kept, and the zones and Ignore Regions, in fractions of the picture as people see it. */
export interface PictureMarks {
	detections: ReadonlyArray<PlacedDetection & Partial<DetectionTrack>>;
	zones: ReadonlyArray<{ name: string; points: readonly Point[] }>;
	ignoreRegions: ReadonlyArray<readonly Point[]>;
}

export interface DrawingSettings {
	showConfidence: boolean;
	/** Outline the zones and Ignore Regions, named. */
	showZones: boolean;
	/** The drawn picture's longer side at most, in pixels. */
	maxSide?: number;
	/** JPEG quality, 1–100. */
	quality: number;
	/** Boxes (in fractions of the picture as people see it) made unrecognisable before anything is drawn. */
	hide?: HiddenBoxes;
}

export interface HiddenBoxes {
	boxes: readonly Box[];
	effect: PrivacyEffect;
}

export type DrawnPicture = { jpeg: Buffer; size: Size; damaged: boolean; unreadable?: undefined } | { unreadable: string };

/** The zones and Ignore Regions of Detect's options in fractions of the picture (`size`: as people see it, in pixels). */
export function zoneMarks(options: ZoneAndSizeOptions, size: Size): Pick<PictureMarks, 'zones' | 'ignoreRegions'> {
	const inFractions = (points: readonly Point[]): Point[] =>
		options.units === 'relative' ? [...points] : points.map(([x, y]) => [x / size.width, y / size.height] as const);
	return {
		zones: options.zones.map((zone) => ({ name: zone.name, points: inFractions(zone.points) })),
		ignoreRegions: (options.ignoreRegions ?? []).map(inFractions),
	};
}

/** "car #3 87% 1m 20s": the label, the track, the confidence and how long it has been seen, as the settings ask. */
export function tagText(detection: PictureMarks['detections'][number], showConfidence: boolean): string {
	const parts = [detection.label];
	if (detection.trackId !== undefined && detection.trackId !== null) parts.push(`#${detection.trackId}`);
	if (showConfidence) parts.push(`${Math.round(detection.confidence * 100)}%`);
	if (detection.seenForSeconds !== undefined && detection.seenForSeconds !== null) parts.push(duration(detection.seenForSeconds));
	return parts.join(' ');
}

function duration(seconds: number): string {
	const whole = Math.round(seconds);
	if (whole < 60) return `${whole}s`;
	if (whole < 3600) return `${Math.floor(whole / 60)}m ${whole % 60}s`;
	return `${Math.floor(whole / 3600)}h ${Math.floor((whole % 3600) / 60)}m`;
}

/** Line and text sizes for a picture: thicker and larger on larger pictures, so a phone shows them alike. */
export function markSizes(size: Size): { line: number; textScale: number } {
	const longer = Math.max(size.width, size.height);
	return { line: Math.max(2, Math.round(longer / 500)), textScale: Math.max(2, Math.round(longer / 400)) };
}

/** The marks drawn on the picture, in place: zones and regions first, then the boxes, then every tag on top. */
export function drawMarks(picture: RgbPicture, marks: PictureMarks, settings: Pick<DrawingSettings, 'showConfidence' | 'showZones'>): void {
	const { line, textScale } = markSizes(picture);
	const inPixels = (points: readonly Point[]): Point[] => points.map(([x, y]) => [x * picture.width, y * picture.height] as const);
	const tags: Array<() => void> = [];
	// where tags already stand: a tag that would cover one takes its other place
	const taken: Rect[] = [];
	const tagTall = tagHeight(textScale);
	if (settings.showZones) {
		const outline = (points: readonly Point[], name: string, color: typeof ZONE_COLOR) => {
			const pixels = inPixels(points);
			strokePolygon(picture, pixels, line + 2, ZONE_EDGE_COLOR);
			strokePolygon(picture, pixels, line, color);
			// the tag above the polygon's topmost corner
			const [x, y] = pixels.reduce((top, point) => (point[1] < top[1] || (point[1] === top[1] && point[0] < top[0]) ? point : top));
			// above the polygon's topmost corner, or else just inside it
			tags.push(() => drawTag(picture, name, x, [y, y + line + tagTall], textScale, color, taken));
		};
		marks.ignoreRegions.forEach((region) => outline(region, 'ignored', IGNORE_REGION_COLOR));
		marks.zones.forEach((zone) => outline(zone.points, zone.name, ZONE_COLOR));
	}
	for (const detection of marks.detections) {
		if (!detection.relativeBox) continue;
		const { x, y, width, height } = detection.relativeBox;
		const box = { x: x * picture.width, y: y * picture.height, width: width * picture.width, height: height * picture.height };
		const color = labelColor(detection.label);
		strokeBox(picture, box, line, color);
		// above the box, or else below it
		const below = box.y + box.height + line + tagTall;
		tags.push(() => drawTag(picture, tagText(detection, settings.showConfidence), box.x - line, [box.y - line, below], textScale, color, taken));
	}
	tags.forEach((draw) => draw());
}

/**
 * The node's own annotated picture of a JPEG or PNG file: upright, within Max Side, the marks
 * drawn, as a JPEG; or why the file cannot be drawn on.
 */
export async function drawPicture(
	bytes: Uint8Array,
	orientation: number | undefined,
	marks: PictureMarks,
	settings: DrawingSettings,
	yieldToEventLoop?: YieldToEventLoop,
): Promise<DrawnPicture> {
	const pause = sliceTimer(yieldToEventLoop);
	const decoded = await decodePicture(bytes, { longSide: settings.maxSide, pause });
	if (decoded.unreadable !== undefined) return decoded;
	const upright = await uprightPicture(decoded.picture, orientation, pause);
	const picture = await shrinkPicture(upright, sizeWithin(upright, settings.maxSide), pause);
	if (settings.hide) await hideBoxes(picture, settings.hide.boxes, settings.hide.effect, pause);
	drawMarks(picture, marks, settings);
	const jpeg = await encodeJpeg(picture, settings.quality, pause);
	return { jpeg, size: { width: picture.width, height: picture.height }, damaged: decoded.damaged };
}

/** The whole picture, upright and at its full size, with the boxes hidden, as a JPEG of `quality`; or why the file cannot be read. */
export async function hiddenPicture(
	bytes: Uint8Array,
	orientation: number | undefined,
	hide: HiddenBoxes,
	quality: number,
	yieldToEventLoop?: YieldToEventLoop,
): Promise<DrawnPicture> {
	const pause = sliceTimer(yieldToEventLoop);
	const decoded = await decodePicture(bytes, { pause });
	if (decoded.unreadable !== undefined) return decoded;
	const picture = await uprightPicture(decoded.picture, orientation, pause);
	await hideBoxes(picture, hide.boxes, hide.effect, pause);
	const jpeg = await encodeJpeg(picture, quality, pause);
	return { jpeg, size: { width: picture.width, height: picture.height }, damaged: decoded.damaged };
}

/**
 * Each box's crop (cropAround: the box grown by `padding`, at least `minSide`) from the whole
 * picture, upright, at its full size, with `hide`'s boxes hidden first; a JPEG each, none for a box
 * not known. Or why the file cannot be read.
 */
export async function croppedPictures(
	bytes: Uint8Array,
	orientation: number | undefined,
	boxes: ReadonlyArray<Box | null>,
	crop: { padding: number; minSide: number; quality: number },
	hide?: HiddenBoxes,
	yieldToEventLoop?: YieldToEventLoop,
): Promise<{ crops: Array<Buffer | undefined>; damaged: boolean; unreadable?: undefined } | { unreadable: string }> {
	const pause = sliceTimer(yieldToEventLoop);
	const decoded = await decodePicture(bytes, { pause });
	if (decoded.unreadable !== undefined) return decoded;
	const picture = await uprightPicture(decoded.picture, orientation, pause);
	if (hide) await hideBoxes(picture, hide.boxes, hide.effect, pause);
	const crops: Array<Buffer | undefined> = [];
	for (const box of boxes) crops.push(box ? await encodeJpeg(cropAround(picture, box, crop.padding, crop.minSide), crop.quality, pause) : undefined);
	return { crops, damaged: decoded.damaged };
}
