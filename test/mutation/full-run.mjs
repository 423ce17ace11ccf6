// The full mutation run (`npm run test:mutation`): every part of parts.mjs in turn, each a
// StrykerJS run of part.config.mjs with its own checkpoint (its incremental file, under the
// untracked reports/mutation/parts/), then the parts merged into the committed baseline
// (test/mutation/baseline.json, written by baseline.mjs), the score per file, and a failure under
// the threshold (stryker.config.mjs `thresholds.break`).
//   npm run test:mutation                     every mutant, from nothing (its time: docs/testing.md)
//   npm run test:mutation -- --resume         each part goes on from its checkpoint, or from the
//                                             committed baseline's results for its files when it
//                                             has no checkpoint or the baseline is newer: only the
//                                             mutants StrykerJS's incremental mode finds changed or
//                                             missing run again (a stopped run goes on where it
//                                             stopped; after a change to the code or the tests,
//                                             this refreshes the baseline)
//   npm run test:mutation -- --part contract  one part only (with --resume too); merges when every
//                                             part has a checkpoint
//   npm run test:mutation -- --resume --part contract,requests
//                                             several parts as one StrykerJS run (one dry run of
//                                             the suite instead of one each); each part's
//                                             checkpoint is the run's
//   npm run test:mutation -- --resume --part watch-and-tool --rerun nodes/ImageInference/output/drawnImage.ts
//                                             also runs again the survivors and not-covered mutants
//                                             of these files (joined by commas) in the checkpoint:
//                                             StrykerJS reruns a survivor only when a test newly
//                                             covers it, and a mutant of module-level code (a
//                                             "static" one) is covered by no test, so a new test
//                                             of it is never tried otherwise
//   npm run test:mutation -- --refresh        one StrykerJS run over the whole node from the
//                                             committed baseline: only changed mutants run, as with
//                                             --resume, with one dry run of the suite instead of
//                                             one per part (no checkpoints: a stopped run starts over)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

import config from '../../stryker.config.mjs';
import { BASELINE, slimBaseline, writeBaseline } from './baseline.mjs';
import { PARTS, PARTS_DIR, inPart, partFile, partsOf } from './parts.mjs';
import { UNDETECTED, mutationScore } from './score.mjs';

const args = process.argv.slice(2);
const valueOf = (option) => (args.includes(option) ? String(args[args.indexOf(option) + 1] ?? '') : undefined);
const stray = args.filter((arg, index) => arg.startsWith('--') ? !['--resume', '--part', '--rerun', '--refresh'].includes(arg) : !['--part', '--rerun'].includes(args[index - 1]));
if (stray.length) {
	console.error(`Not an option here: ${stray.join(' ')} (--resume, --part <parts>, --rerun <files>, --refresh; a value after a space)`);
	process.exit(2);
}
const resume = args.includes('--resume');
const onlyPart = valueOf('--part');
const rerun = valueOf('--rerun')?.split(',') ?? [];
try {
	if (onlyPart !== undefined) partsOf(onlyPart);
} catch (error) {
	console.error(`--part: ${error.message}`);
	process.exit(2);
}
const outside = rerun.filter((file) => !(resume && onlyPart !== undefined && existsSync(file) && partsOf(onlyPart).some((part) => inPart(part, file))));
if (rerun.length && args.includes('--refresh')) {
	console.error('--rerun goes with --resume and --part, not --refresh');
	process.exit(2);
}
if (outside.length) {
	console.error(`--rerun: with --resume and --part, name source files of the part as reports name them: not ${outside.map((file) => `"${file}"`).join(', ')}`);
	process.exit(2);
}

mkdirSync(PARTS_DIR, { recursive: true });

