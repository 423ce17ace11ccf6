// The jest settings StrykerJS runs each mutant with: the project's own (jest.config.js), plus
// what makes a mutant cost the tests that can notice it and no more (docs/testing.md, "What a
// mutant costs"):
// - TypeScript transpiled, not type-checked (ts-jest's type checker takes about 3 s to start in
//   every jest run, i.e. every mutant; `tsc` in the lint gate checks the types);
// - n8n-workflow as one bundled file (n8nWorkflowBundle.js);
// - an environment that records which test files reach which mutants, and stops a mutant's run
//   at its first failing test (environment.js);
// - a sequencer that hands jest only the test files that reach the active mutant, likeliest to
//   kill it soonest first (sequencer.js), and a runner that runs no further file once the mutant
//   is killed (runner.js).
const path = require('node:path');

const base = require('../../jest.config.js');
const { n8nWorkflowBundle } = require('./n8nWorkflowBundle');

const rootDir = path.join(__dirname, '..', '..');

module.exports = {
	...base,
	rootDir,
	preset: undefined,
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.json') }] },
	moduleNameMapper: { '^n8n-workflow$': n8nWorkflowBundle(rootDir) },
	testEnvironment: path.join(__dirname, 'environment.js'),
	testSequencer: path.join(__dirname, 'sequencer.js'),
	runner: path.join(__dirname, 'runner.js'),
};
