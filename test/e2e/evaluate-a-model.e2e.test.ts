/**
 * examples/evaluate-a-model.json run as n8n's Evaluations run it, twice: model A, then model B.
 * The example is imported as it ships (through the REST API, as the editor saves a pasted
 * workflow); only the credential, the model IDs and the Data Table are filled in. Its Data Table,
 * made through n8n's Data Table API, holds five test photos the reference server downloads:
 *   car.jpg              category car,  counts car:1
 *   dog.jpg              category dog,  counts dog:1
 *   car-dog-grid.jpg     (no category), counts car:2, dog:2 (the truth: two of each)
 *   car.jpg, another URL category car,  (no counts)
 *   a grey picture       (no category), counts car:0 (nothing in it: no recall; anything found is an error)
 * Model A is the reference server's (its real detector, at the example's Confidence Threshold);
 * model B answers from a script with known mistakes (dog.jpg classified as a cat; a cat found
 * beside the dog; one dog of the grid missed; a car in the grey picture). The evaluation is
 * started as the Evaluations tab starts it and, for each run, the metrics n8n records per test
 * case and their averages must be what this test computes from the dataset and the answers the
 * server gives (server.predict, or the script): Categorization, Count error and Recall <label>;
 * the outputs recorded per case and written into the table's rows by Set Outputs must be the
 * answers. Both runs stay listed, for comparison.
 * Both versions have what the example needs: Evaluation Trigger 4.7 and Evaluation 4.8 with the
 * Data Table source, Data Tables on by default, the test-run routes below.
 * The editor of an unregistered Community instance shows "Register to enable evaluation" instead of
 * "Run evaluation" (GET /rest/license: workflowsHavingEvaluations.limit 0); the route it would call
 * runs the evaluation regardless, and is what this test calls.
 *
 * n8n sources relied on (the installed n8n's dist, both versions): evaluation.ee/test-runs.controller.ee.js
 * (the routes), evaluation.ee/test-runner/test-runner.service.ee.js (one execution per row; a case's
 * metrics are the first item of each run of each Set Metrics node merged, its inputs and outputs
 * those of Set Inputs and Set Outputs), evaluation.ee/test-runner/evaluation-metrics.ee.js (a run's
 * metric is the mean over the cases that have it), and in n8n-nodes-base
 * nodes/Evaluation/utils/metricHandlers.js (Categorization: trimmed, exact) and
 * nodes/Evaluation/utils/evaluationUtils.js (Set Outputs into a Data Table: a column per output).
 */
import * as fs from 'node:fs';

import type { ClassifyResult, DetectResult, DetectedObject } from '../../nodes/ImageInference/contract';
import { flatPng } from '../harness/images';
import { sha256, startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	CREDENTIAL_TYPE,
	RestClient,
	createN8nHome,
	e2eVersions,
	fixture,
	loadExample,
	runEvaluation,
	testRuns,
	useCredentialAndModels,
	type N8nHome,
	type TestCase,
	type TestRun,
	type WorkflowJson,
} from './lib';

const EXAMPLE = 'evaluate-a-model.json';
const DATA_TABLE_NODES = ['Test cases', 'Record the category', 'Record the counts'];

type Row = { image: string; expectedCategory: string | null; expectedCounts: string | null };
type Answers = Map<string, { classify?: ClassifyResult; detect?: DetectResult }>;

/** `car:2, dog:1` as the example reads it. */
function parseCounts(text: string | null | undefined): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const part of (text ?? '').split(',')) {
		const [label, count] = part.split(':').map((piece) => piece.trim());
		if (label && count !== undefined) counts[label] = Number(count);
	}
	return counts;
}

function countsOf(detections: DetectedObject[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { label } of detections) counts[label] = (counts[label] ?? 0) + 1;
	return counts;
}

