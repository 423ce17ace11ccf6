// The mutation score of the code changed since the committed baseline (test/mutation/baseline.json,
// written by the last full run), read from the report an incremental run just wrote
// (reports/mutation/mutation.json). Fails under the threshold the full run must meet
// (stryker.config.mjs `thresholds.break`). A mutant counts as changed when it sits on a line
// that is new or edited since the baseline, or when the baseline detected it and this run did
// not (a test weakened or removed: incremental mode reruns the mutants such a test had killed);
// the lines of a file are matched by their longest common subsequence, so code that only moved
// is not counted.
//   node test/mutation/changed-score.mjs [report] [baseline]
import { readFileSync } from 'node:fs';

import config from '../../stryker.config.mjs';
import { DETECTED, UNDETECTED, mutationScore } from './score.mjs';

const [reportPath = 'reports/mutation/mutation.json', baselinePath = 'test/mutation/baseline.json'] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const baseline = JSON.parse(readFileSync(baselinePath, 'utf8'));
const threshold = config.thresholds.break;

/**
 * How the lines of `after` (1-based) relate to `before`'s: `changed`, those not in a longest common
 * subsequence with `before`; `formerLine`, each other line's number in `before`.
 */
function matchLines(before, after) {
	const a = before.split('\n');
	const b = after.split('\n');
	const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
	for (let i = a.length - 1; i >= 0; i--) {
		for (let j = b.length - 1; j >= 0; j--) {
			common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
		}
	}
	const changed = new Set();
	const formerLine = new Map();
	let i = 0;
	let j = 0;
	while (j < b.length) {
		if (i < a.length && a[i] === b[j]) {
			formerLine.set(j + 1, i + 1);
			i++;
			j++;
		} else if (i < a.length && common[i + 1][j] >= common[i][j + 1]) {
			i++;
		} else {
			changed.add(j + 1);
			j++;
		}
	}
	return { changed, formerLine };
}

// Several mutants can share a start, a mutator and a replacement (`a && b` → `true`, and `a` → `true`
// inside it): their ends tell them apart.
const sameMutant = (mutant, line, other) =>
	other.location.start.line === line &&
	other.location.start.column === mutant.location.start.column &&
	other.location.end.line - other.location.start.line === mutant.location.end.line - mutant.location.start.line &&
	other.location.end.column === mutant.location.end.column &&
	other.mutatorName === mutant.mutatorName &&
	(other.replacement ?? '') === (mutant.replacement ?? '');


const changed = [];
for (const [file, { source, mutants }] of Object.entries(report.files)) {
	const before = baseline.files[file];
	const lines = before === undefined ? undefined : matchLines(before.source, source);
	for (const mutant of mutants) {
		const { start, end } = mutant.location;
		let touched = lines === undefined;
		for (let line = start.line; !touched && line <= end.line; line++) touched = lines.changed.has(line);
		if (touched) {
			changed.push({ file, ...mutant });
			continue;
		}
		const formerLine = lines.formerLine.get(start.line);
		const former = before.mutants.find((other) => sameMutant(mutant, formerLine, other));
		if (former && DETECTED.has(former.status) && UNDETECTED.has(mutant.status)) changed.push({ file, ...mutant, detectedInBaseline: true });
	}
}

const { detected, scored, percent: score } = mutationScore(changed);
if (score === null) {
	console.log(`Mutation score of the changed code: no mutant on a line changed since ${baselinePath}, none detected there and not now.`);
	process.exit(0);
}
console.log(`Mutation score of the changed code: ${score.toFixed(2)} % (${detected} of ${scored} mutants detected; threshold ${threshold} %).`);
for (const mutant of changed.filter((m) => UNDETECTED.has(m.status))) {
	const why = mutant.detectedInBaseline ? ' (detected in the baseline: a test that killed it changed or is gone)' : '';
	console.log(`  ${mutant.status}: ${mutant.file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} → ${JSON.stringify(mutant.replacement ?? '')}${why}`);
}
if (score < threshold) {
	console.log('Kill each survivor with a test of what a user sees, or list it in docs/testing.md as equivalent with its reason.');
	process.exit(1);
}
