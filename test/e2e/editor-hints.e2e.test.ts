/**
 * The node's execution hints in n8n's editor, in a real browser (Debian's Chromium driven by
 * playwright-core), on each tested n8n version: a workflow run from the editor, then the node's
 * output panel read as a user reads it.
 *
 * One Detect run gives all five hints at once: three items built by a Code node (a photo with a
 * PDF beside it under "All Images on the Item", a flat grey picture with nothing in it, a photo
 * whose header says 4000 × 2600), Max Objects 2, and a credential that sends the key as a query
 * parameter. A second Detect on the same photo, with a header credential and no option, shows
 * no hint. Both versions show an execution hint as a callout with data-test-id="node-hint" in
 * the output pane: n8n-editor-ui's RunData (1.123: `executionHints` joined to the node's own and
 * the generic hints, one N8nCallout each; 2.41: the same callouts, grouped only when a hint names
 * a group, which this node's do not). The screenshot docs/node-execution-hints.png is taken on
 * the default version.
 *
 * The service is the reference server with its synthetic colour models (fast; the photo is 4 blue
 * and 3 cyan regions at the default threshold). The 4000 × 2600 photo is a small PNG whose header
 * says that size: the node reads the size from the header, and the service is told to answer it
 * with one car, so no 10-megapixel picture is decoded.
 */
import * as fs from 'fs';
import * as path from 'path';

import { flatPng, pngClaimingSize, SAMPLE_PDF } from '../harness/images';
import { startReferenceServer, sha256, type ReferenceServer } from '../reference-server';
import {
	code,
	createN8nHome,
	DEFAULT_N8N_VERSION,
	e2eVersions,
	fixture,
	imageInference,
	imageInferenceCredential,
	manualTrigger,
	OWNER,
	readFile,
	repoRoot,
	RestClient,
	workflow,
	type N8nHome,
	type N8nServer,
	type NodeJson,
	type WorkflowJson,
} from './lib';
import { launchBrowser, loginToN8n, type BrowserSession } from './lib/browser';

const CAR = fs.readFileSync(fixture('car.jpg'));
const QUERY_CREDENTIAL = 'hintsQueryCred01';
const HEADER_CREDENTIAL = 'hintsHeaderCred1';
const WORKFLOW_ID = 'imgInfHintsRun01';
const API_KEY = 'ref-hints-e2e-Vt4pQ9sL';

const GRAY = flatPng(64, 48);
const LARGE = pngClaimingSize(4000, 2600);

function hintsWorkflow(models: { detect: string }, files: string): WorkflowJson {
	const at = (n: NodeJson, x: number, y: number): NodeJson => ({ ...n, position: [x, y] });
	const nodes = [
		at(manualTrigger("When clicking 'Execute workflow'"), 0, 200),
		at(readFile('Read photo', path.join(files, 'car.jpg')), 200, 200),
		at(readFile('Read invoice', path.join(files, 'invoice.pdf')), 400, 200),
		at(readFile('Read gray', path.join(files, 'gray.png')), 600, 200),
		at(readFile('Read large', path.join(files, 'large.png')), 800, 200),
		at(
			code(
				'Items',
				`return [
  { json: { name: 'delivery' }, binary: { photo: $('Read photo').first().binary.data, attachment: $('Read invoice').first().binary.data } },
  { json: { name: 'gray' }, binary: { photo: $('Read gray').first().binary.data } },
  { json: { name: 'large' }, binary: { photo: $('Read large').first().binary.data } },
];`,
			),
			1000,
			200,
		),
		at(
			imageInference(
				'Detect with hints',
				{ operation: 'detect', modelId: models.detect, imageSource: 'allImages', options: { confidence: 0.5, maxObjects: 2, outputImages: 'none' } },
				QUERY_CREDENTIAL,
			),
			1200,
			200,
		),
		at(
			imageInference('Plain detect', { operation: 'detect', modelId: models.detect, imageSource: 'binary', binaryPropertyName: 'data', options: {} }, HEADER_CREDENTIAL),
			400,
			420,
		),
	];
	const chain = nodes.slice(0, 7).map((n) => n.name);
	return workflow(
		'Execution hints',
		nodes,
		[...chain.slice(1).map((name, i) => [chain[i], name] as [string, string]), ['Read photo', 'Plain detect']],
		{ id: WORKFLOW_ID },
	);
}