/** The metrics a test case must have: Categorization; Count error (missed plus extra, per label); Recall <label> per expected label. */
function caseMetrics(row: Row, answer: { classify?: ClassifyResult; detect?: DetectResult }): Record<string, number> {
	const metrics: Record<string, number> = {};
	if (row.expectedCategory) metrics.Categorization = answer.classify!.category === row.expectedCategory ? 1 : 0;
	if (row.expectedCounts) {
		const expected = parseCounts(row.expectedCounts);
		const found = countsOf(answer.detect!.detections);
		const labels = new Set([...Object.keys(expected), ...Object.keys(found)]);
		metrics['Count error'] = [...labels].reduce((sum, label) => sum + Math.abs((expected[label] ?? 0) - (found[label] ?? 0)), 0);
		for (const [label, count] of Object.entries(expected)) if (count > 0) metrics[`Recall ${label}`] = Math.min(found[label] ?? 0, count) / count;
	}
	return metrics;
}

/** Each metric's mean over the cases that have it, as n8n aggregates a run. */
function averages(perCase: Array<Record<string, number>>): Record<string, number> {
	const sums = new Map<string, number[]>();
	for (const metrics of perCase) for (const [name, value] of Object.entries(metrics)) sums.set(name, [...(sums.get(name) ?? []), value]);
	return Object.fromEntries([...sums].map(([name, values]) => [name, values.reduce((a, b) => a + b, 0) / values.length]));
}

function detectAnswer(objects: Array<[string, number]>): DetectResult {
	const detections = objects.map(([label, confidence], index) => ({ label, confidence, x: 20 + 60 * index, y: 30, width: 50, height: 40 }));
	return { detections, image: null, labelsCount: Object.entries(countsOf(detections)).map(([label, total]) => ({ label, total })) };
}

/** The metrics n8n adds to every case by itself: the execution's duration, and tokens (none here: no language model). */
function userMetrics({ executionTime, promptTokens, completionTokens, totalTokens, ...metrics }: Record<string, number>): Record<string, number> {
	expect(executionTime).toBeGreaterThan(0);
	expect([promptTokens, completionTokens, totalTokens]).toEqual([0, 0, 0]);
	return metrics;
}

const classifyAnswer = (category: string, confidence: number): ClassifyResult => ({ category, confidence, predictions: [{ category, confidence }] });