if (args.includes('--refresh')) {
	const started = Date.now();
	copyFileSync(BASELINE, config.incrementalFile);
	console.log('\n=== the whole node, from the committed baseline ===');
	const stryker = spawnSync('npx', ['stryker', 'run', '--incremental'], { stdio: 'inherit' });
	const minutes = ((Date.now() - started) / 60000).toFixed(1);
	if (stryker.status !== 0) {
		console.error(`The refresh failed after ${minutes} min (exit ${stryker.status ?? stryker.signal}).`);
		process.exit(1);
	}
	console.log(`=== done in ${minutes} min ===`);
	report(slimBaseline(JSON.parse(readFileSync(config.incrementalFile, 'utf8'))));
	process.exit(0);
}

const isCurrent = (file) => existsSync(file) && statSync(file).mtimeMs >= statSync(BASELINE).mtimeMs;
const newerThan = (file, other) => existsSync(file) && (!existsSync(other) || statSync(file).mtimeMs > statSync(other).mtimeMs);

/** A part whose checkpoint lacks the mutants --rerun took out until its StrykerJS run ends well (StrykerJS writes the checkpoint only then). */
const rerunPending = (part) => `${partFile(part)}.rerun-pending`;

/**
 * Takes the survivors and the not-covered mutants of some files out of a part's checkpoint, so
 * StrykerJS runs them again; how many. Until the run ends well the checkpoint lacks them, and no
 * merge takes it.
 */
function forgetUndetected(part, files) {
	if (!existsSync(partFile(part))) return 0;
	const checkpoint = JSON.parse(readFileSync(partFile(part), 'utf8'));
	let forgotten = 0;
	for (const file of files) {
		const entry = checkpoint.files[file];
		if (!entry) {
			console.log(`--rerun: the checkpoint has no results for ${file}; StrykerJS runs all its mutants as new`);
			continue;
		}
		const kept = entry.mutants.filter((mutant) => !UNDETECTED.has(mutant.status));
		forgotten += entry.mutants.length - kept.length;
		entry.mutants = kept;
	}
	if (forgotten > 0) {
		writeFileSync(rerunPending(part), files.join('\n'));
		writeFileSync(partFile(part), JSON.stringify(checkpoint));
	}
	return forgotten;
}

/**
 * A part's first checkpoint for --resume: the committed baseline's results for the part's files,
 * and every test. Several parts run as one take each part's own checkpoint where it is newer than
 * the baseline, when all of them ran against the same tests (a result names its tests by the
 * numbers of the run that wrote it); otherwise each part starts from the baseline.
 */
function seedCheckpoint(part) {
	const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
	const members = partsOf(part);
	const own = members.map((member) => (member !== part && isCurrent(partFile(member)) ? JSON.parse(readFileSync(partFile(member), 'utf8')) : baseline));
	const sameTests = own.every((source) => JSON.stringify(source.testFiles) === JSON.stringify(own[0].testFiles));
	const sources = sameTests ? own : members.map(() => baseline);
	const files = Object.fromEntries(sources.flatMap((source, index) => Object.entries(source.files).filter(([file]) => inPart(members[index], file))));
	writeFileSync(partFile(part), JSON.stringify({ files, testFiles: sources[0].testFiles }));
	return sources.some((source) => source !== baseline) ? "resumed from its parts' checkpoints" : 'resumed from the committed baseline';
}

