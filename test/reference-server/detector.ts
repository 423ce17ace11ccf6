/**
 * A real pretrained object detector, offline: CenterNet (MobileNet v3 backbone, 512×512 input,
 * trained on the 80 COCO categories) as converted to TensorFlow.js and shipped in the
 * `@vladmandic/human` package's `models/` folder. Runs on TensorFlow.js's WebAssembly backend.
 * The model's files are read from the installed package on disk; nothing is downloaded.
 *
 * Exports:
 *   loadDetector(): Promise<Detector>   loads once per process (later calls share the promise)
 *   Detector.candidates(image)          every object the model proposes, before any threshold
 *   nonMaxSuppression(candidates, iou)  keeps the best of each group of overlapping candidates
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { GraphModel } from '@tensorflow/tfjs-converter';
import type * as Tf from '@tensorflow/tfjs-core';

import { COCO_LABELS } from './coco-labels';
import type { RgbaImage } from './image-codec';

export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** One object the model proposes: a COCO label, the model's score (0–1) and a box in image pixels. */
export interface Candidate {
	label: string;
	score: number;
	box: Box;
}

export interface Detector {
	/** What it is, for the server's model list. */
	readonly description: string;
	/** How long loading took (backend, weights, first run), in milliseconds. */
	readonly loadMs: number;
	/** The model's proposals for the image, highest score first (synchronous: the model is loaded). */
	candidates(image: RgbaImage): Candidate[];
}

export const DETECTOR_DESCRIPTION =
	'CenterNet (MobileNet v3) trained on COCO, 80 object categories; TensorFlow.js model from @vladmandic/human';

const MODEL_FILE = 'centernet.json';
const OUTPUT = 'tower_0/detections';

/** The folder of `@vladmandic/human` (its package.json is not exported, so from its main file). */
function humanPackageDir(): string {
	return join(dirname(require.resolve('@vladmandic/human')), '..');
}

/** A tfjs IO handler for a graph model on disk: model.json plus its weight shards, read with fs. */
export function fileModelHandler(modelJsonPath: string): Tf.io.IOHandler {
	return {
		load: async () => {
			const model = JSON.parse(readFileSync(modelJsonPath, 'utf8')) as Tf.io.ModelJSON;
			const groups = model.weightsManifest ?? [];
			const shards = groups.flatMap((group) => group.paths.map((path) => readFileSync(join(dirname(modelJsonPath), path))));
			// One ArrayBuffer made here (not a view on a pooled Buffer): tfjs slices weights out of it by offset.
			const weightData = new Uint8Array(shards.reduce((sum, shard) => sum + shard.length, 0));
			let offset = 0;
			for (const shard of shards) {
				weightData.set(shard, offset);
				offset += shard.length;
			}
			return {
				modelTopology: model.modelTopology,
				format: model.format,
				generatedBy: model.generatedBy,
				convertedBy: model.convertedBy,
				signature: model.signature,
				userDefinedMetadata: model.userDefinedMetadata,
				weightSpecs: groups.flatMap((group) => group.weights),
				weightData: weightData.buffer,
			};
		},
	};
}

let loading: Promise<Detector> | undefined;