describe.each(e2eVersions())('examples/evaluate-a-model.json: an evaluation of model A, then model B, in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let owner: RestClient;
	let workflowId: string;
	let rowsPath: string;
	let rows: Row[];
	let byUrl: Map<string, Buffer>;
	let modelB: { detect: string; classify: string };
	let scriptB: Answers;
	const runs: Array<{ run: TestRun; cases: TestCase[] }> = [];

	beforeAll(async () => {
		server = await startReferenceServer({});
		const [car, dog, grid] = ['car.jpg', 'dog.jpg', 'car-dog-grid.jpg'].map((name) => fs.readFileSync(fixture(name)));
		const empty = flatPng(320, 240);
		const urls = {
			car: server.hostImage(car, 'image/jpeg', 'car.jpg'),
			dog: server.hostImage(dog, 'image/jpeg', 'dog.jpg'),
			grid: server.hostImage(grid, 'image/jpeg', 'car-dog-grid.jpg'),
			carAgain: server.hostImage(car, 'image/jpeg', 'road.jpg'),
			empty: server.hostImage(empty, 'image/png', 'empty.png'),
		};
		byUrl = new Map([
			[urls.car, car],
			[urls.dog, dog],
			[urls.grid, grid],
			[urls.carAgain, car],
			[urls.empty, empty],
		]);
		rows = [
			{ image: urls.car, expectedCategory: 'car', expectedCounts: 'car:1' },
			{ image: urls.dog, expectedCategory: 'dog', expectedCounts: 'dog:1' },
			{ image: urls.grid, expectedCategory: null, expectedCounts: 'car:2, dog:2' },
			{ image: urls.carAgain, expectedCategory: 'car', expectedCounts: null },
			{ image: urls.empty, expectedCategory: null, expectedCounts: 'car:0' },
		];

		modelB = { detect: server.registerModel('detect'), classify: server.registerModel('classify') };
		scriptB = new Map([
			[urls.car, { classify: classifyAnswer('car', 0.93), detect: detectAnswer([['car', 0.91]]) }],
			[urls.dog, { classify: classifyAnswer('cat', 0.61), detect: detectAnswer([['dog', 0.88], ['cat', 0.57]]) }],
			[urls.grid, { detect: detectAnswer([['car', 0.82], ['car', 0.74], ['dog', 0.69]]) }],
			[urls.carAgain, { classify: classifyAnswer('car', 0.87) }],
			[urls.empty, { detect: detectAnswer([['car', 0.55]]) }],
		]);
		// the server fingerprints an image given by URL by the URL's text
		for (const [url, answers] of scriptB) {
			for (const kind of ['classify', 'detect'] as const) {
				const body = answers[kind];
				if (body) server.addFault({ match: { kind, modelId: modelB[kind], imageSha256: sha256(url) }, action: { type: 'status', status: 200, body } });
			}
		}

		home = await createN8nHome({ version });
		const n8n = await home.start();
		owner = await RestClient.setupOwner(n8n.url);
		const project = await owner.request<{ id: string }>('GET', '/rest/projects/personal');
		const columns = ['image', 'expectedCategory', 'expectedCounts'].map((name) => ({ name, type: 'string' }));
		const table = await owner.request<{ id: string }>('POST', `/rest/projects/${project.body.id}/data-tables`, { name: 'test photos', columns });
		rowsPath = `/rest/projects/${project.body.id}/data-tables/${table.body.id}`;
		const inserted = await owner.request('POST', `${rowsPath}/insert`, { data: rows, returnType: 'count' });
		expect([project.status, table.status, inserted.status]).toEqual([200, 200, 200]);

		const credentialData = { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' };
		const credential = await owner.createCredential({ name: 'Image Inference', type: CREDENTIAL_TYPE, data: credentialData });
		const example = useCredentialAndModels(loadExample(EXAMPLE), { credentialId: credential.id, detect: server.models.detect, classify: server.models.classify });
		for (const node of example.nodes) if (DATA_TABLE_NODES.includes(node.name)) (node.parameters.dataTableId as { value: string }).value = table.body.id;
		expect(example.nodes.filter((node) => JSON.stringify(node).includes('REPLACE_WITH'))).toEqual([]);
		const { name, nodes, connections, settings } = example;
		const created = await owner.request<{ id: string }>('POST', '/rest/workflows', { name, nodes, connections, settings, active: false });
		expect(created.status).toBe(200);
		workflowId = created.body.id;
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	/** What each row's case must record for these answers. */
	function expectRun({ run, cases }: { run: TestRun; cases: TestCase[] }, answers: Answers) {
		expect({ status: run.status, errorCode: run.errorCode }).toEqual({ status: 'completed', errorCode: null });
		expect(cases.map((testCase) => [testCase.status, testCase.errorCode])).toEqual(rows.map(() => ['success', null]));
		const byImage = new Map(cases.map((testCase) => [testCase.inputs?.image, testCase]));
		const expectedPerCase = rows.map((row) => caseMetrics(row, answers.get(row.image)!));
		for (const [index, row] of rows.entries()) {
			const testCase = byImage.get(row.image)!;
			expect(testCase.inputs).toEqual(row);
			const metrics = userMetrics(testCase.metrics!);
			expect(Object.keys(metrics).sort()).toEqual(Object.keys(expectedPerCase[index]).sort());
			for (const [name, value] of Object.entries(expectedPerCase[index])) expect([name, metrics[name]]).toEqual([name, expect.closeTo(value, 10)]);

			const { classify, detect } = answers.get(row.image)!;
			const outputs = testCase.outputs!;
			const outputNames = [...(row.expectedCategory ? ['category', 'confidence'] : []), ...(row.expectedCounts ? ['countError', 'counts'] : [])];
			expect(Object.keys(outputs).sort()).toEqual(outputNames.sort());
			if (row.expectedCategory) expect([outputs.category, outputs.confidence]).toEqual([classify!.category, classify!.confidence]);
			if (row.expectedCounts) {
				expect(parseCounts(outputs.counts as string)).toEqual(countsOf(detect!.detections));
				expect(outputs.countError).toBe(expectedPerCase[index]['Count error']);
			}
		}
		const aggregated = userMetrics(run.metrics!);
		const expected = averages(expectedPerCase);
		expect(Object.keys(aggregated).sort()).toEqual(Object.keys(expected).sort());
		for (const [name, value] of Object.entries(expected)) expect([name, aggregated[name]]).toEqual([name, expect.closeTo(value, 10)]);
		return expected;
	}

	it('model A (the reference server, at the example’s threshold): the metrics per photo and their averages', async () => {
		const threshold = (loadExample(EXAMPLE).nodes.find((node) => node.name === 'Detect objects')!.parameters.options as { confidence: number }).confidence;
		const answers: Answers = new Map(
			rows.map((row) => {
				const bytes = byUrl.get(row.image)!;
				const detect = server.predict('detect', bytes, { confidence: threshold, annotate: false });
				return [row.image, { classify: server.predict('classify', bytes, {}), detect }];
			}),
		);
		runs.push(await runEvaluation(owner, workflowId));
		const expected = expectRun(runs[0], answers);
		// the dataset has errors for the real detector to make: the small cars of the grid, the dog under the threshold
		expect(expected['Count error']).toBeGreaterThan(0);
	});

	it('model B (scripted, with known mistakes): the metrics per photo and their averages; both runs listed for comparison', async () => {
		expect(runs).toHaveLength(1);
		const saved = await owner.request<WorkflowJson>('GET', `/rest/workflows/${workflowId}`);
		const nodes = saved.body.nodes.map((node) => {
			const operation = node.parameters.operation;
			if (operation !== 'classify' && operation !== 'detect') return node;
			return { ...node, parameters: { ...node.parameters, modelId: { ...(node.parameters.modelId as object), value: modelB[operation] } } };
		});
		const patched = await owner.request('PATCH', `/rest/workflows/${workflowId}`, { ...saved.body, nodes });
		expect(patched.status).toBe(200);

		runs.push(await runEvaluation(owner, workflowId));
		const expected = expectRun(runs[1], scriptB);
		expect(expected).toEqual({ Categorization: 2 / 3, 'Count error': 3 / 4, 'Recall car': 1, 'Recall dog': 0.75 });

		const listed = await testRuns(owner, workflowId);
		expect(listed.map((run) => [run.id, run.status, run.metrics])).toEqual([...runs].reverse().map(({ run }) => [run.id, 'completed', run.metrics]));

		// Set Outputs wrote model B's answers into the rows, a column per output
		const table = await owner.request<{ data: Array<Record<string, unknown>> }>('GET', `${rowsPath}/rows?take=50&skip=0`);
		expect(table.status).toBe(200);
		const written = new Map(table.body.data.map((row) => [row.image, row]));
		for (const row of rows) {
			const { classify, detect } = scriptB.get(row.image)!;
			const { category, confidence, counts, countError } = written.get(row.image)!;
			expect([category, confidence]).toEqual(classify ? [classify.category, classify.confidence] : [null, null]);
			expect({ counts: counts === null ? null : parseCounts(counts as string), countError }).toEqual(
				detect ? { counts: countsOf(detect.detections), countError: caseMetrics(row, scriptB.get(row.image)!)['Count error'] } : { counts: null, countError: null },
			);
		}
	});
});
