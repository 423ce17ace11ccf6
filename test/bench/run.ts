/**
 * `npm run bench [-- --smoke] [-- --only=throughput,attachments,overhead,watch,tracking,trackingQuality,memory,trigger,drawing,versus,batch,workers]`:
 * the node's speed and memory against the reference server on loopback (the server runs in a
 * child process so only the node is measured), and a batch of phone photos in real n8n. Prints a
 * markdown table with the machine's load. --smoke runs every benchmark small, to prove they run;
 * targets are read on full runs.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

import * as http from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/execute';
import type { RemoteServer } from './server-process';
import { startServerProcess } from './server-process';
import { trackingQualityRows } from './tracking-quality';
import { compareWithHttpRequestNode } from './versus-http-request';
import { SYNTHETIC_DETECT_MODEL } from './models';
import { onSeparateCores } from './cores';
import { WATCH_OPTIONS } from './watch-options';
import { memoryChild } from './memory-runner';
import { MAX_WATCH_KEYS } from '../../nodes/ImageInference/pipeline/comparison';
import { phoneBatchRows } from './phone-batch-rows';
import { queueWorkersRows } from './queue-workers';
import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION, ensureN8n } from '../e2e/lib';
import { TRIGGER_CAMERAS, triggerCameras } from './trigger-cameras';
import { annotateSavingsRows, drawingRows } from './drawing';
import { median } from './median';

const smoke = process.argv.includes('--smoke');
/** `--only=attachments,throughput`: run just those benchmarks (names as in main()). */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const selected = (name: string) => !only || only.includes(name);
const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const rows: string[][] = [];
/** The benchmarks that failed: their rows say why; the run still prints the table, then exits 1. */
const failed: string[] = [];
/** Each row carries the 1-minute load average when it was measured (other work shares the CPU). */
const row = (...cells: Array<string | number>) => rows.push([...cells.map(String), fixed(loadavg()[0])]);
const fixed = (value: number, digits = 2) => value.toFixed(digits);

const detectParameters = (options: Record<string, unknown>) => ({
	operation: 'detect',
	modelId: SYNTHETIC_DETECT_MODEL,
	imageSource: 'binary',
	binaryPropertyName: 'data',
	options,
});
const carItems = (count: number) =>
	Array.from({ length: count }, () => ({ binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }));
