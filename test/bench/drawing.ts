/**
 * Benchmark 10: the node's own picture (Annotated Image Drawn By: Node) of a 2-megapixel camera
 * snapshot and of a 12-megapixel phone photo at Max Side 1920, each measured in a fresh process
 * (drawing-child.ts). The photos are made once from the project's test photos (as phone-photos.ts
 * makes its own: the photo upscaled, its own fine detail laid over) and encoded by the node's codec
 * as cameras and phones encode (4:2:0, quality 90 and 92), cached beside the n8n installs.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { decodePicture, encodeJpeg } from '../../nodes/ImageInference/picture/codec/codec';
import { cropAround } from '../../nodes/ImageInference/picture/crop';
import { cacheRoot, fixture } from '../e2e/lib/paths';
import { runNode } from '../harness/execute';
import { startReferenceServer } from '../reference-server';
import { sha256 } from '../reference-server/faults';
import { decodeImage } from '../reference-server/image-codec';
import { measureInChild } from './memory-runner';
import { makePhoto } from './phone-photos';
import { median } from './median';

const FOLDER = join(cacheRoot, 'bench-drawing-v1');

export interface DrawingResult {
	cpuMs: number;
	cpuRuns: number[];
	longestWaitMs: number;
	growthMb: number;
	growthRuns: number[];
	jpegJsCpuMs: number;
	drawnSize: { width: number; height: number };
	drawnBytes: number;
	hiddenCpuMs: number;
	hiddenLongestWaitMs: number;
}

/** The two photos (made on first use): a 1920 × 1080 snapshot and a 3000 × 4000 phone photo. */
async function benchPhotos(): Promise<{ snapshot: string; phone: string }> {
	const snapshot = join(FOLDER, 'snapshot-1920x1080.jpg');
	const phone = join(FOLDER, 'phone-3000x4000.jpg');
	if (existsSync(snapshot) && existsSync(phone)) return { snapshot, phone };
	mkdirSync(FOLDER, { recursive: true });
	const sources = [decodeImage(readFileSync(fixture('car.jpg'))), decodeImage(readFileSync(fixture('dog.jpg')))];
	const decoded = async (bytes: Buffer, longSide?: number) => {
		const result = await decodePicture(bytes, { longSide });
		if (result.unreadable !== undefined) throw new Error(result.unreadable);
		return result.picture;
	};
	// phone-photos.ts's photo 25: the dog, upright, 3000 × 4000; photo 24: the car, 3808 × 2856
	writeFileSync(phone, await encodeJpeg(await decoded(makePhoto(sources, 25)), 92));
	const landscape = await decoded(makePhoto(sources, 24), 1920);
	const middle = { x: (1 - 1920 / landscape.width) / 2, y: (1 - 1080 / landscape.height) / 2, width: 1920 / landscape.width, height: 1080 / landscape.height };
	writeFileSync(snapshot, await encodeJpeg(cropAround(landscape, middle, 0, 0), 90));
	return { snapshot, phone };
}

