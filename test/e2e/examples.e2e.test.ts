/**
 * The workflows in examples/ run in real n8n against the reference server. Their triggers need a
 * browser form or a Google account, so the run swaps them (see examples/README.md):
 *   detect-objects-from-form-upload.json  Form Trigger "Upload a photo" → Manual Trigger + Read File
 *                                         named "Upload a photo" putting car.jpg in binary field "Photo"
 *   classify-google-drive-files.json      Google Drive Trigger → Manual Trigger (same name); the
 *                                         "Download file" node → Read File with dog.jpg in "data"
 * Everything after the swapped nodes is the example exactly as a user imports it. The detect example
 * runs twice: as shipped (its IF watches "car") and with the IF watching a label the reference
 * server reports for car.jpg, so both branches, and the notification with its attachment, run.
 */
import * as fs from 'fs';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	createN8nHome,
	e2eVersions,
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
	watchLabel,
	type N8nHome,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
type DetectResult = { detections: unknown[]; labelsCount: Array<{ label: string; total: number }>; image: string | null };

describe.each(e2eVersions())('examples/ in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let watchedLabel: string;
	const ids: Record<'detectAsShipped' | 'detectWatching' | 'classify', string> = { detectAsShipped: '', detectWatching: '', classify: '' };

	beforeAll(async () => {
		server = await startReferenceServer({});
		// installed the other way users' installs are reproduced: npm install of the tarball, no dev/peer deps, no scripts
		home = await createN8nHome({ version, installStyle: 'npm' });
		await home.importCredentials(imageInferenceCredential('credExamples0001', { baseUrl: server.url, apiKey: server.apiKey }));
		const models = { credentialId: 'credExamples0001', detect: server.models.detect, classify: server.models.classify };
		const detect = feedTriggerWithFile(
			useCredentialAndModels(loadExample('detect-objects-from-form-upload.json'), models),
			'Upload a photo',
			fixture('car.jpg'),
			'Photo',
		);
		// the reference server's labels are its own; watch one it reports for car.jpg so the
		// notification branch runs too (the file as shipped watches "car")
		watchedLabel = (server.predict('detect', CAR, { confidence: 0.5 }) as DetectResult).labelsCount[0].label;
		let classify = useCredentialAndModels(loadExample('classify-google-drive-files.json'), models);
		classify = replaceNode(classify, 'New file in folder', manualTrigger('New file in folder'));
		classify = swapNodeForFile(classify, 'Download file', fixture('dog.jpg'), 'data');
		[ids.detectAsShipped, ids.detectWatching, ids.classify] = await home.importWorkflows([
			detect,
			{ ...watchLabel(detect, watchedLabel), name: `${detect.name} (watching ${watchedLabel})` },
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

	it.each([
		['as shipped (watching "car")', 'detectAsShipped' as const, (): string => 'car'],
		['watching a label the server reports', 'detectWatching' as const, (): string => watchedLabel],
	])('detect example %s: Detect → IF count > 0 → notification with the annotated photo', async (_what, key, label) => {
		const res = await home.execute(ids[key]);
		expect(res.error).toBeUndefined();
		const run = res.run!;
		expect(sentOptions('/detect/')).toEqual({ confidence: 0.5, show_prob: true });
		const expected = server.predict('detect', CAR, sentOptions('/detect/')) as DetectResult;
		const counts = Object.fromEntries(expected.labelsCount.map((l) => [l.label, l.total]));
		const [detected] = nodeItems(run, 'Detect objects');
		expect(detected.json.countsByLabel).toEqual(counts);
		const spotted = (counts[label()] ?? 0) > 0;
		if (key === 'detectWatching') expect(spotted).toBe(true);
		expect(nodeItems(run, 'Car spotted?', { output: 0 })).toHaveLength(spotted ? 1 : 0);
		expect(nodeItems(run, 'Car spotted?', { output: 1 })).toHaveLength(spotted ? 0 : 1);
		if (spotted) {
			const [message] = nodeItems(run, 'Compose notification');
			const summary = expected.labelsCount.map((l) => `${l.total} × ${l.label}`).join(', ');
			expect(message.json.subject).toBe(`Spotted: ${summary}`);
			expect(message.json.text).toBe(`Found ${expected.detections.length} object(s): ${summary}. The photo with boxes is attached.`);
			expect(message.binary!.attachment.fileName).toBe('car.annotated.jpg');
			expect(message.binary!.attachment.mimeType).toBe('image/jpeg');
			expect(readBinary(home, message.binary!.attachment).equals(Buffer.from(expected.image!, 'base64'))).toBe(true);
		} else {
			expect(nodeItems(run, 'No car')).toHaveLength(1);
		}
	});

	it('classify example: Classify → Switch routes by the category the server gave', async () => {
		const res = await home.execute(ids.classify);
		expect(res.error).toBeUndefined();
		const expected = server.predict('classify', DOG, sentOptions('/classify/')) as { category: string };
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
