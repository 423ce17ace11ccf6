/**
 * The workflows in examples/ run in real n8n against the reference server. Their triggers need a
 * browser form or a Google account, so the run swaps them (see examples/README.md):
 *   detect-objects-from-form-upload.json  Form Trigger "Upload a photo" → Manual Trigger + Read File
 *                                         named "Upload a photo" putting car.jpg in binary field "Photo"
 *   classify-google-drive-files.json      Google Drive Trigger → Manual Trigger (same name); the
 *                                         "Download file" node → Read File with dog.jpg in "data"
 * Everything after the swapped nodes is the example exactly as a user imports it. The reference
 * server's default models are a real COCO detector, so the detect example runs as shipped: on
 * car.jpg it finds the car and takes the IF's true branch (the notification with its attachment);
 * on dog.jpg there is no car and it takes the false branch.
 */
import * as fs from 'fs';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { intersectionOverUnion } from '../reference-server/detector';
import {
	createN8nHome,
	e2eVersions,
	executedNodes,
	feedTriggerWithFile,
	fixture,
	imageInferenceCredential,
	loadExample,
	manualTrigger,
	nodeItems,
	readBinary,
	replaceNode,
	RestClient,
	swapNodeForFile,
	useCredentialAndModels,
	type N8nHome,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
type Detection = { label: string; confidence: number; x: number; y: number; width: number; height: number };
type DetectResult = { detections: Detection[]; labelsCount: Array<{ label: string; total: number }>; image: string | null };
/** The hand-drawn ground truth for the test photos (test/fixtures/annotations.json). */
const TRUTH = JSON.parse(fs.readFileSync(fixture('annotations.json'), 'utf8')) as Record<string, Array<Omit<Detection, 'confidence'>>>;

describe.each(e2eVersions())('examples/ in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	const ids: Record<'detectCar' | 'detectDog' | 'classify', string> = { detectCar: '', detectDog: '', classify: '' };

	beforeAll(async () => {
		server = await startReferenceServer({});
		// installed the other way users' installs are reproduced: npm install of the tarball, no dev/peer deps, no scripts
		home = await createN8nHome({ version, installStyle: 'npm' });
		await home.importCredentials(imageInferenceCredential('credExamples0001', { baseUrl: server.url, apiKey: server.apiKey }));
		const models = { credentialId: 'credExamples0001', detect: server.models.detect, classify: server.models.classify };
		const detect = (photo: string) =>
			feedTriggerWithFile(useCredentialAndModels(loadExample('detect-objects-from-form-upload.json'), models), 'Upload a photo', fixture(photo), 'Photo');
		let classify = useCredentialAndModels(loadExample('classify-google-drive-files.json'), models);
		classify = replaceNode(classify, 'New file in folder', manualTrigger('New file in folder'));
		classify = swapNodeForFile(classify, 'Download file', fixture('dog.jpg'), 'data');
		[ids.detectCar, ids.detectDog, ids.classify] = await home.importWorkflows([
			detect('car.jpg'),
			{ ...detect('dog.jpg'), name: 'Detect objects from a form upload (dog.jpg)' },
			classify,
		]);
	});

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
	});

	const sentOptions = (path: string) => {
		const sent = server.requests.find((q) => q.path.includes(path))!.body as Record<string, unknown>;
		const { image: _i, ...options } = sent;
		void _i;
		return options;
	};

	it('detect example on car.jpg: finds the car, IF "car" takes its true branch, the notification carries the annotated photo', async () => {
		const res = await home.execute(ids.detectCar);
		expect(res.error).toBeUndefined();
		const run = res.run!;
		expect(sentOptions('/detect/')).toEqual({ confidence: 0.5, show_prob: true });
		const expected = server.predict('detect', CAR, sentOptions('/detect/')) as DetectResult;
		const [detected] = nodeItems(run, 'Detect objects');
		expect(detected.json.detections).toEqual(expected.detections);
		expect(detected.json.countsByLabel).toEqual(Object.fromEntries(expected.labelsCount.map((l) => [l.label, l.total])));
		// the car on the road where the photo has it: label and box overlap (IoU ≥ 0.5), not exact floats
		const [truth] = TRUTH['car.jpg'];
		const car = (detected.json.detections as Detection[]).find((d) => d.label === 'car');
		expect(car).toBeDefined();
		expect(intersectionOverUnion(car!, truth)).toBeGreaterThanOrEqual(0.5);

		expect(nodeItems(run, 'Car spotted?', { output: 0 })).toHaveLength(1);
		expect(nodeItems(run, 'Car spotted?', { output: 1 })).toHaveLength(0);
		expect(executedNodes(run)).not.toContain('No car');
		const [message] = nodeItems(run, 'Compose notification');
		const summary = expected.labelsCount.map((l) => `${l.total} × ${l.label}`).join(', ');
		expect(summary).toContain('car');
		expect(message.json.subject).toBe(`Spotted: ${summary}`);
		expect(message.json.text).toBe(`Found ${expected.detections.length} object(s): ${summary}. The photo with boxes is attached.`);
		expect(message.binary!.attachment.fileName).toBe('car.annotated.jpg');
		expect(message.binary!.attachment.mimeType).toBe('image/jpeg');
		expect(readBinary(home, message.binary!.attachment).equals(Buffer.from(expected.image!, 'base64'))).toBe(true);
	});

	it('detect example on dog.jpg: no car, the IF takes its false branch', async () => {
		const res = await home.execute(ids.detectDog);
		expect(res.error).toBeUndefined();
		const expected = server.predict('detect', DOG, sentOptions('/detect/')) as DetectResult;
		expect(expected.detections.some((d) => d.label === 'car')).toBe(false);
		expect(nodeItems(res.run!, 'Detect objects')[0].json.detections).toEqual(expected.detections);
		expect(nodeItems(res.run!, 'Car spotted?', { output: 0 })).toHaveLength(0);
		expect(nodeItems(res.run!, 'No car')).toHaveLength(1);
		expect(executedNodes(res.run!)).not.toContain('Compose notification');
	});

	it('classify example: Classify → Switch routes by the category the server gave (dog.jpg: Dogs)', async () => {
		const res = await home.execute(ids.classify);
		expect(res.error).toBeUndefined();
		const expected = server.predict('classify', DOG, sentOptions('/classify/')) as { category: string };
		expect(expected.category).toBe(TRUTH['dog.jpg'][0].label);
		const [classified] = nodeItems(res.run!, 'Classify image');
		expect(classified.json.category).toBe(expected.category);
		const output = expected.category === 'dog' ? 0 : expected.category === 'cat' ? 1 : 2;
		for (const o of [0, 1, 2]) {
			expect(nodeItems(res.run!, 'Route by category', { output: o })).toHaveLength(o === output ? 1 : 0);
		}
		expect(nodeItems(res.run!, ['Dogs', 'Cats', 'Other'][output])).toHaveLength(1);
	});

	it('the example files import unchanged, and every node type and version in them exists in this n8n', async () => {
		const files = ['detect-objects-from-form-upload.json', 'classify-google-drive-files.json', 'crop-and-classify-objects.json'];
		const rawIds = await home.importWorkflows(files.map((f) => ({ ...loadExample(f), id: undefined })));
		const server_ = await home.start();
		try {
			const rest = await RestClient.setupOwner(server_.url);
			const types = await rest.nodeTypes();
			const known = new Set(types.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version]).map((v) => `${t.name}@${v}`)));
			for (const [i, id] of rawIds.entries()) {
				const r = await rest.request<{ nodes: Array<{ type: string; typeVersion: number }> }>('GET', `/rest/workflows/${id}`);
				expect(r.status).toBe(200);
				expect(r.body.nodes).toHaveLength(loadExample(files[i]).nodes.length);
				for (const n of r.body.nodes) expect(known.has(`${n.type}@${n.typeVersion}`) ? `${n.type}@${n.typeVersion}` : `missing ${n.type}@${n.typeVersion}`).toBe(`${n.type}@${n.typeVersion}`);
			}
		} finally {
			await server_.stop();
		}
	});
});
