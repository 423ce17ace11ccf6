/**
 * zod at run time is n8n's own copy. The package has no dependencies; n8n puts its own module
 * paths into NODE_PATH before it loads community nodes (`LoadNodesAndCredentials.init` in
 * packages/cli/src/load-nodes-and-credentials.ts: `process.env.NODE_PATH = module.paths…`,
 * `module.constructor._initPaths()`; the same in 2.41.1 and 1.123.81), so the node's
 * `require('zod')` finds the zod n8n ships. Here the installed package's contract is loaded the
 * way n8n loads it, in each tested n8n line with that line's Node, and reads every answer shape
 * of the official SDKs' tests and docs exactly as it does with the zod the project develops
 * against.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { detectAnswerSchema, classifyAnswerSchema, describeIssues } from '../../nodes/ImageInference/contract';
import { createN8nHome, e2eVersions, fixturesDir, type N8nHome } from './lib';
import { PACKAGE_NAME } from './lib/pack';

const SHAPES = path.join(fixturesDir, 'service-shapes');
const answers = fs
	.readdirSync(SHAPES)
	.filter((name) => /\.(detect|classify)\.200\./.test(name))
	.map((name) => ({ name, kind: name.includes('.detect.') ? ('detect' as const) : ('classify' as const), body: JSON.parse(fs.readFileSync(path.join(SHAPES, name), 'utf8')) as unknown }));
// answers the node must refuse, and the words it refuses them in
const broken = [
	{ name: 'detections not a list', kind: 'detect' as const, body: { detections: 'none' } },
	{ name: 'a confidence that is text', kind: 'classify' as const, body: { category: 'cat', confidence: 'high' } },
];

/** What the project's own zod makes of each answer: parsed, or the issues the node reports. */
function readHere(list: Array<{ kind: 'detect' | 'classify'; body: unknown }>) {
	return list.map(({ kind, body }) => {
		const result = (kind === 'detect' ? detectAnswerSchema : classifyAnswerSchema).safeParse(body);
		return result.success ? { ok: true, data: result.data as unknown } : { ok: false, issues: describeIssues(result.error) };
	});
}

/** The same in n8n's process shape: NODE_PATH as n8n sets it, the installed package's compiled contract. */
const IN_N8N = `
const Module = require('module');
const path = require('path');
const [n8nDir, contractFile, listFile] = process.argv.slice(1);
const loader = require.resolve('n8n/dist/load-nodes-and-credentials.js', { paths: [n8nDir] });
process.env.NODE_PATH = Module._nodeModulePaths(path.dirname(loader)).join(path.delimiter);
Module._initPaths();
const contract = require(contractFile);
const zodFile = Object.keys(require.cache).find((file) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(file));
let root = path.dirname(zodFile);
while (path.basename(root) !== 'zod') root = path.dirname(root);
const list = JSON.parse(require('fs').readFileSync(listFile, 'utf8'));
const results = list.map(({ kind, body }) => {
  const result = (kind === 'detect' ? contract.detectAnswerSchema : contract.classifyAnswerSchema).safeParse(body);
  return result.success ? { ok: true, data: result.data } : { ok: false, issues: contract.describeIssues(result.error) };
});
process.stdout.write(JSON.stringify({ zod: { dir: root, version: require(path.join(root, 'package.json')).version }, results }));
`;

describe.each(e2eVersions())('zod at run time in n8n %s', (version) => {
	let home: N8nHome;

	beforeAll(async () => {
		home = await createN8nHome({ version });
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
	});

	it('the node’s zod is the one n8n ships, and it reads every answer shape as the project’s zod does', () => {
		const list = [...answers, ...broken];
		const listFile = path.join(home.userFolder, 'answers.json');
		fs.writeFileSync(listFile, JSON.stringify(list));
		const contractFile = path.join(home.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'dist', 'nodes', 'ImageInference', 'contract.js');
		const run = spawnSync(home.install.nodeBin, ['-e', IN_N8N, home.install.dir, contractFile, listFile], { encoding: 'utf8', env: { PATH: process.env.PATH } });
		expect(run.stderr).toBe('');
		const { zod, results } = JSON.parse(run.stdout) as { zod: { dir: string; version: string }; results: unknown[] };

		// n8n's own copy: inside n8n's install, not the package's folder, of the version n8n resolves
		expect(zod.dir.startsWith(home.install.dir)).toBe(true);
		expect(zod.dir).not.toContain(path.join('.n8n', 'nodes'));
		const n8nZod = require.resolve('zod/package.json', { paths: [path.dirname(require.resolve('n8n/package.json', { paths: [home.install.dir] }))] });
		expect(zod.version).toBe((JSON.parse(fs.readFileSync(n8nZod, 'utf8')) as { version: string }).version);
		expect(zod.version).toMatch(/^3\./);

		expect(answers.length).toBeGreaterThanOrEqual(5);
		expect(results).toEqual(readHere(list));
		expect(results.slice(-broken.length)).toEqual(broken.map(() => ({ ok: false, issues: expect.any(String) })));
	});
});
