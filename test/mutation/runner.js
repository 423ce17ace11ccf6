// Jest's own runner, one test file at a time (StrykerJS runs jest in band), that runs no further
// file once the active mutant is killed (environment.js): after the first failing test, loading
// the next files' imports would only cost time.
const fs = require('node:fs');

const TestRunner = require('jest-runner').default;

const { activeMutant } = require('./fileCoverage');
const { isKilled } = require('./environment');

class MutantRunner extends TestRunner {
	async runTests(tests, watcher, options) {
		const mutant = activeMutant();
		if (mutant === undefined || !options.serial) return super.runTests(tests, watcher, options);
		const ran = [];
		for (const test of tests) {
			if (isKilled(mutant) || watcher.isInterrupted()) break;
			const started = Date.now();
			await super.runTests([test], watcher, options);
			ran.push(`${test.path.replace(/.*\/test\//, '')} ${Date.now() - started} ms`);
		}
		// MUTATION_TRACE=<file>: where each mutant's time went, a line per mutant
		const trace = process.env.MUTATION_TRACE;
		if (trace) fs.appendFileSync(trace, `${mutant} ${isKilled(mutant) ? 'killed' : 'lived'} of ${tests.length}: ${ran.join(', ')}\n`);
	}
}

module.exports = MutantRunner;
