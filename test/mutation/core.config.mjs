// The core mutation run (`npm run test:mutation:core`): the contract, the filters and counts, the
// request body, retry, error mapping and the concurrency pool, against the test files that guard
// them, with no baseline; fails under 90 % (stryker.config.mjs `thresholds.break`). Minutes, where
// the full run (`npm run test:mutation`) takes much longer; docs/testing.md has both.
import base from '../../stryker.config.mjs';

export const CORE_CODE = [
	'nodes/ImageInference/contract.ts',
	'nodes/ImageInference/helpers/detections.ts',
	'nodes/ImageInference/helpers/pool.ts',
	'nodes/ImageInference/transport/body.ts',
	'nodes/ImageInference/transport/errors.ts',
	'nodes/ImageInference/transport/retry.ts',
];

export const CORE_TESTS = [
	'test/unit/body.test.ts',
	'test/unit/detections.test.ts',
	'test/unit/errors.test.ts',
	'test/unit/pool.test.ts',
	'test/unit/retry.test.ts',
	'test/node/classify.test.ts',
	'test/node/credential.test.ts',
	'test/node/detect.test.ts',
	'test/node/http-errors.test.ts',
	'test/node/inputs.test.ts',
	'test/node/model-id.test.ts',
	'test/node/service-shapes.test.ts',
	'test/reference-server/server.test.ts',
];

export default {
	...base,
	mutate: CORE_CODE,
	jest: { ...base.jest, config: { testMatch: CORE_TESTS.map((path) => `<rootDir>/${path}`) } },
	incremental: false,
	htmlReporter: { fileName: 'reports/mutation/core.html' },
	jsonReporter: { fileName: 'reports/mutation/core.json' },
};
