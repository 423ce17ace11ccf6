/**
 * Any MCP client uses the node: the example examples/vision-tools-for-mcp-clients.json (MCP Server
 * Trigger with bearer authentication, "Detect objects" and "Classify image" attached as its tools,
 * parameters from $fromAI) is published in real n8n, and the official MCP TypeScript SDK client
 * connects to its production URL over Streamable HTTP on 127.0.0.1. One n8n home, one `n8n start`
 * for every test. Assertions read what the client received, what reached the reference server and
 * n8n's own log.
 */
import * as fs from 'fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { MAX_TOOL_RESULT_CHARS } from '../../nodes/ImageInference/output/toolResult';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	createN8nHome,
	e2eVersions,
	fixture,
	imageInferenceCredential,
	loadExample,
	CREDENTIAL_TYPE,
	TOOL_NODE_TYPE,
	type WorkflowJson,
	type N8nHome,
	type N8nServer,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
const UNKNOWN_MODEL = '00000000-0000-4000-8000-00000000beef';
const EXAMPLE = 'vision-tools-for-mcp-clients.json';
const BEARER_TOKEN = 'mcp-e2e-bearer-token-7f3a9c';
/** A run of base64 text long enough to be image data. */
const BASE64_RUN = /[A-Za-z0-9+/]{120,}/;

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

/** The one text part of a tool result. */
function textOf(result: CallResult): string {
	const texts = result.content.filter((part) => part.type === 'text').map((part) => part.text ?? '');
	expect(texts).toHaveLength(1);
	return texts[0];
}

