// Hands jest only the test files that reached the active mutant in the dry run (environment.js
// records them). StrykerJS's jest runner otherwise loads every test file for every mutant and
// filters tests by name, so each mutant would pay for all the files' imports and module-level
// setup (about 1 s a file: n8n-workflow alone is some 700 modules). Since the first failing test ends a
// mutant's run (environment.js, runner.js), the files go in the order of their expected cost to a
// kill: their time in the dry run, divided by one plus how many of their tests reach the mutant
// and by one plus how many of the last 20 mutants they killed (StrykerJS tests a source file's
// mutants one after another, and neighbours fall to the same tests; a slow file that kills often
// still waits behind a quick one that might).
// With no record, or no file for a mutant, every file runs, as StrykerJS would.
const Sequencer = require('@jest/test-sequencer').default;

const { recentKills } = require('./environment');
const { activeMutant, load } = require('./fileCoverage');

class MutantSequencer extends Sequencer {
	sort(tests) {
		const mutant = activeMutant();
		const map = mutant === undefined || tests.length === 0 ? undefined : load(tests[0].context.config.rootDir);
		if (!map) return super.sort(tests);
		const reaching = tests.filter((test) => map.get(test.path)?.reached.has(mutant));
		const chosen = reaching.length > 0 ? reaching : tests;
		const cost = (test) => {
			const file = map.get(test.path);
			return (file?.ms ?? Infinity) / (1 + (file?.covering?.[mutant] ?? 0)) / (1 + recentKills(test.path));
		};
		return [...chosen].sort((a, b) => cost(a) - cost(b));
	}
}

module.exports = MutantSequencer;
