// `npm run test:mutation:changed`, what CI runs: StrykerJS in incremental mode from the committed
// baseline (test/mutation/baseline.json), then changed-score.mjs. When nothing but docs and
// Markdown changed since the commit that last wrote the baseline (and the working tree has no
// other change), every result would be reused: the baseline's own score stands and StrykerJS does
// not run (its dry run alone runs the whole suite once, about 7 minutes on 2 cores).
//   node test/mutation/changed.mjs [--always]   # --always: run StrykerJS even then
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';

import config from '../../stryker.config.mjs';
import { BASELINE } from './baseline.mjs';
import { mutationScore } from './score.mjs';

// What cannot change a mutant's result: the docs, Markdown, and the baseline itself.
const OUTSIDE_THE_RESULTS = [':(exclude)docs', ':(exclude,glob)**/*.md', `:(exclude)${BASELINE}`];

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--always');
if (unknown.length) {
	console.error(`Unknown argument(s): ${unknown.join(' ')} (only --always)`);
	process.exit(2);
}

if (!existsSync(BASELINE)) {
	console.error('No baseline yet: npm run test:mutation writes test/mutation/baseline.json (a full run, its time in docs/testing.md); commit it');
	process.exit(1);
}

function git(...gitArgs) {
	const result = spawnSync('git', gitArgs, { encoding: 'utf8' });
	return { ok: result.status === 0, status: result.status, out: (result.stdout ?? '').trim() };
}

/**
 * The commit that last wrote the baseline, when neither later commits nor the working tree changed
 * anything that can change a result and every file the baseline measured reads as it did; otherwise
 * undefined, with the reason.
 */
function unchangedSinceBaseline() {
	// in a shallow clone the oldest commit it holds looks as if it wrote every file
	const shallow = git('rev-parse', '--is-shallow-repository');
	if (!shallow.ok || shallow.out !== 'false') return { reason: shallow.ok ? 'a shallow clone' : 'not a git checkout' };
	const commit = git('log', '-1', '--format=%H', '--', BASELINE);
	if (!commit.ok || !commit.out) return { reason: 'no commit of the baseline in git history' };
	const committed = git('diff', '--quiet', commit.out, 'HEAD', '--', '.', ...OUTSIDE_THE_RESULTS);
	if (committed.status !== 0) return { reason: committed.status === 1 ? `changed since ${commit.out.slice(0, 7)}` : 'git diff failed' };
	const working = git('status', '--porcelain', '--', '.', ...OUTSIDE_THE_RESULTS);
	if (!working.ok || working.out) return { reason: working.ok ? 'uncommitted changes' : 'git status failed' };
	const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
	for (const [file, { source }] of [...Object.entries(baseline.files), ...Object.entries(baseline.testFiles)]) {
		if (!existsSync(file) || readFileSync(file, 'utf8') !== source) return { reason: `${file} differs from the baseline's copy` };
	}
	return { commit: commit.out, baseline };
}

const run = (command, commandArgs) => spawnSync(command, commandArgs, { stdio: 'inherit' }).status ?? 1;

const unchanged = args.includes('--always') ? { reason: '--always' } : unchangedSinceBaseline();
if (unchanged.commit) {
	const { percent, detected, scored } = mutationScore(Object.values(unchanged.baseline.files).flatMap((file) => file.mutants));
	console.log(`Nothing that can change a mutant's result changed since ${unchanged.commit.slice(0, 7)}, which wrote the baseline:`);
	console.log(`every result would be reused; StrykerJS not run. Baseline: ${percent.toFixed(2)} % (${detected} of ${scored} detected; threshold ${config.thresholds.break}).`);
	process.exit(percent < config.thresholds.break ? 1 : 0);
}
console.log(`StrykerJS runs what changed since the baseline (${unchanged.reason}).`);
mkdirSync('reports/mutation', { recursive: true });
copyFileSync(BASELINE, config.incrementalFile);
const stryker = run('npx', ['--no-install', 'stryker', 'run', '--incremental']);
if (stryker !== 0) process.exit(stryker);
process.exit(run(process.execPath, ['test/mutation/changed-score.mjs']));