const credentialsOf = (server: RemoteServer) => ({ baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' as const });

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
/**
 * Rounds of two runs, each round's ratio of the second to the first: their median, and the middle
 * half of them. Single runs on a shared machine spread far more than the difference measured, so
 * the two are compared round by round, and which goes first alternates.
 */
function pairedRatios(first: number[], second: number[]) {
	const ratios = second.map((value, round) => value / first[round]).sort((a, b) => a - b);
	const at = (share: number) => ratios[Math.min(ratios.length - 1, Math.floor(share * ratios.length))];
	return { median: at(0.5), lower: at(0.25), upper: at(0.75) };
}
const ratioText = ({ median: middle, lower, upper }: ReturnType<typeof pairedRatios>) => `**${fixed(middle, 3)} ×** (middle half of the rounds ${fixed(lower, 3)}–${fixed(upper, 3)} ×)`;
/** Rounds of interleaved runs, the first of each round alternating between the runs. */
async function interleaved(rounds: number, runs: Array<() => Promise<number>>): Promise<number[][]> {
	const results: number[][] = runs.map(() => []);
	for (let round = 0; round < rounds; round++) {
		const order = round % 2 === 0 ? runs.map((_, index) => index) : runs.map((_, index) => runs.length - 1 - index);
		for (const index of order) results[index].push(await runs[index]());
	}
	return results;
}

async function throughput(server: RemoteServer) {
	const count = smoke ? 20 : 200;
	await runNode({ parameters: detectParameters({}), items: carItems(1), credentials: credentialsOf(server), recordRequests: false });
	await server.setLatency(100);
	for (const concurrency of smoke ? [5, 10] : [1, 5, 10, 20, 50]) {
		const { wall, cpuPerRequest } = await timedRun(count, concurrency, credentialsOf(server));
		const ideal = (count * 100) / concurrency;
		const target = concurrency === 10 ? '≤ 1.10 × of ideal' : '';
		row(
			`1. Throughput, ${count} × car.jpg, 100 ms latency, concurrency ${concurrency}`,
			`${fixed(wall / 1000)} s`,
			`ideal ${fixed(ideal / 1000)} s: ${fixed(wall / ideal)} ×; client CPU ${fixed(cpuPerRequest)} ms a request`,
			target,
		);
	}
	await highConcurrency(server, count);
	await server.setLatency(0);
}

/** One run of the node over `count` car.jpg items: its wall time and this process's CPU per request. */
async function timedRun(
	count: number,
	concurrency: number,
	credentials: ReturnType<typeof credentialsOf>,
	options: Record<string, unknown> = {},
	staticData: IDataObject = {},
) {
	const usage = process.cpuUsage();
	const started = performance.now();
	const { items } = await runNode({ parameters: detectParameters({ concurrency, ...options }), items: carItems(count), credentials, recordRequests: false, staticData });
	const wall = performance.now() - started;
	if (items.length !== count || items.some((item) => item.json.error)) throw new Error(`throughput run at concurrency ${concurrency} failed`);
	return { wall, cpuPerRequest: cpuMs(process.cpuUsage(usage)) / count };
}

/**
 * At 20 and 50 in flight, against the replaying service (no work of its own), beside two raw
 * node:http loops that send the same bytes and decode the same answers with nothing else: one
 * keeping connections alive (the harness's transport), one opening a connection per request, as
 * n8n 1.x and 2.x send. The loops are the floor of this machine; the node's cost is what it adds.
 */
async function highConcurrency(server: RemoteServer, count: number) {
	const replay = { baseUrl: server.replay.url, apiKey: server.replay.apiKey, sendAs: 'header' as const };
	for (const concurrency of smoke ? [20] : [20, 50]) {
		const ideal = (count * 100) / concurrency;
		const kept = await rawLoop(server.replay, count, concurrency, 'keep-alive');
		const fresh = await rawLoop(server.replay, count, concurrency, 'connection per request');
		const { wall, cpuPerRequest } = await timedRun(count, concurrency, replay);
		row(
			`1. Throughput, ${count} × car.jpg, 100 ms latency, concurrency ${concurrency}, replaying service`,
			`${fixed(wall / 1000)} s`,
			`the raw node:http loop with kept-alive connections, as the node's transport here: ${fixed(kept.wall / 1000)} s, node **${fixed(wall / kept.wall)} ×** ` +
				`(node ${fixed(cpuPerRequest)} ms CPU a request, loop ${fixed(kept.cpuPerRequest)} ms); against the ideal ${fixed(ideal / 1000)} s: node ${fixed(wall / ideal)} ×, ` +
				`loop ${fixed(kept.wall / ideal)} ×, a loop with a connection per request ${fixed(fresh.wall / ideal)} × (${fixed(fresh.cpuPerRequest)} ms)`,
			'≤ 1.05 × the raw loop',
		);
	}
}

/** The same body building and answer decoding as the node, with nothing else, over node:http. */
async function rawLoop(server: { url: string; apiKey: string }, count: number, concurrency: number, connections: 'keep-alive' | 'connection per request') {
	const agent = connections === 'keep-alive' ? new http.Agent({ keepAlive: true, maxSockets: concurrency }) : undefined;
	const url = `${server.url}/predict/detect/${SYNTHETIC_DETECT_MODEL}/`;
	const post = (body: string) =>
		new Promise<Buffer>((resolve, reject) => {
			const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': server.apiKey };
			const outgoing = http.request(url, { method: 'POST', headers, agent: agent ?? false }, (response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => (response.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`raw loop: status ${response.statusCode}`))));
				response.on('error', reject);
			});
			outgoing.on('error', reject);
			outgoing.end(body);
		});
	let next = 0;
	const worker = async () => {
		while (next < count) {
			next++;
			const answer = JSON.parse((await post(JSON.stringify({ image: CAR.toString('base64') }))).toString('utf8')) as { image: string | null };
			if (answer.image) Buffer.from(answer.image, 'base64');
		}
	};
	const usage = process.cpuUsage();
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, worker));
	const wall = performance.now() - started;
	agent?.destroy();
	return { wall, cpuPerRequest: cpuMs(process.cpuUsage(usage)) / count };
}

