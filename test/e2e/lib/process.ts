/**
 * Child processes that always stop: each one leads its own process group, is remembered in a
 * registry, and is killed (the whole group) when the jest process exits for any reason.
 *
 * Exports (stable):
 *   freePort(): Promise<number>                      a free TCP port on 127.0.0.1
 *   spawnGroup(cmd, args, opts): ManagedProcess      start a detached child (own process group)
 *   run(cmd, args, opts): Promise<RunResult>         start, wait for exit (with a time limit), collect output (via files)
 *   killGroup(pid, signal?)                          signal a whole process group, ignoring "gone"
 *   ManagedProcess { pid, child, output(), waitForOutput(re, ms), exited, stop(graceMs) }
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	durationMs: number;
}

const LIVE_KEY = Symbol.for('n8n-nodes-image-inference.e2e.liveGroups');
type G = typeof globalThis & { [LIVE_KEY]?: Set<number> };

/** The registry is shared by every test file of one jest process (runInBand) via globalThis. */
function liveGroups(): Set<number> {
	const g = globalThis as G;
	if (!g[LIVE_KEY]) {
		const set = new Set<number>();
		g[LIVE_KEY] = set;
		const killAll = () => {
			for (const pid of set) killGroup(pid, 'SIGKILL');
			set.clear();
		};
		process.once('exit', killAll);
		for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
			process.once(sig, () => {
				killAll();
				process.exit(130);
			});
		}
	}
	return g[LIVE_KEY]!;
}

export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGTERM'): void {
	try {
		process.kill(-pid, signal);
	} catch {
		/* already gone */
	}
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

export interface SpawnOptions {
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	/** also append everything the child prints to this file */
	logFile?: string;
	stdin?: string;
}

export class ManagedProcess {
	readonly pid: number;
	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	private out = '';
	private err = '';
	private listeners: Array<() => void> = [];
	private done = false;

	constructor(readonly child: ChildProcess, logFile?: string) {
		if (child.pid === undefined) throw new Error('process did not start');
		this.pid = child.pid;
		liveGroups().add(this.pid);
		const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
		child.stdout?.on('data', (b: Buffer) => {
			this.out += b.toString();
			log?.write(b);
			this.listeners.forEach((l) => l());
		});
		child.stderr?.on('data', (b: Buffer) => {
			this.err += b.toString();
			log?.write(b);
			this.listeners.forEach((l) => l());
		});
		this.exited = new Promise((resolve) => {
			child.on('close', (code, signal) => {
				this.done = true;
				liveGroups().delete(this.pid);
				// the group may still hold grandchildren (task runners): make sure they go too
				killGroup(this.pid, 'SIGKILL');
				log?.end();
				this.listeners.forEach((l) => l());
				resolve({ code, signal });
			});
		});
	}

	get stdout(): string {
		return this.out;
	}
	get stderr(): string {
		return this.err;
	}
	output(): string {
		return this.out + this.err;
	}
	get running(): boolean {
		return !this.done;
	}

	/** Resolves with the match once stdout+stderr match `re`; rejects on exit or after `ms`. */
	async waitForOutput(re: RegExp, ms = 60_000): Promise<RegExpMatchArray> {
		return await new Promise((resolve, reject) => {
			const timer = setTimeout(() => finish(new Error(`timed out after ${ms} ms waiting for ${re}\n${this.tail()}`)), ms);
			const check = () => {
				const m = this.output().match(re);
				if (m) return finish(undefined, m);
				if (this.done) finish(new Error(`process exited before printing ${re}\n${this.tail()}`));
			};
			const finish = (e?: Error, m?: RegExpMatchArray) => {
				clearTimeout(timer);
				this.listeners = this.listeners.filter((l) => l !== check);
				if (e) reject(e);
				else resolve(m!);
			};
			this.listeners.push(check);
			check();
		});
	}

	tail(chars = 4000): string {
		const all = this.output();
		return all.length > chars ? '…' + all.slice(-chars) : all;
	}

	/** SIGTERM to the group, SIGKILL after `graceMs`; resolves when the leader has exited. */
	async stop(graceMs = 10_000): Promise<void> {
		if (this.done) return;
		killGroup(this.pid, 'SIGTERM');
		const timer = setTimeout(() => killGroup(this.pid, 'SIGKILL'), graceMs);
		await this.exited;
		clearTimeout(timer);
	}
}

export function spawnGroup(
	cmd: string,
	args: string[],
	opts: SpawnOptions = {},
	outputTo: ['pipe', 'pipe'] | [number, number] = ['pipe', 'pipe'],
): ManagedProcess {
	const child = spawn(cmd, args, {
		cwd: opts.cwd,
		env: opts.env ?? process.env,
		detached: true,
		stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', ...outputTo],
	});
	if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
	return new ManagedProcess(child, opts.logFile);
}

export async function run(
	cmd: string,
	args: string[],
	opts: SpawnOptions & { timeoutMs?: number } = {},
): Promise<RunResult> {
	const started = Date.now();
	// The child writes into files, not pipes: Node writes to a pipe asynchronously on POSIX, so a
	// child that ends with process.exit() (n8n's `execute` does, in its BaseCommand.finally) may
	// leave the end of a large output unwritten; writes to a file are synchronous and always whole.
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-output-'));
	const outFile = path.join(dir, 'stdout');
	const errFile = path.join(dir, 'stderr');
	const out = fs.openSync(outFile, 'w');
	const err = fs.openSync(errFile, 'w');
	try {
		const p = spawnGroup(cmd, args, { ...opts, logFile: undefined }, [out, err]);
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(p.pid, 'SIGKILL');
		}, opts.timeoutMs ?? 120_000);
		const { code, signal } = await p.exited;
		clearTimeout(timer);
		const stdout = fs.readFileSync(outFile, 'utf8');
		const stderr = fs.readFileSync(errFile, 'utf8');
		if (opts.logFile) fs.appendFileSync(opts.logFile, stdout + stderr);
		return { code, signal, stdout, stderr, timedOut, durationMs: Date.now() - started };
	} finally {
		fs.closeSync(out);
		fs.closeSync(err);
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
