// Hands jest only the test files that reached the active mutant in the dry run (environment.js
// records them). StrykerJS's jest runner otherwise loads every test file for every mutant and
// filters tests by name, so each mutant paid for all the files' imports and module-level setup
// (about 1 s a file: n8n-workflow alone is some 700 modules). Since the first failing test ends a
// mutant's run (environment.js, runner.js), the file that killed a mutant most recently goes
// first (StrykerJS tests a file's mutants one after another, and neighbours fall to the same
// tests), then the quickest.
// With no record, or no file for a mutant, every file runs, as StrykerJS would.
const Sequencer = require('@jest/test-sequencer').default;

const { lastKill } = require('./environment');
const { activeMutant, load } = require('./fileCoverage');

class MutantSequencer extends Sequencer {
	sort(tests) {
		const mutant = activeMutant();
		const map = mutant === undefined || tests.length === 0 ? undefined : load(tests[0].context.config.rootDir);
		if (!map) return super.sort(tests);
		const reaching = tests.filter((test) => map.get(test.path)?.reached.has(mutant));
		const chosen = reaching.length > 0 ? reaching : tests;
		const ms = (test) => map.get(test.path)?.ms ?? Infinity;
		return [...chosen].sort((a, b) => lastKill(b.path) - lastKill(a.path) || ms(a) - ms(b));
	}
}

module.exports = MutantSequencer;
