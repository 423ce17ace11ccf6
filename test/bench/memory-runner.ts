import { fork } from 'node:child_process';
import { join } from 'node:path';

import { SYNTHETIC_DETECT_MODEL } from './models';
import type { RemoteServer } from './server-process';

/** Runs one memory measurement (memory-child.ts) in a fresh process and returns its JSON line. */
export async function memoryChild(server: RemoteServer, mode: 'image' | 'soak' | 'watched-soak', amount: number) {
	return await measureInChild('memory-child.ts', [mode, server.url, server.apiKey, SYNTHETIC_DETECT_MODEL, String(amount), server.crowd.url, server.crowd.apiKey]);
}

/** Runs a benchmark script of this folder in a fresh process (--expose-gc) and returns the JSON of its last line. */
export async function measureInChild(script: string, args: string[]): Promise<unknown> {
	const child = fork(join(__dirname, script), args, {
		execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'],
		stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
		// glibc keeps freed blocks below its (self-raising) mmap threshold resident: fixed at its
		// initial 128 KiB, an image-sized buffer is returned to the OS when freed, so one run's peak
		// growth is what it holds, not what the warm-up happened to leave in the allocator.
		env: { ...process.env, MALLOC_MMAP_THRESHOLD_: String(128 * 1024) },
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const code = await new Promise((resolve) => child.on('exit', resolve));
	if (code !== 0) throw new Error(`benchmark ${script} ${args.slice(0, 1).join(' ')} failed`);
	return JSON.parse(output.trim().split('\n').pop()!);
}
