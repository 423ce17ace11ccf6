import { config } from '@n8n/node-cli/eslint';

// n8n's community-node lint, for what ships: nodes/, credentials/ and package.json.
// test/ and the build files run on Node only and are not part of the package.
const ACTIONS = { group: ['../actions', '../actions/*'], message: 'helpers/ and transport/ must not import from actions/ (the layers run one way).' };
const HELPERS = { group: ['../helpers', '../helpers/*'], message: 'transport/ must not import from helpers/ (the layers run one way): move what both need into transport/ or contract.ts.' };

export default [
	...config,
	{ ignores: ['dist/**', 'test/**', 'examples/**', 'docs/**', 'gulpfile.js', 'jest.config.js', 'eslint.config.mjs'] },
	// The node's layers run one way: actions/ use helpers/ and transport/, helpers/ use transport/,
	// transport/ uses neither (only contract.ts and n8n-workflow).
	{
		files: ['nodes/*/helpers/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { patterns: [ACTIONS] }],
		},
	},
	{
		files: ['nodes/*/transport/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { patterns: [ACTIONS, HELPERS] }],
		},
	},
];
