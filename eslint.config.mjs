import { config } from '@n8n/node-cli/eslint';

// n8n's community-node lint, for what ships: nodes/, credentials/ and package.json.
// test/ and the build files run on Node only and are not part of the package.

// The node's folders, each allowed to import only those below it (docs/development.md, Layout);
// pipeline/ and input/ stand side by side and import neither each other.
const LAYERS = 'actions → output → picture → pipeline, input → parameters → transport → contract.ts, projectContract.ts';
const ABOVE = {
	output: ['actions'],
	picture: ['actions', 'output'],
	pipeline: ['actions', 'output', 'picture', 'input'],
	input: ['actions', 'output', 'picture', 'pipeline'],
	parameters: ['actions', 'output', 'picture', 'pipeline', 'input'],
	transport: ['actions', 'output', 'picture', 'pipeline', 'input', 'parameters'],
};
const upwards = (folder) =>
	ABOVE[folder].map((above) => ({
		group: [`../${above}`, `../${above}/*`, `../../${above}`, `../../${above}/*`],
		message: `${folder}/ must not import from ${above}/: the node's folders import only downwards (${LAYERS}).`,
	}));

export default [
	...config,
	{ ignores: ['dist/**', 'test/**', 'examples/**', 'docs/**', 'gulpfile.js', 'jest.config.js', 'eslint.config.mjs'] },
	...Object.keys(ABOVE).map((folder) => ({
		files: [`nodes/*/${folder}/**/*.ts`],
		rules: { 'no-restricted-imports': ['error', { patterns: upwards(folder) }] },
	})),
];
