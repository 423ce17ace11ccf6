// The verification gate: n8n's community-node lint over the sources, the verification scanner's
// analyzePackage over the sources and over the unpacked `npm pack` tarball, and the GitHub Actions
// workflows (.github/workflows) against GitHub's workflow schema (@action-validator/cli).
// Exits non-zero on any error.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import { SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

import { buildAndPack, contentProblems, openTarball, scanProblems } from '../../scripts/tarball.mjs';

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

await step('verification scanner (analyzePackage) over the sources', () => scanProblems(root, SOURCE_FILE_PATTERNS));

await step('GitHub Actions workflows (.github/workflows) valid against the workflow schema (@action-validator/cli)', () => {
	const cli = createRequire(import.meta.url).resolve('@action-validator/cli/cli.mjs');
	const dir = join(root, '.github', 'workflows');
	const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
	if (files.length === 0) return `no workflow in ${dir}`;
	const problems = [];
	for (const name of files) {
		try {
			execFileSync(process.execPath, [cli, join(dir, name)], { stdio: ['ignore', 'pipe', 'pipe'] });
		} catch (error) {
			problems.push(`${name}: ${(error.stderr ?? error.stdout ?? '').toString().trim() || error.message}`);
		}
	}
	console.log(`  ${files.join(', ')}`);
	return problems.length ? problems.join('\n') : undefined;
});

const workDir = mkdtempSync(join(tmpdir(), 'image-inference-pack-'));
try {
	const tarball = buildAndPack(root, workDir);
	const packed = openTarball(tarball);
	try {
		await step('tarball holds dist/ only (plus package.json, README, LICENSE) and no runtime dependencies', () => {
			const problems = contentProblems(packed);
			console.log(`  ${packed.files.length} files`);
			return problems.length ? problems.join('\n') : undefined;
		});
		await step('verification scanner (analyzePackage) over the unpacked tarball', () => scanProblems(packed.unpacked));
	} finally {
		packed.dispose();
	}
} finally {
	rmSync(workDir, { recursive: true, force: true });
}

console.log(failures ? `lint gate: ${failures} step(s) with errors` : 'lint gate: 0 errors');
process.exit(failures ? 1 : 0);
