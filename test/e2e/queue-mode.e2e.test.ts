/**
 * The package in n8n's queue mode (distributed execution, as documented): PostgreSQL and Redis from
 * Debian's packages started by this test on loopback (test/e2e/lib/services.ts), one main
 * (`n8n start`, EXECUTIONS_MODE=queue) that receives webhooks and two workers (`n8n worker`) that
 * run the executions, all sharing the database, Redis, the encryption key and one user folder (where
 * the packed package is installed in .n8n/nodes, so every process loads it). Binary data in n8n
 * 2.x's queue-mode default, the database (set explicitly: N8N_DEFAULT_BINARY_DATA_MODE=database),
 * so the image the main receives is readable by whichever worker runs the execution, and the
 * annotated image the worker produces is readable by the main that answers the webhook.
 *
 * A published webhook workflow (test/e2e/workflows/queue-webhook-detect.json: Webhook POST with the
 * image as binary → Image Inference Detect → Respond to Webhook with the annotated image) gets 60
 * images at once on its production URL. Every response must carry the annotated image the reference
 * server produces for THAT input (server.predict('detect', bytes, {}).image), no request may be
 * lost, and the executions must have run on both workers: each worker logs
 * "Worker started execution <id>", and each response names its execution id (x-execution-id).
 */
import * as fs from 'fs';
import * as path from 'path';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { createN8nHome, fixture, imageInferenceCredential, type N8nHome, type N8nServer, type WorkflowJson } from './lib';
import { queueModeEnv, startQueueServices, type QueueServices } from './lib/services';
import { postUploads, type Upload } from './lib/uploads';

const REQUESTS = 60;
const WORKFLOW = JSON.parse(
	fs.readFileSync(path.join(__dirname, 'workflows', 'queue-webhook-detect.json'), 'utf8'),
) as WorkflowJson;
const CREDENTIAL_ID = 'queueImgInfCred1';
const WEBHOOK_PATH = 'image-inference-queue';

/** car.jpg and dog.jpg, and variants of each (mirrored, darker): six inputs with six different answers. */
function uploads(): Upload[] {
	const out: Upload[] = [];
	for (const base of ['car', 'dog']) {
		const bytes = fs.readFileSync(fixture(`${base}.jpg`));
		out.push({ name: `${base}.jpg`, bytes });
		const img = decodeImage(bytes);
		const mirrored = Buffer.alloc(img.data.length);
		const dark = Buffer.from(img.data);
		for (let y = 0; y < img.height; y++) {
			for (let x = 0; x < img.width; x++) {
				const from = (y * img.width + x) * 4;
				const to = (y * img.width + (img.width - 1 - x)) * 4;
				img.data.copy(mirrored, to, from, from + 4);
				for (let c = 0; c < 3; c++) dark[from + c] = Math.round(dark[from + c] * 0.7);
			}
		}
		out.push({ name: `${base}-mirrored.jpg`, bytes: encodeImage({ width: img.width, height: img.height, data: mirrored }, 'jpeg') });
		out.push({ name: `${base}-dark.jpg`, bytes: encodeImage({ width: img.width, height: img.height, data: dark }, 'jpeg') });
	}
	return out;
}