describe.each(e2eVersions())('execution hints in the output panel of n8n %s (Chromium)', (version) => {
	let home: N8nHome;
	let server: N8nServer;
	let service: ReferenceServer;
	let browser: BrowserSession;

	beforeAll(async () => {
		service = await startReferenceServer({ apiKey: API_KEY, defaultModels: 'synthetic' });
		home = await createN8nHome({ version });
		await home.importCredentials(imageInferenceCredential(QUERY_CREDENTIAL, { baseUrl: service.url, apiKey: API_KEY, sendAs: 'query' }));
		await home.importCredentials(imageInferenceCredential(HEADER_CREDENTIAL, { baseUrl: service.url, apiKey: API_KEY, sendAs: 'header' }));
		fs.writeFileSync(path.join(home.filesDir, 'car.jpg'), CAR);
		fs.writeFileSync(path.join(home.filesDir, 'invoice.pdf'), SAMPLE_PDF);
		fs.writeFileSync(path.join(home.filesDir, 'gray.png'), GRAY);
		fs.writeFileSync(path.join(home.filesDir, 'large.png'), LARGE);
		await home.importWorkflows([hintsWorkflow(service.models, home.filesDir)]);
		server = await home.start();
		await RestClient.setupOwner(server.url);
		browser = await launchBrowser({ viewport: { width: 1920, height: 1080 } });
	}, 240_000);

	afterAll(async () => {
		await browser?.close();
		await home?.dispose();
		await service?.close();
	});

	it('shows each hint in the output panel, none after a plain run, and never the key', async () => {
		const page = browser.page;
		service.addFault({
			match: { kind: 'detect', imageSha256: sha256(LARGE) },
			action: {
				type: 'status',
				status: 200,
				body: { detections: [{ label: 'car', confidence: 0.9, x: 100, y: 100, width: 800, height: 500 }], labelsCount: [{ label: 'car', total: 1 }], image: null },
			},
		});
		await loginToN8n(page, server.url, OWNER, { redirect: `/workflow/${WORKFLOW_ID}` });
		const canvasNodes = page.locator('[data-test-id="canvas-node"]');
		await canvasNodes.filter({ hasText: 'Detect with hints' }).waitFor({ state: 'visible', timeout: 60_000 });

		await page.locator('[data-test-id="execute-workflow-button"]').click();
		const succeeded = page.locator('[data-test-id="canvas-node-status-success"]');
		await succeeded.nth(7).waitFor({ state: 'visible', timeout: 90_000 });
		expect(await succeeded.count()).toBe(8);
		expect(service.requests.filter((r) => r.kind === 'detect').map((r) => r.status)).toEqual([200, 200, 200, 200]);

		// what the service found in the photo at 0.5, of which Max Objects 2 keeps 2
		const found = service.predict('detect', CAR, { confidence: 0.5 }).detections.length;
		expect(found).toBeGreaterThan(2);

		await canvasNodes.filter({ hasText: 'Detect with hints' }).dblclick();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.waitFor({ state: 'visible' });
		const hints = output.locator('[data-test-id="node-hint"]');
		await hints.first().waitFor({ state: 'visible', timeout: 30_000 });
		const shown = (await hints.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
		const expected = [
			'Nothing was detected in 1 image (item 1) at Confidence Threshold 0.5. A lower Confidence Threshold (Options) may find what the model is less sure of.',
			`Max Objects left out ${found - 2} of the ${found} objects the service found (item 0).`,
			'All Images on the Item skipped 1 file that is not an image: invoice.pdf (field attachment, item 0).',
			"One image is over 10 megapixels (large.png in item 2, 4000 × 2600), which makes the service call slow",
			"Resize first with n8n's Edit Image node (Operation Resize, Width and Height 1920, Resize Option Only if Larger).",
			'The credential sends the API key as a query parameter (Send API Key As), so the key is part of every request URL and may end up in proxy and server logs.',
		];
		for (const text of expected) expect(shown.join('\n')).toContain(text);
		for (const text of expected) await expect(output.getByText(text.slice(0, 40), { exact: false }).first().isVisible()).resolves.toBe(true);
		expect(shown.join('\n')).not.toContain(API_KEY);
		expect(await page.content()).not.toContain(API_KEY);

		if (version === DEFAULT_N8N_VERSION) {
			for (const close of await page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => undefined);
			await page.locator('.el-notification').first().waitFor({ state: 'hidden' }).catch(() => undefined);
			await page.mouse.move(0, 0);
			await page.screenshot({ path: path.join(repoRoot, 'docs', 'node-execution-hints.png') });
		}
		// n8n-editor-ui 1.123 shows NodeDetailsView ("back-to-canvas"); 2.41 NodeDetailsViewV2 ("ndv-close-button")
		await page.locator('[data-test-id="ndv-close-button"]:visible, [data-test-id="back-to-canvas"]:visible').first().click();
		await output.waitFor({ state: 'hidden' });

		// the same photo, no option, the key in the header: the panel shows the result and no hint
		const mostConfident = Math.max(...service.predict('detect', CAR, {}).detections.map((d) => d.confidence));
		await canvasNodes.filter({ hasText: 'Plain detect' }).dblclick();
		await output.waitFor({ state: 'visible' });
		await output.locator('[data-test-id="ndv-run-data-display-mode"]').getByText('JSON', { exact: true }).click();
		await output.getByText(String(mostConfident)).first().waitFor({ state: 'visible', timeout: 30_000 });
		expect(await output.locator('[data-test-id="node-hint"]').count()).toBe(0);
		process.stdout.write(`[editor-hints e2e ${version}] ${shown.length} hints shown:\n  ${shown.join('\n  ')}\n`);
	}, 240_000);
});
