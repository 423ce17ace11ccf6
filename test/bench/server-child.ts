/**
 * The reference server in a child process, so the benchmarks measure the node's CPU and memory
 * alone. Talks over IPC: sends { url, apiKey, models, replay } once listening; obeys
 * { latencyMs }. Its default models are the synthetic ones: the benchmarks measure the node, not
 * inference. Beside it, a replaying service (./programmed-service) answers car.jpg with the
 * reference server's own answer at almost no cost of its own, for throughput at high concurrency,
 * and another answers it with a crowded scene of 50 objects, for tracking's cost.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { crowdedScene } from '../harness/crowdedScene';
import { startReferenceServer } from '../reference-server';
import { SYNTHETIC_DETECT_MODEL } from './models';
import type { ProgrammedService } from './programmed-service';
import { startProgrammedService } from './programmed-service';

async function main() {
	const server = await startReferenceServer({ apiKey: 'bench-key', defaultModels: 'synthetic' });
	const car = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
	const answer = await fetch(`${server.url}/predict/detect/${SYNTHETIC_DETECT_MODEL}/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
		body: JSON.stringify({ image: car.toString('base64') }),
	});
	const replay: ProgrammedService = await startProgrammedService([{ photo: car, body: Buffer.from(await answer.arrayBuffer()) }], 0);
	// 50 objects in every look of car.jpg: a crowded scene scaled from its 1920 × 1080 frame to the photo's 676 × 380
	const scale = 676 / 1920;
	const crowdedBody = { ...crowdedScene(50), detections: crowdedScene(50).detections.map((detection) => ({ ...detection, x: detection.x * scale, y: detection.y * scale, width: detection.width * scale, height: detection.height * scale })) };
	const crowd: ProgrammedService = await startProgrammedService([{ photo: car, body: Buffer.from(JSON.stringify(crowdedBody)) }], 0);
	process.on('message', (message: { latencyMs?: number; close?: boolean }) => {
		if (message.latencyMs !== undefined) {
			server.setLatency(message.latencyMs);
			replay.setLatency(message.latencyMs);
			crowd.setLatency(message.latencyMs);
			process.send?.({ ok: true });
		}
		if (message.close) void Promise.all([server.close(), replay.close(), crowd.close()]).then(() => process.exit(0));
	});
	process.on('disconnect', () => void server.close().then(() => process.exit(0)));
	process.send?.({ url: server.url, apiKey: server.apiKey, models: server.models, replay: { url: replay.url, apiKey: replay.apiKey }, crowd: { url: crowd.url, apiKey: crowd.apiKey } });
}

void main();
