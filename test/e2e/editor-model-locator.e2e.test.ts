/**
 * The Model resource locator (node version 1.1) in n8n's editor, in a real browser (Chromium via
 * playwright-core, as editor.e2e.test.ts). A user's path: open the node, see the two modes the
 * locator offers (By ID, By URL; no From List, the service lists no models), type an ID with one
 * character too many and see the panel mark it with the node's message before any run, then paste
 * the model's dashboard link (a workspace UUID before the model's) in By URL and run the node: the
 * request goes to the model's ID taken from its place in the link. n8n's editor checks a mode's
 * `validation` regex as `^…$` against the typed value (editor-ui, validateResourceLocatorParameter)
 * and shows the failures as the parameter's issues (the warning triangle and its tooltip).
 * Screenshots: docs/node-model-locator.png (the invalid ID marked) and
 * docs/node-model-locator-url.png (the link resolved, after the run).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	createN8nHome,
	CREDENTIAL_TYPE,
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
} from './lib';
import { EDITOR_LOAD_NOISE, launchBrowser, loginToN8n, type BrowserSession } from './lib/browser';
import type { Page } from 'playwright-core';

const CREDENTIAL_ID = 'locatorImgInfCred';
const WORKFLOW_ID = 'modelLocatorWf001';
const DOCS = path.join(repoRoot, 'docs');
const WORKSPACE = '0b7d9f3a-2c4e-4a6b-8d1f-3e5a7c9b1d2f';

describe('the Model resource locator in the n8n editor (Chromium)', () => {
	let home: N8nHome;
	let server: N8nServer;
	let service: ReferenceServer;
	let browser: BrowserSession;
	let page: Page;

	beforeAll(async () => {
		service = await startReferenceServer();
		home = await createN8nHome();
		await home.importCredentials(imageInferenceCredential(CREDENTIAL_ID, { baseUrl: service.url, apiKey: service.apiKey }, 'Image Inference account'));
		fs.copyFileSync(fixture('car.jpg'), path.join(home.filesDir, 'car.jpg'));
		const at = (n: NodeJson, x: number, y: number): NodeJson => ({ ...n, position: [x, y] });
		const trigger = at(manualTrigger("When clicking 'Execute workflow'"), 0, 200);
		const read = at(readFile('Read car.jpg', path.join(home.filesDir, 'car.jpg')), 240, 200);
		const detect = at(
			{
				...imageInference(
					'Detect objects',
					{ operation: 'detect', modelId: { __rl: true, mode: 'id', value: service.models.detect }, imageSource: 'binary', binaryPropertyName: 'data', options: {} },
					CREDENTIAL_ID,
				),
				typeVersion: 1.1,
				credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: 'Image Inference account' } },
			},
			480,
			200,
		);
		await home.importWorkflows([
			workflow('Model by ID or by link', [trigger, read, detect], [[trigger.name, read.name], [read.name, detect.name]], { id: WORKFLOW_ID }),
		]);
		server = await home.start();
		await RestClient.setupOwner(server.url);
		browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
		page = browser.page;
	}, 240_000);

	afterAll(async () => {
		await browser?.close();
		await home?.dispose();
		await service?.close();
	});

	const panel = () => page.locator('[data-test-id="node-parameters"]');
	const model = () => panel().locator('[data-test-id="parameter-input-modelId"]');
	const modelInput = () => model().locator('[data-test-id="rlc-input"] input, input[data-test-id="rlc-input"]').first();
	const issues = () => panel().locator('[data-test-id="parameter-issues"]:visible');

	async function typeModel(text: string): Promise<void> {
		await modelInput().click();
		await modelInput().fill(text);
		// leave the field as a user does, by clicking elsewhere in the panel
		await panel().locator('label').filter({ hasText: 'Image Source' }).first().click();
	}

	async function chooseMode(name: 'By ID' | 'By URL'): Promise<string[]> {
		await model().locator('[data-test-id="rlc-mode-selector"]').click();
		const items = page.locator('.el-select-dropdown__item:visible');
		await items.first().waitFor({ state: 'visible' });
		const offered = (await items.allInnerTexts()).map((t) => t.trim());
		await items.filter({ hasText: name }).first().click();
		for (let i = 0; i < 50 && (await items.count()) > 0; i++) await page.waitForTimeout(100);
		return offered;
	}

	/** The issue tooltip's text, as a user reads it by pointing at the warning triangle. */
	async function issueShown(message: string): Promise<void> {
		await issues().first().waitFor({ state: 'visible', timeout: 10_000 });
		await issues().first().hover();
		await page.getByText(message, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });
	}

	async function screenshot(file: string): Promise<void> {
		for (const close of await page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => undefined);
		fs.mkdirSync(DOCS, { recursive: true });
		await page.screenshot({ path: path.join(DOCS, file) });
	}

	afterEach(async () => {
		// what the page looked like when a step failed (not part of the docs)
		await page?.screenshot({ path: path.join(os.tmpdir(), 'editor-model-locator-last.png') }).catch(() => undefined);
	});

	it('offers By ID and By URL, marks an ID with one character too many before any run, and runs a pasted dashboard link on the model’s ID', async () => {
		await loginToN8n(page, server.url, OWNER, { redirect: `/workflow/${WORKFLOW_ID}` });
		const node = page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Detect objects' });
		await node.waitFor({ state: 'visible', timeout: 60_000 });
		expect(browser.problems(EDITOR_LOAD_NOISE)).toEqual([]);
		browser.console.length = 0;
		browser.pageErrors.length = 0;
		browser.failedRequests.length = 0;
		service.requests.splice(0);

		await node.dblclick();
		await panel().waitFor({ state: 'visible' });
		await modelInput().waitFor({ state: 'visible' });
		const modeShown = () => model().locator('[data-test-id="rlc-mode-selector"] input').first().inputValue();
		expect(await modeShown()).toBe('By ID');
		expect(await modelInput().inputValue()).toBe(service.models.detect);
		expect(await issues().count()).toBe(0);

		// the modes: By ID and By URL, nothing to pick from a list
		expect(await chooseMode('By ID')).toEqual(['By ID', 'By URL']);

		// By ID, one character too many: marked with what a model ID looks like, nothing sent
		await typeModel(`${service.models.detect}X`);
		await issueShown('Not a model ID: a model ID is a UUID, 36 characters like 4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f');
		// the field's end in view, so the screenshot shows the extra character next to the mark
		await modelInput().click();
		await page.keyboard.press('End');
		await issueShown('Not a model ID');
		await screenshot('node-model-locator.png');
		await page.mouse.move(0, 0);
		expect(service.requests).toHaveLength(0);

		// the exact ID: the mark goes away
		await typeModel(service.models.detect);
		for (let i = 0; i < 50 && (await issues().count()) > 0; i++) await page.waitForTimeout(100);
		expect(await issues().count()).toBe(0);

		// By URL, a link that does not name a model: marked with the link's message
		await chooseMode('By URL');
		expect(await modeShown()).toBe('By URL');
		await typeModel(`https://app.epigos.ai/workspaces/${WORKSPACE}`);
		await issueShown('Not a model link: the link must name the model’s ID, like …/models/');
		await page.mouse.move(0, 0);

		// the service's own API link: accepted as it is
		await typeModel(`https://api.epigos.ai/predict/detect/${service.models.detect}/`);
		for (let i = 0; i < 50 && (await issues().count()) > 0; i++) await page.waitForTimeout(100);
		expect(await issues().count()).toBe(0);

		// the model's dashboard link, the workspace's UUID first: accepted, and the run uses the model's ID
		const link = `https://app.epigos.ai/workspaces/${WORKSPACE}/models/${service.models.detect}/details`;
		await typeModel(link);
		for (let i = 0; i < 50 && (await issues().count()) > 0; i++) await page.waitForTimeout(100);
		expect(await issues().count()).toBe(0);
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.locator('[data-test-id="ndv-run-data-display-mode"]').getByText('JSON', { exact: true }).click();
		await output.getByText('totalDetections').first().waitFor({ state: 'visible', timeout: 60_000 });
		expect(service.requests.map((r) => r.path)).toEqual([`/predict/detect/${service.models.detect}/`]);
		expect(await modelInput().inputValue()).toBe(link);
		await screenshot('node-model-locator-url.png');

		expect(browser.problems()).toEqual([]);
	}, 180_000);
});