/** n8n hands a tool's items over as a JSON array; one item here. */
function jsonOf(text: string): Record<string, unknown> {
	const parsed = JSON.parse(text) as unknown;
	return (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
}

describe.each(e2eVersions())('An MCP client uses Image Inference through n8n %s\'s MCP Server Trigger', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let n8n: N8nServer;
	let client: Client;
	let mcpUrl: URL;
	let carUrl: string;
	let dogUrl: string;
	const example = loadExample(EXAMPLE);
	const toolDescription = (name: string) =>
		String(example.nodes.find((n) => n.name === name)!.parameters.toolDescription);
	/** Every text the client received (listings and results), searched for the API key at the end. */
	const received: string[] = [];

	const connect = async (headers: Record<string, string>): Promise<Client> => {
		const c = new Client({ name: 'image-inference-e2e', version: '1.0.0' });
		await c.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers } }));
		return c;
	};
	const callTool = async (name: string, args: Record<string, unknown>): Promise<CallResult> => {
		const result = (await client.callTool({ name, arguments: args })) as CallResult;
		received.push(JSON.stringify(result));
		return result;
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		home = await createN8nHome({ version });
		carUrl = server.hostImage(CAR, 'image/jpeg');
		dogUrl = server.hostImage(DOG, 'image/jpeg');
		await home.importCredentials([
			imageInferenceCredential('mcpImgInfCred1', { baseUrl: server.url, apiKey: server.apiKey }),
			{ id: 'mcpBearerCred1', name: 'MCP bearer token', type: 'httpBearerAuth', data: { token: BEARER_TOKEN } },
		]);
		const wf: WorkflowJson = JSON.parse(JSON.stringify(example));
		for (const tool of wf.nodes.filter((n) => n.type === TOOL_NODE_TYPE)) {
			tool.credentials = { [CREDENTIAL_TYPE]: { id: 'mcpImgInfCred1', name: 'Image Inference mcpImgInfCred1' } };
		}
		const trigger = wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
		trigger.credentials = { httpBearerAuth: { id: 'mcpBearerCred1', name: 'MCP bearer token' } };
		const [id] = await home.importWorkflows(wf);
		if (home.install.major >= 2) await home.cli(['publish:workflow', `--id=${id}`]);
		else await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
		n8n = await home.start({ env: { N8N_LOG_LEVEL: 'debug' } });
		mcpUrl = new URL(`${n8n.url}/mcp/${String(trigger.parameters.path)}`);
		// n8n activates published workflows in the background after it reports ready: 404 until then
		for (let attempt = 0; (await fetch(mcpUrl, { method: 'POST' })).status === 404; attempt++) {
			if (attempt === 60) throw new Error(`the MCP endpoint ${mcpUrl} was never registered`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		client = await connect({ Authorization: `Bearer ${BEARER_TOKEN}` });
	});

	afterAll(async () => {
		await client?.close();
		await home?.dispose();
		await server?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
	});

	it('lists both tools by name, with the description and the input schema an agent reads', async () => {
		const { tools } = await client.listTools();
		received.push(JSON.stringify(tools));
		expect(tools.map((t) => t.name).sort()).toEqual(['Classify_image', 'Detect_objects']);
		for (const [name, node, kind] of [
			['Detect_objects', 'Detect objects', 'object-detection'],
			['Classify_image', 'Classify image', 'image-classification'],
		] as const) {
			const tool = tools.find((t) => t.name === name)!;
			expect(tool.description).toBe(toolDescription(node));
			expect(tool.inputSchema.type).toBe('object');
			expect(tool.inputSchema.properties).toEqual({
				modelId: { type: 'string', description: `UUID of the deployed ${kind} model` },
				imageUrl: { type: 'string', description: 'http(s) address of the photo' },
			});
			expect([...(tool.inputSchema.required ?? [])].sort()).toEqual(['imageUrl', 'modelId']);
		}
	});

	it('Detect_objects on a hosted photo: compact JSON with the right counts, no base64', async () => {
		const result = await callTool('Detect_objects', { modelId: server.models.detect, imageUrl: carUrl });
		expect(result.isError).toBeFalsy();

		expect(server.requests).toHaveLength(1);
		const [sent] = server.requests;
		expect(sent.path).toBe(`/predict/detect/${server.models.detect}/`);
		expect(sent.headers['x-api-key']).toBe(server.apiKey);
		const body = sent.body as { image: string; confidence?: number; annotate?: boolean };
		expect(body.image).toBe(carUrl);
		expect(body.annotate).toBe(false);

		const expected = server.predict('detect', CAR, { confidence: body.confidence });
		expect(expected.labelsCount.map(({ label }) => label)).toContain('car');
		const text = textOf(result);
		expect(jsonOf(text)).toEqual({
			totalDetections: expected.detections.length,
			countsByLabel: Object.fromEntries(expected.labelsCount.map(({ label, total }) => [label, total])),
			detections: [...expected.detections].sort((a, b) => b.confidence - a.confidence),
			detectionsNotListed: 0,
		});
		expect(text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + 2); // n8n wraps the item in [ ]
		expect(text).not.toMatch(BASE64_RUN);
	});

	it('Classify_image is a tool of its own: the photo\'s category', async () => {
		const result = await callTool('Classify_image', { modelId: server.models.classify, imageUrl: dogUrl });
		expect(result.isError).toBeFalsy();
		expect(server.requests.map((r) => r.path)).toEqual([`/predict/classify/${server.models.classify}/`]);
		const expected = server.predict('classify', DOG, {});
		const json = jsonOf(textOf(result));
		expect(json.category).toBe(expected.category);
		expect(json.confidence).toBe(expected.confidence);
		expect(textOf(result)).not.toMatch(BASE64_RUN);
	});

	it('an unknown model id comes back as a readable tool error, and the session goes on', async () => {
		const failed = await callTool('Detect_objects', { modelId: UNKNOWN_MODEL, imageUrl: carUrl });
		expect(server.requests.map((r) => [r.path, r.status])).toEqual([[`/predict/detect/${UNKNOWN_MODEL}/`, 404]]);
		// the example's tools are set to On Error: Continue, so the client reads what to check
		expect(jsonOf(textOf(failed))).toEqual({
			error: `Model ${UNKNOWN_MODEL} was not found (404 Not Found)`,
			description: expect.stringContaining('Check that the Model ID is right'),
			status: 404,
		});

		// the same client, the same session
		const again = await callTool('Detect_objects', { modelId: server.models.detect, imageUrl: carUrl });
		expect(again.isError).toBeFalsy();
		expect(jsonOf(textOf(again)).totalDetections).toBeGreaterThan(0);
		expect((await client.listTools()).tools).toHaveLength(2);
	});

	it('without the bearer token, or with a wrong one, n8n refuses the client and runs nothing', async () => {
		const initialize = {
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'no-token', version: '1' } },
		};
		for (const authorization of [undefined, 'Bearer not-the-token']) {
			const response = await fetch(mcpUrl, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					...(authorization ? { authorization } : {}),
				},
				body: JSON.stringify(initialize),
			});
			expect([401, 403]).toContain(response.status);
			const text = await response.text();
			expect(text).not.toContain('serverInfo');
		}
		await expect(connect({})).rejects.toThrow();
		expect(server.requests).toHaveLength(0);
	});

	it('the service\'s API key is in no listing, no tool result and no line of n8n\'s log', async () => {
		expect(received.length).toBeGreaterThanOrEqual(5);
		expect(received.join('\n')).not.toContain(server.apiKey);
		const log = fs.readFileSync(n8n.logFile, 'utf8');
		expect(log).toContain('MCP'); // the debug log did cover the MCP requests
		expect(log).not.toContain(server.apiKey);
	});
});
