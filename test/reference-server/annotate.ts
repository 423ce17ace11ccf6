/**
 * The annotated image: the input with each detection's box and label drawn, as the service
 * returns it. Boxes are drawn around the object (outside its bounds where the image allows), so a
 * small object stays visible inside its box; labels sit outside the box, on top of all boxes.
 */
import type { DetectedObject } from '../../nodes/ImageInference/contract';
import type { Rgb } from './draw';
import { drawLabel, labelSize, strokeAround } from './draw';
import type { DecodedImage } from './image-codec';
import { encodeImage } from './image-codec';

export interface AnnotateOptions {
	show_prob?: boolean | null;
	stroke_width?: number | null;
}

export const DEFAULT_STROKE_WIDTH = 2;

type Box = { x: number; y: number; width: number; height: number };

type Size = { width: number; height: number };

/**
 * Pixels per font pixel: labels stay readable whatever the image's size (the 5×9 font at 2× is
 * 10×18 pixels a character on a 680-pixel-wide photo; 12× on a 4,000-pixel one).
 */
export const fontScale = (image: Size) => Math.max(2, Math.round(Math.max(image.width, image.height) / 340));
/** Pixels per unit of stroke_width: 1 up to about 1,000 pixels, then growing with the image. */
export const strokeScale = (image: Size) => Math.max(1, Math.round(Math.max(image.width, image.height) / 640));

export function annotate(image: DecodedImage, detections: DetectedObject[], options: AnnotateOptions, colourOf: (label: string) => Rgb): Buffer {
	const canvas = { width: image.width, height: image.height, data: Buffer.from(image.data) };
	const scale = fontScale(image);
	const stroke = Math.max(1, Math.round(options.stroke_width ?? DEFAULT_STROKE_WIDTH)) * strokeScale(image);
	for (const detection of detections) strokeAround(canvas, detection, stroke, colourOf(detection.label));
	// Labels after all boxes, so no later box is drawn through an earlier label.
	const placed: Box[] = [];
	for (const detection of detections) {
		const colour = colourOf(detection.label);
		const text = (options.show_prob ?? true) ? `${detection.label} ${detection.confidence.toFixed(2)}` : detection.label;
		const { width, height } = labelSize(text, scale);
		const x = Math.max(0, Math.min(detection.x - stroke, canvas.width - width));
		// Above the box, else below it, else inside its top edge: the first spot inside the image that
		// no other label holds; failing that, the first one inside the image.
		const spots = [detection.y - stroke - height, detection.y + detection.height + stroke, detection.y]
			.filter((top) => top >= 0 && top + height <= canvas.height)
			.map((top) => ({ x, y: top, width, height }));
		const spot = spots.find((candidate) => !placed.some((other) => overlaps(candidate, other))) ?? spots[0] ?? { x, y: 0, width, height };
		placed.push(spot);
		drawLabel(canvas, text, spot.x, spot.y, scale, colour, inkOn(colour));
	}
	return encodeImage(canvas, image.format);
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Black or white text, whichever reads better on the label's background. */
function inkOn([r, g, b]: Rgb): Rgb {
	return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? [0, 0, 0] : [255, 255, 255];
}
