/**
 * Benchmark 6's rows: the phone-photo batch in n8n 2.x (filesystem binary data, its default), in
 * 1.x (its default, binary data in memory), and in 2.x's queue mode (one worker, binary data in
 * the database, its default there; needs PostgreSQL and Redis from setup-machine.sh). --smoke
 * leaves it out (starting n8n would double the smoke's time); `npm run bench -- --smoke
 * --only=batch` runs it on two small photos in 2.x.
 */
import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION, isInstalled } from '../e2e/lib';
import type { BatchResult } from './phone-batch';
import { runPhoneBatch } from './phone-batch';
import { phonePhotos, smallPhotos } from './phone-photos';

const CONCURRENCY = 5;
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
			const result = await runPhoneBatch({
				version,
				photos: smoke ? smallPhotos() : phonePhotos((line) => process.stderr.write(`${line}\n`)),
				concurrency: CONCURRENCY,
				latencyMs: LATENCY_MS,
				warmUp: smoke ? 1 : CONCURRENCY,
				queue,
				log: (line) => process.stderr.write(`${line}\n`),
			});
			rows.push(describe(result));
		} catch (error) {
			failed = true;
			const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
			rows.push([`6. Phone photos in real n8n ${version}${queue ? ' queue mode' : ''}`, `FAILED: ${why}`, '', '']);
		}
	}
	return { rows, failed };
}

function describe(result: BatchResult): string[] {
	const label =
		`6. ${result.count} phone photos (mean ${fixed(result.meanImageMb, 1)} MB) in real n8n ${result.version}` +
		`${result.measured === 'worker' ? ' queue mode (main + 1 worker, Postgres, Redis; the worker measured)' : ''}, ${result.binaryMode} binary data, ` +
		`detect + annotate, concurrency ${result.concurrency}, ${result.latencyMs} ms latency`;
	const measuredProcess = result.measured === 'worker' ? 'worker' : 'n8n';
	const outcome = result.itemsInOrder ? `all ${result.count} items out, in order, each with its own answer` : `ITEMS WRONG: ${result.problems.slice(0, 3).join('; ')}`;
	return [
		label,
		`${measuredProcess} peak RSS growth ${fixed(result.peakGrowthMb, 0)} MB over ${fixed(result.baselineMb, 0)} MB after the warm-up: **${fixed(result.ratio)} ×** (concurrency × mean image); ` +
			`during the node ${fixed(result.nodeGrowthMb, 0)} MB (${fixed(result.nodeRatio)} ×); over the idle process before the warm-up ${fixed(result.peakOverIdleMb, 0)} MB ` +
			`(${fixed(result.peakOverIdleMb / (result.concurrency * result.meanImageMb))} ×)`,
		`node wall ${fixed(result.wallMs / 1000)} s, ideal ${fixed(result.idealMs / 1000)} s: ${fixed(result.wallMs / result.idealMs)} × ` +
			`(first request after ${fixed(result.firstRequestMs / 1000)} s, uploads ${fixed(result.meanUploadMs, 0)} ms each); ${outcome}`,
		result.version.startsWith('1.') ? 'reported (1.x keeps binary data in memory)' : result.measured === 'worker' ? 'reported (queue mode)' : '≤ 3 ×',
	];
}
