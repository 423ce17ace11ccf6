// The verification gate: n8n's community-node lint over the sources, then the verification
// scanner's analyzePackage over the sources and over the unpacked `npm pack` tarball.
// Exits non-zero on any error.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import { SOURCE_FILE_PATTERNS, analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let failures = 0;

async function step(name, run) {
	const problem = await run();
	if (problem) {
		failures++;
		console.log(`✗ ${name}\n${problem}`);
	} else {
		console.log(`✓ ${name}`);
	}
}

await step('n8n community-node lint (@n8n/node-cli/eslint) over nodes/, credentials/, package.json', async () => {
	const eslint = new ESLint({ cwd: root });
	const results = await eslint.lintFiles(['nodes', 'credentials', 'package.json']);
	const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
	const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
	const text = await (await eslint.loadFormatter('stylish')).format(results);
	if (warnings) console.log(text);
	return errors ? text : undefined;
});

await step('verification scanner (analyzePackage) over the sources', async () => {
	const result = await analyzePackage(root, SOURCE_FILE_PATTERNS);
	return result.passed ? undefined : `${result.message}\n${result.details ?? ''}`;
});

const workDir = mkdtempSync(join(tmpdir(), 'image-inference-pack-'));
try {
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
	const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: root }).toString());
	const tarball = join(workDir, packed[0].filename);
	execFileSync('tar', ['-xzf', tarball, '-C', workDir]);
	const unpacked = join(workDir, 'package');

	await step('tarball holds dist/ only (plus package.json, README, LICENSE) and no runtime dependencies', () => {
		const files = packed[0].files.map((file) => file.path);
		const stray = files.filter((path) => !/^(dist\/|package\.json$|README\.md$|LICENSE(\.md)?$)/.test(path));
		const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
		const deps = Object.keys(manifest.dependencies ?? {});
		const problems = [];
		if (stray.length) problems.push(`files outside dist/: ${stray.join(', ')}`);
		if (deps.length) problems.push(`runtime dependencies: ${deps.join(', ')}`);
		if (manifest.overrides) problems.push('package.json carries overrides');
		for (const path of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			if (!files.includes(path)) problems.push(`n8n section points at ${path}, not in the tarball`);
		}
		console.log(`  ${files.length} files, ${(packed[0].size / 1024).toFixed(1)} KiB packed`);
		return problems.length ? problems.join('\n') : undefined;
	});

	await step('verification scanner (analyzePackage) over the unpacked tarball', async () => {
		const result = await analyzePackage(unpacked);
		return result.passed ? undefined : `${result.message}\n${result.details ?? ''}`;
	});
} finally {
	rmSync(workDir, { recursive: true, force: true });
}

console.log(failures ? `lint gate: ${failures} step(s) with errors` : 'lint gate: 0 errors');
process.exit(failures ? 1 : 0);
