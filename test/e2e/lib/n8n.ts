/**
 * One isolated n8n: its own user folder (N8N_USER_FOLDER, sqlite DB, binary data, node-types cache),
 * encryption key and ports, with this package installed the way n8n's community installer does it.
 * Everything binds 127.0.0.1; telemetry, diagnostics, version notifications, templates and
 * personalization are off; every process leads its own process group and is killed with the
 * test (see ./process).
 *
 * Exports (stable):
 *   createN8nHome(opts?): Promise<N8nHome>
 *     opts.version        n8n version (default DEFAULT_N8N_VERSION; installs it if needed)
 *     opts.installPackage install the packed package into <userFolder>/.n8n/nodes (default true)
 *     opts.installStyle   'pack' (n8n's installer, default) or 'npm' (npm install --omit=dev --omit=peer --ignore-scripts <tarball>)
 *     opts.tarball        a tarball to install instead of `npm pack` of the clone
 *     opts.env            env for every process of this home (overrides the defaults below)
 *     opts.fileAccessDirs folders the file nodes may read/write (N8N_RESTRICT_FILE_ACCESS_TO);
 *                         always includes fixturesDir and home.filesDir
 *   N8nHome
 *     install, userFolder, encryptionKey, filesDir (a writable folder file nodes may use)
 *     env(extra?)                         the full environment a process of this home gets
 *     cli(args, {env?, timeoutMs?, allowFailure?}): RunResult    `n8n <args>`
 *     importWorkflows(wfs | wf): Promise<string[]>    `n8n import:workflow --input` (ids kept)
 *     importCredentials(creds | cred): Promise<void>  `n8n import:credentials --input`; `data` may be plain
 *                                                      (n8n encrypts an object `data` with the home's key)
 *     execute(workflowId, {env?}): Promise<ExecuteResult>   `n8n execute --id --rawOutput`; run = n8n's IRun
 *     start(opts?): Promise<N8nServer>    `n8n start` (or opts.command 'worker' | 'webhook'), waits until ready
 *         opts.env, opts.port, opts.readyPattern, opts.readyTimeoutMs, opts.logFile
 *     dispose()                           stop what it started, delete the folder (kept if N8N_E2E_KEEP=1)
 *   N8nServer { command, url, port, brokerPort, process: ManagedProcess, logFile, stop() }
 *   ExecuteResult { ok, run?, error?, exitCode, exitSignal, stdout, stderr, durationMs }
 *   parseRunOutput(stdout): IRun-like | undefined
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DEFAULT_N8N_VERSION, ensureN8n, type N8nInstall } from './install';
import { installPackage } from './pack';
import { fixturesDir } from './paths';
import { freePort, run, spawnGroup, type ManagedProcess, type RunResult } from './process';
import type { WorkflowJson, CredentialJson } from './workflow';
import type { RunLike } from './run-data';

export interface N8nHomeOptions {
	version?: string;
	installPackage?: boolean;
	/** 'pack' as n8n's installer does it (default), or 'npm': `npm install --omit=dev --omit=peer --ignore-scripts <tarball>` */
	installStyle?: 'pack' | 'npm';
	tarball?: string;
	env?: NodeJS.ProcessEnv;
	fileAccessDirs?: string[];
}

export interface ExecuteResult {
	ok: boolean;
	exitCode: number | null;
	exitSignal: NodeJS.Signals | null;
	run?: RunLike;
	error?: string;
	stdout: string;
	stderr: string;
	durationMs: number;
}

export interface StartOptions {
	command?: 'start' | 'worker' | 'webhook';
	env?: NodeJS.ProcessEnv;
	port?: number;
	/** printed when ready; default: /Editor is now accessible|n8n worker is now ready|Webhook listener waiting/ */
	readyPattern?: RegExp;
	readyTimeoutMs?: number;
	logFile?: string;
}

export interface N8nServer {
	command: string;
	url: string;
	port: number;
	brokerPort: number;
	process: ManagedProcess;
	logFile: string;
	stop(): Promise<void>;
}

