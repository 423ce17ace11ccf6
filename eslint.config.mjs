import { config } from '@n8n/node-cli/eslint';

// n8n's community-node lint, for what ships: nodes/, credentials/ and package.json.
// test/ and the build files run on Node only and are not part of the package.
export default [
	...config,
	{ ignores: ['dist/**', 'test/**', 'examples/**', 'docs/**', 'gulpfile.js', 'jest.config.js', 'eslint.config.mjs'] },
];
