/**
 * The n8n installer in environments that cannot work: each must end at once with one line naming
 * what is missing and how to get it, and must never mark anything complete. (The working path, a
 * real install proven to run, is what every end-to-end run and CI's empty cache exercise.)
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const script = path.resolve(__dirname, '..', 'e2e', 'install-n8n.sh');
const version = '9.9.9';

let sandbox: string;
beforeEach(() => {
	sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'install-n8n-'));
});
afterEach(() => fs.rmSync(sandbox, { recursive: true, force: true }));

/** A HOME whose ~/.npmrc points npm at a registry that refuses connections. */
function homeWithDeadRegistry(): string {
	const home = path.join(sandbox, 'home');
	fs.mkdirSync(home);
	fs.writeFileSync(path.join(home, '.npmrc'), 'registry=http://127.0.0.1:9/\nfetch-retries=0\n');
	return home;
}

/** A PATH holding only the tools the script needs up to its compiler check, none of the compilers. */
function pathWithoutCompilers(): string {
	const bin = path.join(sandbox, 'bin');
	fs.mkdirSync(bin);
	const tools = ['bash', 'env', 'node', 'npm', 'dirname', 'mkdir', 'flock', 'df', 'awk', 'timeout', 'cat', 'rm', 'date', 'grep', 'tail', 'mktemp'];
	for (const tool of tools) {
		const found = execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
		fs.symlinkSync(found, path.join(bin, tool));
	}
	return bin;
}

function install(env: NodeJS.ProcessEnv): { status: number | null; stderr: string; cache: string } {
	const cache = path.join(sandbox, 'cache');
	const result = spawnSync('bash', [script, version], {
		encoding: 'utf8',
		timeout: 60_000,
		env: { ...process.env, N8N_E2E_CACHE: cache, ...env },
	});
	return { status: result.status, stderr: result.stderr, cache };
}

describe('install-n8n.sh in a bad environment', () => {
	it('names the registry that does not answer, and how to fix it', () => {
		const { status, stderr, cache } = install({ HOME: homeWithDeadRegistry() });
		expect(status).toBe(1);
		expect(stderr).toMatch(/install-n8n: the npm registry \(http:\/\/127\.0\.0\.1:9\/\) does not answer/);
		expect(stderr).toMatch(/~\/\.npmrc/);
		expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
		expect(fs.existsSync(path.join(cache, `n8n-${version}`, '.complete'))).toBe(false);
	});

	it('names the missing compiler and the apt-get line that installs it', () => {
		const { status, stderr } = install({ PATH: pathWithoutCompilers() });
		expect(status).toBe(1);
		expect(stderr).toContain('apt-get update && apt-get install -y');
		expect(stderr).toMatch(/make g\+\+ is missing|python3 make g\+\+ is missing/);
	});

	it('does not trust a cache marked complete that does not run: it says why and reinstalls', () => {
		const dir = path.join(sandbox, 'cache', `n8n-${version}`);
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, '.complete'), 'marked complete by an install that never finished\n');
		const { status, stderr } = install({ HOME: homeWithDeadRegistry() });
		expect(stderr).toContain(`install-n8n: the cached n8n ${version} in ${dir} is broken (its Node binary is missing); reinstalling`);
		// the reinstall then stops at the dead registry, before touching the broken folder's marker
		expect(status).toBe(1);
		expect(stderr).toMatch(/does not answer/);
	});

	it('ignores the npm settings a parent `npm run` exports (ignore-scripts, nodedir, prefix, cache)', () => {
		const { stderr } = install({
			HOME: homeWithDeadRegistry(),
			npm_config_registry: 'https://registry.npmjs.org/',
			npm_config_ignore_scripts: 'true',
			npm_config_nodedir: '/nonexistent',
			npm_config_prefix: '/nonexistent',
			npm_config_cache: '/nonexistent',
		});
		// the inherited registry would have answered; the user's own ~/.npmrc is what counts
		expect(stderr).toMatch(/the npm registry \(http:\/\/127\.0\.0\.1:9\/\) does not answer/);
	});
});