export async function createN8nHome(opts: N8nHomeOptions = {}): Promise<N8nHome> {
	const install = ensureN8n(opts.version ?? DEFAULT_N8N_VERSION);
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${install.version}-`));
	const home = new N8nHome(install, userFolder, opts);
	if (opts.installPackage !== false) {
		installPackage(userFolder, { tarball: opts.tarball, style: opts.installStyle ?? 'pack' });
	}
	return home;
}

export class N8nHome {
	readonly encryptionKey = randomBytes(24).toString('hex');
	readonly filesDir: string;
	readonly logsDir: string;
	private servers: N8nServer[] = [];
	private seq = 0;

	constructor(
		readonly install: N8nInstall,
		readonly userFolder: string,
		private readonly opts: N8nHomeOptions = {},
	) {
		this.filesDir = path.join(userFolder, 'files');
		this.logsDir = path.join(userFolder, 'logs');
		fs.mkdirSync(this.filesDir, { recursive: true });
		fs.mkdirSync(this.logsDir, { recursive: true });
	}

	env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
		const access = [fixturesDir, this.filesDir, ...(this.opts.fileAccessDirs ?? [])].join(';');
		// jest sets NODE_ENV=test, which n8n reads as "inside n8n's own unit tests" (silent logger,
		// no node loading): a real n8n must not inherit it
		const { NODE_ENV, JEST_WORKER_ID, ...inherited } = process.env;
		void NODE_ENV, JEST_WORKER_ID;
		return this.install.env({
			...inherited,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
			N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_VERIFIED_PACKAGES_ENABLED: 'false',
			N8N_AI_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_RESTRICT_FILE_ACCESS_TO: access,
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console',
			N8N_LOG_FORMAT: 'json',
			N8N_NO_COLOR: '1',
			NO_COLOR: '1',
			...this.opts.env,
			...extra,
		});
	}

	private args(args: string[]): string[] {
		return [this.install.n8nMain, ...args];
	}

	async cli(
		args: string[],
		o: { env?: NodeJS.ProcessEnv; timeoutMs?: number; allowFailure?: boolean } = {},
	): Promise<RunResult> {
		// every process gets its own task-broker port: a CLI command may run beside a server
		const env = this.env({ N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_PORT: String(await freePort()), ...o.env });
		const logFile = path.join(this.logsDir, `cli-${++this.seq}-${args[0].replace(/[^\w.-]/g, '_')}.log`);
		const r = await run(this.install.nodeBin, this.args(args), { env, cwd: this.userFolder, logFile, timeoutMs: o.timeoutMs ?? 180_000 });
		if (!o.allowFailure && (r.code !== 0 || r.timedOut)) {
			throw new Error(
				`n8n ${args.join(' ')} failed (code ${r.code}${r.timedOut ? ', timed out' : ''})\n${(r.stdout + r.stderr).slice(-4000)}`,
			);
		}
		return r;
	}

	private writeJson(name: string, value: unknown): string {
		const file = path.join(this.userFolder, 'imports', `${++this.seq}-${name}.json`);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(value, null, 2));
		return file;
	}

	async importWorkflows(wfs: WorkflowJson | WorkflowJson[]): Promise<string[]> {
		const list = (Array.isArray(wfs) ? wfs : [wfs]).map((wf) => ({
			...wf,
			id: wf.id ?? randomId(),
		}));
		await this.cli(['import:workflow', `--input=${this.writeJson('workflows', list)}`]);
		return list.map((wf) => wf.id!);
	}

	async importCredentials(creds: CredentialJson | CredentialJson[]): Promise<void> {
		const list = Array.isArray(creds) ? creds : [creds];
		await this.cli(['import:credentials', `--input=${this.writeJson('credentials', list)}`]);
	}

	async execute(workflowId: string, o: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ExecuteResult> {
		const r = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], { ...o, allowFailure: true });
		const runData = parseRunOutput(r.stdout);
		const errorText = runData?.data?.resultData?.error
			? describeError(runData.data.resultData.error)
			: r.code === 0
				? undefined
				: extractErrorText(r.stdout + r.stderr);
		return {
			// n8n 2.40.7 on Node 24 ends `execute` with SIGSEGV *after* printing the finished run (its
			// default 'vm' expression engine at process exit; N8N_EXPRESSION_ENGINE=legacy exits 0).
			// The run it printed is complete, so it counts; exitCode/exitSignal keep the fact.
			ok: (r.code === 0 || r.signal === 'SIGSEGV') && !!runData && !runData.data?.resultData?.error,
			exitCode: r.code,
			exitSignal: r.signal,
			run: runData,
			error: errorText,
			stdout: r.stdout,
			stderr: r.stderr,
			durationMs: r.durationMs,
		};
	}

	async start(o: StartOptions = {}): Promise<N8nServer> {
		const command = o.command ?? 'start';
		const port = o.port ?? (await freePort());
		const brokerPort = await freePort();
		const logFile = o.logFile ?? path.join(this.logsDir, `${command}-${++this.seq}.log`);
		const env = this.env({
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			WEBHOOK_URL: `http://127.0.0.1:${port}/`,
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
			QUEUE_HEALTH_CHECK_PORT: String(port),
			N8N_LOG_FORMAT: 'text',
			...o.env,
		});
		const proc = spawnGroup(this.install.nodeBin, this.args([command]), { env, cwd: this.userFolder, logFile });
		const url = `http://127.0.0.1:${port}`;
		const server: N8nServer = {
			command,
			url,
			port,
			brokerPort,
			process: proc,
			logFile,
			stop: async () => {
				await proc.stop();
				this.servers = this.servers.filter((s) => s !== server);
			},
		};
		this.servers.push(server);
		const ready =
			o.readyPattern ?? /Editor is now accessible|n8n worker is now ready|Webhook listener waiting|Worker started/;
		try {
			await proc.waitForOutput(ready, o.readyTimeoutMs ?? 120_000);
			if (command === 'start') await waitForHttp(`${url}/healthz`, 60_000);
		} catch (e) {
			await server.stop();
			throw e;
		}
		return server;
	}

	async dispose(): Promise<void> {
		for (const s of [...this.servers]) await s.stop();
		if (process.env.N8N_E2E_KEEP === '1') {
			process.stderr.write(`[e2e] kept n8n user folder ${this.userFolder}\n`);
			return;
		}
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

export function randomId(): string {
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(randomBytes(16), (b) => abc[b % abc.length]).join('');
}

async function waitForHttp(url: string, ms: number): Promise<void> {
	const until = Date.now() + ms;
	let last: unknown;
	while (Date.now() < until) {
		try {
			const res = await fetch(url);
			if (res.ok) return;
			last = res.status;
		} catch (e) {
			last = e;
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`${url} not ready after ${ms} ms: ${String(last)}`);
}

function isRun(v: unknown): v is RunLike {
	return !!v && typeof v === 'object' && 'data' in v && !!(v as RunLike).data?.resultData;
}

/**
 * Finds n8n's IRun in what `n8n execute` printed. 2.x prints it through the logger (one JSON log
 * line whose `message` is the run, with N8N_LOG_FORMAT=json); 1.x prints it with console.log as
 * pretty JSON starting at a line "{".
 */
export function parseRunOutput(stdout: string): RunLike | undefined {
	const lines = stdout.split('\n');
	for (const line of lines) {
		const t = line.trim();
		if (!t.startsWith('{')) continue;
		try {
			const v = JSON.parse(t) as unknown;
			if (isRun(v)) return v;
			const msg = (v as { message?: unknown }).message;
			if (typeof msg === 'string' && msg.trim().startsWith('{')) {
				const inner = JSON.parse(msg) as unknown;
				if (isRun(inner)) return inner;
			}
		} catch {
			/* not a whole JSON line */
		}
	}
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let j = lines.length - 1; j > i; j--) {
			if (lines[j] !== '}') continue;
			try {
				const v = JSON.parse(lines.slice(i, j + 1).join('\n')) as unknown;
				if (isRun(v)) return v;
			} catch {
				/* keep looking */
			}
		}
	}
	return undefined;
}

function describeError(e: { message?: string; description?: string | null; node?: { name?: string } }): string {
	return [e.message, e.description, e.node?.name ? `(node ${e.node.name})` : ''].filter(Boolean).join(' — ');
}

function extractErrorText(out: string): string {
	const msgs: string[] = [];
	for (const line of out.split('\n')) {
		try {
			const v = JSON.parse(line) as { level?: string; message?: string };
			if (v.level === 'error' && v.message) msgs.push(v.message);
		} catch {
			/* text line */
		}
	}
	return msgs.length ? msgs.join('\n') : out.slice(-3000);
}
