/**
 * End-to-end tests in real n8n (installed outside the clone by install-n8n.sh).
 *   npm run test:e2e                        n8n 2.41.1 and 1.123.81 (each installed once, cached;
 *                                           1.x is skipped, with the reason, if it cannot be installed)
 *   N8N_E2E_VERSIONS=2.41.1 npm run test:e2e   2.x only (any comma list of versions works)
 *   N8N_E2E_KEEP=1                          keep the temp n8n user folders (logs, DB) for a look
 */
const path = require('path');

module.exports = {
	rootDir: path.resolve(__dirname, '..', '..'),
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': 'ts-jest' },
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	testTimeout: 300_000,
	slowTestThreshold: 60,
};