/** One item with ten image attachments against ten items of one image: the pool runs over images. */
async function attachments(server: RemoteServer) {
	const rounds = smoke ? 3 : 20;
	const latency = 100;
	const attachmentItem = {
		binary: Object.fromEntries(
			Array.from({ length: 10 }, (_, index) => [`attachment_${index}`, { bytes: CAR, fileName: `car-${index}.jpg`, mimeType: 'image/jpeg' }]),
		),
	};
	const runs = {
		separate: { parameters: detectParameters({ concurrency: 10 }), items: carItems(10) },
		attached: { parameters: { ...detectParameters({ concurrency: 10 }), imageSource: 'allImages' }, items: [attachmentItem] },
	};
	const times: Record<keyof typeof runs, number[]> = { separate: [], attached: [] };
	await server.setLatency(latency);
	for (let round = 0; round < rounds; round++) {
		for (const key of ['separate', 'attached'] as const) {
			const started = performance.now();
			const { items } = await runNode({ ...runs[key], credentials: credentialsOf(server), recordRequests: false });
			times[key].push(performance.now() - started);
			if (items.length !== 10 || items.some((item) => item.json.error)) throw new Error(`attachments run (${key}) failed`);
		}
	}
	await server.setLatency(0);
	const attached = median(times.attached);
	const separate = median(times.separate);
	row(
		`5. One item with 10 image attachments (All Images on the Item) vs 10 items, ${latency} ms latency, concurrency 10, median of ${rounds}`,
		`${fixed(attached)} ms`,
		`10 items ${fixed(separate)} ms: ${fixed(attached / separate)} ×`,
		'≤ 1.15 ×',
	);
}

async function overhead(server: RemoteServer, cores: string) {
	const count = smoke ? 100 : 1000;
	const concurrency = 10;
	await warmUp(() => rawLoop(server, count, concurrency, 'keep-alive'), () => timedRun(count, concurrency, credentialsOf(server)));
	const raw = (await rawLoop(server, count, concurrency, 'keep-alive')).cpuPerRequest;
	const node = (await timedRun(count, concurrency, credentialsOf(server))).cpuPerRequest;
	row(`3. CPU per item, ${count} items, latency 0, ${cores}`, `node ${fixed(node)} ms`, `raw node:http keep-alive loop ${fixed(raw)} ms: ${fixed(node / raw)} ×`, '≤ 2 ×');
}

/**
 * Benchmark 3's interleaved rounds. One run's CPU per item spreads by 5–20 % from the next on this
 * kind of shared machine (the work is memory and loopback bound: a plain compute loop spreads by
 * 1 %), so a round's ratio does too, and the median of more rounds moves less with a few slow
 * ones; what a full run reads from one run to the next is in docs/performance.md.
 */
const INTERLEAVED_ROUNDS = 41;

/** Both runs compared, three times each before any is measured: the first thousands of items still run code V8 has not optimised yet. */
async function warmUp(...runs: Array<() => Promise<unknown>>) {
	for (let round = 0; round < (smoke ? 1 : 3); round++) for (const run of runs) await run();
}

