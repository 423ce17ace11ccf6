/**
 * Benchmark 6: a batch of phone photos through Detect + Annotate in real n8n, as a self-hosted
 * instance runs it. `n8n start` (one long-running process, regular mode, the version's default
 * binary data mode) runs a published workflow: Webhook → Code (the photo paths) → Read/Write Files
 * (one photo per item) → Code (marks the time) → Image Inference (detect, annotate, concurrency 5)
 * → Code (marks the time, lists what came out). A warm-up batch of 5 photos runs first. The n8n
 * process's RSS is sampled every 5 ms from /proc; the service replays the reference server's own
 * answers after a fixed latency (./programmed-service).
 * In queue mode (`queue: true`, n8n 2.x) the workflows run on an `n8n worker` beside the main, with
 * PostgreSQL and Redis from test/e2e/lib/services and binary data in the database (queue mode's
 * default); the worker's RSS is what is sampled, as the node runs there. The node and the workflow
 * a user would build without it (see BatchWorkflow) run side by side for a number of rounds, each
 * batch on a fresh worker, and a preload (./buffer-census.js, only here) samples the worker's live
 * Buffers.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { code, createN8nHome, imageInference, imageInferenceCredential, node, packPackage, readBinary, readFile, workflow } from '../e2e/lib';
import type { BinaryRef, N8nHome, N8nServer, NodeJson } from '../e2e/lib';
import { queueModeEnv, startQueueServices } from '../e2e/lib/services';
import { SYNTHETIC_DETECT_MODEL } from './models';
import type { PhoneAnswer } from './phone-answers';
import { phoneAnswers } from './phone-answers';
import { PHOTO_FOLDER, phonePhotos } from './phone-photos';
import type { ProgrammedService } from './programmed-service';
import { startProgrammedService } from './programmed-service';

export interface BatchOptions {
	version: string;
	photos: string[];
	concurrency: number;
	latencyMs: number;
	warmUp: number;
	/** Run in queue mode: a main and one worker, Postgres, Redis, binary data in the database. */
	queue?: boolean;
	/** Queue mode: how many rounds of the node and the alternative workflow, side by side (default 1). */
	rounds?: number;
	/**
	 * Queue mode: a smaller batch (the first photos) that both run in every round as well. The
	 * alternative cannot run the whole batch in queue mode (its execution cannot be saved: see
	 * BatchFailure), so the side-by-side figures come from this one.
	 */
	smallerBatch?: number;
	/** Queue mode: which to run (default both). */
	workflows?: BatchWorkflow[];
	/**
	 * Queue mode: sample the worker's Buffers every this many ms after a full garbage collection
	 * (what is held, not what awaits collection). It slows the worker: RSS and wall of such a run
	 * are not comparable.
	 */
	censusAfterCollectionMs?: number;
	log?: (line: string) => void;
}

