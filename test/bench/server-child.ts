/**
 * The reference server in a child process, so the benchmarks measure the node's CPU and memory
 * alone. Talks over IPC: sends { url, apiKey, models } once listening; obeys { latencyMs }.
 * Its default models are the synthetic ones: the benchmarks measure the node, not inference.
 */
import { startReferenceServer } from '../reference-server';

async function main() {
	const server = await startReferenceServer({ apiKey: 'bench-key', defaultModels: 'synthetic' });
	process.on('message', (message: { latencyMs?: number; close?: boolean }) => {
		if (message.latencyMs !== undefined) {
			server.setLatency(message.latencyMs);
			process.send?.({ ok: true });
		}
		if (message.close) void server.close().then(() => process.exit(0));
	});
	process.on('disconnect', () => void server.close().then(() => process.exit(0)));
	process.send?.({ url: server.url, apiKey: server.apiKey, models: server.models });
}

void main();
