/**
 * The package in real n8n, installed as users install it, against the reference server (run in
 * this process; n8n reaches it over HTTP on 127.0.0.1). Every assertion reads n8n's own run data
 * (`n8n execute --rawOutput`) or n8n's own REST answers.
 */
import { asServiceSent } from '../harness/detections';
import * as fs from 'fs';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	code,
	createN8nHome,
	e2eVersions,
	fixture,
	imageInference,
	imageInferenceCredential,
	manualTrigger,
	nodeItems,
	readBinary,
	readFile,
	RestClient,
	TOOL_NODE_TYPE,
	NODE_TYPE,
	CREDENTIAL_TYPE,
	workflow,
	type ExecuteResult,
	type Item,
	type N8nHome,
	type WorkflowJson,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
const UNKNOWN_MODEL = '00000000-0000-4000-8000-00000000beef';

type Detection = { label: string; confidence: number; x: number; y: number; width: number; height: number };
type DetectResult = { detections: Detection[]; labelsCount: Array<{ label: string; total: number }>; image: string | null };
type ClassifyResult = { category: string; confidence: number; predictions: Array<{ category: string; confidence: number }> };
type LoggedRequest = { path: string; body: Record<string, unknown>; headers: Record<string, string>; query: Record<string, string> };

const toBase64Code = `return await Promise.all($input.all().map(async (item, i) => ({
  json: { b64: (await this.helpers.getBinaryDataBuffer(i, 'data')).toString('base64') },
})));`;

