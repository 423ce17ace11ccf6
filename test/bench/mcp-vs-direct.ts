/**
 * How long one Detect call takes through n8n's MCP Server Trigger (the official MCP SDK client,
 * Streamable HTTP, bearer auth: examples/vision-tools-for-mcp-clients.json) against the same node
 * run directly in the same n8n process (a Webhook → Image Inference workflow answering with the
 * node's output), and against the service alone. Median of 20 calls each after 2 warm-up calls,
 * one after the other, the reference server's synthetic detect model (no latency), car.jpg by URL.
 *
 * `npm run bench:mcp [-- --version=1.123.81]`; mcpVersusDirectRows() gives the same as table rows.
 */
import { readFileSync } from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import {
	CREDENTIAL_TYPE,
	DEFAULT_N8N_VERSION,
	TOOL_NODE_TYPE,
	createN8nHome,
	fixture,
	imageInference,
	imageInferenceCredential,
	loadExample,
	node,
	workflow,
	type WorkflowJson,
} from '../e2e/lib';
import { startReferenceServer } from '../reference-server';

const CALLS = 20;
const WARM_UP = 2;
const TOKEN = 'bench-mcp-token';

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function timeCalls(call: () => Promise<void>): Promise<number> {
	for (let i = 0; i < WARM_UP; i++) await call();
	const times: number[] = [];
	for (let i = 0; i < CALLS; i++) {
		const start = performance.now();
		await call();
		times.push(performance.now() - start);
	}
	return median(times);
}

export async function mcpVersusDirectRows(version = DEFAULT_N8N_VERSION): Promise<string[][]> {
	const server = await startReferenceServer({ apiKey: 'bench-key', defaultModels: 'synthetic' });
	const home = await createN8nHome({ version });
	let client: Client | undefined;
	try {
		const imageUrl = server.hostImage(readFileSync(fixture('car.jpg')), 'image/jpeg');
		const modelId = server.models.detect;
		await home.importCredentials([
			imageInferenceCredential('benchmcpcred0001', { baseUrl: server.url, apiKey: server.apiKey }),
			{ id: 'benchmcpbearer01', name: 'Bench bearer', type: 'httpBearerAuth', data: { token: TOKEN } },
		]);
		const mcp: WorkflowJson = JSON.parse(JSON.stringify(loadExample('vision-tools-for-mcp-clients.json')));
		for (const n of mcp.nodes) {
			if (n.type === TOOL_NODE_TYPE) n.credentials = { [CREDENTIAL_TYPE]: { id: 'benchmcpcred0001', name: 'Image Inference benchmcpcred0001' } };
			if (n.type.endsWith('.mcpTrigger')) n.credentials = { httpBearerAuth: { id: 'benchmcpbearer01', name: 'Bench bearer' } };
		}
		const direct = workflow('Bench direct detect', [
			node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: 'bench-direct-detect', responseMode: 'lastNode', options: {} }, {
				typeVersion: 2,
				webhookId: 'b3c1d2e4-0000-4000-8000-00000000d1ec',
			}),
			imageInference('Image Inference', { operation: 'detect', modelId, imageSource: 'url', imageUrl: '={{ $json.body.imageUrl }}', options: {} }, 'benchmcpcred0001'),
		]);
		const ids = await home.importWorkflows([mcp, direct]);
		for (const id of ids) {
			if (home.install.major >= 2) await home.cli(['publish:workflow', `--id=${id}`]);
			else await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
		}
		const n8n = await home.start();
		const mcpUrl = new URL(`${n8n.url}/mcp/vision-tools`);
		const webhookUrl = `${n8n.url}/webhook/bench-direct-detect`;
		for (let attempt = 0; (await fetch(mcpUrl, { method: 'POST' })).status === 404; attempt++) {
			if (attempt === 60) throw new Error(`the MCP endpoint ${mcpUrl} was never registered`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		client = new Client({ name: 'bench', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));

		const viaMcp = await timeCalls(async () => {
			const result = (await client!.callTool({ name: 'Detect_objects', arguments: { modelId, imageUrl } })) as { content: Array<{ text?: string }> };
			if (!result.content[0]?.text?.includes('totalDetections')) throw new Error(`MCP call failed: ${JSON.stringify(result)}`);
		});
		const viaWebhook = await timeCalls(async () => {
			const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ imageUrl }) });
			const text = await response.text();
			if (response.status !== 200 || !text.includes('detections')) throw new Error(`webhook call failed: ${response.status} ${text.slice(0, 300)}`);
		});
		const serviceAlone = await timeCalls(async () => {
			const response = await fetch(`${server.url}/predict/detect/${modelId}/`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
				body: JSON.stringify({ image: imageUrl, annotate: false }),
			});
			if (response.status !== 200) throw new Error(`service call failed: ${response.status}`);
			await response.text();
		});
		const ms = (value: number) => `${value.toFixed(0)} ms`;
		return [
			[
				`MCP tool call vs direct node run, n8n ${version} (median of ${CALLS}, synthetic model)`,
				`MCP ${ms(viaMcp)}`,
				`direct (Webhook → node) ${ms(viaWebhook)}: ${(viaMcp / viaWebhook).toFixed(2)} ×; service alone ${ms(serviceAlone)}`,
				'measured only',
			],
		];
	} finally {
		await client?.close();
		await home.dispose();
		await server.close();
	}
}

if (require.main === module) {
	const version = process.argv.find((arg) => arg.startsWith('--version='))?.slice('--version='.length);
	mcpVersusDirectRows(version)
		.then((rows) => {
			for (const row of rows) console.log(`| ${row.join(' | ')} |`);
			process.exit(0);
		})
		.catch((error: unknown) => {
			console.error(error);
			process.exit(1);
		});
}
