/**
 * One memory measurement in a fresh process (run with --expose-gc, and MALLOC_MMAP_THRESHOLD_
 * fixed so that freed buffers go back to the OS at once and RSS follows what is live): peak RSS
 * growth while the node detects (with annotation) on big images, the median of three runs after
 * a warm-up of the same size; or RSS over a soak of many executions. Prints one JSON line.
 */
import { Worker } from 'node:worker_threads';

import { runNode } from '../harness/execute';
import { noisePng } from './images';

/** Samples the process's RSS every millisecond from a worker thread, so busy main-thread work is seen. */
function rssSampler() {
	const peak = new Float64Array(new SharedArrayBuffer(8));
	const worker = new Worker(
		`const { workerData } = require('node:worker_threads');
		const peak = new Float64Array(workerData);
		setInterval(() => { const rss = process.memoryUsage.rss(); if (rss > peak[0]) peak[0] = rss; }, 1);`,
		{ eval: true, workerData: peak.buffer },
	);
	return {
		reset: () => (peak[0] = process.memoryUsage.rss()),
		peak: () => peak[0],
		stop: () => worker.terminate(),
	};
}

const gc = () => (global as { gc?: () => void }).gc?.();
const mb = (bytes: number) => bytes / 1024 / 1024;
/** Measured runs per image size; the median is reported. */
const RUNS = 3;

async function main() {
	const [mode, url, apiKey, modelId, amount] = process.argv.slice(2);
	const credentials = { baseUrl: url, apiKey, sendAs: 'header' as const };
	const parameters = { operation: 'detect', modelId, imageSource: 'binary', binaryPropertyName: 'data', options: { timeout: 600_000 } };

	if (mode === 'image') {
		// Warm up with an image of the same size: code paths, connections and V8's heap reach their
		// working size, as in a long-running n8n. Then three measured runs, each on its own image.
		const images = Array.from({ length: RUNS + 1 }, () => noisePng(Number(amount)));
		const detectOne = async (image: Buffer) => {
			const item = { binary: { data: { bytes: image, fileName: 'noise.png', mimeType: 'image/png' } } };
			const { items } = await runNode({ parameters, credentials, items: [item], recordRequests: false });
			if (!items[0].binary?.data || items[0].json.error) throw new Error('detect failed');
		};
		const sampler = rssSampler();
		await detectOne(images[0]);
		const growths: number[] = [];
		for (const image of images.slice(1)) {
			// Full GCs first, so earlier runs' garbage is not counted.
			for (let pass = 0; pass < 2; pass++) {
				gc();
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			const before = sampler.reset();
			await detectOne(image);
			growths.push(Math.max(0, sampler.peak() - before));
		}
		await sampler.stop();
		const median = [...growths].sort((a, b) => a - b)[Math.floor(growths.length / 2)];
		console.log(JSON.stringify({ imageMb: mb(images[1].length), growthMb: mb(median), ratio: median / images[1].length, runsMb: growths.map(mb) }));
		return;
	}

	const { readFileSync } = await import('node:fs');
	const car = readFileSync(`${__dirname}/../fixtures/car.jpg`);
	const executions = Number(amount) / 100;
	const rss: number[] = [];
	for (let execution = 0; execution < executions; execution++) {
		const items = Array.from({ length: 100 }, () => ({ binary: { data: { bytes: car, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }));
		await runNode({ parameters: { ...parameters, options: { concurrency: 10 } }, credentials, items, recordRequests: false });
		gc();
		rss.push(mb(process.memoryUsage().rss));
	}
	console.log(JSON.stringify({ items: executions * 100, startMb: rss[0], endMb: rss[rss.length - 1], maxMb: Math.max(...rss), series: rss.map(Math.round) }));
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
