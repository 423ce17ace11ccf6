import { config } from '@n8n/node-cli/eslint';

// n8n's community-node lint, for what ships: nodes/, credentials/ and package.json.
// test/ and the build files run on Node only and are not part of the package.
export default [
	...config,
	{ ignores: ['dist/**', 'test/**', 'examples/**', 'docs/**', 'gulpfile.js', 'jest.config.js', 'eslint.config.mjs'] },
	// The node's layers: actions/ use helpers/ and transport/, never the other way round.
	{
		files: ['nodes/*/helpers/**/*.ts', 'nodes/*/transport/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { patterns: [{ group: ['../actions', '../actions/*'], message: 'helpers/ and transport/ must not import from actions/ (the layers run one way).' }] }],
		},
	},
];
