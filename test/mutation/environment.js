// Jest's node environment with two additions for mutation runs (StrykerJS wraps it with its own
// coverage mixin, @stryker-mutator/jest-runner's mixin-jest-environment.cjs):
// - in the dry run, it records which mutants each test file reaches, counting what its module
//   loading and hooks run as well as its tests (StrykerJS's "static" mutants);
// - in a mutant's run, the first failing test kills the mutant, so every later test of that run
//   is skipped (StrykerJS's jest runner turns jest's own `bail` off). A test skipped on
//   `test_start` never runs: jest-circus checks `test.mode` after dispatching that event
//   (jest-circus/build/run.js, `_runTest`); a describe block whose tests are all skipped runs
//   no hooks (jest-circus/build/utils.js, `getAllHooksForDescribe`), so no servers start.
// - in the dry run, some test files count only for their own code's mutants (SCOPED_TESTS): the
//   Image Inference Trigger's tests for the trigger, the node tests of the node's own pictures for
//   the drawing code. Each runs the node's whole path, so counting them for every mutant would make
//   every survivor elsewhere run them again; a mutant only they reach counts as not covered
//   (docs/testing.md, "What a mutant costs").
const fs = require('node:fs');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

const { activeMutant, coveringTests, hitCounts, record, testsSeen } = require('./fileCoverage');

const SRC = 'nodes/ImageInference';
/** Test files that count only for the mutants of some sources (a folder takes in every file under it). */
const SCOPED_TESTS = [
	// the trigger's tests: the node, and its camera credential
	{ tests: /[\\/]test[\\/](node[\\/]trigger[^\\/]*|unit[\\/]camera-[^\\/]*)\.test\.ts$/, sources: ['nodes/ImageInferenceTrigger', 'credentials/ImageInferenceCameraApi.credentials.ts'] },
	// the node tests of the node's own pictures (drawn, blurred, cropped; the blurred upload): the picture code and
	// what reads its settings and hands on its files
	{
		tests: /[\\/]test[\\/]node[\\/](drawn-picture|upload-blur)\.test\.ts$/,
		sources: [`${SRC}/picture`, `${SRC}/output/drawnImage.ts`, `${SRC}/actions/upload/blurredUpload.ts`, `${SRC}/actions/detect/detect.operation.ts`, `${SRC}/actions/upload/upload.operation.ts`],
	},
];

const mutantIds = new Map();
/** The ids of the mutants in some sources, read from the instrumented sources in the sandbox (`stryMutAct_…("id")`, `stryCov_…("id", …)`). */
function mutantIdsOf(rootDir, sources) {
	if (mutantIds.has(sources)) return mutantIds.get(sources);
	const ids = new Set();
	const read = (file) => {
		const stat = fs.statSync(file, { throwIfNoEntry: false });
		if (!stat) return;
		if (stat.isDirectory()) return fs.readdirSync(file).forEach((name) => read(path.join(file, name)));
		if (!file.endsWith('.ts')) return;
		for (const [, list] of fs.readFileSync(file, 'utf8').matchAll(/stry(?:MutAct|Cov)_[0-9a-f]+\(([^)]*)\)/g)) {
			for (const [, id] of list.matchAll(/"(\d+)"/g)) ids.add(id);
		}
	};
	for (const source of sources) read(path.join(rootDir, source));
	mutantIds.set(sources, ids);
	return ids;
}

/** A scoped test file's coverage of other mutants than its sources', taken out of what StrykerJS reads; the ids it keeps. */
function keepOwnCoverageOnly(context, rootDir, tests, sources) {
	const own = mutantIdsOf(rootDir, sources);
	for (const test of tests) {
		const hits = context.mutantCoverage.perTest[test];
		for (const id of Object.keys(hits ?? {})) if (!own.has(id)) delete hits[id];
	}
	return own;
}

const killed = new Set();
/** The test files that killed this process's last mutants, newest last (the sequencer favours them). */
const recentKillers = [];
const RECENT = 20;

function skipAll(block) {
	for (const child of block.children) {
		if (child.type === 'describeBlock') skipAll(child);
		else child.mode = 'skip';
	}
}

class MutationEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.rootDir = config.projectConfig.rootDir;
		this.testPath = context.testPath;
	}

	/** StrykerJS's shared state in the tests' global scope, absent when jest runs without it. */
	strykerContext() {
		const namespace = this.global.__strykerGlobalNamespace__;
		return namespace === undefined ? undefined : this.global[namespace];
	}

	async setup() {
		await super.setup();
		if (activeMutant() === undefined && this.strykerContext()) {
			this.before = hitCounts(this.strykerContext());
			this.testsBefore = testsSeen(this.strykerContext());
			this.startedAt = Date.now();
		}
	}

	async teardown() {
		if (this.before) {
			const reached = [...hitCounts(this.strykerContext())]
				.filter(([id, n]) => n > (this.before.get(id) ?? 0))
				.map(([id]) => id);
			const ownTests = [...testsSeen(this.strykerContext())].filter((test) => !this.testsBefore.has(test));
			const scope = SCOPED_TESTS.find(({ tests }) => tests.test(this.testPath));
			const own = scope ? keepOwnCoverageOnly(this.strykerContext(), this.rootDir, ownTests, scope.sources) : undefined;
			const counted = own ? reached.filter((id) => own.has(id)) : reached;
			record(this.rootDir, this.testPath, counted, coveringTests(this.strykerContext(), ownTests), Date.now() - this.startedAt);
		}
		await super.teardown();
	}

	async handleTestEvent(event, state) {
		const mutant = activeMutant();
		if (mutant === undefined) return;
		if (event.name === 'run_start' && killed.has(mutant)) skipAll(state.rootDescribeBlock);
		if (event.name === 'test_start' && killed.has(mutant)) event.test.mode = 'skip';
		if (event.name === 'test_done' && event.test.errors.length > 0) {
			killed.add(mutant);
			recentKillers.push(this.testPath);
			if (recentKillers.length > RECENT) recentKillers.shift();
			skipAll(state.rootDescribeBlock);
		}
	}
}

MutationEnvironment.isKilled = (mutant) => killed.has(mutant);
MutationEnvironment.recentKills = (testPath) => recentKillers.filter((path) => path === testPath).length;

module.exports = MutationEnvironment;