describe.each(e2eVersions())('Image Inference in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	const ids: Record<string, string> = {};
	const requests = () => server.requests as unknown as LoggedRequest[];

	const run = async (key: string): Promise<ExecuteResult> => {
		const res = await home.execute(ids[key]);
		if (!res.ok) throw new Error(`workflow ${key} failed in n8n: ${res.error}\n${res.stdout.slice(-2000)}`);
		return res;
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		home = await createN8nHome({ version });
		const m = server.models;
		const dogUrl = server.hostImage(DOG, 'image/jpeg');
		await home.importCredentials([
			imageInferenceCredential('credHeader000001', { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' }),
			imageInferenceCredential('credQuery0000001', { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'query' }),
			imageInferenceCredential('credBadKey000001', { baseUrl: server.url, apiKey: 'not-the-key', sendAs: 'header' }),
		]);
		const H = 'credHeader000001';
		const detect = (options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
			imageInference('Detect', { operation: 'detect', modelId: m.detect, imageSource: 'binary', binaryPropertyName: 'data', options, ...extra }, H);
		const classify = (params: Record<string, unknown>, cred = H, extra = {}) =>
			imageInference('Classify', { operation: 'classify', modelId: m.classify, options: {}, ...params }, cred, extra);
		const wfs: Record<string, WorkflowJson> = {
			detectBinary: workflow('e2e detect binary', [manualTrigger(), readFile('Read car', fixture('car.jpg')), detect()]),
			detectNoAnnotate: workflow('e2e detect annotate=false', [manualTrigger(), readFile('Read car', fixture('car.jpg')), detect({ annotate: false })]),
			detectConfidence0: workflow('e2e detect confidence 0', [manualTrigger(), readFile('Read car', fixture('car.jpg')), detect({ confidence: 0 })]),
			classifyBinary: workflow('e2e classify binary', [manualTrigger(), readFile('Read dog', fixture('dog.jpg')), classify({ imageSource: 'binary', binaryPropertyName: 'data' })]),
			classifyUrl: workflow('e2e classify url', [manualTrigger(), classify({ imageSource: 'url', imageUrl: dogUrl })]),
			classifyBase64: workflow('e2e classify base64', [
				manualTrigger(),
				readFile('Read dog', fixture('dog.jpg')),
				code('To base64', toBase64Code),
				classify({ imageSource: 'base64', imageBase64: '={{ $json.b64 }}' }),
			]),
			classifyQueryKey: workflow('e2e classify query key', [manualTrigger(), readFile('Read dog', fixture('dog.jpg')), classify({ imageSource: 'binary', binaryPropertyName: 'data' }, 'credQuery0000001')]),
			continueOnFail: workflow('e2e continue on fail', [
				manualTrigger(),
				readFile('Read car', fixture('car.jpg')),
				readFile('Read dog', fixture('dog.jpg')),
				code(
					'Four items',
					`const car = $('Read car').first().binary, dog = $('Read dog').first().binary;
return [
  { json: { case: 'good', modelId: '${m.classify}', field: 'data' }, binary: car },
  { json: { case: '400', modelId: '${m.classify}', field: 'data' }, binary: dog },
  { json: { case: '404', modelId: '${UNKNOWN_MODEL}', field: 'data' }, binary: car },
  { json: { case: 'no binary field', modelId: '${m.classify}', field: 'photo' }, binary: car },
];`,
				),
				classify(
					{ modelId: '={{ $json.modelId }}', imageSource: 'binary', binaryPropertyName: '={{ $json.field }}', options: { concurrency: 4 } },
					H,
					{ onError: 'continueRegularOutput' },
				),
			]),
			retry503: workflow('e2e retries 503', [manualTrigger(), readFile('Read car', fixture('car.jpg')), detect({ retries: 2 })]),
			noRetry400: workflow('e2e 400 not retried', [
				manualTrigger(),
				readFile('Read car', fixture('car.jpg')),
				detect({ retries: 3 }, { }),
			]),
		};
		wfs.noRetry400.nodes[2].onError = 'continueRegularOutput';
		wfs.resetAndHang = workflow('e2e reset and hang', [manualTrigger(), readFile('Read car', fixture('car.jpg')), detect({ retries: 1, timeout: 1500 })]);
		wfs.resetAndHang.nodes[2].onError = 'continueRegularOutput';
		const keys = Object.keys(wfs);
		const imported = await home.importWorkflows(keys.map((k) => wfs[k]));
		keys.forEach((k, i) => (ids[k] = imported[i]));
	});

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	beforeEach(() => {
		server.clearFaults();
		server.requests.splice(0);
	});

	it('detects on a file read from disk: results, counts and the annotated image as computed by the server', async () => {
		const { run: r } = await run('detectBinary');
		const [item] = nodeItems(r!, 'Detect') as Item[];
		expect(requests()).toHaveLength(1);
		const sent = requests()[0].body;
		expect(sent.image).toBe(CAR.toString('base64'));
		const { image: _img, ...options } = sent;
		void _img;
		const expected = server.predict('detect', CAR, options) as DetectResult;
		expect(asServiceSent(item.json.detections)).toEqual(expected.detections);
		expect(item.json.labelsCount).toEqual(expected.labelsCount);
		expect(item.json.countsByLabel).toEqual(Object.fromEntries(expected.labelsCount.map((l) => [l.label, l.total])));
		expect(item.json.totalDetections).toBe(expected.detections.length);
		expect(expected.image).toEqual(expect.any(String));
		const annotated = item.binary!.data;
		expect(annotated.fileName).toBe('car.annotated.jpg');
		expect(annotated.mimeType).toBe('image/jpeg');
		const bytes = readBinary(home, annotated);
		expect(bytes.equals(Buffer.from(expected.image!, 'base64'))).toBe(true);
		expect(bytes.equals(CAR)).toBe(false);
		expect(bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('annotate=false: the server is asked for no image and the item gets no annotated binary', async () => {
		const { run: r } = await run('detectNoAnnotate');
		const [item] = nodeItems(r!, 'Detect');
		expect(requests()[0].body.annotate).toBe(false);
		expect(item.json.totalDetections).toBe((server.predict('detect', CAR, { annotate: false }) as DetectResult).detections.length);
		// only the input file passes through
		expect(Object.keys(item.binary ?? {})).toEqual(['data']);
		expect(item.binary!.data.fileName).toBe('car.jpg');
		expect(readBinary(home, item.binary!.data).equals(CAR)).toBe(true);
	});

	it('confidence 0 reaches the server as confidence: 0', async () => {
		const { run: r } = await run('detectConfidence0');
		expect(requests()[0].body.confidence).toBe(0);
		const [item] = nodeItems(r!, 'Detect');
		expect(asServiceSent(item.json.detections)).toEqual((server.predict('detect', CAR, { confidence: 0 }) as DetectResult).detections);
	});

	it.each([
		['binary', 'classifyBinary', () => DOG.toString('base64')],
		['URL', 'classifyUrl', () => undefined],
		['base64', 'classifyBase64', () => DOG.toString('base64')],
	])('classifies dog.jpg given by %s', async (_how, key, image) => {
		const { run: r } = await run(key);
		const [item] = nodeItems(r!, 'Classify');
		const expected = server.predict('classify', DOG, {}) as ClassifyResult;
		expect(item.json).toMatchObject({ category: expected.category, confidence: expected.confidence, predictions: expected.predictions });
		const sentImage = requests().find((q) => q.path.includes('/classify/'))!.body.image as string;
		if (image()) expect(sentImage).toBe(image());
		else expect(sentImage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
	});

	it('sends the key as a header or as the api-key query parameter, as the credential says', async () => {
		await run('classifyBinary');
		const [byHeader] = requests();
		expect(byHeader.headers['x-api-key']).toBe(server.apiKey);
		expect(byHeader.query['api-key']).toBeUndefined();
		server.requests.splice(0);
		const { run: r } = await run('classifyQueryKey');
		const [byQuery] = requests();
		expect(byQuery.query['api-key']).toBe(server.apiKey);
		expect(byQuery.headers['x-api-key']).toBeUndefined();
		expect(nodeItems(r!, 'Classify')[0].json.category).toBe((server.predict('classify', DOG, {}) as ClassifyResult).category);
	});

	it('Continue On Fail: one item per input, in order, each error described', async () => {
		const dogSha = require('crypto').createHash('sha256').update(DOG).digest('hex');
		server.addFault({
			match: { imageSha256: dogSha },
			action: {
				type: 'status',
				status: 400,
				body: { type: 'error', code: 'bad_request', status: 400, message: 'image could not be decoded', details: [{ location: 'body', type: 'value_error', pointer: '/image', message: 'not an image' }] },
			},
		});
		const { run: r } = await run('continueOnFail');
		const items = nodeItems(r!, 'Classify');
		expect(items).toHaveLength(4);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const expected = server.predict('classify', CAR, {}) as ClassifyResult;
		expect(items[0].json).toMatchObject({ category: expected.category, confidence: expected.confidence });
		expect(items[0].json.error).toBeUndefined();
		expect(items[1].json.error).toMatchObject({ status: 400, code: 'bad_request', attempts: 1 });
		expect(((items[1].json.error ?? {}) as { message?: string }).message).toMatch(/400|bad request|could not be decoded/i);
		expect(items[2].json.error).toMatchObject({ status: 404, attempts: 1 });
		expect(((items[2].json.error ?? {}) as { message?: string }).message).toContain(UNKNOWN_MODEL);
		expect(((items[3].json.error ?? {}) as { message?: string }).message).toMatch(/photo/);
		// each failed item: the input's fields, and what failed as one object
		for (const i of items.slice(1)) {
			expect(Object.keys(i.json)).toEqual(expect.arrayContaining(['case', 'error']));
			expect(Object.keys(i.json.error as object).sort()).toEqual(['attempts', 'code', 'description', 'details', 'httpCode', 'message', 'status']);
		}
	});

	it('Retries: two 503s then success, in real n8n', async () => {
		server.addFault({ match: { kind: 'detect' }, times: 2, action: { type: 'status', status: 503 } });
		const { run: r } = await run('retry503');
		expect(requests()).toHaveLength(3);
		const [item] = nodeItems(r!, 'Detect');
		expect(item.json.error).toBeUndefined();
		expect(asServiceSent(item.json.detections)).toEqual((server.predict('detect', CAR, {}) as DetectResult).detections);
	});

	it('Retries: a 400 is not retried', async () => {
		server.addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'bad image', details: [] } } });
		const { run: r } = await run('noRetry400');
		expect(requests()).toHaveLength(1);
		const [item] = nodeItems(r!, 'Detect');
		expect(item.json.error).toMatchObject({ status: 400, code: 'bad_request', attempts: 1 });
	});

	it('a connection reset mid-answer is retried; a service that never answers times out', async () => {
		server.addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'reset' } });
		const { run: recovered } = await run('resetAndHang');
		expect(requests()).toHaveLength(2);
		expect(asServiceSent(nodeItems(recovered!, 'Detect')[0].json.detections)).toEqual((server.predict('detect', CAR, {}) as DetectResult).detections);

		server.clearFaults();
		server.requests.splice(0);
		server.addFault({ match: { kind: 'detect' }, action: { type: 'hang' } });
		const { run: r } = await run('resetAndHang');
		const [item] = nodeItems(r!, 'Detect');
		expect(item.json.error).toMatchObject({ code: 'timeout', attempts: 2 });
		expect(((item.json.error ?? {}) as { message?: string }).message).toMatch(/did not answer within 1500 ms \(gave up after 2 attempts\)/);
		expect(requests()).toHaveLength(2);
	});

	describe('in the running n8n (REST)', () => {
		let rest: RestClient;
		let stop: () => Promise<void>;
		beforeAll(async () => {
			const s = await home.start();
			stop = s.stop;
			rest = await RestClient.setupOwner(s.url);
		});
		afterAll(async () => {
			await stop?.();
		});

		it('loads the node, usable as a tool: n8n lists the imageInferenceTool variant', async () => {
			const types = await rest.nodeTypes();
			const node = types.find((t) => t.name === NODE_TYPE);
			const tool = types.find((t) => t.name === TOOL_NODE_TYPE);
			expect(node?.displayName).toBe('Image Inference');
			expect(node?.usableAsTool).toBe(true);
			expect(tool).toBeDefined();
			expect(tool!.outputs).toEqual(['ai_tool']);
			expect(tool!.displayName).toBe('Image Inference Tool');
		});

		it("n8n's own credential test: OK for the right key, 'Invalid or missing credentials' for a wrong one", async () => {
			const good = await rest.testCredential({
				id: 'credHeader000001',
				name: 'Image Inference credHeader000001',
				type: CREDENTIAL_TYPE,
				data: { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' },
			});
			expect(good).toEqual({ status: 'OK', message: expect.any(String) });
			const query = await rest.testCredential({
				id: 'credQuery0000001',
				name: 'Image Inference credQuery0000001',
				type: CREDENTIAL_TYPE,
				data: { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'query' },
			});
			expect(query.status).toBe('OK');
			const bad = await rest.testCredential({
				id: 'credBadKey000001',
				name: 'Image Inference credBadKey000001',
				type: CREDENTIAL_TYPE,
				data: { baseUrl: server.url, apiKey: 'not-the-key', sendAs: 'header' },
			});
			expect(bad.status).toBe('Error');
			expect(bad.message).toMatch(/Invalid or missing credentials/);
		});
	});
});
