// Jest's node environment with two additions for mutation runs (StrykerJS wraps it with its own
// coverage mixin, @stryker-mutator/jest-runner's mixin-jest-environment.cjs):
// - in the dry run, it records which mutants each test file reaches, counting what its module
//   loading and hooks run as well as its tests (StrykerJS's "static" mutants);
// - in a mutant's run, the first failing test kills the mutant, so every later test of that run
//   is skipped (StrykerJS's jest runner turns jest's own `bail` off). A test skipped on
//   `test_start` never runs: jest-circus checks `test.mode` after dispatching that event
//   (jest-circus/build/run.js, `_runTest`); a describe block whose tests are all skipped runs
//   no hooks (jest-circus/build/utils.js, `getAllHooksForDescribe`), so no servers start.
// - in the dry run, the Image Inference Trigger's tests count only for the trigger's own mutants:
//   each of its looks runs the whole of Detect, so counting them for Detect's mutants would make
//   every Detect survivor run every trigger test again, for nothing Detect's own tests do not
//   already show (docs/testing.md, "The trigger's tests").
const fs = require('node:fs');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

const { activeMutant, coveringTests, hitCounts, record, testsSeen } = require('./fileCoverage');

/** The trigger's test files, and the trigger's sources (the node, and its camera credential). */
const TRIGGER_TESTS = /[\\/]test[\\/](node[\\/]trigger[^\\/]*|unit[\\/]camera-[^\\/]*)\.test\.ts$/;
const TRIGGER_SOURCES = ['nodes/ImageInferenceTrigger', 'credentials/ImageInferenceCameraApi.credentials.ts'];

let triggerMutants;
/** The ids of the trigger's mutants, read from its instrumented sources in the sandbox (`stryMutAct_…("id")`, `stryCov_…("id", …)`). */
function triggerMutantIds(rootDir) {
	if (triggerMutants) return triggerMutants;
	triggerMutants = new Set();
	const read = (file) => {
		const stat = fs.statSync(file, { throwIfNoEntry: false });
		if (!stat) return;
		if (stat.isDirectory()) return fs.readdirSync(file).forEach((name) => read(path.join(file, name)));
		if (!file.endsWith('.ts')) return;
		for (const [, ids] of fs.readFileSync(file, 'utf8').matchAll(/stry(?:MutAct|Cov)_[0-9a-f]+\(([^)]*)\)/g)) {
			for (const [, id] of ids.matchAll(/"(\d+)"/g)) triggerMutants.add(id);
		}
	};
	for (const source of TRIGGER_SOURCES) read(path.join(rootDir, source));
	return triggerMutants;
}

/** A trigger test's coverage of other mutants than the trigger's, taken out of what StrykerJS reads. */
function keepTriggerCoverageOnly(context, rootDir, tests) {
	const own = triggerMutantIds(rootDir);
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
			const triggerOnly = TRIGGER_TESTS.test(this.testPath) ? keepTriggerCoverageOnly(this.strykerContext(), this.rootDir, ownTests) : undefined;
			const counted = triggerOnly ? reached.filter((id) => triggerOnly.has(id)) : reached;
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
