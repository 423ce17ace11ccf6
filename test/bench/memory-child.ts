/**
 * One memory measurement in a fresh process (run with --expose-gc, and MALLOC_MMAP_THRESHOLD_
 * fixed so that freed buffers go back to the OS at once and RSS follows what is live): peak RSS
 * growth while the node detects (with annotation) on big images, the median of three runs after
 * a warm-up of the same size; or RSS over a soak of many executions, plain or watched (zones,
 * Compare With Previous Look and tracking, the static data carried from one execution to the
 * next). Prints one JSON line.
 */

import { runNode } from '../harness/execute';
import { noisePng } from './images';
import { WATCH_OPTIONS } from './watch-options';
import { rssSampler } from './rssSampler';


const gc = () => (global as { gc?: () => void }).gc?.();
const mb = (bytes: number) => bytes / 1024 / 1024;
/** Measured runs per image size; the median is reported. */
const RUNS = 3;

async function main() {
	const [mode, url, apiKey, modelId, amount, crowdUrl, crowdKey] = process.argv.slice(2);
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
	const items = () => Array.from({ length: 100 }, () => ({ binary: { data: { bytes: car, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }));
	if (mode === 'soak') {
		const { rss, heap } = await afterEachExecution(executions, async () => {
			await runNode({ parameters: { ...parameters, options: { concurrency: 10 } }, credentials, items: items(), recordRequests: false });
		});
		const heapTenths = heap.map((value) => Math.round(value * 10) / 10);
		console.log(JSON.stringify({ items: executions * 100, startMb: rss[0], endMb: rss[rss.length - 1], maxMb: Math.max(...rss), series: rss.map(Math.round), heapSeries: heapTenths }));
		return;
	}
	console.log(JSON.stringify(await watchedSoak(executions, items, parameters, credentials, { url: crowdUrl, apiKey: crowdKey })));
}

/** Runs `execution` that many times; after each, a full collection, then the process's RSS and V8's used heap (MB). */
async function afterEachExecution(executions: number, execution: (index: number) => Promise<void>) {
	const rss: number[] = [];
	const heap: number[] = [];
	for (let index = 0; index < executions; index++) {
		await execution(index);
		gc();
		const usage = process.memoryUsage();
		rss.push(mb(usage.rss));
		heap.push(mb(usage.heapUsed));
	}
	return { rss, heap };
}

/**
 * 100 items an execution over 10 Watch Keys (10 looks of each key an execution), every watch
 * option and tracking on, the node's static data carried from one execution to the next as n8n
 * saves it. Executions alternate between the service's own answer for car.jpg and a crowded scene
 * of 50 objects, so every look has arrivals, departures and new tracks; the clock moves 10 minutes
 * an execution, so cooldowns end and the arrivals per day start again. After each execution, a
 * full garbage collection, then the process's RSS and V8's used heap: what the node keeps.
 */
async function watchedSoak(
	executions: number,
	items: () => Array<{ binary: { data: { bytes: Buffer; fileName: string; mimeType: string } } }>,
	parameters: Record<string, unknown>,
	credentials: { baseUrl: string; apiKey: string; sendAs: 'header' },
	crowd: { url: string; apiKey: string },
) {
	const options = {
		...WATCH_OPTIONS,
		watchKey: (itemIndex: number) => `camera ${itemIndex % 10}`,
		trackObjects: true,
		reportStaysLongerThan: 30,
		countArrivalsPer: 'day',
		concurrency: 10,
	};
	const staticData = {};
	const realNow = Date.now.bind(Date);
	let clockAhead = 0;
	// not set back: the answers' deadline watchers still running were set by this clock, and the process ends after the row
	Date.now = () => realNow() + clockAhead;
	const { rss, heap } = await afterEachExecution(executions, async (execution) => {
		const service = execution % 2 === 0 ? credentials : { ...credentials, baseUrl: crowd.url, apiKey: crowd.apiKey };
		const { items: out } = await runNode({ parameters: { ...parameters, options }, credentials: service, items: items(), recordRequests: false, staticData });
		if (out.length !== 100 || out.some((item) => item.json.error)) throw new Error(`execution ${execution} failed`);
		clockAhead += 10 * 60_000;
	});
	const first = Math.min(10, executions - 1);
	const every = Math.max(1, Math.floor(executions / 20));
	return {
		items: executions * 100,
		warmUpExecutions: first,
		staticDataChars: JSON.stringify(staticData).length,
		rssMb: { afterWarmUp: rss[first], end: rss[rss.length - 1], max: Math.max(...rss.slice(first)) },
		heapUsedMb: { afterWarmUp: heap[first], end: heap[heap.length - 1], max: Math.max(...heap.slice(first)) },
		rssSeries: rss.filter((_, index) => index % every === every - 1).map(Math.round),
		heapSeries: heap.filter((_, index) => index % every === every - 1).map((value) => Math.round(value * 10) / 10),
		seriesEvery: every,
	};
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
