// Mutation testing of the node (`npm run test:mutation`): StrykerJS changes the node's code one
// mutant at a time and runs the unit and integration suites (jest, not the e2e) against each;
// a mutant no test notices "survives". Scores, equivalent mutants and exclusions: docs/testing.md.
// StrykerJS 9 (10 needs Node 22; this project develops and runs CI on Node 20).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: { projectType: 'custom', configFile: 'test/mutation/jest.config.js', enableFindRelatedTests: false },
	coverageAnalysis: 'perTest',
	checkers: [],
	mutate: ['nodes/**/*.ts', 'credentials/**/*.ts', '!nodes/**/*.description.ts'],
	ignorePatterns: ['dist', 'reports', 'test/mutation/baseline.json', 'demo-output', 'test-output', '.tmp', '*.tgz'],
	tempDirName: '.stryker-tmp',
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	// `npm run test:mutation:changed` starts from a copy of the committed baseline
	// (test/mutation/baseline.json, which the full run, test/mutation/full-run.mjs, writes) and runs
	// only the mutants of code and tests changed since.
	incrementalFile: 'reports/mutation/incremental.json',
	thresholds: { high: 95, low: 90, break: 90 },
	timeoutMS: 10000,
	// the dry run (the whole suite with coverage) takes 3–4.5 min on 2 idle cores; a busy machine must not fail it
	dryRunTimeoutMinutes: 15,
	// Three runners on two cores: tests wait on sockets, simulated latency and back-off sleeps.
	concurrency: 3,
};
