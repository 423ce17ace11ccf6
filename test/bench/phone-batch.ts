/**
 * Benchmark 6: a batch of phone photos through Detect + Annotate in real n8n, as a self-hosted
 * instance runs it. `n8n start` (one long-running process, regular mode, the version's default
 * binary data mode) runs a published workflow: Webhook → Code (the photo paths) → Read/Write Files
 * (one photo per item) → Code (marks the time) → Image Inference (detect, annotate, concurrency 5)
 * → Code (marks the time, lists what came out). A warm-up batch of 5 photos runs first. The n8n
 * process's RSS is sampled every 5 ms from /proc; the service replays the reference server's own
 * answers after a fixed latency (./programmed-service).
 * In queue mode (`queue: true`, n8n 2.x) the same workflow runs on one `n8n worker` beside the main,
 * with PostgreSQL and Redis from test/e2e/lib/services and binary data in the database (queue
 * mode's default); the worker's RSS is what is sampled, as the node runs there.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { code, createN8nHome, imageInference, imageInferenceCredential, node, packPackage, readBinary, readFile, workflow } from '../e2e/lib';
import type { BinaryRef } from '../e2e/lib';
import { queueModeEnv, startQueueServices } from '../e2e/lib/services';
import { SYNTHETIC_DETECT_MODEL } from './models';
import { phoneAnswers } from './phone-answers';
import { PHOTO_FOLDER, phonePhotos } from './phone-photos';
import { startProgrammedService } from './programmed-service';

export interface BatchOptions {
	version: string;
	photos: string[];
	concurrency: number;
	latencyMs: number;
	warmUp: number;
	/** Run in queue mode: a main and one worker, Postgres, Redis, binary data in the database. */
	queue?: boolean;
	log?: (line: string) => void;
}

export interface BatchResult {
	version: string;
	binaryMode: string;
	/** Which n8n process was measured: the main (`n8n start`) or, in queue mode, the worker. */
	measured: 'main' | 'worker';
	count: number;
	meanImageMb: number;
	concurrency: number;
	latencyMs: number;
	/** RSS of the n8n process before the batch (after the warm-up). */
	baselineMb: number;
	/** RSS of the idle n8n process before the warm-up, and the batch's peak over it (what a fresh n8n grows by). */
	idleMb: number;
	peakOverIdleMb: number;
	/** Peak RSS growth over the whole execution (reading the photos included), up to the node's end. */
	peakGrowthMb: number;
	/** Peak RSS growth while the Image Inference node ran, over the RSS when it started. */
	nodeGrowthMb: number;
	/** peakGrowth / (concurrency × mean image size). */
	ratio: number;
	nodeRatio: number;
	/** The Image Inference node's wall time. */
	wallMs: number;
	idealMs: number;
	/** From the node's start to the first request; mean upload time of a request body; from the last answer to the node's end. */
	firstRequestMs: number;
	meanUploadMs: number;
	tailMs: number;
	/** When the node's RSS peak came, after the node's start. */
	peakAtMs: number;
	itemsInOrder: boolean;
	problems: string[];
}

const mb = (bytes: number) => bytes / 2 ** 20;

/** Samples a process's resident set size from /proc every few milliseconds. */
function rssSampler(pid: number) {
	const samples: Array<[number, number]> = [];
	const read = () => {
		try {
			const status = readFileSync(`/proc/${pid}/status`, 'utf8');
			const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
			if (kb) samples.push([Date.now(), kb * 1024]);
		} catch {
			/* the process is gone */
		}
	};
	const timer = setInterval(read, 5);
	read();
	return {
		between: (from: number, to: number) => samples.filter(([at]) => at >= from && at <= to).map(([, rss]) => rss),
		peakAt: (from: number, to: number) => samples.filter(([at]) => at >= from && at <= to).reduce((peak, sample) => (sample[1] > peak[1] ? sample : peak), [from, 0])[0],
		stop: () => clearInterval(timer),
	};
}

