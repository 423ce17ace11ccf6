import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ImageSize } from '../../input/imageSize';
import { readChoice, readText, shownValue } from '../../parameters/readers';
import type { Box } from '../../pipeline/geometry';
import { uprightBox, uprightSize } from '../../pipeline/geometry';
import type { AnnotationRequest, PixelBox, ProjectType } from '../../projectContract';
import { PROJECT_TYPES } from '../../projectContract';

export const ANNOTATION_SOURCES = ['none', 'detections', 'classificationLabel'] as const;
export type AnnotationSource = (typeof ANNOTATION_SOURCES)[number];

/** A box one image may carry at most: far more than any detector reports, bounded for a runaway expression. */
export const MAX_BOXES = 1000;
/** How far (pixels) a box may pass the image's edge and still be taken, clipped: a detector's rounding. */
export const EDGE_TOLERANCE_PX = 0.5;
/** How far (pixels) each of x, y, width, height may be from its relativeBox's and still be the same box: the service rounds its pixels. */
export const SAME_BOX_TOLERANCE_PX = 1;

/**
 * A box as given: in pixels (x, y, width, height), relative to the picture as people see it
 * (relativeBox), or both, as Detect Objects gives them.
 */
export interface GivenBox {
	label: string;
	pixels?: Box;
	relative?: Box;
}

/** What one item asks to record with its image, read and checked before any request. */
export type WantedAnnotations = { source: 'none' } | { source: 'detections'; boxes: GivenBox[] } | { source: 'classificationLabel'; label: string };

/** A labelled annotation ready to send but for its label's id. */
export interface LabelledAnnotation {
	label: string;
	annotation: AnnotationRequest['annotation'];
}

const DETECTIONS_SHAPE =
	'Each entry needs a label and a box: x, y, width, height in the image’s pixels (as Detect Objects gives them), or a relativeBox of four fractions of the picture.';

export function readAnnotations(this: IExecuteFunctions, itemIndex: number): WantedAnnotations {
	const source = readChoice(this, itemIndex, this.getNodeParameter('annotationSource', itemIndex, 'detections'), ANNOTATION_SOURCES, 'Annotations');
	if (source === 'none') return { source };
	if (source === 'classificationLabel') {
		const description = 'Enter the class the image shows, exactly as the project names it (case counts), or an expression that gives it.';
		const label = readText.call(this, itemIndex, this.getNodeParameter('classificationLabel', itemIndex, ''), 'Classification Label', description).trim();
		if (label === '') throw new NodeOperationError(this.getNode(), 'Classification Label is empty', { itemIndex, description });
		return { source, label };
	}
	return { source, boxes: readDetectionList.call(this, itemIndex, this.getNodeParameter('detections', itemIndex, undefined)) };
}

function readDetectionList(this: IExecuteFunctions, itemIndex: number, value: unknown): GivenBox[] {
	const fail = (message: string, description = DETECTIONS_SHAPE): never => {
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	};
	if (value === undefined || value === null || value === '') {
		fail(
			'This item has no detections to annotate with',
			'Annotations From Detections reads the item’s detections, as a Detect Objects node before this one leaves them. Put Detect Objects before this node, set Detections to an expression that gives such a list, or set Annotations to None.',
		);
	}
	let list = value;
	if (typeof value === 'string') {
		try {
			list = JSON.parse(value);
		} catch {
			fail(`Detections is not a list: got the text ${shownValue(value)}`);
		}
	}
	if (!Array.isArray(list)) return fail(`Detections is not a list: got ${shownValue(list)}`);
	if (list.length > MAX_BOXES) fail(`Detections has ${list.length} entries: at most ${MAX_BOXES} boxes go with one image`, 'Filter the list first, for example with Max Objects in Detect Objects.');
	return list.map((entry: unknown, index) => readGivenBox(entry, index, fail));
}

const PIXEL_KEYS = ['x', 'y', 'width', 'height'] as const;

