/**
 * A person sends a photo to n8n's chat and asks what is in it: examples/chat-with-your-photos.json
 * (public Chat Trigger with file uploads → AI Agent with Detect objects and Classify photo as
 * tools) in real n8n, published, driven over HTTP as n8n's chat widget does (@n8n/chat: a
 * multipart POST to /webhook/<id>/chat with action, sessionId, chatInput and each file as
 * `files`). The chat model is the scripted OpenAI-compatible endpoint (./lib/scripted-openai): it
 * calls Detect objects, then answers from what the tool returned. The tool reads the photo from
 * the chat message the agent answers (n8n passes tools no binary): assertions read what reached
 * the reference server, what n8n sent to the model, the chat's answer and n8n's log.
 */
import * as fs from 'fs';

import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	TOOL_NODE_TYPE,
	createN8nHome,
	e2eVersions,
	fixture,
	imageInferenceCredential,
	loadExample,
	startScriptedOpenAi,
	toolMessages,
	type ChatRequest,
	code,
	manualTrigger,
	node,
	nodeItems,
	readFile,
	workflow,
	type N8nHome,
	type N8nServer,
	type NodeJson,
	type ScriptedOpenAi,
	type WorkflowJson,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
const BASE64_RUN = /[A-Za-z0-9+/]{120,}/;
const TRIGGER = 'When chat message received';

type Result = { totalDetections?: number; countsByLabel?: Record<string, number>; error?: string; description?: string };

/** The scripted model: ask Detect objects, then say what it found in each photo (or why it could not). */
function detectThenAnswer(request: ChatRequest) {
	const [message] = toolMessages(request);
	if (!message) return { toolCalls: [{ name: 'Detect_objects', arguments: {} }] };
	const parsed = JSON.parse(message.content) as Result | Result[];
	const results = Array.isArray(parsed) ? parsed : [parsed];
	if (results[0].error) return { content: `I could not look at a photo: ${results[0].error}` };
	const lines = results.map(
		(result, index) =>
			`Photo ${index + 1}: ${Object.entries(result.countsByLabel ?? {})
				.map(([label, count]) => `${count} ${label}`)
				.join(', ')}.`,
	);
	return { content: lines.join(' ') };
}

