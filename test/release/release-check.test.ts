/**
 * `npm run release:check` (scripts/release-check.mjs) run as a maintainer or the publish workflow
 * runs it, on a copy of this package's manifest, changelog, README and licence with a small dist/,
 * packed by npm: what it lets through and what it refuses, and how it says so.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const script = join(root, 'scripts', 'release-check.mjs');
const realManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
	version: string;
	n8n: { nodes: string[]; credentials: string[] };
};
const FILLED = 'git+https://github.com/acme-vision/n8n-nodes-image-inference.git';
const PLACEHOLDER = 'git+https://github.com/YOUR-GITHUB-OWNER/n8n-nodes-image-inference.git';

interface Package {
	manifest?: Record<string, unknown>;
	changelog?: string;
	extraFiles?: Record<string, string>;
}

/** A package folder like this one, packed with npm; returns the folder and its tarball. */
function makePackage(dir: string, o: Package = {}): { root: string; tarball: string } {
	const manifest = { ...realManifest, ...o.manifest };
	const files = ['dist', ...Object.keys(o.extraFiles ?? {}).map((path) => path.split('/')[0])];
	writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, files, scripts: {} }, null, 2));
	writeFileSync(join(dir, 'CHANGELOG.md'), o.changelog ?? readFileSync(join(root, 'CHANGELOG.md'), 'utf8'));
	copyFileSync(join(root, 'README.md'), join(dir, 'README.md'));
	copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
	const built = [...realManifest.n8n.nodes, ...realManifest.n8n.credentials];
	const extra = Object.entries(o.extraFiles ?? {});
	for (const [path, content] of [...built.map((path) => [path, 'module.exports = {};\n']), ...extra]) {
		mkdirSync(join(dir, path, '..'), { recursive: true });
		writeFileSync(join(dir, path), content);
	}
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
	const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>;
	return { root: dir, tarball: join(dir, filename) };
}

/** Runs release:check on a package; GitHub Actions' variables only when given. */
function releaseCheck(pkg: Package, github: Record<string, string> = {}) {
	const dir = mkdtempSync(join(tmpdir(), 'release-check-test-'));
	try {
		const { tarball } = makePackage(dir, pkg);
		const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GITHUB_')));
		const run = spawnSync(process.execPath, [script, '--root', dir, '--tarball', tarball], { env: { ...env, ...github }, encoding: 'utf8' });
		const lines = run.stdout.trim().split('\n');
		return { status: run.status, lines, failed: lines.filter((line) => line.startsWith('✗')), stderr: run.stderr };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const filled = { manifest: { repository: { type: 'git', url: FILLED } } };
const onTag = (tag: string, repository = 'acme-vision/n8n-nodes-image-inference') => ({
	GITHUB_ACTIONS: 'true',
	GITHUB_REF_TYPE: 'tag',
	GITHUB_REF_NAME: tag,
	GITHUB_REPOSITORY: repository,
});

describe('npm run release:check', () => {
	it('passes a package with its repository filled in, on the matching tag of that repository: one line per check', () => {
		const result = releaseCheck(filled, onTag(`v${realManifest.version}`));
		expect(result.failed).toEqual([]);
		expect(result.lines).toEqual([
			`✓ version: ${realManifest.version}, tag v${realManifest.version}`,
			expect.stringMatching(new RegExp(`^✓ changelog: \\[${realManifest.version}\\] - \\d{4}-\\d{2}-\\d{2}$`)),
			'✓ repository: github.com/acme-vision/n8n-nodes-image-inference',
			expect.stringMatching(/^✓ tarball: \d+ files, only dist\/, package\.json, README\.md, LICENSE$/),
			'✓ scanner: n8n verification scanner over the unpacked tarball',
			`release check: n8n-nodes-image-inference@${realManifest.version} can be released`,
		]);
		expect(result.status).toBe(0);
	});

	it('refuses the placeholder repository the repo ships with until a maintainer fills it in, in one clear line', () => {
		const result = releaseCheck({ manifest: { repository: { type: 'git', url: PLACEHOLDER } } });
		expect(result.status).toBe(1);
		expect(result.failed).toEqual([
			`✗ repository: package.json's "repository" is the placeholder ${PLACEHOLDER}: set "repository" in package.json to the GitHub repository that publishes this package (docs/development.md, Releasing)`,
		]);
	});

	it.each([
		['missing', undefined, /has no "repository"/],
		['not on GitHub', 'https://gitlab.com/acme/n8n-nodes-image-inference', /is not a https:\/\/github\.com\/OWNER\/REPO address/],
		['an example owner', 'https://github.com/example/n8n-nodes-image-inference', /is the placeholder/],
	])('refuses a repository that is %s', (_what, url, message) => {
		const result = releaseCheck({ manifest: { repository: url && { type: 'git', url } } });
		expect(result.status).toBe(1);
		expect(result.failed).toHaveLength(1);
		expect(result.failed[0]).toMatch(message);
	});

	it('refuses, in the workflow, a tag that is not the version and a repository other than the one it runs in', () => {
		const result = releaseCheck(filled, onTag('v9.9.9', 'someone-else/fork'));
		expect(result.status).toBe(1);
		expect(result.failed).toEqual([
			`✗ version: the tag v9.9.9 does not match package.json's version ${realManifest.version}: tag v${realManifest.version}`,
			expect.stringMatching(/^✗ repository: .*names acme-vision\/n8n-nodes-image-inference, but this runs in someone-else\/fork/),
		]);
	});

	it('refuses a changelog whose newest entry is not the version, or has no date', () => {
		const bumped = releaseCheck({ manifest: { ...filled.manifest, version: '0.2.0' } });
		expect(bumped.failed).toEqual([
			`✗ changelog: the newest entry in CHANGELOG.md is ${realManifest.version}, package.json says 0.2.0`,
		]);
		const undated = releaseCheck({ ...filled, changelog: `# Changelog\n\n## [${realManifest.version}]\n\n### Added\n\n- Everything\n` });
		expect(undated.failed).toEqual([`✗ changelog: "## [${realManifest.version}]" has no date: "## [${realManifest.version}] - YYYY-MM-DD"`]);
	});

	it('refuses a tarball with files outside dist/ or runtime dependencies', () => {
		const result = releaseCheck({
			manifest: { ...filled.manifest, dependencies: { 'left-pad': '^1.3.0' } },
			extraFiles: { 'src/index.ts': 'export {};\n' },
		});
		expect(result.status).toBe(1);
		expect(result.failed).toEqual([
			'✗ tarball: files outside dist/: src/index.ts; runtime dependencies: left-pad',
			expect.stringMatching(/^✗ scanner: n8n's verification scanner refuses the tarball: .*no-runtime-dependencies/),
		]);
	});
});