for (const part of onlyPart ? [onlyPart] : Object.keys(PARTS)) {
	const started = Date.now();
	// a checkpoint older than the baseline, or than one of its parts' own (a part run alone since), is seeded anew
	const stale = () => !isCurrent(partFile(part)) || partsOf(part).some((member) => member !== part && newerThan(partFile(member), partFile(part)));
	const seeded = resume && existsSync(BASELINE) && stale() ? seedCheckpoint(part) : undefined;
	const from = resume ? (seeded ?? 'resumed from its checkpoint') : 'from nothing';
	const again = rerun.length ? `; ${forgetUndetected(part, rerun)} survivors and not-covered mutants of ${rerun.join(', ')} run again` : '';
	console.log(`\n=== mutation part "${part}" (${from}${again}) ===`);
	const stryker = spawnSync('npx', ['stryker', 'run', 'test/mutation/part.config.mjs', ...(resume ? [] : ['--force'])], {
		stdio: 'inherit',
		env: { ...process.env, MUTATION_PART: part },
	});
	const minutes = ((Date.now() - started) / 60000).toFixed(1);
	if (stryker.status !== 0) {
		console.error(`Part "${part}" failed after ${minutes} min (exit ${stryker.status ?? stryker.signal}).`);
		process.exit(1);
	}
	// several parts run as one: each part's checkpoint is the run's (the merge takes each part's files from its own)
	for (const member of partsOf(part)) if (member !== part) copyFileSync(partFile(part), partFile(member));
	rmSync(rerunPending(part), { force: true });
	console.log(`=== part "${part}" done in ${minutes} min ===`);
}

const pending = readdirSync(PARTS_DIR).filter((file) => file.endsWith('.rerun-pending'));
if (pending.length) {
	console.error(`\nNot merged: a run with --rerun did not end for ${pending.join(', ')} (its checkpoint lacks the mutants it took out; run it again).`);
	process.exit(1);
}
const missing = Object.keys(PARTS).filter((part) => !existsSync(partFile(part)));
if (missing.length) {
	console.log(`\nNot merged: no checkpoint yet for ${missing.join(', ')} (npm run test:mutation -- --resume runs them).`);
	process.exit(0);
}

// The parts' reports number their tests each on its own: the merged report numbers every test
// once, by its file and name, and points each mutant's coveredBy/killedBy at the new numbers.
// Each part gives the files it names (a checkpoint can carry results of files another part has).
const merged = { files: {}, testFiles: {} };
const testIds = new Map();
for (const part of Object.keys(PARTS)) {
	const report = JSON.parse(readFileSync(partFile(part), 'utf8'));
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
		if (!inPart(part, file)) continue;
		if (merged.files[file]) throw new Error(`${file} is in two parts`);
		merged.files[file] = {
			...entry,
			mutants: entry.mutants.map((mutant) => ({ ...mutant, coveredBy: ids(mutant.coveredBy), killedBy: ids(mutant.killedBy) })),
		};
	}
}
// a source file the last baseline measured that no part gave results for (a part's files left out) is not dropped silently
const lost = (existsSync(BASELINE) ? Object.keys(JSON.parse(readFileSync(BASELINE, 'utf8')).files) : []).filter((file) => existsSync(file) && !merged.files[file]);
if (lost.length) {
	console.error(`\nNot merged: no part gave results for ${lost.join(', ')}.`);
	process.exit(1);
}
report(slimBaseline(merged));

/** Writes the baseline, prints its score per file and in all, and fails under the threshold. */
function report(baseline) {
	writeBaseline(baseline);

	// a file whose mutants do not count (none, or only errors) scores as fully detected
	const percentOf = ({ percent }) => percent ?? 100;
	const rows = Object.entries(baseline.files).map(([file, { mutants }]) => ({ file, ...mutationScore(mutants) }));
	for (const row of rows.sort((a, b) => percentOf(a) - percentOf(b))) {
		console.log(`${percentOf(row).toFixed(2).padStart(6)} %  ${String(row.detected).padStart(4)} / ${String(row.scored).padEnd(4)} ${row.file}`);
	}
	const score = mutationScore(Object.values(baseline.files).flatMap((file) => file.mutants));
	const total = { ...score, percent: percentOf(score) };
	const threshold = config.thresholds.break;
	console.log(`\nMutation score of the node: ${total.percent.toFixed(2)} % (${total.detected} of ${total.scored} mutants detected; threshold ${threshold} %).`);
	console.log(`Baseline written: ${BASELINE} (commit it with the change it measures).`);
	if (total.percent < threshold) process.exit(1);
}