describe('Image Inference in n8n queue mode (main + 2 workers, Postgres, Redis)', () => {
	let services: QueueServices | undefined;
	let server: ReferenceServer | undefined;
	let home: N8nHome | undefined;
	let main: N8nServer;
	let workers: N8nServer[] = [];
	let workflowId: string;

	beforeAll(async () => {
		const t0 = Date.now();
		services = await startQueueServices();
		server = await startReferenceServer({ latencyMs: 40 });
		home = await createN8nHome({
			// every process of this home talks only to this Redis and this Postgres
			env: { ...queueModeEnv(services.pg, services.redis, 'bull-e2e'), EXECUTIONS_DATA_PRUNE: 'false' },
		});
		await home.importCredentials(
			imageInferenceCredential(CREDENTIAL_ID, { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' }, 'Image Inference (reference server)'),
		);
		const wf: WorkflowJson = {
			...WORKFLOW,
			nodes: WORKFLOW.nodes.map((n) =>
				n.name === 'Detect objects' ? { ...n, parameters: { ...n.parameters, modelId: server!.models.detect } } : n,
			),
		};
		[workflowId] = await home.importWorkflows(wf);
		await home.cli(['publish:workflow', `--id=${workflowId}`]);
		const t1 = Date.now();
		main = await home.start();
		workers = await Promise.all([
			home.start({ command: 'worker', logFile: path.join(home.logsDir, 'worker-1.log') }),
			home.start({ command: 'worker', logFile: path.join(home.logsDir, 'worker-2.log') }),
		]);
		process.stdout.write(
			`[queue e2e] Postgres ${services.pg.port}, Redis ${services.redis.port}, main ${main.port}, workers broker ports ` +
				`${workers.map((w) => w.brokerPort).join('/')}; setup ${((t1 - t0) / 1000).toFixed(1)} s, ` +
				`n8n processes up in ${((Date.now() - t1) / 1000).toFixed(1)} s\n`,
		);
	}, 300_000);

	afterAll(async () => {
		for (const w of workers) await w.stop().catch(() => undefined);
		await home?.dispose();
		await server?.close();
		await services?.stop();
	}, 120_000);

	it(`answers ${REQUESTS} concurrent webhook uploads with each input's annotated image, spread over both workers`, async () => {
		expect(main.process.output()).toMatch(/queue/i);
		for (const w of workers) expect(w.process.output()).toMatch(/n8n worker is now ready/);

		const inputs = uploads();
		expect(new Set(inputs.map((u) => u.bytes.toString('base64'))).size).toBe(inputs.length);
		const expected = inputs.map((u) => {
			const r = server!.predict('detect', u.bytes, {});
			if (!r.image) throw new Error(`the reference server annotated nothing for ${u.name}`);
			return { bytes: Buffer.from(r.image, 'base64'), total: r.detections.length };
		});
		expect(new Set(expected.map((e) => e.bytes.toString('base64'))).size).toBe(inputs.length);

		const url = `${main.url}/webhook/${WEBHOOK_PATH}`;
		const started = Date.now();
		const results = await postUploads(url, inputs, REQUESTS);
		const elapsed = Date.now() - started;

		const failed = results.filter((r) => r.status !== 200);
		expect(failed.map((r) => `#${r.i} ${r.name}: HTTP ${r.status} ${r.body.toString('utf8', 0, 300)}`)).toEqual([]);
		for (const r of results) {
			expect({ i: r.i, type: r.headers.get('content-type') }).toEqual({ i: r.i, type: expect.stringMatching(/^image\/jpeg/) });
			const same = r.body.equals(expected[r.input].bytes);
			expect({ i: r.i, input: inputs[r.input].name, sameBytesAsServer: same }).toEqual({ i: r.i, input: inputs[r.input].name, sameBytesAsServer: true });
			expect(r.headers.get('x-total-detections')).toBe(String(expected[r.input].total));
			expect(r.headers.get('x-file-name')).toBe(r.name.replace(/\.jpg$/, '.annotated.jpg'));
		}

		// which worker ran which execution: each worker's own log, joined on the execution id each response names
		const executionIds = results.map((r) => r.headers.get('x-execution-id') ?? '');
		expect(executionIds.every((id) => /^\d+$/.test(id))).toBe(true);
		expect(new Set(executionIds).size).toBe(REQUESTS);
		const ranBy = workers.map((w) => new Set([...w.process.output().matchAll(/Worker started execution (\d+)/g)].map((m) => m[1])));
		const perWorker = ranBy.map((set) => executionIds.filter((id) => set.has(id)).length);
		const onBoth = executionIds.filter((id) => ranBy[0].has(id) && ranBy[1].has(id));
		expect(onBoth).toEqual([]);
		expect(perWorker[0] + perWorker[1]).toBe(REQUESTS);
		expect(perWorker[0]).toBeGreaterThan(0);
		expect(perWorker[1]).toBeGreaterThan(0);
		expect(main.process.output()).not.toMatch(/Worker started execution/);

		// n8n's own record in Postgres: 60 successful webhook executions of this workflow
		const rows = services!.pg.query(
			`SELECT mode, status, count(*) FROM execution_entity WHERE "workflowId" = '${workflowId}' GROUP BY mode, status`,
		);
		expect(rows).toEqual([['webhook', 'success', String(REQUESTS)]]);
		// the server answered exactly one detect request per upload
		const detectCalls = server!.requests.filter((r) => r.kind === 'detect' && r.status === 200).length;
		expect(detectCalls).toBe(REQUESTS);

		const ms = results.map((r) => r.ms).sort((a, b) => a - b);
		process.stdout.write(
			`[queue e2e] ${REQUESTS} concurrent uploads (${inputs.length} distinct images) answered in ${(elapsed / 1000).toFixed(2)} s ` +
				`(median ${ms[Math.floor(ms.length / 2)]} ms, slowest ${ms[ms.length - 1]} ms); ` +
				`worker 1 ran ${perWorker[0]}, worker 2 ran ${perWorker[1]} executions; binary data mode: database\n`,
		);
	}, 300_000);
});