/** Benchmark 3 with every watch option against the same run without them, interleaved, CPU per item compared round by round. */
async function watchOverhead(server: RemoteServer, cores: string) {
	const count = smoke ? 100 : 1000;
	const rounds = smoke ? 2 : INTERLEAVED_ROUNDS;
	const concurrency = 10;
	await warmUp(() => timedRun(count, concurrency, credentialsOf(server)), () => timedRun(count, concurrency, credentialsOf(server), WATCH_OPTIONS));
	const otherKeys = await keysOfOtherCameras(server, MAX_WATCH_KEYS - 1);
	// each execution starts from the looks the one before saved, as a watched camera's do
	const watchedLooks: IDataObject = {};
	const [plain, watched, amongOthers] = await interleaved(rounds, [
		async () => (await timedRun(count, concurrency, credentialsOf(server))).cpuPerRequest,
		async () => (await timedRun(count, concurrency, credentialsOf(server), WATCH_OPTIONS, watchedLooks)).cpuPerRequest,
		async () => (await timedRun(count, concurrency, credentialsOf(server), WATCH_OPTIONS, otherKeys)).cpuPerRequest,
	]);
	row(
		`3. CPU per item, ${count} items, latency 0, ${cores}, with 3 zones, every filter and Compare With Previous Look (${rounds} interleaved rounds, each round's ratio)`,
		`${fixed(median(watched), 3)} ms`,
		`without them ${fixed(median(plain), 3)} ms: ${ratioText(pairedRatios(plain, watched))}`,
		'≤ 1.05 ×',
	);
	row(
		`3. The same watch beside ${MAX_WATCH_KEYS - 1} other Watch Keys in the static data (the most kept)`,
		`${fixed(median(amongOthers), 3)} ms`,
		`the key alone ${fixed(median(watched), 3)} ms: ${ratioText(pairedRatios(watched, amongOthers))}`,
		'≤ 1.02 ×',
	);
}

/** Benchmark 3 with 50 objects a look: Track Objects Across Looks against Compare With Previous Look alone, interleaved, CPU per item compared round by round. */
async function trackingOverhead(server: RemoteServer, cores: string) {
	const count = smoke ? 100 : 1000;
	const rounds = smoke ? 2 : INTERLEAVED_ROUNDS;
	const concurrency = 10;
	const crowd = { baseUrl: server.crowd.url, apiKey: server.crowd.apiKey, sendAs: 'header' as const };
	const comparing = { compareWithPreviousLook: true };
	const tracking = { ...comparing, trackObjects: true, reportStaysLongerThan: 10 };
	await warmUp(() => timedRun(count, concurrency, crowd, comparing), () => timedRun(count, concurrency, crowd, tracking));
	// each execution starts from the looks (and tracks) the one before saved, as a watched camera's do
	const [comparedLooks, trackedLooks]: IDataObject[] = [{}, {}];
	const [compared, tracked] = await interleaved(rounds, [
		async () => (await timedRun(count, concurrency, crowd, comparing, comparedLooks)).cpuPerRequest,
		async () => (await timedRun(count, concurrency, crowd, tracking, trackedLooks)).cpuPerRequest,
	]);
	row(
		`3. CPU per item, ${count} items of 50 objects, latency 0, ${cores}, Track Objects Across Looks (${rounds} interleaved rounds, each round's ratio)`,
		`${fixed(median(tracked), 3)} ms`,
		`Compare With Previous Look alone ${fixed(median(compared), 3)} ms: ${ratioText(pairedRatios(compared, tracked))}`,
		'≤ 1.10 ×',
	);
}

/** The node's static data after one look of each of `count` other cameras, taken by the node itself. */
async function keysOfOtherCameras(server: RemoteServer, count: number): Promise<IDataObject> {
	// the harness writes what the node saved back into the object it was given, as n8n saves it
	const staticData: IDataObject = {};
	for (let camera = 0; camera < count; camera++) {
		const options = { ...WATCH_OPTIONS, watchKey: `camera ${camera}` };
		const { staticDataSaved } = await runNode({ parameters: detectParameters(options), items: carItems(1), credentials: credentialsOf(server), recordRequests: false, staticData });
		if (!staticDataSaved) throw new Error('the node saved no look');
	}
	return staticData;
}