async function drawingChild(file: string, maxSide: number): Promise<DrawingResult> {
	return (await measureInChild('drawing-child.ts', [file, String(maxSide)])) as DrawingResult;
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

/** Benchmark 10's rows: Benchmark, Result, Compared, Target. */
export async function drawingRows(): Promise<string[][]> {
	const photos = await benchPhotos();
	const rows: string[][] = [];
	for (const [name, file, cpuTarget, waitTarget] of [
		['2 MP camera snapshot (1920 × 1080, quality 90)', photos.snapshot, '≤ 60 ms CPU', ''],
		['12 MP phone photo (3000 × 4000, quality 92)', photos.phone, '≤ 700 ms CPU; peak RSS growth ≤ 80 MB', '; longest wait ≤ 250 ms'],
	] as const) {
		const result = await drawingChild(file, 1920);
		rows.push([
			`10. The node's own picture of a ${name} at Max Side 1920: decode, upright, shrink, two boxes, a zone, encode (median of 5 after 2 warm-ups, a fresh process)`,
			`CPU **${fixed(result.cpuMs)} ms** (runs ${result.cpuRuns.map((ms) => fixed(ms)).join(', ')}); the event loop's longest wait **${fixed(result.longestWaitMs)} ms**; peak RSS growth **${fixed(result.growthMb, 1)} MB** (runs ${result.growthRuns.map((mb) => fixed(mb, 1)).join(', ')}); ${result.drawnSize.width} × ${result.drawnSize.height}, ${fixed(result.drawnBytes / 1024)} KB`,
			`jpeg-js decoding and encoding it at full size: ${fixed(result.jpegJsCpuMs)} ms CPU (${fixed(result.jpegJsCpuMs / result.cpuMs, 1)} × the node's drawing). Its blurred original (full size, a box of a third by a half blurred, quality 92): ${fixed(result.hiddenCpuMs)} ms CPU, longest wait ${fixed(result.hiddenLongestWaitMs)} ms`,
			`${cpuTarget}${waitTarget}`,
		]);
	}
	return rows;
}


/**
 * What `annotate: false` saves on one image: the service's answer with its picture (as the service
 * draws it: the photo's size; here the photo itself stands in for it) against the same answer with
 * none, read by Detect (Output Images Annotated, drawn by the service) against Detect asking for
 * none. The answers are canned on an in-process reference server, so the difference is the
 * picture's bytes on the loopback, their JSON and base64 decoding and their store in n8n's binary
 * data: the node's side only, not the service's drawing nor a real network.
 */
async function annotateSavings(file: string): Promise<{ bytes: number; msWith: number; msWithout: number; cpuWith: number; cpuWithout: number }> {
	const photo = readFileSync(file);
	const server = await startReferenceServer({ defaultModels: 'synthetic' });
	try {
		const detections = [{ label: 'car', confidence: 0.9, x: 10, y: 10, width: 100, height: 80 }];
		const answer = (image: string | null) => ({ detections, labelsCount: [{ label: 'car', total: 1 }], image });
		const withPicture = answer(photo.toString('base64'));
		const runWith = async (outputImages: string, body: ReturnType<typeof answer>) => {
			server.clearFaults();
			server.addFault({ match: { kind: 'detect', imageSha256: sha256(photo) }, action: { type: 'status', status: 200, body } });
			const started = performance.now();
			const usage = process.cpuUsage();
			const { items } = await runNode({
				parameters: { operation: 'detect', modelId: server.models.detect, imageSource: 'binary', binaryPropertyName: 'data', options: { outputImages } },
				items: [{ json: {}, binary: { data: { bytes: photo, fileName: 'photo.jpg', mimeType: 'image/jpeg' } } }],
				credentials: { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' },
				recordRequests: false,
			});
			if (items[0].json.error) throw new Error(JSON.stringify(items[0].json.error));
			const usedMs = process.cpuUsage(usage);
			return { ms: performance.now() - started, cpu: (usedMs.user + usedMs.system) / 1000 };
		};
		const rounds: Array<{ with: { ms: number; cpu: number }; without: { ms: number; cpu: number } }> = [];
		for (let round = 0; round < 9; round++) {
			const first = round % 2 === 0;
			const a = first ? await runWith('annotated', withPicture) : undefined;
			const b = await runWith('none', answer(null));
			const c = a ?? (await runWith('annotated', withPicture));
			if (round >= 2) rounds.push({ with: c, without: b });
		}
		return {
			bytes: Buffer.byteLength(JSON.stringify(withPicture)) - Buffer.byteLength(JSON.stringify(answer(null))),
			msWith: median(rounds.map((r) => r.with.ms)),
			msWithout: median(rounds.map((r) => r.without.ms)),
			cpuWith: median(rounds.map((r) => r.with.cpu)),
			cpuWithout: median(rounds.map((r) => r.without.cpu)),
		};
	} finally {
		await server.close();
	}
}

/** Benchmark 10's rows on what `annotate: false` saves (bytes and time per image). */
export async function annotateSavingsRows(): Promise<string[][]> {
	const photos = await benchPhotos();
	const rows: string[][] = [];
	for (const [name, file] of [
		['2 MP camera snapshot', photos.snapshot],
		['12 MP phone photo', photos.phone],
	] as const) {
		const saved = await annotateSavings(file);
		rows.push([
			`10. What asking the service for no picture (\`annotate: false\`, as Drawn By Node does) saves on a ${name}: Detect reading an answer with the service's picture (the photo's size) against one without (median of 7 interleaved runs, canned answers on the loopback)`,
			`**${fixed(saved.bytes / 1024)} KB** less in the answer; the node's run ${fixed(saved.msWith)} → **${fixed(saved.msWithout)} ms** wall, ${fixed(saved.cpuWith)} → **${fixed(saved.cpuWithout)} ms** CPU (server and node in one process)`,
			`the answer without the picture: ${fixed(Buffer.byteLength(JSON.stringify({ detections: [{ label: 'car', confidence: 0.9, x: 10, y: 10, width: 100, height: 80 }], labelsCount: [{ label: 'car', total: 1 }], image: null })))} bytes`,
			'',
		]);
	}
	return rows;
}
