// The package as npm publishes it: build and `npm pack`, or take a packed tarball, unpack it, and
// check it the way n8n's verification does. Used by the lint gate (test/lint/gate.mjs) and by
// `npm run release:check` (scripts/release-check.mjs), so both judge the same tarball the same way.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

/** What may be in the tarball: the built code and the three files npm always includes. */
export const ALLOWED_IN_TARBALL = /^(dist\/|package\.json$|README\.md$|LICENSE(\.md)?$)/;

/** `npm run build`, then `npm pack` into `destination`; returns the tarball's path. */
export function buildAndPack(root, destination) {
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: root }).toString();
	const [{ filename }] = JSON.parse(out.slice(out.indexOf('[')));
	return join(destination, basename(filename));
}

/**
 * Unpacks a tarball into a temp folder: its file list (paths inside the package), its package.json,
 * the folder and a dispose().
 */
export function openTarball(tarball) {
	const dir = mkdtempSync(join(tmpdir(), 'image-inference-tarball-'));
	execFileSync('tar', ['-xzf', tarball, '-C', dir]);
	const files = execFileSync('tar', ['-tzf', tarball])
		.toString()
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''));
	const unpacked = join(dir, 'package');
	const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
	return { files, manifest, unpacked, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What is wrong with the tarball's contents: stray files, runtime dependencies, overrides, missing entry points. */
export function contentProblems({ files, manifest }) {
	const problems = [];
	const stray = files.filter((path) => !ALLOWED_IN_TARBALL.test(path));
	if (stray.length) problems.push(`files outside dist/: ${stray.join(', ')}`);
	const deps = Object.keys(manifest.dependencies ?? {});
	if (deps.length) problems.push(`runtime dependencies: ${deps.join(', ')}`);
	if (manifest.overrides) problems.push('package.json carries overrides');
	for (const path of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])]) {
		if (!files.includes(path)) problems.push(`the n8n section points at ${path}, which is not in the tarball`);
	}
	return problems;
}

/** n8n's verification scanner over a folder; undefined when it passes, else what it found. */
export async function scanProblems(dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	return result.passed ? undefined : `${result.message}\n${result.details ?? ''}`;
}
