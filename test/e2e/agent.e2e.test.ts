/**
 * A real AI Agent in real n8n uses the node as its tool: Manual Trigger → AI Agent with n8n's
 * OpenAI Chat Model, whose credential points at a scripted OpenAI-compatible endpoint on
 * 127.0.0.1 (./lib/scripted-openai), and Image Inference attached as its tool with parameters
 * filled by the model through $fromAI (workflows/agent-image-inference.json). The scripted model
 * calls the tool first, then sums up what the tool returned. Assertions read what reached the
 * reference server, what n8n sent to the model (the endpoint's log) and n8n's own run data.
 */
import * as fs from 'fs';
import * as path from 'path';

import { detectRequestSchema } from '../../nodes/ImageInference/contract';
import { TOOL_DESCRIPTIONS } from '../../nodes/ImageInference/actions/tool.description';
import { MAX_TOOL_DETECTIONS, MAX_TOOL_RESULT_CHARS } from '../../nodes/ImageInference/output/toolResult';
import { crowdedScene } from '../harness/crowdedScene';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	createN8nHome,
	e2eVersions,
	fixture,
	imageInferenceCredential,
	nodeItems,
	nodeRuns,
	startScriptedOpenAi,
	toolMessages,
	type ChatRequest,
	type ExecuteResult,
	type N8nHome,
	type ScriptedOpenAi,
	type WorkflowJson,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const UNKNOWN_MODEL = '00000000-0000-4000-8000-00000000beef';
const TOOL_NAME = 'Image_Inference';
/** A run of base64 text long enough to be image data. */
const BASE64_RUN = /[A-Za-z0-9+/]{120,}/;
const WORKFLOW = path.join(__dirname, 'workflows', 'agent-image-inference.json');

type Detection = { label: string; confidence: number; x: number; y: number; width: number; height: number };
type ToolResult = {
	totalDetections?: number;
	countsByLabel?: Record<string, number>;
	detections?: Detection[];
	detectionsNotListed?: number;
	error?: string;
	description?: string;
	status?: number;
};

/** The scripted model: call the tool with these arguments, then sum up whatever the tool returned. */
function callToolThenSumUp(args: Record<string, unknown>) {
	return (request: ChatRequest, turn: number) => {
		if (turn === 0) return { toolCalls: [{ name: TOOL_NAME, arguments: args }] };
		const [message] = toolMessages(request);
		if (!message) throw new Error('the second request carries no tool result');
		const parsed = JSON.parse(message.content) as ToolResult | ToolResult[];
		const result = Array.isArray(parsed) ? parsed[0] : parsed;
		if (result.error) return { content: `The detection failed: ${result.error}` };
		const counts = Object.entries(result.countsByLabel ?? {}).map(([label, count]) => `${count} ${label}`);
		return { content: `I found ${result.totalDetections} objects: ${counts.join(', ')}.` };
	};
}