async function memory(server: RemoteServer) {
	for (const megabytes of smoke ? [1] : [1, 10, 25, 50]) {
		const result = (await memoryChild(server, 'image', megabytes)) as { imageMb: number; growthMb: number; ratio: number; runsMb: number[] };
		row(
			`4. Peak RSS growth, detect + annotate, ${fixed(result.imageMb, 1)} MB PNG (median of 3 after a same-size warm-up)`,
			`${fixed(result.growthMb, 1)} MB (runs ${result.runsMb.map((run) => fixed(run, 1)).join(', ')})`,
			`${fixed(result.ratio)} × the image`,
			'≤ 3 ×',
		);
	}
	const soak = (await memoryChild(server, 'soak', smoke ? 200 : 2000)) as { items: number; startMb: number; endMb: number; maxMb: number; series: number[]; heapSeries: number[] };
	row(
		`4. Soak, ${soak.items} items in executions of 100`,
		`RSS ${fixed(soak.startMb, 0)} → ${fixed(soak.endMb, 0)} MB`,
		`after each execution and a full collection: RSS ${soak.series.join(', ')} MB; V8 heap used ${soak.heapSeries.join(', ')} MB`,
		'no growth beyond noise',
	);
	const watched = (await memoryChild(server, 'watched-soak', smoke ? 200 : 20000)) as WatchedSoak;
	row(
		`4. Soak, ${watched.items} items in executions of 100 over 10 Watch Keys: 3 zones, every filter, Compare With Previous Look, Track Objects Across Looks (the static data carried on, 10 minutes between executions, the service's answers alternating between car.jpg's and 50 objects)`,
		`RSS ${fixed(watched.rssMb.afterWarmUp, 0)} → ${fixed(watched.rssMb.end, 0)} MB after the first ${watched.warmUpExecutions} executions (at most ${fixed(watched.rssMb.max, 0)}); V8 heap used ${fixed(watched.heapUsedMb.afterWarmUp, 1)} → ${fixed(watched.heapUsedMb.end, 1)} MB`,
		`after every ${watched.seriesEvery === 1 ? '' : `${watched.seriesEvery}th `}execution and a full collection: RSS ${watched.rssSeries.join(', ')} MB; heap used ${watched.heapSeries.join(', ')} MB; static data ${watched.staticDataChars} characters`,
		'no growth beyond noise',
	);
}

interface WatchedSoak {
	items: number;
	warmUpExecutions: number;
	seriesEvery: number;
	staticDataChars: number;
	rssMb: { afterWarmUp: number; end: number; max: number };
	heapUsedMb: { afterWarmUp: number; end: number; max: number };
	rssSeries: number[];
	heapSeries: number[];
}

/** The n8n versions the selected benchmarks run in, installed (or re-checked) before any is measured. */
async function triggerBenchmark(server: RemoteServer) {
	const seconds = smoke ? 60 : 3600;
	const result = await triggerCameras(server, seconds);
	const label = `9. Image Inference Trigger: ${TRIGGER_CAMERAS} cameras at 1 look/s, ${smoke ? 'a minute' : 'an hour'} of looks (${result.looks}), arrivals and departures in a driveway`;
	row(`${label}: CPU per look`, `${fixed(result.cpuMsPerLook, 3)} ms (${fixed(result.wallS, 1)} s for all)`, 'the snapshot, Detect, the comparison and the events; the cameras and the service in child processes', '');
	row(
		`${label}: V8 heap after GC, every 5 simulated minutes`,
		`${result.heapMb.join(', ')} MB (RSS ${result.rssMb.at(0)} → ${result.rssMb.at(-1)} MB)`,
		'flat after the first samples',
		'flat',
	);
	row(
		`${label}: executions started`,
		`${result.executions}`,
		`${result.scheduleExecutions} for a Schedule Trigger at 1 s (${fixed((100 * result.executions) / result.scheduleExecutions, 2)} %)`,
		'one per look with events',
	);
}

function prepareN8n(): Map<string, string> {
	const failures = new Map<string, string>();
	const runsN8n = selected('versus') || (selected('batch') && (!smoke || only?.includes('batch') === true));
	if (!runsN8n) return failures;
	for (const version of smoke ? [DEFAULT_N8N_VERSION] : [DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION]) {
		try {
			ensureN8n(version);
		} catch (error) {
			failures.set(version, oneLine(error));
		}
	}
	return failures;
}

