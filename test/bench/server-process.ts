import { fork } from 'node:child_process';
import { join } from 'node:path';

export interface RemoteServer {
	url: string;
	apiKey: string;
	models: { detect: string; classify: string };
	/** The replaying service: car.jpg answered with the reference server's own answer, at no cost of its own. */
	replay: { url: string; apiKey: string };
	/** A replaying service that answers car.jpg with 50 objects (a crowded scene scaled to the photo). */
	crowd: { url: string; apiKey: string };
	/** The server's process, to pin it to a core of its own (cores.ts). */
	pid: number;
	setLatency(ms: number): Promise<void>;
	close(): Promise<void>;
}

/** Starts the reference server in a child process (ts-node), bound to 127.0.0.1. */
export async function startServerProcess(): Promise<RemoteServer> {
	const child = fork(join(__dirname, 'server-child.ts'), [], {
		execArgv: ['-r', 'ts-node/register/transpile-only'],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const info = await new Promise<Omit<RemoteServer, 'pid' | 'setLatency' | 'close'>>((resolve, reject) => {
		child.once('message', (message) => resolve(message as never));
		child.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
	});
	return {
		...info,
		pid: child.pid!,
		setLatency: async (latencyMs) => {
			const acknowledged = new Promise((resolve) => child.once('message', resolve));
			child.send({ latencyMs });
			await acknowledged;
		},
		close: async () => {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.send({ close: true });
			await exited;
		},
	};
}