export async function runPhoneBatch(options: BatchOptions): Promise<BatchResult> {
	const log = options.log ?? (() => undefined);
	const answers = await phoneAnswers(options.photos, log);
	const photoBytes = options.photos.map((photo) => readFileSync(photo));
	const service = await startProgrammedService(
		photoBytes.map((photo, index) => ({ photo, body: answers[index].body })),
		options.latencyMs,
	);
	packPackage();
	const queue = options.queue ? await startQueueServices().catch(async (error: unknown) => {
		await service.close();
		throw error;
	}) : undefined;
	const env = queue ? queueModeEnv(queue.pg, queue.redis, 'bull-bench') : undefined;
	const home = await createN8nHome({ version: options.version, fileAccessDirs: [PHOTO_FOLDER], env });
	const major = Number(options.version.split('.')[0]);
	const binaryMode = options.queue ? 'database' : major >= 2 ? 'filesystem' : 'default';
	try {
		await home.importCredentials(imageInferenceCredential('phonebatchcred01', { baseUrl: service.url, apiKey: service.apiKey }));
		const webhookPath = `phone-batch-${randomUUID().slice(0, 8)}`;
		const paths = JSON.stringify(options.photos);
		const nodes = [
			node(
				'Webhook',
				'n8n-nodes-base.webhook',
				{ httpMethod: 'GET', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
				{ typeVersion: 2, webhookId: randomUUID() },
			),
			code('List Photos', `const count = Number($('Webhook').first().json.query.count);\nreturn ${paths}.slice(0, count).map((path) => ({ json: { path } }));`),
			{ ...readFile('Read Photo', ''), parameters: { operation: 'read', fileSelector: '={{ $json.path }}', options: {} } },
			code('Photos Read', 'const at = Date.now();\nfor (const item of $input.all()) item.json.readDoneAt = at;\nreturn $input.all();'),
			imageInference(
				'Detect',
				{ operation: 'detect', modelId: SYNTHETIC_DETECT_MODEL, imageSource: 'binary', binaryPropertyName: 'data', options: { concurrency: options.concurrency, timeout: 600_000 } },
				'phonebatchcred01',
			),
			code(
				'Summary',
				[
					'const at = Date.now();',
					'const items = $input.all();',
					// binary data in the database is read back here (after `at`: not part of the measurement)
					`const bytes = ${options.queue ? 'await Promise.all(items.map((item, index) => this.helpers.getBinaryDataBuffer(index, "data")))' : '[]'};`,
					'return items.map((item, index) => {',
					'  const file = item.binary && item.binary.data;',
					'  const inline = bytes[index] ? bytes[index].toString("base64") : file && !file.id ? file.data : undefined;',
					'  return { json: { index, at, readDoneAt: $("Photos Read").first().json.readDoneAt, paired: item.pairedItem,',
					'    fileName: file && file.fileName, mimeType: file && file.mimeType, id: (file && file.id) || null,',
					'    base64Length: inline ? inline.length : null, base64Head: inline ? inline.slice(0, 4096) : null, base64Tail: inline ? inline.slice(-4096) : null,',
					'    detections: item.json.detections } };',
					'});',
				].join('\n'),
			),
		];
		const [id] = await home.importWorkflows(
			workflow('Phone batch', nodes, undefined, {
				settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveManualExecutions: false, saveExecutionProgress: false },
			}),
		);
		if (major >= 2) await home.cli(['publish:workflow', `--id=${id}`]);
		else await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
		const n8n = await home.start();
		const worker = options.queue ? await home.start({ command: 'worker' }) : undefined;
		const sampler = rssSampler((worker ?? n8n).process.pid);
		const call = async (count: number) => {
			let response = await fetch(`${n8n.url}/webhook/${webhookPath}?count=${count}`, { signal: AbortSignal.timeout(900_000) });
			// n8n activates published workflows shortly after it reports ready
			for (let wait = 0; response.status === 404 && wait < 60; wait++) {
				await new Promise((resolve) => setTimeout(resolve, 1000));
				response = await fetch(`${n8n.url}/webhook/${webhookPath}?count=${count}`, { signal: AbortSignal.timeout(900_000) });
			}
			const text = await response.text();
			if (response.status !== 200) throw new Error(`the batch answered ${response.status}: ${text.slice(0, 500)}`);
			return JSON.parse(text) as Array<Record<string, unknown>>;
		};
		try {
			await new Promise((resolve) => setTimeout(resolve, 2000));
			const idleSamples = sampler.between(Date.now() - 1000, Date.now()).sort((a, b) => a - b);
			const idleRss = idleSamples[Math.floor(idleSamples.length / 2)];
			log(`n8n ${options.version}: warm-up with ${options.warmUp} photos`);
			await call(options.warmUp);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			const before = Date.now();
			const idle = sampler.between(before - 1000, before);
			const baseline = idle.sort((a, b) => a - b)[Math.floor(idle.length / 2)];
			service.served.splice(0);
			log(`n8n ${options.version}: ${options.photos.length} photos, concurrency ${options.concurrency}, latency ${options.latencyMs} ms`);
			const items = await call(options.photos.length);
			await new Promise((resolve) => setTimeout(resolve, 50));
			const ended = Number(items[0]?.at);
			const started = Number(items[0]?.readDoneAt);
			const peak = Math.max(...sampler.between(before, ended));
			const atNodeStart = sampler.between(before, started).pop() ?? baseline;
			const nodePeak = Math.max(...sampler.between(started, ended));
			const problems = checkItems(items, options.photos, answers, home, Boolean(options.queue));
			const meanImage = photoBytes.reduce((sum, photo) => sum + photo.length, 0) / photoBytes.length;
			const idealMs = Math.ceil(options.photos.length / options.concurrency) * options.latencyMs;
			return {
				version: options.version,
				binaryMode,
				measured: worker ? 'worker' : 'main',
				count: options.photos.length,
				meanImageMb: mb(meanImage),
				concurrency: options.concurrency,
				latencyMs: options.latencyMs,
				baselineMb: mb(baseline),
				idleMb: mb(idleRss),
				peakOverIdleMb: mb(peak - idleRss),
				peakGrowthMb: mb(peak - baseline),
				nodeGrowthMb: mb(nodePeak - atNodeStart),
				ratio: (peak - baseline) / (options.concurrency * meanImage),
				nodeRatio: (nodePeak - atNodeStart) / (options.concurrency * meanImage),
				wallMs: ended - started,
				idealMs,
				firstRequestMs: Math.min(...service.served.map((served) => served.at)) - started,
				meanUploadMs: service.served.reduce((sum, served) => sum + served.receivedAt - served.at, 0) / service.served.length,
				tailMs: ended - Math.max(...service.served.map((served) => served.answeredAt)),
				peakAtMs: sampler.peakAt(started, ended) - started,
				itemsInOrder: problems.length === 0,
				problems,
			};
		} finally {
			sampler.stop();
			await worker?.stop();
		}
	} finally {
		await home.dispose();
		await service.close();
		await queue?.stop();
	}
}

