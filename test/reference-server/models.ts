/**
 * The models the reference server hosts, each under its own model id:
 *   centernetDetect    CenterNet object detection (real, pretrained on COCO): the default
 *   centernetClassify  the image's dominant object by the same detector: the default
 *   syntheticDetect    colour regions (synthetic, fast): benchmarks, faults, very large images
 *   syntheticClassify  colour families (synthetic, fast)
 */
import type { ClassifyResult, DetectResult, DetectedObject, PredictionKind } from '../../nodes/ImageInference/contract';
import { COCO_LABELS } from './coco-labels';
import type { Candidate, Detector } from './detector';
import { DETECTOR_DESCRIPTION, nonMaxSuppression } from './detector';
import type { Rgb } from './draw';
import type { DecodedImage } from './image-codec';
import type { ClassifyOptions, DetectOptions } from './predict';
import { detectionResult, roundConfidence } from './predict';
import { colourFamilies, colourRegions } from './synthetic';

export const MODEL_IDS = {
	centernetDetect: '3f8e2a6c-5b1d-4c7e-9a2f-6d4b8c1e0f37',
	centernetClassify: '7c2d9e41-0a6b-4f3e-8d15-2b9c6a7e4f08',
	syntheticDetect: 'b5e07d93-2c4a-4f81-a6d2-9e3f1c8b7a50',
	syntheticClassify: 'e1a4c6f2-8d3b-4a95-b7c0-5f2e9d1a3c68',
} as const;

/** Which pair answers as a server's default detection and classification models. */
export type DefaultModels = 'centernet' | 'synthetic';
export const defaultModelIds = (defaults: DefaultModels) =>
	defaults === 'centernet'
		? { detect: MODEL_IDS.centernetDetect, classify: MODEL_IDS.centernetClassify }
		: { detect: MODEL_IDS.syntheticDetect, classify: MODEL_IDS.syntheticClassify };

/** An image as a model receives it: its fingerprint (for caches) and its pixels, decoded on demand. */
export interface ImageInput {
	sha256: string;
	decoded(): DecodedImage;
}

interface ModelInfo {
	id: string;
	name: string;
	description: string;
	/** Whether it runs the CenterNet detector (which must be loaded first). */
	usesDetector: boolean;
}

export interface DetectionModel extends ModelInfo {
	kind: 'detect';
	detect(input: ImageInput, options: DetectOptions): DetectResult;
}

export interface ClassificationModel extends ModelInfo {
	kind: 'classify';
	classify(input: ImageInput, options: ClassifyOptions): ClassifyResult;
}

export type HostedModel = DetectionModel | ClassificationModel;

/** What the server prints and hands out about each model. */
export type ModelDescription = { id: string; kind: PredictionKind; name: string; description: string };

/** CenterNet's boxes overlapping more than this (intersection over union) are one object. */
const MAX_OVERLAP = 0.4;
/** CenterNet's scores run lower than a classifier's: 0.3 keeps real objects and drops most noise. */
const DETECTOR_DEFAULT_CONFIDENCE = 0.3;
const CANDIDATE_CACHE_SIZE = 64;

/** One colour per COCO category, from a palette of bright hues that stand out on photos. */
const PALETTE: Rgb[] = [
	[255, 56, 56], [0, 194, 255], [255, 112, 31], [72, 249, 10], [203, 56, 255], [255, 178, 29], [0, 212, 187],
	[255, 55, 199], [146, 204, 23], [100, 115, 255], [234, 230, 40], [61, 219, 134], [255, 149, 200], [255, 157, 151],
];
export const cocoColour = (label: string): Rgb => PALETTE[Math.max(0, COCO_LABELS.indexOf(label as (typeof COCO_LABELS)[number])) % PALETTE.length];

const toDetection = ({ label, score, box }: Candidate): DetectedObject => ({ label, confidence: roundConfidence(score), ...box });

/** The models, sharing one detector (handed over once loaded) and one cache of its proposals per image. */
export function createModels(detector: () => Detector): Map<string, HostedModel> {
	const proposals = new Map<string, Candidate[]>();
	const candidates = (input: ImageInput): Candidate[] => {
		const hit = proposals.get(input.sha256);
		if (hit) return hit;
		const found = detector().candidates(input.decoded());
		proposals.set(input.sha256, found);
		if (proposals.size > CANDIDATE_CACHE_SIZE) proposals.delete(proposals.keys().next().value!);
		return found;
	};

	const models: HostedModel[] = [
		{
			id: MODEL_IDS.centernetDetect,
			kind: 'detect',
			name: 'CenterNet COCO object detection',
			description: `${DETECTOR_DESCRIPTION}. Real predictions: labels, confidences, boxes in pixels. Default confidence ${DETECTOR_DEFAULT_CONFIDENCE}.`,
			usesDetector: true,
			detect: (input, options) =>
				detectionResult(
					input.decoded(),
					{ objects: nonMaxSuppression(candidates(input), MAX_OVERLAP).map(toDetection), defaultConfidence: DETECTOR_DEFAULT_CONFIDENCE, colourOf: cocoColour },
					options,
				),
		},
		{
			id: MODEL_IDS.centernetClassify,
			kind: 'classify',
			name: 'Dominant object (from the CenterNet detector)',
			description:
				'No image classifier ships offline, so this derives one from the detector: the category is the label of the most confident object; predictions are each COCO label the detector proposes, with its best confidence.',
			usesDetector: true,
			classify: (input, options) => dominantObject(candidates(input), options),
		},
		{
			id: MODEL_IDS.syntheticDetect,
			kind: 'detect',
			name: 'Colour regions (synthetic)',
			description: 'Not a vision model: strongly coloured regions, labelled by hue (red, blue, …). Fast and deterministic; for benchmarks and very large images.',
			usesDetector: false,
			detect: (input, options) => detectionResult(input.decoded(), colourRegions(input.decoded()), options),
		},
		{
			id: MODEL_IDS.syntheticClassify,
			kind: 'classify',
			name: 'Colour families (synthetic)',
			description: 'Not a vision model: the share of the image in each colour family; predictions sum to 1. Fast and deterministic.',
			usesDetector: false,
			classify: (input, options) => colourFamilies(input.decoded(), options),
		},
	];
	return new Map(models.map((model) => [model.id, model]));
}

/** A classification from the detector's proposals: each label at its best score, best first. */
export function dominantObject(candidates: Candidate[], options: ClassifyOptions): ClassifyResult {
	const best = new Map<string, number>();
	for (const { label, score } of candidates) best.set(label, Math.max(score, best.get(label) ?? 0));
	const ranked = [...best]
		.map(([category, score]) => ({ category, confidence: roundConfidence(score) }))
		.sort((a, b) => b.confidence - a.confidence || a.category.localeCompare(b.category));
	const top = ranked[0] ?? { category: 'nothing', confidence: 0 };
	return {
		category: top.category,
		confidence: top.confidence,
		predictions: ranked.filter((prediction) => prediction.confidence >= (options.confidence ?? 0)),
	};
}

export const describeModel = ({ id, kind, name, description }: HostedModel): ModelDescription => ({ id, kind, name, description });
