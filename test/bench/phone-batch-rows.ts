/**
 * Benchmark 6's rows: the phone-photo batch in n8n 2.x (filesystem binary data, its default), in
 * 1.x (its default, binary data in memory), and in 2.x's queue mode (one worker, binary data in
 * the database, its default there; needs PostgreSQL and Redis from setup-machine.sh). --smoke
 * leaves it out (starting n8n would double the smoke's time); `npm run bench -- --smoke
 * --only=batch` runs it on two small photos in 2.x.
 */
import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION, isInstalled } from '../e2e/lib';
import type { BatchFailure, BatchOutcome, BatchResult, BatchWorkflow } from './phone-batch';
import { runPhoneBatch, workflowName } from './phone-batch';
import { phonePhotos, smallPhotos } from './phone-photos';

const CONCURRENCY = 5;
/** Queue mode: rounds of the node and the alternative workflow, side by side. */
const QUEUE_ROUNDS = 5;
/**
 * Queue mode: the batch both run side by side. The alternative cannot carry the 40 photos there
 * (n8n cannot save an execution holding two base64 copies of each), 10 it can.
 */
const SMALLER_BATCH = 10;
const LATENCY_MS = 1000;
const fixed = (value: number, digits = 2) => value.toFixed(digits);

/**
 * The rows, each run on its own: a run that fails (an n8n that could not be installed, a service
 * that would not start) gives a FAILED row with the reason, and the runs after it still run.
 * `installFailures`: the versions that could not be installed before the benchmarks started.
 */
export async function phoneBatchRows(smoke: boolean, asked: boolean, installFailures: Map<string, string>): Promise<{ rows: string[][]; failed: boolean }> {
	if (smoke && !asked) return { rows: [['6. Phone photos in real n8n', 'left out of the smoke run (npm run bench -- --smoke --only=batch runs it)', '', '']], failed: false };
	const runs = smoke
		? [{ version: DEFAULT_N8N_VERSION, queue: false }]
		: [DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION].map((version) => ({ version, queue: false })).concat({ version: DEFAULT_N8N_VERSION, queue: true });
	const rows: string[][] = [];
	let failed = false;
	for (const { version, queue } of runs) {
		try {
			const installFailure = installFailures.get(version);
			if (installFailure) throw new Error(installFailure);
			if (!isInstalled(version)) throw new Error(`n8n ${version} is not installed`);
			const results = await runPhoneBatch({
				version,
				photos: smoke ? smallPhotos() : phonePhotos((line) => process.stderr.write(`${line}\n`)),
				concurrency: CONCURRENCY,
				latencyMs: LATENCY_MS,
				warmUp: smoke ? 1 : CONCURRENCY,
				queue,
				rounds: smoke ? 1 : QUEUE_ROUNDS,
				smallerBatch: SMALLER_BATCH,
				log: (line) => process.stderr.write(`${line}\n`),
			});
			rows.push(...results.map((result) => ('failed' in result ? describeFailure(result, version) : describe(result))));
			if (queue) {
				rows.push(...sideBySide(results));
				failed ||= !sideBySideHolds(results);
			}
		} catch (error) {
			failed = true;
			const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
			rows.push([`6. Phone photos in real n8n ${version}${queue ? ' queue mode' : ''}`, `FAILED: ${why}`, '', '']);
		}
	}
	return { rows, failed };
}

function describe(result: BatchResult): string[] {
	const queue = result.measured === 'worker';
	const label =
		`6. ${result.count} phone photos (mean ${fixed(result.meanImageMb, 1)} MB) in real n8n ${result.version}` +
		`${queue ? ' queue mode (main + 1 worker, Postgres, Redis; the worker measured)' : ''}, ${result.binaryMode} binary data, ` +
		`detect + annotate, concurrency ${result.concurrency}, ${result.latencyMs} ms latency` +
		(queue ? `: ${workflowName(result.workflow)}, round ${result.round + 1}` : '');
	const measuredProcess = queue ? 'worker' : 'n8n';
	const outcome = result.itemsInOrder ? `all ${result.count} items out, in order, each with its own answer` : `ITEMS WRONG: ${result.problems.slice(0, 3).join('; ')}`;
	const buffers =
		result.liveBuffersMb === undefined
			? ''
			: `; live Buffers at most ${fixed(result.liveBuffersMb, 0)} MB over the start, (concurrency + 2) × 4/3 × photo = ${fixed(result.buffersBoundMb, 0)} MB: ${fixed(result.liveBuffersMb / result.buffersBoundMb)} ×`;
	return [
		label,
		`${measuredProcess} peak RSS growth ${fixed(result.peakGrowthMb, 0)} MB over ${fixed(result.baselineMb, 0)} MB after the warm-up: **${fixed(result.ratio)} ×** (concurrency × mean image); ` +
			`during the prediction ${fixed(result.nodeGrowthMb, 0)} MB (${fixed(result.nodeRatio)} ×); over the idle process before the warm-up ${fixed(result.peakOverIdleMb, 0)} MB ` +
			`(${fixed(result.peakOverIdleMb / (result.concurrency * result.meanImageMb))} ×)${buffers}`,
		`wall ${fixed(result.wallMs / 1000)} s, ideal ${fixed(result.idealMs / 1000)} s: ${fixed(result.wallMs / result.idealMs)} × ` +
			`(first request after ${fixed(result.firstRequestMs / 1000)} s, uploads ${fixed(result.meanUploadMs, 0)} ms each); ${outcome}`,
		result.version.startsWith('1.') ? 'reported (1.x keeps binary data in memory)' : queue ? 'reported (compared in the next row)' : '≤ 3 ×',
	];
}

