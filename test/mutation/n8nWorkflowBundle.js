// n8n-workflow bundled into one file, for mutation runs only (test/mutation/jest.config.js maps
// the package to it). Jest loads a test file's modules anew for every file of every mutant's
// run, and n8n-workflow's some 700 modules took 1.7 s of each load on a busy machine, about
// 1 s as one file. The same code: only its module boundaries are gone; zod stays the project's
// own package, as in n8n, where the node and n8n-workflow share one copy.
const fs = require('node:fs');
const path = require('node:path');

function n8nWorkflowBundle(rootDir) {
	const entry = require.resolve('n8n-workflow', { paths: [rootDir] });
	const { version } = JSON.parse(fs.readFileSync(require.resolve('n8n-workflow/package.json', { paths: [rootDir] }), 'utf8'));
	const bundle = path.join(rootDir, 'node_modules', '.cache', 'image-inference-mutation', `n8n-workflow-${version}.js`);
	if (fs.existsSync(bundle)) return bundle;
	fs.mkdirSync(path.dirname(bundle), { recursive: true });
	// StrykerJS's runners load the jest config at once: each writes its own file, the rename is atomic
	const written = `${bundle}.${process.pid}.tmp`;
	require('esbuild').buildSync({
		entryPoints: [entry],
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		external: ['zod'],
		outfile: written,
		logLevel: 'error',
	});
	fs.renameSync(written, bundle);
	return bundle;
}

module.exports = { n8nWorkflowBundle };
