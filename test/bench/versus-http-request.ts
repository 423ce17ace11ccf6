/**
 * Benchmark 2: the same requests through n8n's own HTTP Request node (JSON body with the base64
 * image, batching at the same concurrency) and through this node, in the same real n8n (the e2e
 * harness's install), against the reference server with 100 ms latency. Compares the two nodes'
 * times as the service sees them (first request received to last answer sent): n8n's printed
 * run data would carry 200 base64 images for the HTTP Request node.
 */
import { readFileSync } from 'node:fs';

import { code, createN8nHome, fixture, imageInference, imageInferenceCredential, isInstalled, manualTrigger, node, packPackage, readFile, workflow, DEFAULT_N8N_VERSION } from '../e2e/lib';
import { startReferenceServer } from '../reference-server';

const CONCURRENCY = 10;

export async function compareWithHttpRequestNode(smoke: boolean): Promise<string[][]> {
	const count = smoke ? 20 : 200;
	const label = `2. ${count} requests in real n8n ${DEFAULT_N8N_VERSION}, 100 ms latency, concurrency ${CONCURRENCY}`;
	if (!isInstalled(DEFAULT_N8N_VERSION) && smoke) {
		return [[label, 'skipped: n8n not installed yet (npm run test:e2e installs it)', '', 'not slower']];
	}
	packPackage();
	const server = await startReferenceServer({ apiKey: 'bench-key', latencyMs: 100, defaultModels: 'synthetic' });
	const home = await createN8nHome();
	try {
		const car = fixture('car.jpg');
		server.predict('detect', readFileSync(car), {});
		await home.importCredentials([
			imageInferenceCredential('benchcred0000001', { baseUrl: server.url, apiKey: server.apiKey }),
			{ id: 'benchheader00001', name: 'Bench X-API-Key', type: 'httpHeaderAuth', data: { name: 'X-API-Key', value: server.apiKey } },
		]);
		const fanOut = (withBinary: boolean) =>
			code(
				'Fan Out',
				withBinary
					? `const item = $input.first(); return Array.from({ length: ${count} }, () => ({ json: {}, binary: item.binary }));`
					: `const bytes = await this.helpers.getBinaryDataBuffer(0, 'data'); const image = bytes.toString('base64'); return Array.from({ length: ${count} }, () => ({ json: { image } }));`,
			);
		const httpRequest = node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			{
				method: 'POST',
				url: `${server.url}/predict/detect/${server.models.detect}/`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ image: $json.image }) }}',
				// The HTTP Request node fires a batch without waiting for it, then sleeps the interval:
				// batches of 10 every 100 ms (the latency) is the closest it comes to 10 in flight.
				options: { batching: { batch: { batchSize: CONCURRENCY, batchInterval: 100 } } },
			},
			{ typeVersion: 4.2, credentials: { httpHeaderAuth: { id: 'benchheader00001', name: 'Bench X-API-Key' } } },
		);
		const ours = imageInference(
			'Image Inference',
			{ operation: 'detect', modelId: server.models.detect, imageSource: 'binary', binaryPropertyName: 'data', options: { concurrency: CONCURRENCY } },
			'benchcred0000001',
		);
		const [httpId, oursId] = await home.importWorkflows([
			workflow('Bench HTTP Request', [manualTrigger(), readFile('Read Car', car), fanOut(false), httpRequest]),
			workflow('Bench Image Inference', [manualTrigger(), readFile('Read Car', car), fanOut(true), ours]),
		]);
		/** The node's time as the service saw it: first request received to last answer sent. */
		const timeOf = async (id: string, nodeName: string) => {
			server.requests.splice(0);
			const result = await home.execute(id, { timeoutMs: 600_000 });
			const answered = server.requests.filter((request) => request.status === 200 && request.answeredAt);
			if (answered.length !== count) {
				throw new Error(`${nodeName}: ${answered.length} of ${count} requests answered (exit ${result.exitCode}) ${result.error ?? ''}`);
			}
			return Math.max(...answered.map((request) => request.answeredAt!)) - Math.min(...answered.map((request) => request.at));
		};
		const http = await timeOf(httpId, 'HTTP Request');
		const image = await timeOf(oursId, 'Image Inference');
		const ideal = (count * 100) / CONCURRENCY;
		return [[label, `Image Inference ${(image / 1000).toFixed(2)} s`, `HTTP Request ${(http / 1000).toFixed(2)} s (ideal ${(ideal / 1000).toFixed(2)} s): ${(image / http).toFixed(2)} ×`, 'not slower']];
	} finally {
		await home.dispose();
		await server.close();
	}
}
