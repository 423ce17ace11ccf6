// Which test files reach which mutants, as the dry run of a mutation run saw them; shared by
// environment.js (writes) and sequencer.js (reads), which jest loads in the same process.
// The dry run happens in one of StrykerJS's runner processes, the mutants run in all of them,
// so the map goes through a file in the sandbox.
const fs = require('node:fs');
const path = require('node:path');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const mapFile = (rootDir) => path.join(rootDir, '.mutation-file-coverage.json');

/** The mutant this jest run is for, or undefined in the dry run (and outside StrykerJS). */
const activeMutant = () => process.env[ACTIVE_MUTANT];

/** The tests StrykerJS has seen reach a mutant so far (its per-test coverage's keys). */
const testsSeen = (context) => new Set(Object.keys(context?.mutantCoverage?.perTest ?? {}));

/** How many of these tests reach each mutant: `{id: n}`. */
function coveringTests(context, tests) {
	const counts = {};
	for (const test of tests) {
		for (const id of Object.keys(context?.mutantCoverage?.perTest?.[test] ?? {})) counts[id] = (counts[id] ?? 0) + 1;
	}
	return counts;
}

/** Every mutant's hit count so far: `{ static: {id: n}, perTest: {test: {id: n}} }` summed per id. */
function hitCounts(context) {
	const counts = new Map();
	const coverage = context?.mutantCoverage;
	if (!coverage) return counts;
	const add = (hits) => {
		for (const [id, n] of Object.entries(hits ?? {})) counts.set(id, (counts.get(id) ?? 0) + n);
	};
	add(coverage.static);
	for (const hits of Object.values(coverage.perTest ?? {})) add(hits);
	return counts;
}

/** Records a test file's dry run: the mutants it reached, how many of its tests reach each, its time. */
function record(rootDir, testPath, mutantIds, covering, ms) {
	const file = mapFile(rootDir);
	const map = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
	map[testPath] = { mutantIds, covering, ms };
	fs.writeFileSync(file, JSON.stringify(map));
}

let loaded;
/** Test file → the mutant ids it reached (a Set), its tests per mutant and its time, or undefined before a dry run. */
function load(rootDir) {
	if (loaded) return loaded;
	const file = mapFile(rootDir);
	if (!fs.existsSync(file)) return undefined;
	const map = JSON.parse(fs.readFileSync(file, 'utf8'));
	loaded = new Map(Object.entries(map).map(([testPath, { mutantIds, covering, ms }]) => [testPath, { reached: new Set(mutantIds), covering, ms }]));
	return loaded;
}

module.exports = { activeMutant, coveringTests, hitCounts, load, record, testsSeen };
