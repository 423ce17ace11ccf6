// The full mutation run (`npm run test:mutation`): every part of parts.mjs in turn (each a
// StrykerJS run of part.config.mjs), then one report merged from the parts
// (reports/mutation/incremental.json, copied to the committed baseline test/mutation/baseline.json),
// its score per file, and a failure under the threshold (stryker.config.mjs `thresholds.break`).
//   npm run test:mutation                     every mutant, from nothing (its time: docs/testing.md)
//   npm run test:mutation -- --resume         keep what the parts already hold; rerun only the
//                                             mutants StrykerJS's incremental mode finds changed
//                                             or missing (a stopped run goes on where it stopped)
//   npm run test:mutation -- --part contract  one part only (then merges, if every part is there)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

import config from '../../stryker.config.mjs';
import { PARTS, PARTS_DIR, PART_RESULTS_DIR, partFile } from './parts.mjs';
import { mutationScore } from './score.mjs';

const args = process.argv.slice(2);
const resume = args.includes('--resume');
const onlyPart = args.includes('--part') ? args[args.indexOf('--part') + 1] : undefined;
if (onlyPart !== undefined && !(onlyPart in PARTS)) {
	console.error(`--part must be one of: ${Object.keys(PARTS).join(', ')}`);
	process.exit(2);
}

mkdirSync(PARTS_DIR, { recursive: true });
mkdirSync(PART_RESULTS_DIR, { recursive: true });

for (const part of onlyPart ? [onlyPart] : Object.keys(PARTS)) {
	const started = Date.now();
	console.log(`\n=== mutation part "${part}" (${resume ? 'resumed' : 'from nothing'}) ===`);
	const stryker = spawnSync('npx', ['stryker', 'run', 'test/mutation/part.config.mjs', ...(resume ? [] : ['--force'])], {
		stdio: 'inherit',
		env: { ...process.env, MUTATION_PART: part },
	});
	const minutes = ((Date.now() - started) / 60000).toFixed(1);
	if (stryker.status !== 0) {
		console.error(`Part "${part}" failed after ${minutes} min (exit ${stryker.status ?? stryker.signal}).`);
		process.exit(1);
	}
	compactPartFile(part);
	console.log(`=== part "${part}" done in ${minutes} min ===`);
}

/**
 * A killed mutant's status reason is the failing test's message, which can quote megabytes (a
 * picture's base64 in a failed comparison): the committed part file keeps its first kilobyte,
 * which is all StrykerJS's reports show of it; incremental mode does not read it.
 */
function compactPartFile(part) {
	const report = JSON.parse(readFileSync(partFile(part), 'utf8'));
	for (const { mutants } of Object.values(report.files)) {
		for (const mutant of mutants) {
			if (mutant.statusReason?.length > 1024) mutant.statusReason = `${mutant.statusReason.slice(0, 1024)}…`;
		}
	}
	writeFileSync(partFile(part), JSON.stringify(report));
}

const missing = Object.keys(PARTS).filter((part) => !existsSync(partFile(part)));
if (missing.length) {
	console.log(`\nNot merged: no result yet for ${missing.join(', ')} (npm run test:mutation -- --resume).`);
	process.exit(0);
}

// The parts' reports number their tests each on its own: the merged report numbers every test
// once, by its file and name, and points each mutant's coveredBy/killedBy at the new numbers.
const merged = { files: {}, testFiles: {} };
const testIds = new Map();
for (const part of Object.keys(PARTS)) {
	const report = JSON.parse(readFileSync(partFile(part), 'utf8'));
	merged.schemaVersion ??= report.schemaVersion;
	merged.thresholds ??= report.thresholds;
	merged.framework ??= report.framework;
	const renumber = new Map();
	for (const [file, { tests, source }] of Object.entries(report.testFiles ?? {})) {
		const kept = (merged.testFiles[file] ??= { source, tests: [] });
		if (kept.source !== source) {
			console.error(`\nNot merged: part "${part}" ran against another version of ${file} than an earlier part (npm run test:mutation -- --resume reruns each part against today's tests).`);
			process.exit(1);
		}
		for (const test of tests) {
			const key = `${file}\0${test.name}`;
			if (!testIds.has(key)) {
				testIds.set(key, String(testIds.size));
				kept.tests.push({ ...test, id: testIds.get(key) });
			}
			renumber.set(test.id, testIds.get(key));
		}
	}
	const ids = (list) => list?.map((id) => renumber.get(id) ?? id);
	for (const [file, entry] of Object.entries(report.files)) {
		if (merged.files[file]) throw new Error(`${file} is in two parts`);
		merged.files[file] = {
			...entry,
			mutants: entry.mutants.map((mutant) => ({ ...mutant, coveredBy: ids(mutant.coveredBy), killedBy: ids(mutant.killedBy) })),
		};
	}
}
writeFileSync('reports/mutation/incremental.json', JSON.stringify(merged));
copyFileSync('reports/mutation/incremental.json', 'test/mutation/baseline.json');

// a file whose mutants do not count (none, or only errors) scores as fully detected
const percentOf = ({ percent }) => percent ?? 100;
const rows = Object.entries(merged.files).map(([file, { mutants }]) => ({ file, ...mutationScore(mutants) }));
for (const row of rows.sort((a, b) => percentOf(a) - percentOf(b))) {
	console.log(`${percentOf(row).toFixed(2).padStart(6)} %  ${String(row.detected).padStart(4)} / ${String(row.scored).padEnd(4)} ${row.file}`);
}
const score = mutationScore(Object.values(merged.files).flatMap((file) => file.mutants));
const total = { ...score, percent: percentOf(score) };
const threshold = config.thresholds.break;
console.log(`\nMutation score of the node: ${total.percent.toFixed(2)} % (${total.detected} of ${total.scored} mutants detected; threshold ${threshold} %).`);
console.log('Merged report: reports/mutation/incremental.json, copied to test/mutation/baseline.json.');
if (total.percent < threshold) process.exit(1);
