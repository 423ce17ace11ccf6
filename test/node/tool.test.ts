import type { IDataObject } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';
import {
	MAX_TOOL_DETECTIONS,
	MAX_TOOL_LABEL_LENGTH,
	MAX_TOOL_PREDICTIONS,
	MAX_TOOL_RESULT_CHARS,
} from '../../nodes/ImageInference/output/toolResult';
import { crowdedScene } from '../harness/crowdedScene';
import { DELETED_CREDENTIAL_ID } from '../harness/execute';
import { CAR, DOG, classifyParameters, detectParameters, dogItem, failureOf, useServer } from './setup';

type Detection = { label: string; confidence: number; x: number; y: number; width: number; height: number };
const UNKNOWN_MODEL = '00000000-0000-4000-8000-00000000beef';
const round = (value: number) => Math.round(value * 10_000) / 10_000;
const byConfidence = (a: { confidence: number }, b: { confidence: number }) => b.confidence - a.confidence;
/** A run of base64 text long enough to be image data, not a word or a number. */
const BASE64_RUN = /[A-Za-z0-9+/]{120,}/;

describe('As an AI Agent tool', () => {
	// what is compacted matters here, not what the model sees: the colour-region model finds several objects
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const urlDetect = (extra: IDataObject = {}) =>
		detectParameters(server(), { imageSource: 'url', imageUrl: server().hostImage(CAR, 'image/jpeg'), ...extra });

	it('Detect Objects returns compact JSON: the counts and the detections, no image, no binary', async () => {
		const { items } = await run(urlDetect(), [{}], { asTool: true });
		const expected = server().predict('detect', CAR, {});
		expect(expected.detections.length).toBeGreaterThan(1);
		expect(items).toHaveLength(1);
		expect(items[0].binary).toBeUndefined();
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toEqual({
			totalDetections: expected.detections.length,
			countsByLabel: Object.fromEntries(expected.labelsCount.map(({ label, total }) => [label, total])),
			detections: [...expected.detections].sort(byConfidence),
			detectionsNotListed: 0,
		});
		expect(JSON.stringify(items[0].json)).not.toMatch(BASE64_RUN);
		// the agent never sees a picture: the service is not asked to draw one
		expect(server().requests[0].body).toEqual({ image: expect.stringMatching(/^http/), annotate: false });
	});

	it('still asks for the annotated picture when the user turned Annotate Image on explicitly', async () => {
		await run(urlDetect({ options: { annotate: true } }), [{}], { asTool: true });
		expect(server().requests[0].body).toMatchObject({ annotate: true });
	});

	it(`a 50-object answer: the ${MAX_TOOL_DETECTIONS} most confident listed, every one counted, under ${MAX_TOOL_RESULT_CHARS} characters`, async () => {
		const annotated = server().predict('detect', CAR, {}).image!;
		const scene = crowdedScene(50, annotated);
		// served least confident first: the agent still reads the most confident first
		const served = { ...scene, detections: [...scene.detections].sort(byConfidence).reverse() };
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: served } });
		const { items } = await run(urlDetect(), [{}], { asTool: true });
		const json = items[0].json as { detections: Detection[]; [key: string]: unknown };
		expect(json.totalDetections).toBe(50);
		expect(json.countsByLabel).toEqual(Object.fromEntries(scene.labelsCount.map(({ label, total }) => [label, total])));
		expect(json.detections).toEqual(
			[...scene.detections]
				.sort(byConfidence)
				.slice(0, MAX_TOOL_DETECTIONS)
				.map((d) => ({ label: d.label, confidence: round(d.confidence), x: round(d.x), y: round(d.y), width: round(d.width), height: round(d.height) })),
		);
		expect(json.detectionsNotListed).toBe(50 - MAX_TOOL_DETECTIONS);
		const text = JSON.stringify(json);
		expect(text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
		expect(text).not.toContain(annotated.slice(0, 40));
		expect(text).not.toMatch(BASE64_RUN);
		// the regular node on the same answer: the full list and the annotated image as a file
		const regular = await run(urlDetect(), [{}]);
		expect((regular.items[0].json.detections as unknown[]).length).toBe(50);
		expect(regular.items[0].binary?.data).toBeDefined();
	});

	it('stays under the cap whatever the service sends: 2,000 detections under 300 long labels', async () => {
		const scene = crowdedScene(2000);
		const labels = Array.from({ length: 300 }, (_, i) => `label ${i} `.padEnd(200, 'x'));
		const detections = scene.detections.map((d, i) => ({ ...d, label: labels[i % labels.length] }));
		const labelsCount = labels.map((label, i) => ({ label, total: detections.filter((_, j) => j % labels.length === i).length }));
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: { detections, labelsCount, image: null } } });
		const { items } = await run(urlDetect(), [{}], { asTool: true });
		const json = items[0].json as { detections: Detection[]; countsByLabel: Record<string, number>; [key: string]: unknown };
		expect(JSON.stringify(json).length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
		expect(json.totalDetections).toBe(2000);
		expect(json.detections.length + (json.detectionsNotListed as number)).toBe(2000);
		expect(json.detections.length).toBeGreaterThan(0);
		const counted = Object.values(json.countsByLabel).reduce((sum, n) => sum + n, 0);
		const other = json.otherLabels as { labels: number; detections: number };
		expect(Object.keys(json.countsByLabel).length + other.labels).toBe(300);
		expect(counted + other.detections).toBe(2000);
		for (const label of [...Object.keys(json.countsByLabel), ...json.detections.map((d) => d.label)]) {
			expect(label.length).toBeLessThanOrEqual(MAX_TOOL_LABEL_LENGTH);
		}
	});

	it(`Classify Image returns the category and the ${MAX_TOOL_PREDICTIONS} most confident predictions, the input file not passed on`, async () => {
		const many = Array.from({ length: 30 }, (_, i) => ({ category: `class ${i}`, confidence: round(0.5 - i / 100) }));
		server().addFault({ match: { kind: 'classify' }, action: { type: 'status', status: 200, body: { category: 'class 0', confidence: 0.5, predictions: [...many].reverse() } } });
		const { items } = await run(classifyParameters(server()), [dogItem()], { asTool: true });
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json).toEqual({
			category: 'class 0',
			confidence: 0.5,
			predictions: many.slice(0, MAX_TOOL_PREDICTIONS),
			predictionsNotListed: 30 - MAX_TOOL_PREDICTIONS,
		});
		server().clearFaults();
		server().addFault({ match: { kind: 'classify' }, times: 1, action: { type: 'status', status: 200, body: { category: 'class 0', confidence: 0.5 } } });
		const unsure = await run(classifyParameters(server(), { options: { minConfidenceByLabel: '*: 0.9' } }), [dogItem()], { asTool: true });
		expect(unsure.items[0].json).toEqual({ category: null, confidence: null, predictions: [], predictionsNotListed: 0 });
		const real = await run(classifyParameters(server()), [dogItem()], { asTool: true });
		const expected = server().predict('classify', DOG, {});
		expect(real.items[0].json).toMatchObject({ category: expected.category, confidence: expected.confidence });
	});

	it('with On Error set to either Continue, a failed call comes back to the agent as a short error it can act on', async () => {
		const expected = {
			error: `Model ${UNKNOWN_MODEL} was not found (404 Not Found)`,
			description: expect.stringContaining('Check that the Model ID is right'),
			status: 404,
		};
		for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
			const continued = await run(urlDetect({ modelId: UNKNOWN_MODEL }), [{}], { asTool: true, onError });
			expect(continued.items).toEqual([{ json: expected, pairedItem: { item: 0 } }]);
		}
		expect(server().requests).toHaveLength(2);
	});

	it('with no credential chosen, or the chosen one deleted, either Continue tells the agent; Stop Workflow stops; nothing is sent', async () => {
		const messages = {
			notSet: 'Node does not have any credentials set',
			deleted: `Credential with ID "${DELETED_CREDENTIAL_ID}" does not exist for type "imageInferenceApi".`,
		};
		for (const [credentialFailure, error] of Object.entries(messages) as Array<['notSet' | 'deleted', string]>) {
			for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
				const continued = await run(urlDetect(), [{}], { asTool: true, onError, credentialFailure });
				expect(continued.items).toEqual([{ json: { error }, pairedItem: { item: 0 } }]);
			}
			for (const onError of ['stopWorkflow', undefined] as const) {
				const failure = await failureOf(run(urlDetect(), [{}], { asTool: true, onError, credentialFailure }));
				expect(failure.message).toBe(error);
			}
		}
		expect(server().requests).toHaveLength(0);
	});

	it(`a result of exactly ${MAX_TOOL_RESULT_CHARS} characters is given whole; two characters more and the least confident detection gives way`, async () => {
		// 25 objects, each its own label: the result's length is set by the last label's (each of its
		// characters counts twice, in countsByLabel and in detections) and the last box's height
		const resultFor = ([lastLabelLength, lastHeight]: readonly [number, number]) => {
			const labels = Array.from({ length: MAX_TOOL_DETECTIONS }, (_, i) => (i === MAX_TOOL_DETECTIONS - 1 ? 'z'.repeat(lastLabelLength) : `object ${i} `.padEnd(44, 'x')));
			const detections = labels.map((label, i) => ({ label, confidence: (90 - i) / 100, x: 10 * i, y: 20, width: 30, height: i === MAX_TOOL_DETECTIONS - 1 ? lastHeight : 40 }));
			const countsByLabel = Object.fromEntries(labels.map((label) => [label, 1]));
			const expected = { totalDetections: detections.length, countsByLabel, detections, detectionsNotListed: 0 };
			return { detections, labels, expected };
		};
		const choices = Array.from({ length: MAX_TOOL_LABEL_LENGTH - 1 }, (_, i) => [[i + 1, 4] as const, [i + 1, 40] as const]).flat();
		const exact = choices.find((choice) => JSON.stringify(resultFor(choice).expected).length === MAX_TOOL_RESULT_CHARS);
		expect(exact).toBeDefined();
		const [length, height] = exact!;
		for (const [choice, listed] of [
			[[length, height], MAX_TOOL_DETECTIONS],
			[[length + 1, height], MAX_TOOL_DETECTIONS - 1],
		] as const) {
			const { detections, labels, expected } = resultFor(choice);
			const body = { detections, labelsCount: labels.map((label) => ({ label, total: 1 })), image: null };
			server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body } });
			const json = (await run(urlDetect(), [{}], { asTool: true })).items[0].json;
			expect(json).toEqual({ ...expected, detections: detections.slice(0, listed), detectionsNotListed: MAX_TOOL_DETECTIONS - listed });
			server().clearFaults();
		}
	});

	it('in One Item per Object mode a tool still answers once per image, compact and under the cap: 300 objects', async () => {
		const scene = crowdedScene(300);
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: scene } });
		const { items } = await run(urlDetect({ outputItems: 'object' }), [{}], { asTool: true });
		expect(items).toHaveLength(1);
		expect(JSON.stringify(items[0].json).length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
		expect(items[0].json).toMatchObject({ totalDetections: 300, detectionsNotListed: 300 - MAX_TOOL_DETECTIONS });
		// the regular node on the same answer: one item per object
		expect((await run(urlDetect({ outputItems: 'object' }), [{}])).items).toHaveLength(300);
	});

	it('the API key is in no tool result, failed or not, whichever way it is sent', async () => {
		for (const sendAs of ['header', 'query'] as const) {
			const failed = await run(urlDetect({ modelId: UNKNOWN_MODEL }), [{}], { asTool: true, onError: 'continueRegularOutput', credentials: { sendAs } });
			const served = await run(urlDetect(), [{}], { asTool: true, credentials: { sendAs } });
			expect(failed.items[0].json.status).toBe(404);
			expect(served.items[0].json.totalDetections).toBeGreaterThan(0);
			expect(JSON.stringify([failed.items, served.items])).not.toContain(server().apiKey);
		}
	});

	it('bad arguments from the agent come back as an error naming what to fix; nothing is sent', async () => {
		const { items } = await run(urlDetect({ modelId: 'the car model', imageUrl: 'photo.jpg' }), [{}], { asTool: true, onError: 'continueRegularOutput' });
		expect(items[0].json).toEqual({ error: 'Model ID "the car model" is not a UUID', description: expect.stringContaining('model details') });
		expect(server().requests).toHaveLength(0);
	});

	it('with On Error at Stop Workflow, stored or (as the editor shows it) not stored, a failed call stops the workflow', async () => {
		for (const onError of ['stopWorkflow', undefined] as const) {
			const failure = await failureOf(run(urlDetect({ modelId: UNKNOWN_MODEL }), [{}], { asTool: true, onError }));
			expect(failure.message).toBe(`Model ${UNKNOWN_MODEL} was not found (404 Not Found)`);
		}
	});

	it('what the description tells the agent is what comes back: every field the agent will read is named, the list caps are the real ones', async () => {
		const properties = new ImageInference().description.properties.filter((p) => p.name === 'toolDescription');
		expect(properties.map((p) => p.displayOptions)).toEqual([
			{ show: { '@tool': [true], operation: ['detect'] } },
			{ show: { '@tool': [true], operation: ['classify'] } },
		]);
		const [detectDescription, classifyDescription] = properties.map((p) => p.default as string);
		let description = detectDescription;
		const named = (field: string) => new RegExp(`\\b${field}\\b`).test(description);
		const unnamed = (object: IDataObject) => Object.keys(object).filter((field) => !named(field));

		// 50 objects under 30 labels: more than the tool lists, under more labels than it counts one by one
		const labels = Array.from({ length: 30 }, (_, i) => `kind ${i}`);
		const detections = crowdedScene(50).detections.map((d, i) => ({ ...d, label: labels[i % labels.length] }));
		const labelsCount = labels.map((label) => ({ label, total: detections.filter((d) => d.label === label).length }));
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: { detections, labelsCount, image: null } } });
		const detected = (await run(urlDetect(), [{}], { asTool: true })).items[0].json as { detections: IDataObject[]; otherLabels: IDataObject } & IDataObject;
		expect(Object.keys(detected)).toEqual(expect.arrayContaining(['detectionsNotListed', 'otherLabels']));
		expect(unnamed(detected)).toEqual([]);
		expect(unnamed(detected.otherLabels)).toEqual([]);
		expect(unnamed(detected.detections[0])).toEqual([]);
		expect(description).toContain(`detections: up to ${detected.detections.length} of`);

		const many = Array.from({ length: 30 }, (_, i) => ({ category: `class ${i}`, confidence: 0.5 - i / 100 }));
		server().addFault({ match: { kind: 'classify' }, action: { type: 'status', status: 200, body: { category: 'class 0', confidence: 0.5, predictions: many } } });
		description = classifyDescription;
		const classified = (await run(classifyParameters(server()), [dogItem()], { asTool: true })).items[0].json as { predictions: IDataObject[] } & IDataObject;
		expect(unnamed(classified)).toEqual([]);
		expect(unnamed(classified.predictions[0])).toEqual([]);
		expect(description).toContain(`predictions: up to ${classified.predictions.length} of`);

		server().clearFaults();
		const failed = (await run(urlDetect({ modelId: UNKNOWN_MODEL }), [{}], { asTool: true, onError: 'continueRegularOutput' })).items[0].json;
		for (description of [detectDescription, classifyDescription]) {
			expect(Object.keys(failed)).toContain('status');
			expect(unnamed(failed)).toEqual([]);
			expect(description).toMatch(/photo sent in the conversation, or an http\(s\) URL or base64 text/);
		}
	});

	it('each operation’s description speaks of that operation alone', () => {
		const [detect, classify] = new ImageInference().description.properties.filter((p) => p.name === 'toolDescription').map((p) => p.default as string);
		expect(detect).toMatch(/^Finds objects/);
		expect(detect).not.toMatch(/categor|Classif/i);
		expect(classify).toMatch(/^Classifies/);
		expect(classify).not.toMatch(/detection|bounding box|Detect/i);
	});
});
