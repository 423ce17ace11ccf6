// A focused mutation run, for the write-a-test-kill-a-mutant loop: the files in MUTATE, against
// only the test files in MUTATION_TESTS (both comma-separated). Fast (minutes), but a mutant that
// survives here may be killed by a suite left out: the score that counts is the full run's.
//   MUTATE=nodes/ImageInference/transport/errors.ts MUTATION_TESTS=test/unit/errors.test.ts \
//     npx stryker run test/mutation/focused.config.mjs
import base from '../../stryker.config.mjs';

const list = (name) => (process.env[name] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
const mutate = list('MUTATE');
const tests = list('MUTATION_TESTS');
if (!mutate.length || !tests.length) throw new Error('Set MUTATE and MUTATION_TESTS (comma-separated paths)');

export default {
	...base,
	mutate,
	jest: { ...base.jest, config: { testMatch: tests.map((path) => `<rootDir>/${path}`) } },
	thresholds: { ...base.thresholds, break: null },
	incremental: false,
	htmlReporter: { fileName: 'reports/mutation/focused.html' },
	jsonReporter: { fileName: 'reports/mutation/focused.json' },
};
