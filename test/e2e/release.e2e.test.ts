/**
 * A release rehearsal: the publish workflow's own steps (.github/workflows/publish.yml), run for
 * real in a copy of this clone as GitHub Actions runs them on the tag v<version> — npm ci, the unit
 * tests, the lint gate, packing, release:check on the tarball — up to the publish command, which
 * runs as written plus --dry-run (a real publish needs the registry account and GitHub's OIDC
 * token). The copy's package.json names a repository, as a maintainer fills it in; with the
 * placeholder, the job stops at release:check and nothing is published.
 *
 * Emulated: actions/checkout (the copy is the checkout) and actions/setup-node (this machine's Node
 * and npm run the steps); GITHUB_ENV and RUNNER_TEMP work as on a runner. No n8n involved.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { parse } from 'yaml';

import { repoRoot } from './lib';

const REPOSITORY = 'acme-vision/n8n-nodes-image-inference';
/** What package.json holds until a maintainer fills it in (docs/development.md, Releasing). */
const PLACEHOLDER = 'git+https://github.com/YOUR-GITHUB-OWNER/n8n-nodes-image-inference.git';
const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

interface Step {
	name?: string;
	uses?: string;
	run?: string;
}

interface StepResult {
	name: string;
	status: number | null;
	output: string;
}

/** Tracked and new (not ignored) files of the clone, copied as a checkout would have them. */
function copyClone(destination: string): void {
	const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repoRoot })
		.toString()
		.split('\0')
		.filter(Boolean);
	for (const file of files) {
		const from = path.join(repoRoot, file);
		if (!fs.existsSync(from)) continue; // deleted in the working tree
		fs.mkdirSync(path.dirname(path.join(destination, file)), { recursive: true });
		fs.copyFileSync(from, path.join(destination, file));
	}
}

function setRepository(checkout: string, url: string): void {
	const file = path.join(checkout, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
	manifest.repository = { type: 'git', url };
	fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Runs `run` steps as a GitHub runner does (bash -eo pipefail, GITHUB_ENV carried between steps). */
function runSteps(steps: Step[], checkout: string, runnerTemp: string): StepResult[] {
	const githubEnv = path.join(runnerTemp, 'github_env');
	fs.writeFileSync(githubEnv, '');
	const { NODE_ENV, JEST_WORKER_ID, ...inherited } = process.env;
	void NODE_ENV, JEST_WORKER_ID;
	const base = Object.fromEntries(Object.entries(inherited).filter(([key]) => !key.startsWith('GITHUB_')));
	const env: NodeJS.ProcessEnv = {
		...base,
		CI: 'true',
		GITHUB_ACTIONS: 'true',
		GITHUB_REF: `refs/tags/v${version}`,
		GITHUB_REF_TYPE: 'tag',
		GITHUB_REF_NAME: `v${version}`,
		GITHUB_REPOSITORY: REPOSITORY,
		GITHUB_ENV: githubEnv,
		RUNNER_TEMP: runnerTemp,
	};
	const results: StepResult[] = [];
	for (const step of steps) {
		if (!step.run) continue;
		const script = /\bnpm publish\b/.test(step.run) ? `${step.run.trim()} --dry-run` : step.run;
		const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
			cwd: checkout,
			env,
			encoding: 'utf8',
			timeout: 15 * 60_000,
			maxBuffer: 64 * 1024 * 1024,
		});
		results.push({ name: step.name ?? step.run, status: run.status, output: `${run.stdout}${run.stderr}` });
		if (run.status !== 0) break;
		for (const line of fs.readFileSync(githubEnv, 'utf8').split('\n')) {
			const at = line.indexOf('=');
			if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
		}
	}
	return results;
}

describe('Release rehearsal: publish.yml on the tag, up to the publish command', () => {
	const steps = (parse(fs.readFileSync(path.join(repoRoot, '.github', 'workflows', 'publish.yml'), 'utf8')) as {
		jobs: Record<string, { steps: Step[] }>;
	}).jobs.publish.steps;
	let work: string;
	let checkout: string;

	beforeAll(() => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'release-rehearsal-'));
		checkout = path.join(work, 'checkout');
		copyClone(checkout);
	});

	afterAll(() => {
		if (process.env.N8N_E2E_KEEP === '1') process.stderr.write(`[e2e] kept the release rehearsal in ${work}\n`);
		else fs.rmSync(work, { recursive: true, force: true });
	});

	it('every step passes and npm publishes the checked tarball with provenance (dry run)', () => {
		expect(steps.map((step) => step.uses ?? 'run')).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', ...steps.slice(2).map(() => 'run')]);
		setRepository(checkout, `git+https://github.com/${REPOSITORY}.git`);
		const results = runSteps(steps, checkout, fs.mkdtempSync(path.join(work, 'runner-')));
		const failed = results.find((result) => result.status !== 0);
		if (failed) throw new Error(`step "${failed.name}" failed (exit ${failed.status}):\n${failed.output.slice(-4000)}`);
		expect(results).toHaveLength(steps.filter((step) => step.run).length);

		const byName = (start: string) => results.find((result) => result.name.startsWith(start))!.output;
		const check = byName('Release checks');
		expect(check.split('\n').filter((line) => /^[✓✗]/.test(line))).toEqual([
			`✓ version: ${version}, tag v${version}`,
			expect.stringMatching(new RegExp(`^✓ changelog: \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`)),
			`✓ repository: github.com/${REPOSITORY}`,
			expect.stringMatching(/^✓ tarball: \d+ files/),
			'✓ scanner: n8n verification scanner over the unpacked tarball',
		]);
		const published = byName('Publish');
		expect(published).toContain(`+ n8n-nodes-image-inference@${version}`);
		expect(published).toMatch(/Publishing to https:\/\/registry\.npmjs\.org\/ with tag latest and public access \(dry-run\)/);
		const listed = [...published.matchAll(/^npm notice [\d.]+k?B (\S+)$/gm)].map((match) => match[1]);
		expect(listed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/nodes/ImageInference/ImageInference.node.js']));
		expect(listed.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file))).toEqual([]);
		expect(byName('Lint')).toContain('lint gate: 0 errors');
		expect(byName('Unit')).toMatch(/Tests:\s+\d+ passed, \d+ total/);
	});

	it('with the placeholder repository the job stops at release:check, in one line, and publishes nothing', () => {
		setRepository(checkout, PLACEHOLDER);
		const fromPack = steps.slice(steps.findIndex((step) => step.name?.startsWith('Build and pack')));
		const results = runSteps(fromPack, checkout, fs.mkdtempSync(path.join(work, 'runner-')));
		expect(results.map((result) => [result.name.split(' ')[0], result.status])).toEqual([
			['Build', 0],
			['Release', 1],
		]);
		const failures = results[1].output.split('\n').filter((line) => line.startsWith('✗'));
		expect(failures).toEqual([expect.stringMatching(/^✗ repository: package\.json's "repository" is the placeholder .*YOUR-GITHUB-OWNER.*\(docs\/development\.md, Releasing\)$/)]);
	});
});
