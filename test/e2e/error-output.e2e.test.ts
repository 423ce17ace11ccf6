/**
 * On Error "Continue (using error output)" in real n8n: failed items leave by the node's error
 * output into a node of their own, good items by the success output. n8n's engine does the
 * routing (n8n-core's WorkflowExecute, `handleNodeErrorOutput`); these tests read n8n's run data.
 */
import * as fs from 'fs';
import * as path from 'path';

import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	code,
	createN8nHome,
	e2eVersions,
	fixture,
	imageInference,
	imageInferenceCredential,
	manualTrigger,
	node,
	nodeItems,
	readFile,
	startScriptedOpenAi,
	toolMessages,
	workflow,
	type ExecuteResult,
	type N8nHome,
	type NodeJson,
	type ScriptedOpenAi,
	type WorkflowJson,
} from './lib';

const CREDENTIAL_ID = 'credErrorOut0001';
/** What a failed item says of the 503 its model answers after both attempts, on either output. */
const OVERLOADED = {
	message: 'The service failed (503 Service Unavailable) (gave up after 2 attempts)',
	description: 'The service said: overloaded',
	httpCode: '503',
	status: 503,
	code: 'server_error',
	details: [],
	attempts: 2,
};
const AGENT_WORKFLOW = path.join(__dirname, 'workflows', 'agent-image-inference.json');

