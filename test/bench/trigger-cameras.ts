/**
 * Benchmark 9: ten Image Inference Triggers, one per camera, each looking once a second, for an
 * hour of looks (36,000), driven as fast as they go with the trigger's clock stepped a second per
 * look. The cameras (camera-child.ts) and the service run in child processes, so the CPU measured
 * is the trigger's own: fetching and reading the snapshot, Detect's pipeline and comparison, the
 * events, the state. Memory is sampled after a garbage collection every simulated five minutes.
 * Against it: a Schedule Trigger at one second starts 3,600 executions per camera and hour.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { activateTrigger } from '../harness/trigger';
import type { TriggerRun } from '../harness/trigger';
import { DRIVEWAY } from '../watch/frames';
import type { RemoteServer } from './server-process';
import { SYNTHETIC_DETECT_MODEL } from './models';

export const TRIGGER_CAMERAS = 10;

export interface TriggerBenchResult {
	looks: number;
	cpuMsPerLook: number;
	executions: number;
	scheduleExecutions: number;
	heapMb: number[];
	rssMb: number[];
	wallS: number;
}

async function startCameras(): Promise<{ url: string; close(): Promise<void> }> {
	const child = fork(join(__dirname, 'camera-child.ts'), [], { execArgv: ['-r', 'ts-node/register/transpile-only'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const { url } = await new Promise<{ url: string }>((resolve, reject) => {
		child.once('message', (message) => resolve(message as { url: string }));
		child.once('exit', (code) => reject(new Error(`cameras exited with ${code}`)));
	});
	return {
		url,
		close: async () => {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.send({ close: true });
			await exited;
		},
	};
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** `seconds` looks per camera (3,600 for the hour). */
export async function triggerCameras(server: RemoteServer, seconds: number): Promise<TriggerBenchResult> {
	const cameras = await startCameras();
	const start = Date.parse('2026-11-30T00:00:00Z');
	try {
		const triggers: TriggerRun[] = [];
		for (let camera = 0; camera < TRIGGER_CAMERAS; camera++) {
			triggers.push(
				await activateTrigger({
					parameters: {
						cameraUrl: `${cameras.url}/${camera}/snapshot.png`,
						modelId: { __rl: true, mode: 'id', value: SYNTHETIC_DETECT_MODEL },
						lookEvery: 1,
						lookEveryUnit: 'seconds',
						events: ['arrival', 'departure'],
						// the stand-in's frames repeat byte for byte, as no live camera's do
						options: { zones: { zone: [{ name: 'driveway', points: DRIVEWAY }] }, zoneAnchor: 'bottomCenter', frozenAfterLooks: 0 },
					},
					credentials: { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' },
					recordRequests: false,
				}),
			);
		}
		const heapMb: number[] = [];
		const rssMb: number[] = [];
		const sample = () => {
			gc();
			heapMb.push(mb(process.memoryUsage().heapUsed));
			rssMb.push(mb(process.memoryUsage.rss()));
		};
		sample();
		const cpuBefore = process.cpuUsage();
		const wallBefore = Date.now();
		for (let second = 0; second < seconds; second++) {
			// one after another: each tick sets the clock its look reads
			for (const trigger of triggers) await trigger.tick(start + second * 1000);
			if ((second + 1) % 300 === 0) sample();
		}
		const cpu = process.cpuUsage(cpuBefore);
		const wallS = (Date.now() - wallBefore) / 1000;
		const looks = seconds * TRIGGER_CAMERAS;
		for (const trigger of triggers) await trigger.close();
		return {
			looks,
			cpuMsPerLook: (cpu.user + cpu.system) / 1000 / looks,
			executions: triggers.reduce((sum, trigger) => sum + trigger.emissions.length, 0),
			scheduleExecutions: looks,
			heapMb,
			rssMb,
			wallS,
		};
	} finally {
		await cameras.close();
	}
}
