/**
 * Workflows saved with node version 1 keep running after the node gained version 1.1 (the Model
 * as a resource locator). Every example in examples/ ships at version 1.1; here each runnable one
 * runs as a user would have saved it at version 1 (typeVersion 1, the model as plain text), once
 * with the model's ID and once with a pasted dashboard link that carries a workspace UUID before
 * the model's. n8n picks the node description of the saved typeVersion (n8n-workflow's
 * NodeHelpers.getNodeParameters with `@version` display options), so version 1's text field is
 * what these workflows hold. Triggers are swapped as in examples.e2e.test.ts.
 */
import * as fs from 'fs';
import { asServiceSent } from '../harness/detections';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	asSavedAtVersion1,
	createN8nHome,
	e2eVersions,
	feedTriggerWithFile,
	fixture,
	freePort,
	imageInferenceCredential,
	loadExample,
	manualTrigger,
	nodeItems,
	replaceNode,
	RestClient,
	smtpCredential,
	swapNodeForFile,
	useCredential,
	useCredentialAndModels,
	type N8nHome,
	type WorkflowJson,
} from './lib';
import { NODE_TYPE } from './lib/pack';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
const WORKSPACE = '0b7d9f3a-2c4e-4a6b-8d1f-3e5a7c9b1d2f';
const FORMS = {
	'the model ID': (id: string) => id,
	'a pasted dashboard link (workspace UUID first)': (id: string) => `https://app.epigos.ai/workspaces/${WORKSPACE}/models/${id}/details`,
} as const;
type Form = keyof typeof FORMS;
const EXAMPLES = ['detect-objects-from-form-upload.json', 'classify-google-drive-files.json', 'crop-and-classify-objects.json'] as const;
type Example = (typeof EXAMPLES)[number];

describe.each(e2eVersions())('examples saved at node version 1 in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	const ids = new Map<string, string>();
	const key = (example: Example, form: Form) => `${example} / ${form}`;

	const runnable = (example: Example, models: { credentialId: string; detect: string; classify: string }): WorkflowJson => {
		const wf = useCredentialAndModels(loadExample(example), models);
		if (example === 'classify-google-drive-files.json') {
			return swapNodeForFile(replaceNode(wf, 'New file in folder', manualTrigger('New file in folder')), 'Download file', fixture('dog.jpg'), 'data');
		}
		// the detect example mails its result; no mail server listens, its error output keeps the run going
		return feedTriggerWithFile(useCredential(wf, 'smtp', 'credSmtpClosed01'), 'Upload a photo', fixture('car.jpg'), 'Photo');
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		home = await createN8nHome({ version });
		await home.importCredentials([
			imageInferenceCredential('credVersions0001', { baseUrl: server.url, apiKey: server.apiKey }),
			smtpCredential('credSmtpClosed01', await freePort()),
		]);
		const models = { credentialId: 'credVersions0001', detect: server.models.detect, classify: server.models.classify };
		const workflows = EXAMPLES.flatMap((example) =>
			(Object.keys(FORMS) as Form[]).map((form) => ({ example, form, wf: asSavedAtVersion1(runnable(example, models), FORMS[form]) })),
		);
		const imported = await home.importWorkflows(workflows.map(({ example, form, wf }) => ({ ...wf, name: `${key(example, form)} (v1)` })));
		workflows.forEach(({ example, form }, index) => ids.set(key(example, form), imported[index]));
	});

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
	});

	const imageInferenceNodes = (example: Example) => loadExample(example).nodes.filter((n) => n.type === NODE_TYPE);

	describe.each(Object.keys(FORMS) as Form[])('the model saved as %s', (form) => {
		it.each(EXAMPLES)('%s runs unchanged: each request goes to its model, each node gives results', async (example) => {
			const saved = asSavedAtVersion1(loadExample(example), FORMS[form]).nodes.filter((n) => n.type === NODE_TYPE);
			expect(saved.map((n) => n.typeVersion)).toEqual(saved.map(() => 1));
			// binaries stored on disk (2.x's default): 1.x's in-memory mode prints every photo as base64
			// in the run, and `n8n execute` can exit before such a long output is all written
			const res = await home.execute(ids.get(key(example, form))!, { env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } });
			expect(res.error).toBeUndefined();
			if (!res.run) throw new Error(`n8n execute printed no run (exit ${res.exitCode}, signal ${res.exitSignal}): ${res.stdout.slice(-800)} ${res.stderr.slice(-800)}`);
			expect(server.requests.length).toBeGreaterThan(0);
			for (const request of server.requests) {
				expect(request.status).toBe(200);
				expect(request.path).toBe(`/predict/${request.kind}/${request.kind === 'detect' ? server.models.detect : server.models.classify}/`);
			}
			for (const n of imageInferenceNodes(example)) {
				const items = nodeItems(res.run!, n.name);
				expect(items.length).toBeGreaterThan(0);
				for (const item of items) expect(item.json).not.toHaveProperty('error');
			}
			if (example === 'detect-objects-from-form-upload.json') {
				const sent = server.requests[0].body as Record<string, unknown>;
				const { image: _image, ...options } = sent;
				void _image;
				const expected = server.predict('detect', CAR, options) as { detections: unknown[] };
				expect(asServiceSent(nodeItems(res.run!, 'Detect objects')[0].json.detections)).toEqual(expected.detections);
			}
			if (example === 'classify-google-drive-files.json') {
				const expected = server.predict('classify', DOG, {}) as { category: string };
				expect(nodeItems(res.run!, 'Classify image')[0].json.category).toBe(expected.category);
			}
		});
	});

	it('every example, the MCP one too, imports at version 1 and at 1.1, and this n8n knows both versions of the node', async () => {
		const files = [...EXAMPLES, 'vision-tools-for-mcp-clients.json'];
		const workflows = files.flatMap((f) => [loadExample(f), asSavedAtVersion1(loadExample(f))]).map((wf) => ({ ...wf, id: undefined }));
		const imported = await home.importWorkflows(workflows);
		const n8n = await home.start();
		try {
			const rest = await RestClient.setupOwner(n8n.url);
			const types = await rest.nodeTypes();
			const known = new Set(types.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version]).map((v) => `${t.name}@${v}`)));
			expect([`${NODE_TYPE}@1`, `${NODE_TYPE}@1.1`].filter((k) => known.has(k))).toEqual([`${NODE_TYPE}@1`, `${NODE_TYPE}@1.1`]);
			for (const [index, id] of imported.entries()) {
				const r = await rest.request<{ nodes: Array<{ type: string; typeVersion: number; parameters: Record<string, unknown> }> }>('GET', `/rest/workflows/${id}`);
				expect(r.status).toBe(200);
				const ours = r.body.nodes.filter((n) => n.type.startsWith(NODE_TYPE));
				expect(ours.map((n) => [n.typeVersion, n.parameters.modelId])).toEqual(
					workflows[index].nodes.filter((n) => n.type.startsWith(NODE_TYPE)).map((n) => [n.typeVersion, n.parameters.modelId]),
				);
			}
		} finally {
			await n8n.stop();
		}
	});
});
