/**
 * Benchmark 7: does adding queue-mode workers add throughput? One n8n main (`n8n start`,
 * EXECUTIONS_MODE=queue) receives `count` uploads posted at once to a published webhook workflow
 * (test/e2e/workflows/queue-webhook-detect.json: Webhook → Detect → Respond with the annotated
 * image); 1, 2, then 4 workers (each `n8n worker` at concurrency 10) run the executions, Postgres
 * and Redis from Debian, binary data in the database. The service replays the reference server's
 * answers for car.jpg and dog.jpg after a fixed latency (./programmed-service), so it costs the
 * machine nothing. Every answer is checked: the annotated image the service sent for that upload,
 * each execution id once (none lost, none duplicated). The main's and the workers' CPU time is read
 * from /proc, to show what limits the rate.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { createN8nHome, imageInferenceCredential, packPackage, type N8nServer, type WorkflowJson } from '../e2e/lib';
import { queueModeEnv, startQueueServices } from '../e2e/lib/services';
import { postUploads } from '../e2e/lib/uploads';
import { SYNTHETIC_DETECT_MODEL } from './models';
import { phoneAnswers } from './phone-answers';
import { smallPhotos } from './phone-photos';
import { startProgrammedService } from './programmed-service';

const WORKER_CONCURRENCY = 10;
const WORKFLOW = JSON.parse(readFileSync(join(__dirname, '..', 'e2e', 'workflows', 'queue-webhook-detect.json'), 'utf8')) as WorkflowJson;
const WEBHOOK_PATH = 'image-inference-queue';
const CREDENTIAL_ID = 'queueImgInfCred1';

export interface WorkersResult {
	workers: number;
	count: number;
	wallMs: number;
	idealMs: number;
	lost: number;
	duplicated: number;
	wrong: number;
	/** CPU seconds the main and the workers used during the round. */
	mainCpuS: number;
	workersCpuS: number;
}

/** User + system CPU seconds of a process so far (/proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function queueWorkersRows(options: { version: string; counts: number[]; uploads: number; latencyMs: number }): Promise<WorkersResult[]> {
	const photos = smallPhotos();
	const answers = await phoneAnswers(photos);
	const uploads = photos.map((photo) => ({ name: basename(photo), bytes: readFileSync(photo) }));
	const service = await startProgrammedService(
		uploads.map((upload, index) => ({ photo: upload.bytes, body: answers[index].body })),
		options.latencyMs,
	);
	packPackage();
	const queue = await startQueueServices().catch(async (error: unknown) => {
		await service.close();
		throw error;
	});
	const home = await createN8nHome({ version: options.version, env: { ...queueModeEnv(queue.pg, queue.redis, 'bull-workers'), EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none' } });
	const results: WorkersResult[] = [];
	try {
		await home.importCredentials(imageInferenceCredential(CREDENTIAL_ID, { baseUrl: service.url, apiKey: service.apiKey }, 'Image Inference (reference server)'));
		const detect = (n: WorkflowJson['nodes'][number]) =>
			n.name === 'Detect objects' ? { ...n, parameters: { ...n.parameters, modelId: SYNTHETIC_DETECT_MODEL } } : n;
		const [id] = await home.importWorkflows({ ...WORKFLOW, nodes: WORKFLOW.nodes.map(detect) });
		await home.cli(['publish:workflow', `--id=${id}`]);
		const main = await home.start();
		const url = `${main.url}/webhook/${WEBHOOK_PATH}`;
		let workers: N8nServer[] = [];
		for (const count of options.counts) {
			workers = await Promise.all(
				Array.from({ length: count }, () => home.start({ command: 'worker', env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(WORKER_CONCURRENCY) } })),
			);
			try {
				await postUploads(url, uploads, count * 2); // a warm-up: every worker has run the node once
				const cpuBefore = [main, ...workers].map((server) => cpuSeconds(server.process.pid));
				const started = Date.now();
				const answered = await postUploads(url, uploads, options.uploads);
				const wallMs = Date.now() - started;
				const cpuAfter = [main, ...workers].map((server) => cpuSeconds(server.process.pid));
				const ids = answered.filter((r) => r.status === 200).map((r) => r.headers.get('x-execution-id'));
				results.push({
					workers: count,
					count: options.uploads,
					wallMs,
					idealMs: Math.ceil(options.uploads / (count * WORKER_CONCURRENCY)) * options.latencyMs,
					lost: answered.filter((r) => r.status !== 200).length,
					duplicated: ids.length - new Set(ids).size,
					wrong: answered.filter((r) => r.status === 200 && !r.body.equals(answers[r.input].annotated)).length,
					mainCpuS: cpuAfter[0] - cpuBefore[0],
					workersCpuS: cpuAfter.slice(1).reduce((sum, cpu, index) => sum + cpu - cpuBefore[index + 1], 0),
				});
			} finally {
				for (const worker of workers) await worker.stop();
			}
		}
	} finally {
		await home.dispose();
		await service.close();
		await queue.stop();
	}
	return results;
}