export interface BatchResult {
	version: string;
	/** What made the predictions: the node, or the workflow a user would build without it. */
	workflow: BatchWorkflow;
	/** Queue mode: which round of the side-by-side comparison (0-based). */
	round: number;
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
	/** Queue mode: the worker's live ArrayBuffer memory (every Buffer) at its peak while the prediction nodes ran, over its level when they started. */
	liveBuffersMb?: number;
	/** (concurrency + 2) × 4/3 × mean image: the photos in flight and in reserve, as base64. */
	buffersBoundMb: number;
	/** The prediction nodes' wall time (from the photos read to the summary). */
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

/** A batch that n8n could not finish: what it said, when, and what the worker had grown by then. */
export interface BatchFailure {
	workflow: BatchWorkflow;
	round: number;
	count: number;
	failed: string;
	/** The first line of the measured process's log that names an error. */
	workerSaid?: string;
	afterMs: number;
	peakGrowthMb: number;
	requestsAnswered: number;
}

export type BatchOutcome = BatchResult | BatchFailure;

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

/**
 * What turns each photo into detections and an annotated picture: this node, or the workflow a
 * user would build without it — Extract From File (the photo as base64 into the item's JSON, its
 * Encoding option set, as a user who has met its cost does) →
 * HTTP Request (the JSON body `{"image": …}`, the key as a header credential, batches of
 * Concurrency every latency: its closest to Concurrency in flight, as HttpRequestV3 sends a
 * batch without waiting and sleeps the interval between batches) → Convert to File (the answer's
 * `image` as the picture) → Edit Fields (the detections from the HTTP Request node beside the
 * file, as Convert to File keeps no JSON).
 */
export type BatchWorkflow = 'node' | 'alternative';

const WORKFLOW_NAMES: Record<BatchWorkflow, string> = { node: 'Image Inference', alternative: 'Extract From File → HTTP Request → Convert to File → Edit Fields' };
export const workflowName = (which: BatchWorkflow) => WORKFLOW_NAMES[which];

const CREDENTIAL_ID = 'phonebatchcred01';
const HEADER_CREDENTIAL_ID = 'phonebatchhdr001';

function predictionNodes(which: BatchWorkflow, options: BatchOptions, serviceUrl: string): NodeJson[] {
	if (which === 'node') {
		return [
			imageInference(
				'Detect',
				{ operation: 'detect', modelId: SYNTHETIC_DETECT_MODEL, imageSource: 'binary', binaryPropertyName: 'data', options: { concurrency: options.concurrency, timeout: 600_000 } },
				CREDENTIAL_ID,
			),
		];
	}
	return [
		// Encoding set: left empty, Extract From File guesses the file's text encoding with chardet
		// before it base64-encodes it (n8n-nodes-base Files/ExtractFromFile/actions/moveTo.operation.ts,
		// detectBinaryEncoding), about 3 s for a 9 MB photo, never used by this operation
		node(
			'Extract From File',
			'n8n-nodes-base.extractFromFile',
			{ operation: 'binaryToPropery', binaryPropertyName: 'data', destinationKey: 'image', options: { encoding: 'utf8' } },
			{ typeVersion: 1.1 },
		),
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url: `${serviceUrl}/predict/detect/${SYNTHETIC_DETECT_MODEL}/`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ image: $json.image }) }}',
				options: { batching: { batch: { batchSize: options.concurrency, batchInterval: options.latencyMs } }, timeout: 600_000 },
			},
			{ typeVersion: 4.2, credentials: { httpHeaderAuth: { id: HEADER_CREDENTIAL_ID, name: 'Phone batch X-API-Key' } } },
		),
		node(
			'Convert to File',
			'n8n-nodes-base.convertToFile',
			{
				operation: 'toBinary',
				sourceProperty: 'image',
				binaryPropertyName: 'data',
				options: { fileName: `={{ $('Read Photo').item.binary.data.fileName.replace(/\\.jpg$/, '.annotated.jpg') }}`, mimeType: 'image/jpeg' },
			},
			{ typeVersion: 1.1 },
		),
		node(
			'Detections Beside the File',
			'n8n-nodes-base.set',
			{
				mode: 'manual',
				assignments: { assignments: [{ id: randomUUID(), name: 'detections', value: "={{ $('HTTP Request').item.json.detections }}", type: 'array' }] },
				includeOtherFields: true,
				options: {},
			},
			{ typeVersion: 3.4 },
		),
	];
}

function batchWorkflow(which: BatchWorkflow, webhookPath: string, options: BatchOptions, serviceUrl: string) {
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
		...predictionNodes(which, options, serviceUrl),
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
	return workflow(`Phone batch: ${workflowName(which)}`, nodes, undefined, {
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveManualExecutions: false, saveExecutionProgress: false },
	});
}

/**
 * Regular mode: one batch through the node in the main process. Queue mode: `rounds` rounds, each
 * measuring the node and the alternative (the order alternating from round to round), each on a
 * fresh worker warmed up with the same workflow, beside one main, Postgres and Redis.
 */
