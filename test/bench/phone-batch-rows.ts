/**
 * Benchmark 6's rows: the phone-photo batch in n8n 2.x (filesystem binary data, its default), in
 * 1.x (its default, binary data in memory), and in 2.x's queue mode (one worker, binary data in
 * the database, its default there; needs PostgreSQL and Redis from setup-machine.sh). --smoke
 * leaves it out (starting n8n would double the smoke's time); `npm run bench -- --smoke
 * --only=batch` runs it on two small photos in 2.x.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION, fixture, isInstalled } from '../e2e/lib';
import type { BatchResult } from './phone-batch';
import { runPhoneBatch } from './phone-batch';
import { PHOTO_FOLDER, phonePhotos } from './phone-photos';

const CONCURRENCY = 5;
const LATENCY_MS = 1000;
const fixed = (value: number, digits = 2) => value.toFixed(digits);

export async function phoneBatchRows(smoke: boolean, asked: boolean): Promise<string[][]> {
	const rows: string[][] = [];
	if (smoke && !asked) return [['6. Phone photos in real n8n', 'left out of the smoke run (npm run bench -- --smoke --only=batch runs it)', '', '']];
	const versions = smoke ? [DEFAULT_N8N_VERSION] : [DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION];
	for (const version of versions) {
		if (!isInstalled(version) && (smoke || version !== DEFAULT_N8N_VERSION)) {
			rows.push([`6. Phone photos in real n8n ${version}`, 'skipped: n8n not installed (npm run test:e2e installs it)', '', '']);
			continue;
		}
		const photos = smoke ? smokePhotos() : phonePhotos((line) => process.stderr.write(`${line}\n`));
		const result = await runPhoneBatch({
			version,
			photos,
			concurrency: CONCURRENCY,
			latencyMs: LATENCY_MS,
			warmUp: smoke ? 1 : CONCURRENCY,
			log: (line) => process.stderr.write(`${line}\n`),
		});
		rows.push(describe(result));
	}
	if (!smoke && isInstalled(DEFAULT_N8N_VERSION)) {
		const result = await runPhoneBatch({
			version: DEFAULT_N8N_VERSION,
			photos: phonePhotos((line) => process.stderr.write(`${line}\n`)),
			concurrency: CONCURRENCY,
			latencyMs: LATENCY_MS,
			warmUp: CONCURRENCY,
			queue: true,
			log: (line) => process.stderr.write(`${line}\n`),
		});
		rows.push(describe(result));
	}
	return rows;
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

/** Two small photos (the project's own) for the smoke run, beside the phone photos. */
function smokePhotos(): string[] {
	mkdirSync(PHOTO_FOLDER, { recursive: true });
	return ['car.jpg', 'dog.jpg'].map((name) => {
		const target = join(PHOTO_FOLDER, `smoke-${name}`);
		if (!existsSync(target)) copyFileSync(fixture(name), target);
		return target;
	});
}
