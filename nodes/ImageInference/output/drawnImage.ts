import type { IBinaryData, IBinaryKeyData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { decodeBase64 } from '../input/base64';
import type { ImageInput } from '../input/imageInput';
import { resolveImage } from '../input/imageInput';
import type { DrawingSettings, HiddenBoxes, PictureMarks } from '../picture/drawnPicture';
import { croppedPictures, drawPicture, hiddenPicture, zoneMarks } from '../picture/drawnPicture';
import type { PrivacyEffect } from '../picture/privacy';
import type { Size, StoredPicture } from '../pipeline/geometry';
import { relativeBox, uprightBox, uprightSize } from '../pipeline/geometry';
import type { DetectionResults } from '../pipeline/steps';
import type { PlacedDetection, ZoneAndSizeOptions } from '../pipeline/types';
import { annotatedFileName, fileNameBase } from './annotatedImage';

/** How the node draws its own annotated picture (Detect's drawing options, read before any request). */
export interface NodeDrawing extends Omit<DrawingSettings, 'hide'> {
	/** Carry the service's picture when the node cannot draw (the service is then asked for one); never with Blur These Labels. */
	serviceFallback: boolean;
}

/** Blur These Labels (Detect's options, read before any request). */
export interface Privacy {
	labels: string[];
	effect: PrivacyEffect;
	passUnblurredOriginal: boolean;
}

/** What to hide in one image: the labels' boxes among every detection the service returned (placed by the pipeline). */
export interface HideRequest {
	labels: string[];
	effect: PrivacyEffect;
	placed: readonly PlacedDetection[];
	/** The other picture the boxes may be in, when nothing settled which (geometry's unsettledOtherPicture): they are hidden as placed there too. */
	otherPicture?: StoredPicture;
}

const QUALITY_OF_BLURRED_ORIGINAL = 92;

/**
 * Blur These Labels as given, before any request: a comma-separated text, or (from an expression)
 * a list of texts, each of which may hold several. Anything else is refused, for a value read
 * loosely (an object's `[object Object]`, a number) would match no label and blur nothing.
 */
export function readBlurLabels(this: IExecuteFunctions, itemIndex: number, value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const parts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((part) => typeof part === 'string') ? (value as string[]) : undefined;
	if (!parts) {
		const given = Array.isArray(value) ? 'a list of other things' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
		throw new NodeOperationError(this.getNode(), `Blur These Labels must be text or a list of texts, not ${given}`, {
			itemIndex,
			description: 'Give the labels as text separated by commas (e.g. "person, license-plate"), or an expression that gives such a text or a list of labels.',
		});
	}
	return [...new Set(parts.flatMap((part) => part.split(',')).map((label) => label.trim()).filter(Boolean))];
}

/** Whether a label is one of Blur These Labels: case and surrounding spaces aside, for blurring too much is the safe side. */
export function hiddenLabel(labels: readonly string[]): (label: string) => boolean {
	const hidden = new Set(labels.map((label) => label.trim().toLowerCase()));
	return (label) => hidden.has(label.trim().toLowerCase());
}

/** The boxes to hide, in fractions of the picture; a reason when one of them cannot be placed (the image's size unknown). */
function boxesToHide(hide: HideRequest): HiddenBoxes | { unplaced: string } {
	const isHidden = hiddenLabel(hide.labels);
	const hidden = hide.placed.filter((detection) => isHidden(detection.label));
	const boxes = hidden.flatMap((detection) => (detection.relativeBox ? [detection.relativeBox] : []));
	if (boxes.length < hidden.length) return { unplaced: 'the image’s size is unknown, so the boxes to blur cannot be placed' };
	const other = hide.otherPicture;
	const asIfInOther = other ? hidden.map((detection) => relativeBox(uprightBox(detection, other), uprightSize(other))) : [];
	return { boxes: [...boxes, ...asIfInOther], effect: hide.effect };
}

const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream']);

/**
 * The item's files that cannot be its pictures: with Blur These Labels none goes on unblurred. A
 * file goes on only when its type names something else (a PDF, a text) and the image was not read
 * from it (the node reads an image by its bytes, whatever its type says); a file of no type or a
 * generic one may be a picture.
 */
export function withoutImageFiles(binary: IBinaryKeyData, image?: ImageInput): IBinaryKeyData {
	const readFrom = image?.source === 'binary' ? image.field : undefined;
	const namesOther = (mimeType: string | undefined) => {
		const type = (mimeType ?? '').trim().toLowerCase();
		return type !== '' && !type.startsWith('image/') && !GENERIC_TYPES.has(type);
	};
	return Object.fromEntries(Object.entries(binary).filter(([field, file]) => field !== readFrom && namesOther(file.mimeType)));
}

/**
 * Whether the node is set to blur (Blur These Labels added, the unblurred original not passed on
 * by a fixed choice), read from its stored settings without evaluating expressions, so it holds
 * for an item that failed before its settings could be read: such an item's pictures stay back.
 */
export function blursPictures(node: INode): boolean {
	const options = node.parameters.options;
	if (!options || typeof options !== 'object' || Array.isArray(options)) return false;
	return 'hideLabels' in options && options.passUnblurredOriginal !== true;
}

/** How the image's file says it is turned (EXIF); an image URL gives the node no file. */
export function orientationOf(image: ImageInput): number | undefined {
	return image.source === 'url' ? undefined : image.size?.orientation;
}

/** The image's own bytes (a file, or decoded base64); an image URL gives the node none. */
async function imageBytes(this: IExecuteFunctions, itemIndex: number, image: ImageInput): Promise<Uint8Array | undefined> {
	if (image.source === 'url') return undefined;
	const resolved = await resolveImage.call(this, itemIndex, image);
	return typeof resolved === 'string' ? decodeBase64(resolved) : resolved;
}

/**
 * The node's own annotated picture of an image: the kept detections (with their tracks), the
 * zones and Ignore Regions, on the image's own file; or the service's picture (`fallback`, when
 * the user chose it: never with Blur These Labels, whose service is asked for none) or none, with a
 * warning saying why. Never throws: the detections, counts
 * and the comparison with the previous look stand whatever becomes of the picture.
 */
export async function drawnAnnotatedImage(
	this: IExecuteFunctions,
	itemIndex: number,
	image: ImageInput,
	drawing: NodeDrawing & { hide?: HideRequest },
	marks: { results: DetectionResults; zonesAndSizes: ZoneAndSizeOptions; size: Size | undefined },
	fallback: IBinaryData | undefined,
): Promise<{ binary?: IBinaryData; warning?: string; byNode?: true }> {
	const cannot = (reason: string) => ({
		...(fallback ? { binary: fallback } : {}),
		warning: `The node could not draw the annotated picture: ${reason}; the item carries ${fallback ? 'the service’s picture' : 'no annotated image'}.`,
	});
	try {
		const bytes = await imageBytes.call(this, itemIndex, image);
		if (!bytes) return cannot('an image URL gives the node no file to draw on');
		// zones in pixels need the image's size; without it only zones in fractions are drawn
		const places = marks.size || marks.zonesAndSizes.units === 'relative' ? zoneMarks(marks.zonesAndSizes, marks.size ?? { width: 1, height: 1 }) : { zones: [], ignoreRegions: [] };
		const pictureMarks: PictureMarks = { detections: marks.results.detections, ...places };
		const orientation = orientationOf(image);
		const hide = drawing.hide && boxesToHide(drawing.hide);
		if (hide && 'unplaced' in hide) return cannot(hide.unplaced);
		const drawn = await drawPicture(bytes, orientation, pictureMarks, { ...drawing, hide });
		if (drawn.unreadable !== undefined) return cannot(drawn.unreadable);
		const binary = await this.helpers.prepareBinaryData(drawn.jpeg, annotatedFileName(image.fileName, 'jpg'), 'image/jpeg');
		return drawn.damaged
			? { binary, byNode: true, warning: 'The image’s file is damaged: the node drew on as much of it as could be decoded (the rest is grey).' }
			: { binary, byNode: true };
	} catch (error) {
		return cannot(`${(error as Error).message || String(error)}`);
	}
}

/** `street.png` -> `street.blurred.jpg`. */
export function blurredFileName(inputFileName: string): string {
	return `${fileNameBase(inputFileName)}.blurred.jpg`;
}

/**
 * The original image with Blur These Labels' boxes hidden, at its full size, upright, as a JPEG;
 * or none, with a warning saying why: the unblurred original never goes on in its place.
 */
export async function hiddenOriginal(this: IExecuteFunctions, itemIndex: number, image: ImageInput, hide: HideRequest): Promise<{ binary?: IBinaryData; warning?: string }> {
	const cannot = (reason: string) => ({ warning: `The node could not blur the original image: ${reason}; the item carries no original image.` });
	try {
		const bytes = await imageBytes.call(this, itemIndex, image);
		if (!bytes) return cannot('an image URL gives the node no file');
		const boxes = boxesToHide(hide);
		if ('unplaced' in boxes) return cannot(boxes.unplaced);
		const hidden = await hiddenPicture(bytes, orientationOf(image), boxes, QUALITY_OF_BLURRED_ORIGINAL);
		if (hidden.unreadable !== undefined) return cannot(hidden.unreadable);
		const binary = await this.helpers.prepareBinaryData(hidden.jpeg, blurredFileName(image.fileName), 'image/jpeg');
		return hidden.damaged ? { binary, warning: 'The image’s file is damaged: the blurred original is of as much of it as could be decoded (the rest is grey).' } : { binary };
	} catch (error) {
		return cannot(`${(error as Error).message || String(error)}`);
	}
}

/** Crop Each Object (Detect's options, read before any request). */
export interface CropSettings {
	padding: number;
	minSide: number;
	/** The output binary field of each object's crop. */
	field: string;
}

const QUALITY_OF_CROPS = 92;

/**
 * Each kept object's crop as a file (`<input name>.crop-<n>.jpg`, n from 1 in the objects' order),
 * with Blur These Labels' boxes hidden; none for an object whose box is not known, with a warning,
 * and none at all when the file cannot be read, with a warning saying why.
 */
export async function objectCrops(
	this: IExecuteFunctions,
	itemIndex: number,
	image: ImageInput,
	detections: readonly PlacedDetection[],
	settings: CropSettings,
	hideRequest: HideRequest | undefined,
): Promise<{ crops: Array<IBinaryData | undefined>; warnings: string[] }> {
	const none = (reason: string) => ({ crops: [], warnings: [`The node could not crop the objects: ${reason}; the items carry no crops.`] });
	try {
		const bytes = await imageBytes.call(this, itemIndex, image);
		if (!bytes) return none('an image URL gives the node no file');
		const hide = hideRequest && boxesToHide(hideRequest);
		if (hide && 'unplaced' in hide) return none(hide.unplaced);
		const boxes = detections.map((detection) => detection.relativeBox);
		const cropped = await croppedPictures(bytes, orientationOf(image), boxes, { ...settings, quality: QUALITY_OF_CROPS }, hide);
		if (cropped.unreadable !== undefined) return none(cropped.unreadable);
		const base = fileNameBase(image.fileName);
		const crops: Array<IBinaryData | undefined> = [];
		for (const [index, jpeg] of cropped.crops.entries()) {
			crops.push(jpeg && (await this.helpers.prepareBinaryData(jpeg, `${base}.crop-${index + 1}.jpg`, 'image/jpeg')));
		}
		const warnings = crops.includes(undefined) ? ['The image’s size is unknown: objects without a relativeBox carry no crop.'] : [];
		if (cropped.damaged) warnings.push('The image’s file is damaged: the crops are of as much of it as could be decoded (the rest is grey).');
		return { crops, warnings };
	} catch (error) {
		return none(`${(error as Error).message || String(error)}`);
	}
}