function readGivenBox(entry: unknown, index: number, fail: (message: string) => never): GivenBox {
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail(`Detection ${index} is not an object: got ${shownValue(entry)}`);
	const fields = entry as Record<string, unknown>;
	const label = fields.label;
	if (typeof label !== 'string' || label.trim() === '') return fail(`Detection ${index} has no label: got ${shownValue(label)}`);
	const relative = typeof fields.relativeBox === 'object' && fields.relativeBox !== null ? readBox(fields.relativeBox as Record<string, unknown>, true) : undefined;
	if (PIXEL_KEYS.some((key) => fields[key] !== undefined && fields[key] !== null)) {
		const pixels = readBox(fields, false);
		if (!pixels) return fail(`Detection ${index}’s box is not four numbers (x, y, width and height above 0): got ${shownValue(PIXEL_KEYS.map((key) => fields[key]))}`);
		return relative ? { label, pixels, relative } : { label, pixels };
	}
	if (!relative) {
		return fail(
			fields.relativeBox === undefined || fields.relativeBox === null
				? `Detection ${index} has no box: neither x, y, width, height nor relativeBox`
				: `Detection ${index}’s relativeBox is not four fractions from 0 to 1 (width and height above 0): got ${shownValue(fields.relativeBox)}`,
		);
	}
	return { label, relative };
}

function readBox(fields: Record<string, unknown>, fractions: boolean): Box | undefined {
	const [x, y, width, height] = PIXEL_KEYS.map((key) => fields[key]);
	const numbers = [x, y, width, height];
	if (!numbers.every((value): value is number => Number.isFinite(value))) return undefined;
	if ((width as number) <= 0 || (height as number) <= 0) return undefined;
	if (fractions && numbers.some((value) => (value as number) < 0 || (value as number) > 1)) return undefined;
	return { x: x as number, y: y as number, width: width as number, height: height as number };
}

/**
 * Whether the project's type takes what the item gives: boxes go to a detection project, a label
 * to a classification project, an image alone to either. The item error says what to change.
 */
export function refusalFor(wanted: WantedAnnotations, projectType: ProjectType, projectId: string): { message: string; description: string } | undefined {
	if (wanted.source === 'detections' && projectType === PROJECT_TYPES.classification) {
		return {
			message: `Project ${projectId} is a classification project: it takes a label, not boxes`,
			description: 'Set Annotations to Classification Label (the class the image shows) or None, or choose an object detection project.',
		};
	}
	if (wanted.source === 'classificationLabel' && projectType === PROJECT_TYPES.detection) {
		return {
			message: `Project ${projectId} is an object detection project: it takes boxes, not a label`,
			description: 'Set Annotations to From Detections (the boxes of a Detect Objects node before this one) or None, or choose a classification project.',
		};
	}
	return undefined;
}

/**
 * The annotations for the uploaded image, in its stored pixels (its `width` and `height` in the
 * record), from each box as storedBoxOf reads it. A box past the image's edge by more than
 * EDGE_TOLERANCE_PX is an error, never clipped away.
 */