describe.each(e2eVersions())('An AI Agent uses Image Inference as its tool in real n8n %s', (version) => {
	let server: ReferenceServer;
	let model: ScriptedOpenAi;
	let home: N8nHome;
	let photoUrl: string;
	let workflowId: string;
	/** The same workflow with the tool's On Error set to Continue (regular output). */
	let continuingWorkflowId: string;
	/** The same workflow with the tool's On Error stored as Stop Workflow. */
	let stoppingWorkflowId: string;
	/** Every request the model endpoint received, kept in the n8n folder's logs/ with N8N_E2E_KEEP=1. */
	const modelLog: unknown[] = [];

	beforeAll(async () => {
		server = await startReferenceServer({});
		model = await startScriptedOpenAi({ script: () => ({ content: 'unused' }) });
		home = await createN8nHome({ version });
		photoUrl = server.hostImage(CAR, 'image/jpeg');
		await home.importCredentials([
			imageInferenceCredential('agentImgInfCred1', { baseUrl: server.url, apiKey: server.apiKey }, 'Image Inference account'),
			{
				id: 'agentOpenAiCred1',
				name: 'Scripted OpenAI-compatible endpoint',
				type: 'openAiApi',
				data: { apiKey: model.apiKey, url: model.baseUrl, header: false },
			},
		]);
		const text = fs
			.readFileSync(WORKFLOW, 'utf8')
			.replace('__IMAGE_URL__', photoUrl)
			.replace('__MODEL_ID__', server.models.detect);
		const wf = JSON.parse(text) as WorkflowJson;
		// AI Agent 3.1 is 2.x's; 1.x's newest is 3 (the same tools agent)
		if (home.install.major < 2) wf.nodes.find((n) => n.name === 'AI Agent')!.typeVersion = 3;
		[workflowId] = await home.importWorkflows(wf);
		// each variant is its own workflow: without an id of its own, an import would replace the first
		const continuing = { ...structuredClone(wf), id: undefined };
		continuing.name = `${wf.name} (tool On Error: Continue)`;
		continuing.nodes.find((n) => n.name === 'Image Inference')!.onError = 'continueRegularOutput';
		[continuingWorkflowId] = await home.importWorkflows(continuing);
		const stopping = { ...structuredClone(wf), id: undefined };
		stopping.name = `${wf.name} (tool On Error: Stop Workflow, stored)`;
		stopping.nodes.find((n) => n.name === 'Image Inference')!.onError = 'stopWorkflow';
		[stoppingWorkflowId] = await home.importWorkflows(stopping);
	});

	afterEach(() => {
		modelLog.push(...model.requests);
	});

	afterAll(async () => {
		if (home) fs.writeFileSync(path.join(home.logsDir, 'scripted-openai-requests.json'), JSON.stringify(modelLog, null, 2));
		await home?.dispose();
		await model?.close();
		await server?.close();
	});

	beforeEach(() => {
		server.clearFaults();
		server.requests.splice(0);
		model.requests.splice(0);
	});

	const runAgent = async (id = workflowId): Promise<{ res: ExecuteResult; output: string }> => {
		const res = await home.execute(id);
		if (!res.ok) throw new Error(`the agent workflow failed in n8n: ${res.error}\n${res.stdout.slice(-3000)}`);
		const [item] = nodeItems(res.run!, 'AI Agent');
		return { res, output: String(item.json.output) };
	};

	it('calls the tool with the arguments the model filled in, gets compact JSON back and reports the counts', async () => {
		model.setScript(callToolThenSumUp({ modelId: server.models.detect, imageUrl: photoUrl, confidence: 0.3 }));
		const { res, output } = await runAgent();

		// what reached the service: the contract's request, filled by the model through $fromAI
		expect(server.requests).toHaveLength(1);
		const [sent] = server.requests;
		expect(sent.path).toBe(`/predict/detect/${server.models.detect}/`);
		expect(sent.headers['x-api-key']).toBe(server.apiKey);
		expect(sent.body).toEqual({ image: photoUrl, confidence: 0.3, annotate: false });
		expect(detectRequestSchema.safeParse(sent.body).success).toBe(true);
		expect(sent.status).toBe(200);

		// what n8n sent to the model: one tool, our description, the $fromAI parameters as its schema
		const [first, second] = model.completions();
		expect(model.completions()).toHaveLength(2);
		expect(first.body.tools).toHaveLength(1);
		const tool = first.body.tools![0].function;
		expect(tool.name).toBe(TOOL_NAME);
		expect(tool.description).toBe(TOOL_DESCRIPTIONS.detect);
		expect(tool.parameters?.properties).toMatchObject({
			modelId: { type: 'string', description: 'UUID of the deployed object-detection model' },
			imageUrl: { type: 'string', description: 'http(s) address of the photo' },
			confidence: { type: 'number', description: 'Leave out detections below this confidence, from 0 to 1' },
		});
		expect([...(tool.parameters?.required ?? [])].sort()).toEqual(['confidence', 'imageUrl', 'modelId']);
		expect(JSON.stringify(first.body.messages)).toContain(photoUrl);

		// what the model got back: the tool's compact JSON, no image
		const [result] = toolMessages(second.body);
		expect(result.toolCallId).toBe('call_0_0');
		const expected = server.predict('detect', CAR, { confidence: 0.3 });
		expect(expected.labelsCount.map(({ label }) => label)).toContain('car');
		expect(JSON.parse(result.content)).toEqual([
			{
				totalDetections: expected.detections.length,
				countsByLabel: Object.fromEntries(expected.labelsCount.map(({ label, total }) => [label, total])),
				detections: [...expected.detections].sort((a, b) => b.confidence - a.confidence),
				detectionsNotListed: 0,
			},
		]);
		expect(result.content).not.toMatch(BASE64_RUN);
		expect(result.content).not.toContain(expected.image!.slice(0, 40));

		// the agent's answer carries the counts
		expect(output).toContain(`I found ${expected.detections.length} objects`);
		for (const { label, total } of expected.labelsCount) expect(output).toContain(`${total} ${label}`);
		expect(nodeRuns(res.run!, 'Image Inference')).toHaveLength(1);
	});

	it(`a 50-object image: the tool result stays compact (at most ${MAX_TOOL_RESULT_CHARS} characters), the counts complete`, async () => {
		const annotated = server.predict('detect', CAR, {}).image!;
		const scene = crowdedScene(50, annotated);
		server.addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: scene } });
		model.setScript(callToolThenSumUp({ modelId: server.models.detect, imageUrl: photoUrl, confidence: 0.3 }));
		const { output } = await runAgent();

		expect(server.requests).toHaveLength(1);
		const [result] = toolMessages(model.completions()[1].body);
		const [json] = JSON.parse(result.content) as ToolResult[];
		expect(json.totalDetections).toBe(50);
		expect(json.countsByLabel).toEqual(Object.fromEntries(scene.labelsCount.map(({ label, total }) => [label, total])));
		expect(json.detections).toHaveLength(MAX_TOOL_DETECTIONS);
		expect(json.detectionsNotListed).toBe(50 - MAX_TOOL_DETECTIONS);
		expect(result.content.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + 2); // n8n wraps the item in [ ]
		expect(result.content).not.toMatch(BASE64_RUN);
		expect(result.content).not.toContain(annotated.slice(0, 40));
		process.stderr.write(
			`[e2e] n8n ${version}: the tool result for a 50-object image reached the model as ${result.content.length} characters ` +
				`(the service's answer was ${JSON.stringify(scene).length}, its annotated image ${annotated.length} of base64)\n`,
		);

		expect(output).toContain('I found 50 objects');
		for (const { label, total } of scene.labelsCount) expect(output).toContain(`${total} ${label}`);
	});

	it('On Error at Stop Workflow: the node raises the error; stored, the workflow stops; not stored, n8n decides', async () => {
		const message = `Model ${UNKNOWN_MODEL} was not found (404 Not Found)`;
		const failingCall = async (id: string) => {
			server.requests.splice(0);
			model.requests.splice(0);
			model.setScript(callToolThenSumUp({ modelId: UNKNOWN_MODEL, imageUrl: photoUrl, confidence: 0.3 }));
			const res = await home.execute(id);
			expect(server.requests).toHaveLength(1);
			return res;
		};
		// stored as Stop Workflow: the run stops with the node's error, on both lines
		const stored = await failingCall(stoppingWorkflowId);
		expect(stored.ok).toBe(false);
		expect(String(stored.error)).toContain(message);
		expect(model.completions()).toHaveLength(1);
		// nothing stored (the editor shows Stop Workflow): 1.x stops; 2.x gives the agent the error's message itself
		const unset = await failingCall(workflowId);
		if (home.install.major >= 2) {
			expect(unset.ok).toBe(true);
			expect(JSON.parse(toolMessages(model.completions()[1].body)[0].content)).toEqual([{ error: message }]);
		} else {
			expect(unset.ok).toBe(false);
			expect(String(unset.error)).toContain(message);
		}
	});

	it('On Error at Continue: a failing call (unknown model, 404) comes back to the model as a readable error; the workflow finishes', async () => {
		model.setScript(callToolThenSumUp({ modelId: UNKNOWN_MODEL, imageUrl: photoUrl, confidence: 0.3 }));
		const { res, output } = await runAgent(continuingWorkflowId);

		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].path).toBe(`/predict/detect/${UNKNOWN_MODEL}/`);
		expect(server.requests[0].status).toBe(404);
		expect(model.completions()).toHaveLength(2);
		const [result] = toolMessages(model.completions()[1].body);
		const error = `Model ${UNKNOWN_MODEL} was not found (404 Not Found)`;
		expect(JSON.parse(result.content)).toEqual([
			{ error, description: expect.stringContaining('Check that the Model ID is right'), status: 404 },
		]);
		expect(output).toBe(`The detection failed: ${error}`);
		expect(res.run!.data.resultData.error).toBeUndefined();
	});
});
