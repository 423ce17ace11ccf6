/**
 * One memory measurement in a fresh process (run with --expose-gc): peak RSS growth while the
 * node detects (with annotation) on one big image, or RSS over a soak of many executions.
 * Prints one JSON line.
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

async function main() {
	const [mode, url, apiKey, modelId, amount] = process.argv.slice(2);
	const credentials = { baseUrl: url, apiKey, sendAs: 'header' as const };
	const parameters = { operation: 'detect', modelId, imageSource: 'binary', binaryPropertyName: 'data', options: { timeout: 600_000 } };

	if (mode === 'image') {
		const image = noisePng(Number(amount));
		const item = { binary: { data: { bytes: image, fileName: 'noise.png', mimeType: 'image/png' } } };
		// Warm up with another image of the same size: code paths, connections and V8's young
		// generation reach their working size, as in a long-running n8n. Then measure one image.
		await runNode({ parameters, credentials, items: [{ binary: { data: { bytes: noisePng(Number(amount)), fileName: 'warm.png' } } }], recordRequests: false });
		const sampler = rssSampler();
		await new Promise((resolve) => setTimeout(resolve, 50));
		// A full GC first, so the warm-up's garbage is not counted; it also shrinks V8's young
		// generation, whose regrowth (a few tens of MB whatever the image) the measured run includes.
		gc();
		const before = sampler.reset();
		const { items } = await runNode({ parameters, credentials, items: [item], recordRequests: false });
		const growth = Math.max(0, sampler.peak() - before);
		await sampler.stop();
		if (!items[0].binary?.data || items[0].json.error) throw new Error('detect failed');
		console.log(JSON.stringify({ imageMb: mb(image.length), growthMb: mb(growth), ratio: growth / image.length }));
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
