/**
 * Benchmark 10 in a fresh process (run with --expose-gc): the node's own picture of one photo
 * (decode at the scale Max Side needs, upright, shrink, draw, encode), as Detect draws it: the CPU
 * of a drawing (median of 5 after 2 warm-ups), the longest time the event loop waited while one
 * was drawn (a 1 ms timer's largest lateness), and the peak RSS growth during one (sampled every
 * millisecond from a worker thread); beside it, jpeg-js (the pure-JavaScript codec) decoding and
 * encoding the same photo at full size. Prints one JSON line.
 */
import { readFileSync } from 'node:fs';

import jpeg from 'jpeg-js';

import type { PictureMarks } from '../../nodes/ImageInference/picture/drawnPicture';
import { drawPicture, hiddenPicture } from '../../nodes/ImageInference/picture/drawnPicture';
import { rssSampler } from './rssSampler';
import { median } from './median';

const gc = () => (global as { gc?: () => void }).gc?.();
const mb = (bytes: number) => bytes / 1024 / 1024;
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

const MARKS: PictureMarks = {
	detections: [
		{ label: 'car', confidence: 0.91, x: 0, y: 0, width: 0, height: 0, relativeBox: { x: 0.42, y: 0.5, width: 0.12, height: 0.1 }, trackId: 4, seenForSeconds: 95 },
		{ label: 'person', confidence: 0.77, x: 0, y: 0, width: 0, height: 0, relativeBox: { x: 0.1, y: 0.3, width: 0.06, height: 0.3 } },
	],
	zones: [{ name: 'driveway', points: [[0.3, 0.45], [0.7, 0.45], [0.8, 0.95], [0.2, 0.95]] }],
	ignoreRegions: [],
};


/** The largest lateness of a 1 ms timer while `work` runs: how long other work (a webhook) would have waited. */
async function longestWait(work: () => Promise<unknown>): Promise<number> {
	let last = performance.now();
	let longest = 0;
	const timer = setInterval(() => {
		const now = performance.now();
		longest = Math.max(longest, now - last - 1);
		last = now;
	}, 1);
	await work();
	clearInterval(timer);
	return Math.max(longest, performance.now() - last - 1);
}

async function main() {
	const [file, maxSideText] = process.argv.slice(2);
	const photo = readFileSync(file);
	const settings = { showConfidence: true, showZones: true, maxSide: Number(maxSideText), quality: 85 };
	const draw = async () => {
		const drawn = await drawPicture(photo, undefined, MARKS, settings);
		if (drawn.unreadable !== undefined) throw new Error(drawn.unreadable);
		return drawn;
	};
	for (let warmUp = 0; warmUp < 2; warmUp++) await draw();
	const cpu: number[] = [];
	let drawn: Awaited<ReturnType<typeof draw>> | undefined;
	for (let run = 0; run < 5; run++) {
		gc();
		const started = process.cpuUsage();
		drawn = await draw();
		cpu.push(cpuMs(process.cpuUsage(started)));
	}
	gc();
	const waits: number[] = [];
	for (let run = 0; run < 3; run++) waits.push(await longestWait(draw));
	const sampler = rssSampler();
	await new Promise((resolve) => setTimeout(resolve, 50));
	const growth: number[] = [];
	for (let run = 0; run < 3; run++) {
		gc();
		await new Promise((resolve) => setTimeout(resolve, 20));
		const before = sampler.reset();
		await draw();
		await new Promise((resolve) => setTimeout(resolve, 5));
		growth.push(mb(sampler.peak() - before));
	}
	await sampler.stop();
	const jpegJs: number[] = [];
	for (let run = 0; run < 3; run++) {
		gc();
		const started = process.cpuUsage();
		const decoded = jpeg.decode(photo, { useTArray: true, maxMemoryUsageInMB: 4096, maxResolutionInMP: 200 });
		jpeg.encode({ data: decoded.data, width: decoded.width, height: decoded.height }, 85);
		jpegJs.push(cpuMs(process.cpuUsage(started)));
	}
	// the blurred original (Blur These Labels with Output Images Original): the whole photo at full size, a person's box of a third by a half blurred
	const hide = async () => {
		const hidden = await hiddenPicture(photo, undefined, { boxes: [{ x: 0.3, y: 0.3, width: 0.33, height: 0.5 }], effect: 'blur' }, 92);
		if (hidden.unreadable !== undefined) throw new Error(hidden.unreadable);
	};
	await hide();
	const hiddenCpu: number[] = [];
	for (let run = 0; run < 3; run++) {
		gc();
		const started = process.cpuUsage();
		await hide();
		hiddenCpu.push(cpuMs(process.cpuUsage(started)));
	}
	gc();
	const hiddenWait = await longestWait(hide);
	console.log(
		JSON.stringify({
			hiddenCpuMs: median(hiddenCpu),
			hiddenLongestWaitMs: hiddenWait,
			cpuMs: median(cpu),
			cpuRuns: cpu,
			longestWaitMs: Math.max(...waits),
			growthMb: median(growth),
			growthRuns: growth,
			jpegJsCpuMs: median(jpegJs),
			drawnSize: drawn?.size,
			drawnBytes: drawn?.jpeg.length,
		}),
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