describe.each(e2eVersions())('A chat photo reaches the Image Inference tool in real n8n %s', (version) => {
	let server: ReferenceServer;
	let model: ScriptedOpenAi;
	let home: N8nHome;
	let n8n: N8nServer;
	let chatUrl: string;
	/**
	 * Two photos as two items into one AI Agent run, each with the same data `{}` (as HTTP Request
	 * downloads give): Read Files (car.jpg, dog.jpg) → Code → AI Agent with the same tools; and the
	 * same with the Edit Fields node the tool's error offers between the Code node and the agent.
	 */
	let alikeItemsId: string;
	let twoItemsId: string;

	beforeAll(async () => {
		server = await startReferenceServer({});
		model = await startScriptedOpenAi({ script: detectThenAnswer });
		home = await createN8nHome({ version });
		await home.importCredentials([
			imageInferenceCredential('chatImgInfCred1', { baseUrl: server.url, apiKey: server.apiKey }, 'Image Inference account'),
			{ id: 'chatOpenAiCred1', name: 'Scripted OpenAI-compatible endpoint', type: 'openAiApi', data: { apiKey: model.apiKey, url: model.baseUrl, header: false } },
		]);
		const example = loadExample('chat-with-your-photos.json');
		const wf: WorkflowJson = {
			...example,
			nodes: example.nodes.map((n) => {
				if (n.type === TOOL_NODE_TYPE) {
					const modelId = n.parameters.operation === 'detect' ? server.models.detect : server.models.classify;
					return { ...n, parameters: { ...n.parameters, modelId: { __rl: true, mode: 'id', value: modelId } }, credentials: { imageInferenceApi: { id: 'chatImgInfCred1', name: 'Image Inference account' } } };
				}
				if (n.name === 'OpenAI Chat Model') {
					return {
						...n,
						parameters: { ...n.parameters, model: { __rl: true, mode: 'id', value: 'scripted-model' } },
						credentials: { openAiApi: { id: 'chatOpenAiCred1', name: 'Scripted OpenAI-compatible endpoint' } },
					};
				}
				return n;
			}),
		};
		const [id] = await home.importWorkflows(wf);
		const agent = wf.nodes.find((n) => n.name === 'AI Agent')!;
		const photosIntoAgent = (name: string, between: NodeJson[]) => {
			const nodes = [
				manualTrigger(),
				readFile('Read photos', `${fixture('')}/{car,dog}.jpg`),
				code('Downloads carry no data', 'return { json: {}, binary: $input.item.binary };', 'runOnceForEachItem'),
				...between,
				{ ...agent, id: undefined, parameters: { ...agent.parameters, text: 'What is in this photo?' } },
				...wf.nodes.filter((n) => n.type === TOOL_NODE_TYPE || n.name === 'OpenAI Chat Model').map((n) => ({ ...n, id: undefined })),
			];
			const chain = nodes.slice(0, 4 + between.length);
			const built = workflow(name, nodes, chain.slice(1).map((n, i) => [chain[i].name, n.name]));
			built.connections = { ...built.connections, ...Object.fromEntries(Object.entries(wf.connections).filter(([from]) => from !== TRIGGER)) };
			return built;
		};
		// what the tool's error offers: Edit Fields 3.4 (the default of 1.123.81; 2.41.1 runs it as saved)
		const editFields = node(
			'Give each item its own data',
			'n8n-nodes-base.set',
			{ assignments: { assignments: [{ id: 'item-index', name: 'item', value: '={{ $itemIndex }}', type: 'number' }] }, includeOtherFields: true, options: {} },
			{ typeVersion: 3.4 },
		);
		[alikeItemsId, twoItemsId] = await home.importWorkflows([
			photosIntoAgent('Two photos with the same data, one agent run', []),
			photosIntoAgent('Two photos given data of their own, one agent run', [editFields]),
		]);
		const published = await home.cli(['publish:workflow', `--id=${id}`], { allowFailure: true });
		if (published.code !== 0) await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
		n8n = await home.start();
		const webhookId = wf.nodes.find((n) => n.name === TRIGGER)!.webhookId!;
		chatUrl = `${n8n.url}/webhook/${webhookId}/chat`;
		// n8n registers a published workflow's webhooks shortly after it says the editor is up
		for (let tries = 0; (await fetch(chatUrl)).status === 404; tries++) {
			if (tries > 120) throw new Error(`the chat at ${chatUrl} never came up`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await model?.close();
		await server?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
		model.requests.splice(0);
	});

	/** What n8n's chat widget posts for a message with attachments. */
	const sendChat = async (chatInput: string, photos: Array<{ name: string; bytes: Buffer; type?: string }>) => {
		const form = new FormData();
		form.append('action', 'sendMessage');
		form.append('sessionId', `session-${Math.random().toString(36).slice(2)}`);
		form.append('chatInput', chatInput);
		for (const photo of photos) form.append('files', new Blob([photo.bytes], { type: photo.type ?? 'image/jpeg' }), photo.name);
		const res = await fetch(chatUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(120_000) });
		return { status: res.status, text: await res.text() };
	};
	const countsOf = (bytes: Buffer) => {
		const { labelsCount } = server.predict('detect', bytes, {});
		return Object.fromEntries(labelsCount.map(({ label, total }) => [label, total]));
	};
	/** Which photo each request to the service carried, by its exact bytes ("other" for anything else). */
	const sentPhotos = () =>
		server.requests.map((request) => {
			const image = (request.body as { image: string }).image;
			return image === CAR.toString('base64') ? 'car.jpg' : image === DOG.toString('base64') ? 'dog.jpg' : 'other';
		});
	const toolResults = () => model.completions().flatMap((c) => toolMessages(c.body));

	it('a photo and a question: the service gets exactly the uploaded bytes, the model the counts, the chat answers with them', async () => {
		const answer = await sendChat('What is in this photo?', [{ name: 'car.jpg', bytes: CAR }]);
		expect(answer.status).toBe(200);
		expect(sentPhotos()).toEqual(['car.jpg']);
		const [result] = toolResults();
		expect(result).toBeDefined();
		expect(result.content).not.toMatch(BASE64_RUN);
		const parsed = JSON.parse(result.content) as Result | Result[];
		const first = Array.isArray(parsed) ? parsed[0] : parsed;
		const counts = countsOf(CAR);
		expect(first.countsByLabel).toEqual(counts);
		expect(Object.keys(counts)).toContain('car');
		const reply = JSON.parse(answer.text) as { output: string };
		expect(reply.output).toBe(`Photo 1: ${Object.entries(counts).map(([label, count]) => `${count} ${label}`).join(', ')}.`);
	});

	it('two photos in one message: both analysed, each once', async () => {
		const answer = await sendChat('And these two?', [
			{ name: 'car.jpg', bytes: CAR },
			{ name: 'dog.jpg', bytes: DOG },
		]);
		expect(answer.status).toBe(200);
		expect(sentPhotos().sort()).toEqual(['car.jpg', 'dog.jpg']);
		const [result] = toolResults();
		const parsed = JSON.parse(result.content) as Result[];
		// One result per photo, in the order of the trigger item's files. The Chat Trigger names the
		// uploads data0, data1… in the order its form parser lists them (ChatTrigger.node.ts,
		// `handleFormData`), which in 1.123.81 was once not the order they were sent: compared as a set.
		const asSet = (counts: Array<Record<string, number> | undefined>) => counts.map((count) => JSON.stringify(count)).sort();
		expect(asSet(parsed.map((r) => r.countsByLabel))).toEqual(asSet([countsOf(CAR), countsOf(DOG)]));
		const reply = JSON.parse(answer.text) as { output: string };
		expect(reply.output).toContain('Photo 2: ');
		expect(reply.output).toMatch(/dog/);
	});

	it('a message without a photo: the tool says so readably, the chat answers 200, no request to the service', async () => {
		const answer = await sendChat('What is in my photo?', []);
		expect(answer.status).toBe(200);
		expect(server.requests).toHaveLength(0);
		const [result] = toolResults();
		const parsed = JSON.parse(result.content) as Result | Result[];
		const first = Array.isArray(parsed) ? parsed[0] : parsed;
		expect(first.error).toBe('No file on the tool’s item or the AI Agent’s input item');
		expect(first.description).toContain(`"${TRIGGER}" has no file`);
		expect((JSON.parse(answer.text) as { output: string }).output).toBe(`I could not look at a photo: ${first.error}`);
	});

	it('a PDF attached instead of a photo: the tool says it is not an image, the chat answers 200, nothing is uploaded', async () => {
		const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
		const answer = await sendChat('What is in this?', [{ name: 'invoice.pdf', bytes: pdf, type: 'application/pdf' }]);
		expect(answer.status).toBe(200);
		expect(server.requests).toHaveLength(0);
		const [result] = toolResults();
		const parsed = JSON.parse(result.content) as Result | Result[];
		const first = Array.isArray(parsed) ? parsed[0] : parsed;
		expect(`${first.error} ${first.description}`).toMatch(/invoice\.pdf/);
		expect(`${first.error} ${first.description}`).toMatch(/not an image|no image/i);
		expect((JSON.parse(answer.text) as { output: string }).output).toBe(`I could not look at a photo: ${first.error}`);
	});

	it('two photos as two items with the same data: the tool refuses to guess, offers Edit Fields, never $(…).item; nothing is uploaded', async () => {
		const res = await home.execute(alikeItemsId);
		if (!res.ok) throw new Error(`the workflow failed in n8n: ${res.error}\n${res.stdout.slice(-3000)}`);
		expect(server.requests).toHaveLength(0);
		// one tool call per item; a call's result is the list of its images' results
		const results = toolResults().flatMap((message) => [JSON.parse(message.content) as Result | Result[]].flat());
		expect(results).toHaveLength(2);
		for (const result of results) {
			expect(result.error).toBe('No file on the tool’s item or the AI Agent’s input item');
			expect(result.description).toContain('input item from "Downloads carry no data" could not be told apart: 2 of its items hold the same data.');
			expect(result.description).toContain('an Edit Fields node setting "item" to {{ $itemIndex }}, with "Include Other Input Fields" on');
			expect(result.description).not.toContain("$('");
			expect(result.description).not.toContain('…');
		}
	});

	it('the same two photos given data of their own by the Edit Fields the error offers: each call analyses its own item’s photo, never the other’s', async () => {
		const res = await home.execute(twoItemsId);
		if (!res.ok) throw new Error(`the workflow failed in n8n: ${res.error}\n${res.stdout.slice(-3000)}`);
		const outputs = nodeItems(res.run!, 'AI Agent').map((item) => String(item.json.output));
		const line = (bytes: Buffer) => `Photo 1: ${Object.entries(countsOf(bytes)).map(([label, count]) => `${count} ${label}`).join(', ')}.`;
		// Edit Fields kept each item's file beside its new field
		const given = nodeItems(res.run!, 'Give each item its own data').map((item) => [item.json, item.binary?.data?.fileName]);
		expect(given).toEqual([
			[{ item: 0 }, 'car.jpg'],
			[{ item: 1 }, 'dog.jpg'],
		]);
		expect(outputs).toEqual([line(CAR), line(DOG)]);
		// each exactly once; n8n 1.x runs the two calls in either order
		expect(sentPhotos().sort()).toEqual(['car.jpg', 'dog.jpg']);
	});

	it('the API key is in no chat answer, model request or n8n log', async () => {
		const answer = await sendChat('What is in this photo?', [{ name: 'car.jpg', bytes: CAR }]);
		expect(answer.status).toBe(200);
		expect(answer.text).not.toContain(server.apiKey);
		expect(JSON.stringify(model.requests)).not.toContain(server.apiKey);
		expect(fs.readFileSync(n8n.logFile, 'utf8')).not.toContain(server.apiKey);
	});
});
