/**
 * What every detection model of the reference server shares: the request options, the
 * confidence threshold, the per-label counts and the annotated image, in the contract's shape.
 */
import type { DetectResult, DetectedObject } from '../../nodes/ImageInference/contract';
import type { AnnotateOptions } from './annotate';
import { annotate } from './annotate';
import type { Rgb } from './draw';
import type { DecodedImage } from './image-codec';

export interface DetectOptions extends AnnotateOptions {
	confidence?: number;
	annotate?: boolean;
}

export interface ClassifyOptions {
	confidence?: number;
}

/** A detection model's answer for the image: its objects (any confidence) and how it draws them. */
export interface Found {
	objects: DetectedObject[];
	/** The threshold used when the request leaves `confidence` out. */
	defaultConfidence: number;
	colourOf(label: string): Rgb;
}

export function detectionResult(image: DecodedImage, found: Found, options: DetectOptions): DetectResult {
	const threshold = options.confidence ?? found.defaultConfidence;
	const detections = found.objects.filter((detection) => detection.confidence >= threshold);
	const totals = new Map<string, number>();
	for (const { label } of detections) totals.set(label, (totals.get(label) ?? 0) + 1);
	return {
		detections,
		image: (options.annotate ?? true) ? annotate(image, detections, options, found.colourOf).toString('base64') : null,
		labelsCount: [...totals].map(([label, total]) => ({ label, total })),
	};
}

/** Confidences as the service reports them: four decimals. */
export const roundConfidence = (value: number) => Math.round(value * 10_000) / 10_000;