/** Every photo came out once, in order, paired with its input, with its own detections and annotated image. */
function checkItems(
	items: Array<Record<string, unknown>>,
	photos: string[],
	answers: Awaited<ReturnType<typeof phoneAnswers>>,
	home: { userFolder: string },
	bytesInItems: boolean,
): string[] {
	const problems: string[] = [];
	if (items.length !== photos.length) problems.push(`${items.length} items out of ${photos.length}`);
	items.forEach((item, index) => {
		const name = basename(photos[index]).replace(/\.jpg$/, '.annotated.jpg');
		const expected = answers[index];
		const paired = item.paired as { item?: number } | undefined;
		if (item.index !== index || paired?.item !== index) problems.push(`item ${index}: paired with ${JSON.stringify(item.paired)}`);
		if (item.fileName !== name) problems.push(`item ${index}: file ${String(item.fileName)}, expected ${name}`);
		if (JSON.stringify(item.detections) !== JSON.stringify(expected.detections)) problems.push(`item ${index}: detections differ from the server's`);
		if (item.id && !bytesInItems) {
			const bytes = readBinary(home, { id: item.id as string, data: '', mimeType: 'image/jpeg' } as BinaryRef);
			if (!bytes.equals(expected.annotated)) problems.push(`item ${index}: annotated image differs from the server's`);
		} else {
			const base64 = expected.annotated.toString('base64');
			if (item.base64Length !== base64.length || item.base64Head !== base64.slice(0, 4096) || item.base64Tail !== base64.slice(-4096)) {
				problems.push(`item ${index}: annotated image differs from the server's`);
			}
		}
	});
	return problems;
}

/** `node -r ts-node/register/transpile-only test/bench/phone-batch.ts [version…]`: the batch alone. */
if (require.main === module) {
	const versions = process.argv.slice(2).filter((arg) => /^\d/.test(arg));
	const queue = process.argv.includes('--queue');
	void (async () => {
		const photos = phonePhotos(console.log);
		for (const version of versions.length ? versions : ['2.41.1']) {
			const result = await runPhoneBatch({ version, photos, concurrency: 5, latencyMs: 1000, warmUp: 5, queue, log: console.log });
			console.log(JSON.stringify(result));
		}
	})().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
