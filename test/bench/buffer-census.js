/**
 * Benchmark 6 only: preloaded into the queue-mode n8n worker (`NODE_OPTIONS=--require <this>`,
 * with BUFFER_CENSUS_DIR set), it appends "<epoch ms> <bytes>" every 5 ms to <dir>/<pid>.log: the
 * process's live ArrayBuffer memory (process.memoryUsage().arrayBuffers: every Buffer, the
 * photos, request bodies and answers included). Other processes that inherit NODE_OPTIONS (the
 * task runners) write their own files; the benchmark reads the worker's. That counts Buffers no
 * longer used but not yet collected too; with BUFFER_CENSUS_GC_MS=<ms> it samples less often,
 * each time after a full garbage collection: only what is still held. Plain JavaScript: it runs
 * inside n8n's Node, without ts-node.
 */
'use strict';
const { openSync, writeSync } = require('node:fs');
const { join } = require('node:path');

const folder = process.env.BUFFER_CENSUS_DIR;
if (folder) {
	const file = openSync(join(folder, `${process.pid}.log`), 'a');
	const sample = () => writeSync(file, `${Date.now()} ${process.memoryUsage().arrayBuffers}\n`);
	const collectEveryMs = Number(process.env.BUFFER_CENSUS_GC_MS || 0);
	if (collectEveryMs > 0) {
		// What is still reachable, not what awaits collection: a full collection before each sample
		// (costly: use it only in a run measured for this, never beside RSS or wall figures)
		require('node:v8').setFlagsFromString('--expose-gc');
		const collect = require('node:vm').runInNewContext('gc');
		setInterval(() => {
			collect();
			sample();
		}, collectEveryMs).unref();
	} else {
		setInterval(sample, 5).unref();
	}
	sample();
}