function describeFailure(failure: BatchFailure, version: string): string[] {
	return [
		`6. ${failure.count} phone photos in real n8n ${version} queue mode: ${workflowName(failure.workflow)}, round ${failure.round + 1}`,
		`FAILED in n8n after ${fixed(failure.afterMs / 1000)} s, ${failure.requestsAnswered} of ${failure.count} requests answered, the worker grown by ${fixed(failure.peakGrowthMb, 0)} MB: ` +
			`${failure.failed}${failure.workerSaid ? `; the worker logged: ${failure.workerSaid.slice(0, 300)}` : ''}`,
		'not tried again in later rounds (the same cause each time)',
		'reported (what the alternative cannot do)',
	];
}

interface RoundComparison {
	round: number;
	count: number;
	node?: BatchResult;
	alternative?: BatchOutcome;
}

/** Each round and batch size: the node's result beside the alternative's. */
function comparisons(results: BatchOutcome[]): RoundComparison[] {
	const keys = [...new Set(results.map((result) => `${result.count}:${result.round}`))];
	return keys.map((key) => {
		const [count, round] = key.split(':').map(Number);
		const of = (which: BatchWorkflow) => results.find((result) => result.round === round && result.count === count && result.workflow === which);
		return { round, count, node: of('node') as BatchResult | undefined, alternative: of('alternative') };
	});
}

const succeeded = (outcome: BatchOutcome | undefined): outcome is BatchResult => outcome !== undefined && !('failed' in outcome);

/** In every round where both ran, the node grew no more and took no longer; where the alternative failed, the node did not. */
function sideBySideHolds(results: BatchOutcome[]): boolean {
	return comparisons(results).every(({ node, alternative }) => {
		if (!node || !node.itemsInOrder) return false;
		if (!succeeded(alternative)) return true;
		return node.peakGrowthMb <= alternative.peakGrowthMb && node.wallMs <= alternative.wallMs;
	});
}

function sideBySide(results: BatchOutcome[]): string[][] {
	const sizes = [...new Set(results.map((result) => result.count))];
	return sizes.flatMap((count) => {
		const pairs = comparisons(results).filter((comparison) => comparison.count === count && comparison.node && succeeded(comparison.alternative));
		if (!pairs.length) return [];
		const list = (values: number[]) => values.map((value) => fixed(value)).join(', ');
		const both = pairs.map(({ node, alternative }) => ({ node: node!, alternative: alternative as BatchResult }));
		const wrong = both.flatMap(({ node, alternative }) => [node, alternative]).filter((result) => !result.itemsInOrder);
		return [
			[
				`6. Queue mode side by side, ${count} photos, ${both.length} rounds: the node against ${workflowName('alternative')} (HTTP Request batches of ${both[0].node.concurrency} every ${both[0].node.latencyMs} ms), each batch on a fresh worker`,
				`node ÷ alternative, warmed worker's peak RSS growth: **${list(both.map(({ node, alternative }) => node.peakGrowthMb / alternative.peakGrowthMb))}** ` +
					`(node ${list(both.map(({ node }) => node.peakGrowthMb))} MB, alternative ${list(both.map(({ alternative }) => alternative.peakGrowthMb))} MB); ` +
					`live Buffers node ${list(both.map(({ node }) => node.liveBuffersMb ?? NaN))} MB, alternative ${list(both.map(({ alternative }) => alternative.liveBuffersMb ?? NaN))} MB ` +
					`((concurrency + 2) × 4/3 × photo = ${fixed(both[0].node.buffersBoundMb, 0)} MB)`,
				`wall: **${list(both.map(({ node, alternative }) => node.wallMs / alternative.wallMs))}** (node ${list(both.map(({ node }) => node.wallMs / 1000))} s, ` +
					`alternative ${list(both.map(({ alternative }) => alternative.wallMs / 1000))} s); first request after: node ${list(both.map(({ node }) => node.firstRequestMs / 1000))} s, ` +
					`alternative ${list(both.map(({ alternative }) => alternative.firstRequestMs / 1000))} s; ` +
					(wrong.length ? `ITEMS WRONG in ${wrong.length} batches` : 'every batch: all items out, in order, each with its own answer'),
				'≤ 1.0 × in every round, peak growth and wall',
			],
		];
	});
}