export function annotationsFor(wanted: WantedAnnotations, size: ImageSize, fail: (message: string, description: string) => never): LabelledAnnotation[] {
	const image = { width: size.width, height: size.height };
	if (wanted.source === 'none') return [];
	if (wanted.source === 'classificationLabel') return [{ label: wanted.label, annotation: { category: 'category', metadata: { image } } }];
	return wanted.boxes.map(({ label, pixels, relative }, index) => {
		if (!relative && (size.orientation ?? 1) >= 5) {
			const upright = uprightSize(size);
			fail(
				`Detection ${index}’s box (${shownBox(pixels!)}) comes without a relativeBox of four fractions, and the photo is stored turned a quarter (EXIF orientation ${size.orientation}: ${size.width} × ${size.height} pixels stored, ${upright.width} × ${upright.height} as people see it)`,
				'Its x, y, width and height may be in either picture, and Detect Objects gives them in the one people see when the service turned the photo. Keep relativeBox beside them, as Detect Objects gives it for an image it has the bytes of (a Set or Edit Fields node that picks the fields leaves it out), or give relativeBox alone, in fractions of the picture as people see it.',
			);
		}
		const box = storedBoxOf({ label, pixels, relative }, size, (inPixels) =>
			fail(
				`Detection ${index}’s x, y, width, height (${shownBox(pixels!)}) and its relativeBox (x ${relative!.x}, y ${relative!.y}, ${relative!.width} × ${relative!.height}: ${shownBox(inPixels)} of the ${inPixels.frame.width} × ${inPixels.frame.height} picture) are not the same box`,
				'If you edited x, y, width or height, remove relativeBox or update it to match. If the image was resized after Detect Objects, remove x, y, width and height so that relativeBox is used.',
			),
		);
		const inside = clippedInside(box, size);
		if (!inside) {
			fail(
				`Detection ${index}’s box (${shownBox(box)}) is outside the image (${size.width} × ${size.height} pixels)`,
				'Boxes are taken in the uploaded image’s pixels. If the image was resized or cropped after Detect Objects, upload the image Detect Objects saw, or give each box as relativeBox (fractions of the picture).',
			);
		}
		return { label, annotation: { category: 'bounding_box', ...inside!, metadata: { image } } };
	});
}

/** EXIF orientations that undo each other: a quarter turn one way is undone by a quarter turn the other way. */
const UNDOING_ORIENTATION: Record<number, number> = { 6: 8, 8: 6 };

/**
 * A given box in the stored pixels. Detect Objects' x, y, width, height are in the pixels the
 * service detected on: the stored ones, or for a photo stored sideways whose annotated picture
 * came back upright, the picture as people see it (geometry.ts, servicePicture); its relativeBox
 * is always in the picture as people see it. So pixels beside a relativeBox are taken in the frame
 * in which they give that relativeBox (within SAME_BOX_TOLERANCE_PX), the stored one first; when
 * they give it in neither (pixels edited after Detect Objects, or the image resized), `mismatch`
 * is called with the relativeBox in the picture's pixels. Pixels alone are the stored pixels
 * (annotationsFor refuses them for a photo stored turned a quarter, where they may be in either).
 */
function storedBoxOf({ pixels, relative }: GivenBox, size: ImageSize, mismatch: (relativeInPixels: Box & { frame: { width: number; height: number } }) => never): Box {
	if (!relative) return pixels!;
	const upright = uprightSize(size);
	const inPixels = { x: relative.x * upright.width, y: relative.y * upright.height, width: relative.width * upright.width, height: relative.height * upright.height };
	if (!pixels) return storedFromUpright(inPixels, size);
	if (sameBox(uprightBox(pixels, size), inPixels)) return pixels;
	if (sameBox(pixels, inPixels)) return storedFromUpright(pixels, size);
	return mismatch({ ...inPixels, frame: upright });
}

/** A box in the picture as people see it, in the stored pixels. */
function storedFromUpright(box: Box, size: ImageSize): Box {
	const orientation = size.orientation ?? 1;
	return uprightBox(box, { ...uprightSize(size), orientation: UNDOING_ORIENTATION[orientation] ?? orientation });
}

const sameBox = (a: Box, b: Box): boolean => PIXEL_KEYS.every((key) => Math.abs(a[key] - b[key]) <= SAME_BOX_TOLERANCE_PX);

function clippedInside(box: Box, size: ImageSize): PixelBox | undefined {
	const right = box.x + box.width;
	const bottom = box.y + box.height;
	if (box.x < -EDGE_TOLERANCE_PX || box.y < -EDGE_TOLERANCE_PX || right > size.width + EDGE_TOLERANCE_PX || bottom > size.height + EDGE_TOLERANCE_PX) return undefined;
	const left = Math.max(0, box.x);
	const top = Math.max(0, box.y);
	return { left, top, width: Math.min(size.width, right) - left, height: Math.min(size.height, bottom) - top };
}

function round(value: number): number {
	return Math.round(value * 10) / 10;
}

function shownBox(box: Box): string {
	return `x ${round(box.x)}, y ${round(box.y)}, ${round(box.width)} × ${round(box.height)}`;
}
