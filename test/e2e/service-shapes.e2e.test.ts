/**
 * Every payload in test/fixtures/service-shapes (the official SDKs' test mocks and the docs' examples)
 * served to the node in real n8n and read there, in one execution per operation; then the
 * reference server answering in its sparse shapes, read the same as its full answers.
 */
import * as fs from 'fs';

import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { EMPTY_CLASSIFY, RETRY_5XX, body, errors, successes } from '../harness/serviceShapes';
import {
	code,
	createN8nHome,
	e2eVersions,
	fixture,
	imageInference,
	imageInferenceCredential,
	manualTrigger,
	nodeItems,
	workflow,
	type N8nHome,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const CRED = 'credShapes000001';

describe.each(e2eVersions())('the service’s documented shapes in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;

	beforeAll(async () => {
		server = await startReferenceServer({});
		home = await createN8nHome({ version });
		await home.importCredentials([imageInferenceCredential(CRED, { baseUrl: server.url, apiKey: server.apiKey })]);
	});
	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	/** Runs one workflow: a Code node gives one item per model id, the node reads each by URL, errors as items. */
	async function runEach(operation: 'detect' | 'classify', modelIds: string[], options: Record<string, unknown> = {}) {
		const imageUrl = server.hostImage(CAR, 'image/jpeg');
		const items = code('Models', `return ${JSON.stringify(modelIds.map((modelId) => ({ json: { modelId } })))};`);
		const node = imageInference(
			'Read',
			{ operation, modelId: '={{ $json.modelId }}', imageSource: 'url', imageUrl, options: { retries: 1, ...options } },
			CRED,
			{ onError: 'continueRegularOutput' },
		);
		const [id] = await home.importWorkflows(workflow(`shapes ${operation}`, [manualTrigger(), items, node]));
		const result = await home.execute(id);
		if (!result.ok) throw new Error(`the workflow failed in n8n: ${result.error}\n${result.stdout.slice(-2000)}`);
		return nodeItems(result.run!, 'Read');
	}

	/** A model id of its own for each payload, answered with it. */
	function serve(kind: 'detect' | 'classify', status: number, file: string): string {
		const modelId = server.registerModel(kind);
		server.addFault({ match: { modelId }, action: { type: 'status', status, body: body(file) } });
		return modelId;
	}

	it('every detect payload: successes read as the unit test reads them, errors as error items', async () => {
		const successFiles = Object.keys(successes).filter((file) => successes[file].operation === 'detect');
		const errorFiles = [...errors, [RETRY_5XX, 503, 'gateway errors'] as const];
		const ids = [...successFiles.map((file) => serve('detect', 200, file)), ...errorFiles.map(([file, status]) => serve('detect', status, file))];
		const items = await runEach('detect', ids, { outputImages: 'none' });
		expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		successFiles.forEach((file, index) => {
			expect(items[index].json).toMatchObject(successes[file].expected);
			expect(items[index].json.error).toBeUndefined();
		});
		errorFiles.forEach(([, status, text], offset) => {
			const item = items[successFiles.length + offset];
			const error = item.json.error as { message: string; description: string };
			expect(error).toMatchObject({ status, attempts: status >= 500 ? 2 : 1 });
			expect(`${error.message} ${error.description}`).toContain(text);
		});
	});

	it('every classify payload: successes read as documented, {} an invalid answer naming category and confidence', async () => {
		const successFiles = Object.keys(successes).filter((file) => successes[file].operation === 'classify');
		const ids = [...successFiles.map((file) => serve('classify', 200, file)), serve('classify', 200, EMPTY_CLASSIFY)];
		const items = await runEach('classify', ids);
		successFiles.forEach((file, index) => expect(items[index].json).toMatchObject(successes[file].expected));
		const error = items[successFiles.length].json.error as { message: string; description: string };
		expect(`${error.message} ${error.description}`).toMatch(/category: Required.*confidence: Required/);
	});

	it('the reference server answering sparsely: detections and counts as from its full answer; one prediction for classify', async () => {
		server.setAnswerShape('sparse');
		const [detected] = await runEach('detect', [server.models.detect], { outputImages: 'none' });
		const [classified] = await runEach('classify', [server.models.classify]);
		const full = server.predict('detect', CAR, { annotate: false });
		expect(detected.json).toMatchObject({ detections: full.detections, labelsCount: full.labelsCount, totalDetections: full.detections.length });
		const { category, confidence } = server.predict('classify', CAR, {});
		expect(classified.json).toMatchObject({ category, confidence, predictions: [{ category, confidence }] });
		expect(server.requests.slice(-2).map((request) => request.status)).toEqual([200, 200]);
	});
});
