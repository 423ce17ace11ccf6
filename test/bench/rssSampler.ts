import { Worker } from 'node:worker_threads';

/** Samples the process's RSS every millisecond from a worker thread, so busy main-thread work is seen. */
export function rssSampler() {
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