export async function runPhoneBatch(options: BatchOptions): Promise<BatchOutcome[]> {
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
	const census = options.queue ? mkdtempSync(join(tmpdir(), 'buffer-census-')) : undefined;
	const setting: BatchSetting = {
		options,
		answers,
		photoBytes,
		binaryMode: options.queue ? 'database' : major >= 2 ? 'filesystem' : 'default',
		home,
		service,
		log,
	};
	try {
		await home.importCredentials([
			imageInferenceCredential(CREDENTIAL_ID, { baseUrl: service.url, apiKey: service.apiKey }),
			{ id: HEADER_CREDENTIAL_ID, name: 'Phone batch X-API-Key', type: 'httpHeaderAuth', data: { name: 'X-API-Key', value: service.apiKey } },
		]);
		const compared: BatchWorkflow[] = options.queue ? (options.workflows ?? ['node', 'alternative']) : ['node'];
		const paths = new Map<BatchWorkflow, string>();
		for (const which of compared) {
			const webhookPath = `phone-batch-${which}-${randomUUID().slice(0, 8)}`;
			const [id] = await home.importWorkflows(batchWorkflow(which, webhookPath, options, service.url));
			if (major >= 2) await home.cli(['publish:workflow', `--id=${id}`]);
			else await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
			paths.set(which, webhookPath);
		}
		const main = await home.start();
		const results: BatchOutcome[] = [];
		const rounds = options.queue ? Math.max(1, options.rounds ?? 1) : 1;
		const sizes = options.queue && options.smallerBatch ? [options.photos.length, options.smallerBatch] : [options.photos.length];
		for (let round = 0; round < rounds; round++) {
			const order = round % 2 === 0 ? compared : [...compared].reverse();
			for (const [which, count] of sizes.flatMap((size) => order.map((which) => [which, size] as const))) {
				// the alternative's whole batch fails the same way each time (n8n cannot save it): tried once
				const failedBefore = results.some((result) => 'failed' in result && result.workflow === which && result.count === count);
				if (failedBefore) continue;
				const worker = census
					? await home.start({
						command: 'worker',
						env: {
							BUFFER_CENSUS_DIR: census,
							BUFFER_CENSUS_GC_MS: String(options.censusAfterCollectionMs ?? 0),
							NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(__dirname, 'buffer-census.js')}`.trim(),
						},
					})
					: undefined;
				try {
					results.push(await measureBatch(setting, { which, round, count, main, worker, url: `${main.url}/webhook/${paths.get(which)}`, census }));
				} finally {
					await worker?.stop();
				}
			}
		}
		return results;
	} finally {
		await home.dispose();
		await service.close();
		await queue?.stop();
		if (census) rmSync(census, { recursive: true, force: true });
	}
}

interface BatchSetting {
	options: BatchOptions;
	answers: PhoneAnswer[];
	photoBytes: Buffer[];
	binaryMode: string;
	home: N8nHome;
	service: ProgrammedService;
	log: (line: string) => void;
}

interface BatchRun {
	which: BatchWorkflow;
	round: number;
	/** How many of the photos (the first ones). */
	count: number;
	main: N8nServer;
	worker?: N8nServer;
	url: string;
	census?: string;
}

/**
 * Warms the measured process up with a few photos, then measures one batch. The alternative's
 * batch may fail in n8n (what it costs is the result then); the node's must not.
 */
async function measureBatch(setting: BatchSetting, run: BatchRun): Promise<BatchOutcome> {
	const { options, service, log } = setting;
	const measuredProcess = run.worker ?? run.main;
	const sampler = rssSampler(measuredProcess.process.pid);
	const call = async (count: number) => {
		let response = await fetch(`${run.url}?count=${count}`, { signal: AbortSignal.timeout(900_000) });
		// n8n activates published workflows shortly after it reports ready
		for (let wait = 0; response.status === 404 && wait < 60; wait++) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			response = await fetch(`${run.url}?count=${count}`, { signal: AbortSignal.timeout(900_000) });
		}
		const text = await response.text();
		if (response.status !== 200) throw new Error(`the batch (${workflowName(run.which)}) answered ${response.status}: ${text.slice(0, 500)}`);
		const items = JSON.parse(text) as unknown;
		if (!Array.isArray(items)) throw new Error(`the batch (${workflowName(run.which)}) answered no list of items: ${text.slice(0, 500)}`);
		return items as Array<Record<string, unknown>>;
	};
	try {
		await new Promise((resolve) => setTimeout(resolve, 2000));
		const idleSamples = sampler.between(Date.now() - 1000, Date.now()).sort((a, b) => a - b);
		const idleRss = idleSamples[Math.floor(idleSamples.length / 2)];
		log(`n8n ${options.version} (${workflowName(run.which)}): warm-up with ${options.warmUp} photos`);
		await call(options.warmUp);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const before = Date.now();
		const idle = sampler.between(before - 1000, before);
		const baseline = idle.sort((a, b) => a - b)[Math.floor(idle.length / 2)];
		service.served.splice(0);
		log(`n8n ${options.version} (${workflowName(run.which)}): ${run.count} photos, concurrency ${options.concurrency}, latency ${options.latencyMs} ms`);
		const sent = Date.now();
		let items: Array<Record<string, unknown>>;
		try {
			items = await call(run.count);
		} catch (error) {
			if (run.which === 'node') throw error;
			const peakGrowth = Math.max(...sampler.between(before, Date.now())) - baseline;
			const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
			const workerLog = existsSync(measuredProcess.logFile) ? readFileSync(measuredProcess.logFile, 'utf8') : '';
			const workerSaid = /^.*(?:Error|error).*$/m.exec(workerLog)?.[0].trim();
			return { workflow: run.which, round: run.round, count: run.count, failed: why, workerSaid, afterMs: Date.now() - sent, peakGrowthMb: mb(peakGrowth), requestsAnswered: service.served.length };
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
		const ended = Number(items[0]?.at);
		const started = Number(items[0]?.readDoneAt);
		const peak = Math.max(...sampler.between(before, ended));
		const atNodeStart = sampler.between(before, started).pop() ?? baseline;
		const nodePeak = Math.max(...sampler.between(started, ended));
		const photos = options.photos.slice(0, run.count);
		const problems = checkItems(items, photos, setting.answers, setting.home, Boolean(options.queue));
		const meanImage = setting.photoBytes.slice(0, run.count).reduce((sum, photo) => sum + photo.length, 0) / run.count;
		const idealMs = Math.ceil(run.count / options.concurrency) * options.latencyMs;
		const buffers = run.census && run.worker ? bufferPeak(join(run.census, `${run.worker.process.pid}.log`), started, ended) : undefined;
		return {
			version: options.version,
			workflow: run.which,
			round: run.round,
			binaryMode: setting.binaryMode,
			measured: run.worker ? 'worker' : 'main',
			count: run.count,
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
			liveBuffersMb: buffers === undefined ? undefined : mb(buffers),
			buffersBoundMb: mb((options.concurrency + 2) * (4 / 3) * meanImage),
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
	}
}

/** The highest live ArrayBuffer memory the census saw between `from` and `to`, over its last sample at or before `from`. */
function bufferPeak(file: string, from: number, to: number): number | undefined {
	if (!existsSync(file)) return undefined;
	const samples = readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => line.split(' ').map(Number) as [number, number]);
	const atStart = samples.filter(([at]) => at <= from).pop()?.[1];
	const during = samples.filter(([at]) => at >= from && at <= to).map(([, bytes]) => bytes);
	if (atStart === undefined || !during.length) return undefined;
	return Math.max(...during) - atStart;
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
		if (!sameDetections(item.detections, expected.detections)) problems.push(`item ${index}: detections differ from the server's`);
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

/**
 * The service's detections, each field as it sent it; the node adds fields of its own (relativeBox,
 * zones), which are not the service's to check.
 */
function sameDetections(actual: unknown, expected: unknown[]): boolean {
	if (!Array.isArray(actual) || actual.length !== expected.length) return false;
	return expected.every((sent, index) =>
		Object.entries(sent as Record<string, unknown>).every(([field, value]) => JSON.stringify((actual[index] as Record<string, unknown>)?.[field]) === JSON.stringify(value)),
	);
}

/**
 * `node -r ts-node/register/transpile-only test/bench/phone-batch.ts [version…] [--queue [--rounds=N]
 * [--smaller=N] [--workflows=node,alternative] [--census-gc=MS]]`: the batch alone.
 */
if (require.main === module) {
	const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
	const versions = process.argv.slice(2).filter((arg) => /^\d/.test(arg));
	const queue = process.argv.includes('--queue');
	void (async () => {
		const photos = phonePhotos(console.log);
		for (const version of versions.length ? versions : ['2.41.1']) {
			const rounds = Number(argument('rounds') ?? 1);
			const smallerBatch = Number(argument('smaller') ?? 0) || undefined;
			const workflows = argument('workflows')?.split(',') as BatchWorkflow[] | undefined;
			const censusAfterCollectionMs = Number(argument('census-gc') ?? 0) || undefined;
			const batch = { version, photos, concurrency: 5, latencyMs: 1000, warmUp: 5, queue, rounds, smallerBatch, workflows, censusAfterCollectionMs, log: console.log };
			for (const result of await runPhoneBatch(batch)) {
				console.log(JSON.stringify(result));
			}
		}
	})().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
