// The committed mutation baseline (test/mutation/baseline.json): a StrykerJS incremental report cut
// down to what StrykerJS 9.6's incremental mode and changed-score.mjs read, and nothing else (no
// failure messages, which quote sandbox paths, no timings, no mutant ids). What each field is for,
// in @stryker-mutator/core's dist/src/mutants/incremental-differ.js:
// - files[f].source: diffed against today's file; a mutant on changed code runs again
//   (`performFileDiff`);
// - a mutant's location, mutatorName and replacement: how it is matched to today's mutants
//   (`mutantToIdentifyingKey`), and by changed-score.mjs;
// - its status: reused as it is (`mutantCanBeReused`), and read by changed-score.mjs;
// - killedBy, for a Killed mutant: it runs again unless one of its killing tests is unchanged and
//   still covers it; the tests that only covered it are not read (`mutantCanBeReused` looks at the
//   killing tests alone, and `collectOldKilledAndCoverageMatrix` adds them to its coverage anyway);
// - coveredBy, for any other status: it runs again when a test covers it that did not before
//   (killedBy folded in, as `collectOldKilledAndCoverageMatrix` folds it);
// - testFiles[f].source and each test's id, name and location: a test whose name, place or body
//   changed is a new test (`collectReusableTestInfo`, `closeLocations`, `testToIdentifyingKey`), so
//   the mutants it killed run again: that is what finds a weakened test.
// Ignored mutants are left out: StrykerJS marks them itself in every run and never reuses them.
import { writeFileSync } from 'node:fs';

export const BASELINE = 'test/mutation/baseline.json';

const location = ({ start, end }) => ({ start: { line: start.line, column: start.column }, end: { line: end.line, column: end.column } });

/** A mutant as the baseline keeps it, or undefined for one it leaves out. */
function slimMutant(mutant) {
	if (mutant.status === 'Ignored') return undefined;
	const kept = { location: location(mutant.location), mutatorName: mutant.mutatorName, replacement: mutant.replacement, status: mutant.status };
	if (mutant.status === 'Killed') {
		kept.killedBy = mutant.killedBy ?? [];
	} else {
		const covering = [...new Set([...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])])];
		if (covering.length) kept.coveredBy = covering;
	}
	return kept;
}

/** A test as the baseline keeps it. */
const slimTest = ({ id, name, location: at }) => ({ id, name, ...(at ? { location: at } : {}) });

/** The baseline of a StrykerJS report (a run's incremental file, or full-run.mjs's merge of the parts'). */
export function slimBaseline(report) {
	const files = {};
	for (const [file, { source, mutants }] of Object.entries(report.files)) {
		files[file] = { source, mutants: mutants.map(slimMutant).filter(Boolean) };
	}
	const testFiles = {};
	for (const [file, { source, tests }] of Object.entries(report.testFiles ?? {})) {
		testFiles[file] = { source, tests: tests.map(slimTest) };
	}
	return { files, testFiles };
}

/** Writes a slim baseline as JSON with one line per mutant and per test, so that a diff of it reads as the mutants that changed. */
export function writeBaseline(baseline, path = BASELINE) {
	const entries = (object, write) => Object.entries(object).map(([key, value]) => `${JSON.stringify(key)}: ${write(value)}`).join(',\n');
	const list = (items) => (items.length ? `[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]` : '[]');
	const files = entries(baseline.files, ({ source, mutants }) => `{"source": ${JSON.stringify(source)}, "mutants": ${list(mutants)}}`);
	const testFiles = entries(baseline.testFiles, ({ source, tests }) => `{"source": ${JSON.stringify(source)}, "tests": ${list(tests)}}`);
	writeFileSync(path, `{"files": {\n${files}\n},\n"testFiles": {\n${testFiles}\n}}\n`);
}