describe.each(e2eVersions())('the error output in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let model: ScriptedOpenAi;
	let photoUrl = '';
	const ids = { errorOutput: '', regularOutput: '', agentToolErrorOutput: '', agentToolRegularOutput: '' };
	/** Models the faults target: each answers as the default detect model until a fault says otherwise. */
	const models = { overloaded: '', unreadable: '', slow: '' };

	const run = async (key: keyof typeof ids): Promise<ExecuteResult> => {
		const res = await home.execute(ids[key]);
		if (!res.ok) throw new Error(`workflow ${key} failed in n8n: ${res.error}\n${res.stdout.slice(-2000)}`);
		return res;
	};

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
		models.overloaded = server.registerModel('detect');
		models.unreadable = server.registerModel('detect');
		models.slow = server.registerModel('detect');
		home = await createN8nHome({ version });
		await home.importCredentials([imageInferenceCredential(CREDENTIAL_ID, { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' })]);

		const cases = [
			{ case: 'good 1', modelId: server.models.detect },
			{ case: 'bad input', modelId: 'not-a-model' },
			{ case: 'good 2', modelId: server.models.detect },
			{ case: '503', modelId: models.overloaded },
			{ case: 'unreadable answer', modelId: models.unreadable },
			{ case: 'good 3', modelId: server.models.detect },
			{ case: '404', modelId: '0f0e0d0c-0b0a-4908-8706-050403020100' },
			{ case: 'time-out', modelId: models.slow, timeout: 1000 },
			{ case: 'not an image', modelId: server.models.detect, file: 'text' },
			{ case: 'missing binary', modelId: server.models.detect, file: 'none' },
		];
		const build = (name: string, settings: Pick<NodeJson, 'onError'>) =>
			workflow(
				name,
				[
					manualTrigger(),
					readFile('Read car', fixture('car.jpg')),
					code(
						'Items',
						`const car = $('Read car').first().binary;\n` +
							`const text = { data: { data: Buffer.from('not a photo').toString('base64'), mimeType: 'text/plain', fileName: 'notes.txt' } };\n` +
							`return ${JSON.stringify(cases)}.map((json) => (json.file === 'none' ? { json } : { json, binary: json.file === 'text' ? text : car }));`,
					),
					imageInference(
						'Detect',
						{ operation: 'detect', modelId: '={{ $json.modelId }}', imageSource: 'binary', binaryPropertyName: 'data', options: { retries: 1, timeout: '={{ $json.timeout ?? 60000 }}' } },
						CREDENTIAL_ID,
						settings,
					),
					node('Found', 'n8n-nodes-base.noOp', {}),
					node('Handle failure', 'n8n-nodes-base.noOp', {}),
				],
				[
					['Start', 'Read car'],
					['Read car', 'Items'],
					['Items', 'Detect'],
					['Detect', 'Found', 0],
					['Detect', 'Handle failure', 1],
				],
			);
		const [errorOutput, regularOutput] = await home.importWorkflows([
			build('e2e error output', { onError: 'continueErrorOutput' }),
			build('e2e regular output', { onError: 'continueRegularOutput' }),
		]);
		Object.assign(ids, { errorOutput, regularOutput });

		photoUrl = server.hostImage(fs.readFileSync(fixture('car.jpg')), 'image/jpeg');
		model = await startScriptedOpenAi({ script: () => ({ content: 'unused' }) });
		await home.importCredentials([
			imageInferenceCredential('agentImgInfCred1', { baseUrl: server.url, apiKey: server.apiKey }, 'Image Inference account'),
			{ id: 'agentOpenAiCred1', name: 'Scripted OpenAI-compatible endpoint', type: 'openAiApi', data: { apiKey: model.apiKey, url: model.baseUrl, header: false } },
		]);
		const agent = JSON.parse(
			fs.readFileSync(AGENT_WORKFLOW, 'utf8').replace('__IMAGE_URL__', photoUrl).replace('__MODEL_ID__', server.models.detect),
		) as WorkflowJson;
		// AI Agent 3.1 is 2.x's; 1.x's newest is 3 (the same tools agent)
		if (home.install.major < 2) agent.nodes.find((n) => n.name === 'AI Agent')!.typeVersion = 3;
		const withToolOnError = ({ onError }: Pick<NodeJson, 'onError'>) => {
			const copy = { ...structuredClone(agent), id: undefined, name: `${agent.name} (tool On Error: ${onError})` };
			copy.nodes.find((n) => n.name === 'Image Inference')!.onError = onError;
			return copy;
		};
		const [agentToolErrorOutput, agentToolRegularOutput] = await home.importWorkflows([
			withToolOnError({ onError: 'continueErrorOutput' }),
			withToolOnError({ onError: 'continueRegularOutput' }),
		]);
		Object.assign(ids, { agentToolErrorOutput, agentToolRegularOutput });
	});

	afterAll(async () => {
		await model?.close();
		await home?.dispose();
		await server?.close();
	});

	beforeEach(() => {
		server.clearFaults();
		server.addFault({ match: { modelId: models.overloaded }, action: { type: 'status', status: 503, body: 'overloaded' } });
		server.addFault({ match: { modelId: models.unreadable }, action: { type: 'malformed-json' } });
		server.addFault({ match: { modelId: models.slow }, action: { type: 'delay', ms: 5000 } });
		server.requests.splice(0);
	});

	it('failed items reach the error branch alone, with their fields and pairing; good items the success branch, in order', async () => {
		const { run: r } = await run('errorOutput');
		const failed = nodeItems(r!, 'Handle failure');
		expect(failed.map((item) => item.json.case)).toEqual(['bad input', '503', 'unreadable answer', '404', 'time-out', 'not an image', 'missing binary']);
		// n8n puts the failed input item's fields under the node's error fields, and keeps the pairing
		expect(nodeItems(r!, 'Detect', { output: 1 }).map((item) => item.pairedItem)).toEqual([1, 3, 4, 6, 7, 8, 9].map((item) => ({ item })));
		expect(failed.map((item) => item.json.error)).toEqual([
			{
				message: expect.stringMatching(/Model ID "not-a-model" is not a UUID/),
				description: expect.any(String),
				httpCode: null,
				status: null,
				code: 'invalid_parameter',
				details: [],
				attempts: 0,
			},
			OVERLOADED,
			{
				message: expect.stringMatching(/answer could not be read: the 200 answer is not JSON/),
				description: expect.any(String),
				httpCode: null,
				status: null,
				code: 'invalid_response',
				details: [],
				attempts: 1,
			},
			{
				message: 'Model 0f0e0d0c-0b0a-4908-8706-050403020100 was not found (404 Not Found)',
				description: expect.any(String),
				httpCode: '404',
				status: 404,
				code: expect.any(String),
				details: [],
				attempts: 1,
			},
			{
				message: 'The service did not answer within 1000 ms (gave up after 2 attempts)',
				description: expect.any(String),
				httpCode: null,
				status: null,
				code: 'timeout',
				details: [],
				attempts: 2,
			},
			expect.objectContaining({ message: expect.stringMatching(/not an image/i), status: null, code: 'invalid_image', attempts: 0 }),
			expect.objectContaining({ message: expect.stringMatching(/No binary field "data"/), status: null, code: 'invalid_image', attempts: 0 }),
		]);
		// each failed item carries its input's file (none for the item that had none), to forward it
		expect(failed.map((item) => item.binary?.data?.fileName ?? null)).toEqual(['car.jpg', 'car.jpg', 'car.jpg', 'car.jpg', 'car.jpg', 'notes.txt', null]);

		const found = nodeItems(r!, 'Found');
		expect(nodeItems(r!, 'Detect', { output: 0 }).map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }, { item: 5 }]);
		expect(found).toHaveLength(3);
		for (const item of found) {
			expect(item.json).toMatchObject({ fileName: 'car.jpg', totalDetections: expect.any(Number), detections: expect.any(Array) });
			expect(item.json.error).toBeUndefined();
		}
		// the good three, the 503 and the time-out twice (Retries 1), the unreadable answer and the 404
		// once; the bad id, the text file and the missing binary never left
		expect(server.requests).toHaveLength(9);
	});

	it('with Continue (using regular output) every item stays in the one output, in its place, a failed one in the same shape as on the error output', async () => {
		const { run: r } = await run('regularOutput');
		const items = nodeItems(r!, 'Found');
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((item) => ({ item })));
		expect(items[3].json).toEqual({
			case: '503',
			modelId: models.overloaded,
			error: OVERLOADED,
		});
		expect(items[3].binary?.data?.fileName).toBe('car.jpg');
		const errorOf = (index: number) => items[index].json.error as { message: string; code: string | null };
		expect([errorOf(1).message, errorOf(4).code]).toEqual([expect.stringMatching(/not a UUID/), 'invalid_response']);
		expect(r!.data.resultData.runData['Handle failure']).toBeUndefined();
	});

	it('as an AI Agent\'s tool: with Continue (using error output) n8n hands the agent nothing, even for a call that worked; Continue (using regular output) returns the result', async () => {
		// n8n's handleNodeErrorOutput counts a tool's main outputs: it has none but the error output n8n
		// adds, so the loop over its success outputs never runs and output 0 becomes the (empty) error items
		const toolResults: string[] = [];
		for (const key of ['agentToolRegularOutput', 'agentToolErrorOutput'] as const) {
			model.setScript((_request, turn) =>
				turn === 0
					? { toolCalls: [{ name: 'Image_Inference', arguments: { modelId: server.models.detect, imageUrl: photoUrl, confidence: 0.3 } }] }
					: { content: 'done' },
			);
			model.requests.splice(0);
			server.requests.splice(0);
			await run(key);
			expect(server.requests.map((request) => request.status)).toEqual([200]);
			toolResults.push(toolMessages(model.completions()[1].body)[0].content);
		}
		const [regular, errorOutput] = toolResults;
		expect(JSON.parse(regular)).toEqual([expect.objectContaining({ totalDetections: expect.any(Number), countsByLabel: expect.any(Object) })]);
		expect(JSON.parse(errorOutput)).toBe('');
	});
});
