// `npm run release:check`: whether this package can be released as it stands. One line per check:
//   version     package.json's version is semver; on a tag (GitHub Actions), the tag is v<version>
//   changelog   CHANGELOG.md's newest release entry is that version, dated, and says something
//   repository  package.json names the GitHub repository that publishes it (npm compares it with
//               the provenance statement; n8n's verification fetches the source from it); a
//               missing or placeholder URL is refused
//   tarball     only dist/, package.json, README.md, LICENSE; no runtime dependencies or overrides
//   scanner     n8n's verification scanner over the unpacked tarball
// usage: node scripts/release-check.mjs [--tarball file.tgz] [--root dir]
//   without --tarball it builds and packs the package itself. Exits 1 when any check fails.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { buildAndPack, contentProblems, openTarball, scanProblems } from './tarball.mjs';

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const GITHUB_URL = /^(?:git\+)?https:\/\/github\.com\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/;
const PLACEHOLDER = /^(your[-_]|owner$|example|placeholder|todo|xxx|changeme)/i;
const HOW = 'set "repository" in package.json to the GitHub repository that publishes this package (docs/development.md, Releasing)';

const { values: args } = parseArgs({ options: { tarball: { type: 'string' }, root: { type: 'string' } } });
const root = resolve(args.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const env = process.env;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let failures = 0;

async function check(name, run) {
	let problem;
	try {
		problem = await run();
	} catch (error) {
		problem = error instanceof Error ? error.message : String(error);
	}
	if (typeof problem === 'string' && problem.startsWith('ok: ')) {
		console.log(`✓ ${name}: ${problem.slice(4)}`);
	} else if (problem) {
		failures++;
		console.log(`✗ ${name}: ${problem}`);
	} else {
		console.log(`✓ ${name}`);
	}
}

await check('version', () => {
	const { version } = manifest;
	if (typeof version !== 'string' || !SEMVER.test(version)) return `package.json's version ${JSON.stringify(version)} is not semver (x.y.z)`;
	if (env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME !== `v${version}`) {
		return `the tag ${env.GITHUB_REF_NAME} does not match package.json's version ${version}: tag v${version}`;
	}
	return `ok: ${version}${env.GITHUB_REF_TYPE === 'tag' ? `, tag ${env.GITHUB_REF_NAME}` : ''}`;
});

await check('changelog', () => {
	const file = join(root, 'CHANGELOG.md');
	if (!existsSync(file)) return 'CHANGELOG.md is missing';
	const text = readFileSync(file, 'utf8');
	const entries = [...text.matchAll(/^## \[([^\]]+)\](.*)$/gm)].filter((entry) => entry[1].toLowerCase() !== 'unreleased');
	if (entries.length === 0) return 'CHANGELOG.md has no release entry ("## [x.y.z] - YYYY-MM-DD")';
	const [heading, version, rest] = entries[0];
	if (version !== manifest.version) return `the newest entry in CHANGELOG.md is ${version}, package.json says ${manifest.version}`;
	if (!/^ - \d{4}-\d{2}-\d{2}\s*$/.test(rest)) return `"${heading.trim()}" has no date: "## [${version}] - YYYY-MM-DD"`;
	const start = entries[0].index + heading.length;
	const next = text.slice(start).search(/^## \[/m);
	const body = next === -1 ? text.slice(start) : text.slice(start, start + next);
	if (!/^- \S/m.test(body)) return `the ${version} entry lists no change`;
	return `ok: ${heading.slice(3).trim()}`;
});

await check('repository', () => {
	const field = manifest.repository;
	const url = typeof field === 'string' ? field : field?.url;
	if (!url) return `package.json has no "repository": ${HOW}`;
	const match = GITHUB_URL.exec(url);
	if (!match) return `package.json's "repository" ${url} is not a https://github.com/OWNER/REPO address: ${HOW}`;
	const [, owner, repo] = match;
	if (PLACEHOLDER.test(owner) || PLACEHOLDER.test(repo)) return `package.json's "repository" is the placeholder ${url}: ${HOW}`;
	if (env.GITHUB_REPOSITORY && env.GITHUB_REPOSITORY.toLowerCase() !== `${owner}/${repo}`.toLowerCase()) {
		return `package.json's "repository" names ${owner}/${repo}, but this runs in ${env.GITHUB_REPOSITORY}: npm refuses provenance from another repository; ${HOW}`;
	}
	return `ok: github.com/${owner}/${repo}`;
});

const workDir = mkdtempSync(join(tmpdir(), 'image-inference-release-'));
try {
	let packed;
	await check('tarball', () => {
		const tarball = args.tarball ? resolve(args.tarball) : buildAndPack(root, workDir);
		packed = openTarball(tarball);
		if (packed.manifest.name !== manifest.name || packed.manifest.version !== manifest.version) {
			return `${tarball} holds ${packed.manifest.name}@${packed.manifest.version}, not ${manifest.name}@${manifest.version}`;
		}
		const problems = contentProblems(packed);
		return problems.length ? problems.join('; ') : `ok: ${packed.files.length} files, only dist/, package.json, README.md, LICENSE`;
	});
	if (packed) {
		await check('scanner', async () => {
			const problem = await scanProblems(packed.unpacked);
			return problem ? `n8n's verification scanner refuses the tarball: ${problem.replace(/\s+/g, ' ').trim()}` : 'ok: n8n verification scanner over the unpacked tarball';
		});
		packed.dispose();
	}
} finally {
	rmSync(workDir, { recursive: true, force: true });
}

console.log(failures ? `release check: ${failures} problem(s); not releasable` : `release check: ${manifest.name}@${manifest.version} can be released`);
process.exit(failures ? 1 : 0);
