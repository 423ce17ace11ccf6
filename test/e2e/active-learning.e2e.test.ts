/**
 * examples/active-learning.json in real n8n against the reference server (its real detector) and
 * the storage stand-in on a port of its own. The Form Trigger "Send photos" becomes a Manual
 * Trigger and a Read Files node of that name reading three photos in one execution (car.jpg, whose
 * car the detector is sure enough of; dog.jpg, whose dog it is not; an empty grey picture, where it
 * finds nothing), each in binary field "Photo" as the form gives it. Everything after is the example as imported, with
 * the credential, the model and the project filled in.
 *
 * What the test computes itself, from the reference server's own predictions of each file at the
 * example's threshold: which photos are unsure (nothing found, or a box under 0.5), the boxes each
 * record must carry, and the calls: the project read once, one batch "unsure from n8n", one labels
 * call, one upload, PUT and record per unsure photo, one annotations call per photo with boxes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { flatPng } from '../harness/images';
import { sha256, startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	createN8nHome,
	e2eVersions,
	executedNodes,
	feedTriggerWithFile,
	fixture,
	imageInferenceCredential,
	loadExample,
	nodeItems,
	useCredentialAndModels,
	type N8nHome,
	type WorkflowJson,
} from './lib';

const THRESHOLD = 0.3;
const UNSURE_BELOW = 0.5;
const UPLOAD = 'Upload to the project';

describe.each(e2eVersions())('examples/active-learning.json in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let photosDir: string;
	let workflowId: string;
	const projectId = 'a1c2e3f4-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
	const photos: Record<string, Buffer> = {};

	beforeAll(async () => {
		server = await startReferenceServer({});
		server.addProject('object_detection', { id: projectId, name: 'Driveway' });
		home = await createN8nHome({ version, installStyle: 'npm' });
		// a folder n8n's file nodes may read (N8N_RESTRICT_FILE_ACCESS_TO)
		photosDir = path.join(home.filesDir, 'photos');
		fs.mkdirSync(photosDir);
		photos['car.jpg'] = fs.readFileSync(fixture('car.jpg'));
		photos['dog.jpg'] = fs.readFileSync(fixture('dog.jpg'));
		photos['grey.png'] = flatPng(320, 240);
		for (const [name, bytes] of Object.entries(photos)) fs.writeFileSync(path.join(photosDir, name), bytes);
		await home.importCredentials([imageInferenceCredential('credLearning0001', { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'query' })]);
		let workflow: WorkflowJson = useCredentialAndModels(loadExample('active-learning.json'), { credentialId: 'credLearning0001', detect: server.models.detect });
		workflow = {
			...workflow,
			nodes: workflow.nodes.map((node) =>
				node.name === UPLOAD ? { ...node, parameters: { ...node.parameters, project: { ...(node.parameters.project as object), value: projectId } } } : node,
			),
		};
		workflow = feedTriggerWithFile(workflow, 'Send photos', path.join(photosDir, '*'), 'Photo');
		[workflowId] = await home.importWorkflows([workflow]);
	});

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	it('uploads the photos the model is unsure of, with its boxes, into one batch, and never the key to the storage', async () => {
		const expected = Object.entries(photos).map(([name, bytes]) => {
			const { detections } = server.predict('detect', bytes, { confidence: THRESHOLD, annotate: false });
			const unsure = detections.length === 0 || Math.min(...detections.map((detection) => detection.confidence)) < UNSURE_BELOW;
			return { name, bytes, detections, unsure };
		});
		const unsure = expected.filter((photo) => photo.unsure);
		// the three photos cover both branches, and a photo without any box
		expect(unsure.map((photo) => photo.name).sort()).toEqual(expect.arrayContaining(['dog.jpg', 'grey.png']));
		expect(expected.some((photo) => !photo.unsure)).toBe(true);

		const result = await home.execute(workflowId);
		expect(result.error).toBeUndefined();
		const run = result.run!;
		expect(executedNodes(run)).toEqual(expect.arrayContaining([UPLOAD, 'Model was sure']));

		const calls = server.requests.filter((request) => request.call !== undefined).map((request) => request.call);
		const withBoxes = unsure.filter((photo) => photo.detections.length > 0);
		const count = (call: string) => calls.filter((name) => name === call).length;
		expect([count('project'), count('batch'), count('labels')]).toEqual([1, 1, 1]);
		expect([count('upload'), count('record'), count('annotations')]).toEqual([unsure.length, unsure.length, withBoxes.length]);
		// the labels are resolved before anything is created: a refused labels call leaves no record behind
		expect(calls.slice(0, calls.indexOf('labels'))).toEqual(['project']);

		const project = server.projects(projectId)!;
		expect(project.batches.map((batch) => batch.name)).toEqual(['unsure from n8n']);
		expect(project.records).toHaveLength(unsure.length);
		const labelOf = (labelId: string) => project.labels.find((label) => label.id === labelId)?.name;
		for (const photo of unsure) {
			const record = project.records.find((candidate) => candidate.name === photo.name)!;
			expect(record).toMatchObject({ batchId: project.batches[0].id, sha256: sha256(photo.bytes), size: photo.bytes.length });
			const boxes = record.annotations.map(({ label_id, annotation }) => {
				const box = annotation as unknown as { left: number; top: number; width: number; height: number };
				return { label: labelOf(label_id), x: box.left, y: box.top, width: box.width, height: box.height };
			});
			expect(boxes).toEqual(photo.detections.map(({ label, x, y, width, height }) => ({ label, x, y, width, height })));
		}

		const uploaded = nodeItems(run, UPLOAD);
		expect(uploaded.map((item) => (item.json.upload as { fileName: string }).fileName).sort()).toEqual(unsure.map((photo) => photo.name).sort());
		expect(uploaded.map((item) => (item.json.upload as { annotationCount: number }).annotationCount).sort()).toEqual(
			unsure.map((photo) => photo.detections.length).sort(),
		);

		expect(server.storage.requests.filter((request) => request.method === 'PUT')).toHaveLength(unsure.length);
		for (const request of server.storage.requests) {
			expect(JSON.stringify(request)).not.toContain(server.apiKey);
			expect(request.query['api-key']).toBeUndefined();
		}
	});
});
