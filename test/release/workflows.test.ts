/**
 * The GitHub Actions workflows say what the project promises: a version tag publishes, after every
 * check, with provenance through trusted publishing and no stored token; pull requests run .ci/run.
 * (The lint gate validates both files against GitHub's workflow schema; test/e2e/release.e2e.test.ts
 * runs the publish workflow's steps for real, up to the publish command.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

const root = join(__dirname, '..', '..');
const read = (name: string) => readFileSync(join(root, '.github', 'workflows', name), 'utf8');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, { 'runs-on': string; container?: string; permissions?: Record<string, string>; steps: Step[] }>;
}

const publishText = read('publish.yml');
const publish = parse(publishText) as Workflow;
const ci = parse(read('ci.yml')) as Workflow;
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** GitHub's filter pattern for tags, as a regular expression (`*` is any run of characters but `/`). */
const tagPattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

describe('publish.yml', () => {
	const [job] = Object.values(publish.jobs);
	const runs = job.steps.filter((step) => step.run).map((step) => step.run!.trim());

	it('runs on a version tag, and only then', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		const push = publish.on.push as { tags: string[]; branches?: unknown };
		expect(push.branches).toBeUndefined();
		expect(push.tags.some((glob) => tagPattern(glob).test(`v${version}`))).toBe(true);
		expect(push.tags.some((glob) => tagPattern(glob).test('main'))).toBe(false);
	});

	it('may mint an OIDC token and read the code, nothing else; uses no stored npm token', () => {
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(job.permissions).toBeUndefined();
		expect(publishText).not.toMatch(/secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN|_authToken/);
	});

	it('checks everything on the packed tarball, then publishes that tarball with provenance, last', () => {
		const setupNode = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))!;
		expect(Number(setupNode.with!['node-version'])).toBeGreaterThanOrEqual(24);
		expect(setupNode.with!['registry-url']).toBe('https://registry.npmjs.org');
		const order = [
			/^node scripts\/require-npm\.mjs 11\.5\.1$/,
			/^npm install --no-audit --no-fund$/,
			/^npm run test:unit$/,
			/^npm run lint$/,
			/npm pack --pack-destination "\$RUNNER_TEMP\/release"[\s\S]*TARBALL=.*>> "\$GITHUB_ENV"/,
			/^npm run release:check -- --tarball "\$TARBALL"$/,
			/^npm publish "\$TARBALL" --provenance --access public$/,
		];
		expect(runs).toHaveLength(order.length);
		runs.forEach((run, index) => expect(run).toMatch(order[index]));
		expect(job.steps.at(-1)!.run!.trim()).toBe('npm publish "$TARBALL" --provenance --access public');
		expect(runs.filter((run) => /npm publish/.test(run))).toHaveLength(1);
	});
});

describe('ci.yml', () => {
	const [job] = Object.values(ci.jobs);

	it('runs on pull requests', () => {
		expect(Object.keys(ci.on)).toContain('pull_request');
		expect(ci.permissions).toEqual({ contents: 'read' });
	});

	it('runs .ci/run itself, on Debian with the Node version .ci/run is written for', () => {
		const runs = job.steps.filter((step) => step.run).map((step) => step.run!.trim());
		expect(runs).toEqual(['bash .ci/run']);
		const ciRun = readFileSync(join(root, '.ci', 'run'), 'utf8');
		const node = /Node (\d+)/.exec(ciRun)![1];
		expect(job.container).toBe(`node:${node}-bookworm`);
	});
});