export function loadDetector(): Promise<Detector> {
	loading ??= load().catch((error: unknown) => {
		loading = undefined;
		throw new Error(`the object detector could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
	});
	return loading;
}

/**
 * TensorFlow.js is required here, when a detector is first needed, not where this module is
 * imported: most tests and benchmarks import the reference server for its synthetic models only,
 * and loading tfjs costs each of them about 0.4 s (every jest test file, every mutant's run).
 */
async function load(): Promise<Detector> {
	const started = performance.now();
	/* eslint-disable @typescript-eslint/no-require-imports */
	const tf = require('@tensorflow/tfjs-core') as typeof Tf;
	const { setWasmPaths } = require('@tensorflow/tfjs-backend-wasm') as typeof import('@tensorflow/tfjs-backend-wasm');
	const { loadGraphModel } = require('@tensorflow/tfjs-converter') as typeof import('@tensorflow/tfjs-converter');
	/* eslint-enable @typescript-eslint/no-require-imports */
	setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`);
	if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js WebAssembly backend did not start');
	const model = await loadGraphModel(fileModelHandler(join(humanPackageDir(), 'models', MODEL_FILE)));
	const size = inputSize(model);
	const detector: Detector = {
		description: DETECTOR_DESCRIPTION,
		loadMs: 0,
		candidates: (image) => run(tf, model, size, image),
	};
	// The first run compiles the graph's kernels; doing it here keeps it out of the first request.
	detector.candidates({ width: 1, height: 1, data: Buffer.alloc(4) });
	return { ...detector, loadMs: Math.round(performance.now() - started) };
}

function inputSize(model: GraphModel): number {
	const shape = model.inputs[0]?.shape;
	const size = shape?.[1];
	if (!shape || typeof size !== 'number' || size <= 0 || shape[2] !== size) throw new Error(`unexpected model input shape ${JSON.stringify(shape)}`);
	return size;
}

function run(tf: typeof Tf, model: GraphModel, size: number, image: RgbaImage): Candidate[] {
	const rows = tf.tidy(() => {
		const input = tf.tensor4d(resizeBilinear(image, size), [1, size, size, 3]);
		const output = model.execute(input, [OUTPUT]) as Tf.Tensor;
		return output.arraySync() as number[][][];
	})[0];
	const scaleX = image.width / size;
	const scaleY = image.height / size;
	const candidates: Candidate[] = [];
	for (const [x1, y1, x2, y2, score, classIndex] of rows) {
		const label = COCO_LABELS[classIndex];
		if (label === undefined || !Number.isFinite(score) || score <= 0) continue;
		const left = clamp(Math.round(x1 * scaleX), 0, image.width);
		const top = clamp(Math.round(y1 * scaleY), 0, image.height);
		const right = clamp(Math.round(x2 * scaleX), 0, image.width);
		const bottom = clamp(Math.round(y2 * scaleY), 0, image.height);
		if (right - left < 1 || bottom - top < 1) continue;
		candidates.push({ label, score, box: { x: left, y: top, width: right - left, height: bottom - top } });
	}
	return candidates.sort((a, b) => b.score - a.score);
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The image as the model's input: RGB floats 0–255, size×size, by bilinear interpolation (the
 * mapping of tf.image.resizeBilinear without align-corners or half-pixel centres, which the
 * model's own pipeline uses). Done here so a large image never becomes a large tensor.
 */
export function resizeBilinear(image: RgbaImage, size: number): Float32Array {
	const out = new Float32Array(size * size * 3);
	const scaleX = image.width / size;
	const scaleY = image.height / size;
	const { data, width } = image;
	for (let y = 0; y < size; y++) {
		const sourceY = y * scaleY;
		const y0 = Math.floor(sourceY);
		const y1 = Math.min(y0 + 1, image.height - 1);
		const dy = sourceY - y0;
		for (let x = 0; x < size; x++) {
			const sourceX = x * scaleX;
			const x0 = Math.floor(sourceX);
			const x1 = Math.min(x0 + 1, width - 1);
			const dx = sourceX - x0;
			const a = (y0 * width + x0) * 4;
			const b = (y0 * width + x1) * 4;
			const c = (y1 * width + x0) * 4;
			const d = (y1 * width + x1) * 4;
			const target = (y * size + x) * 3;
			for (let channel = 0; channel < 3; channel++) {
				const topRow = data[a + channel] + (data[b + channel] - data[a + channel]) * dx;
				const bottomRow = data[c + channel] + (data[d + channel] - data[c + channel]) * dx;
				out[target + channel] = topRow + (bottomRow - topRow) * dy;
			}
		}
	}
	return out;
}

export const intersectionOverUnion = (a: Box, b: Box): number => {
	const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
	const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
	if (width <= 0 || height <= 0) return 0;
	const intersection = width * height;
	return intersection / (a.width * a.height + b.width * b.height - intersection);
};

/**
 * Greedy non-maximum suppression across labels: CenterNet proposes one box per category at each
 * peak, so one car can come with "truck" and "bus" boxes on the same spot; the best one stays.
 */
export function nonMaxSuppression(candidates: Candidate[], maxOverlap: number): Candidate[] {
	const kept: Candidate[] = [];
	for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
		if (kept.every((other) => intersectionOverUnion(candidate.box, other.box) <= maxOverlap)) kept.push(candidate);
	}
	return kept;
}