const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/** Runs one benchmark if selected; a failure becomes its row, and the benchmarks after it still run. */
async function measure(name: string, label: string, benchmark: () => Promise<void>) {
	if (!selected(name)) return;
	try {
		await benchmark();
	} catch (error) {
		failed.push(name);
		row(label, `FAILED: ${oneLine(error)}`, '', '');
	}
}

async function main() {
	const installFailures = prepareN8n();
	const server = await startServerProcess();
	try {
		await measure('throughput', '1. Throughput', () => throughput(server));
		await measure('attachments', '5. One item with 10 image attachments', () => attachments(server));
		await measure('overhead', '3. CPU per item', () => onSeparateCores(server.pid, (cores) => overhead(server, cores)));
		await measure('watch', '3. CPU per item with zones and comparison', () => onSeparateCores(server.pid, (cores) => watchOverhead(server, cores)));
		await measure('tracking', '3. CPU per item with 50 objects tracked', () => onSeparateCores(server.pid, (cores) => trackingOverhead(server, cores)));
		await measure('trackingQuality', '8. Tracking quality', async () => {
			for (const cells of await trackingQualityRows(smoke)) row(...cells);
		});
		await measure('memory', '4. Peak RSS growth', () => memory(server));
		await measure('trigger', '9. Image Inference Trigger', () => triggerBenchmark(server));
		await measure('drawing', "10. The node's own picture", async () => {
			for (const cells of await drawingRows()) row(...cells);
			for (const cells of await annotateSavingsRows()) row(...cells);
		});
		await measure('versus', '2. Against the HTTP Request node in real n8n', async () => {
			for (const result of await compareWithHttpRequestNode(smoke)) row(...result);
		});
	} finally {
		await server.close();
	}
	await measure('batch', '6. Phone photos in real n8n', async () => {
		const batch = await phoneBatchRows(smoke, only?.includes('batch') === true, installFailures);
		for (const result of batch.rows) row(...result);
		if (batch.failed) failed.push('batch');
	});
	await measure('workers', '7. Queue-mode workers', async () => {
		if (smoke && !only?.includes('workers')) {
			row('7. Queue-mode workers', 'left out of the smoke run (npm run bench -- --smoke --only=workers runs it)', '', '');
			return;
		}
		const latencyMs = 1000;
		const uploads = smoke ? 20 : 200;
		for (const result of await queueWorkersRows({ version: DEFAULT_N8N_VERSION, counts: smoke ? [1, 2] : [1, 2, 4], uploads, latencyMs })) {
			const busy = (result.mainCpuS + result.workersCpuS) / (result.wallMs / 1000);
			row(
				`7. ${uploads} uploads at once to a webhook in n8n ${DEFAULT_N8N_VERSION} queue mode, ${result.workers} worker(s) at concurrency 10 (one image an execution), ${latencyMs} ms latency`,
				`${fixed(result.wallMs / 1000)} s, ${fixed((uploads * 1000) / result.wallMs, 1)} uploads/s`,
				`ideal ${fixed(result.idealMs / 1000)} s: ${fixed(result.wallMs / result.idealMs)} ×; lost ${result.lost}, duplicated ${result.duplicated}, wrong ${result.wrong}; ` +
					`CPU: main ${fixed(result.mainCpuS, 1)} s, workers ${fixed(result.workersCpuS, 1)} s (${fixed(busy, 2)} of ${cpus().length} cores busy)`,
				'0 lost or duplicated; throughput reported',
			);
			if (result.lost || result.duplicated || result.wrong) failed.push('workers');
		}
	});
	const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${fixed(totalmem() / 1024 ** 3, 0)} GiB, Node ${process.version}`;
	console.log(`\nBenchmarks${smoke ? ' (smoke: small sizes, targets not applicable)' : ''} — ${machine}; load average at the end ${loadavg().map((load) => fixed(load)).join(', ')}\n`);
	console.log('| Benchmark | Result | Compared | Target | Load |');
	console.log('|---|---|---|---|---|');
	for (const cells of rows) console.log(`| ${cells.join(' | ')} |`);
	if (failed.length) {
		console.error(`\nFailed: ${failed.join(', ')} (see their rows)`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
