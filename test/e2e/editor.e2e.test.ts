/**
 * The node in n8n's editor, in a real browser: Debian's Chromium driven by playwright-core
 * (test/e2e/setup-machine.sh installs it; no browser is ever downloaded). `n8n start` with the
 * packed package installed, the owner set up headlessly over REST, then a user's path: sign in
 * through the form, open a workflow holding the node, double-click the node and use its panel.
 *
 * Asserts that the operation and image-source switches offer what they should and show/hide their
 * fields as designed, that the detect-only options are offered only for Detect, that the
 * credential type "Image Inference API" is offered with its fields, and that nothing errors in the
 * browser console while the panel is used. The object-item and image options appear only where they
 * apply (Include Images Without Objects only for One Item per Object, Put Original Image in Field
 * only when Output Images includes the original): docs/node-detect-options.png. Then runs a workflow
 * from the editor against the reference server (its real object detector) and reads the result as a
 * user does: the output panel's JSON, and the annotated image opened from the Binary view. Saves the
 * screenshots the README shows: docs/node-detect.png (the output after a run),
 * docs/node-detect-annotated.png (the annotated image, car boxed), docs/node-classify.png and
 * docs/node-upload.png (Upload to Project with a Classification Label).
 */
import * as fs from 'fs';
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
	type WorkflowJson,
} from './lib';
import { EDITOR_LOAD_NOISE, launchBrowser, loginToN8n, type BrowserSession } from './lib/browser';
import type { Locator, Page } from 'playwright-core';

const WORKFLOW = JSON.parse(
	fs.readFileSync(path.join(__dirname, 'workflows', 'editor-image-inference.json'), 'utf8'),
) as WorkflowJson;
const CREDENTIAL_ID = 'editorImgInfCred1';
const CREDENTIAL = { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: 'Image Inference account' } };
/** What the test reads of the <img> showing a binary (the tests compile without the DOM types). */
type ShownImage = { complete: boolean; naturalWidth: number; naturalHeight: number; src: string };
const RUN_WORKFLOW_ID = 'editorImgInfRun01';
const DOCS = path.join(repoRoot, 'docs');
const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));

/** The Model as node version 1.1, the version a user adding the node gets, keeps it: By ID. */
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Manual trigger → Read car.jpg → Detect objects, and → Read dog.jpg → Classify image (photos in `photos`). */
function runWorkflow(models: { detect: string; classify: string }, photos: string): WorkflowJson {
	const at = (n: NodeJson, x: number, y: number): NodeJson => ({ ...n, position: [x, y] });
	const trigger = at(manualTrigger("When clicking 'Execute workflow'"), 0, 200);
	const readCar = at(readFile('Read car.jpg', path.join(photos, 'car.jpg')), 240, 80);
	const readDog = at(readFile('Read dog.jpg', path.join(photos, 'dog.jpg')), 240, 320);
	const detect = at(
		{ ...imageInference('Detect objects', { operation: 'detect', modelId: byId(models.detect), imageSource: 'binary', binaryPropertyName: 'data', options: { confidence: 0.5 } }, CREDENTIAL_ID, { typeVersion: 1.1 }), credentials: CREDENTIAL },
		480,
		80,
	);
	const classify = at(
		{ ...imageInference('Classify image', { operation: 'classify', modelId: byId(models.classify), imageSource: 'binary', binaryPropertyName: 'data', options: {} }, CREDENTIAL_ID, { typeVersion: 1.1 }), credentials: CREDENTIAL },
		480,
		320,
	);
	return workflow(
		'Spot objects in a photo',
		[trigger, readCar, detect, readDog, classify],
		[
			[trigger.name, readCar.name],
			[readCar.name, detect.name],
			[trigger.name, readDog.name],
			[readDog.name, classify.name],
		],
		{ id: RUN_WORKFLOW_ID },
	);
}

const ABOUT_THIS_PACKAGE = /image-?inference/i;

// The node declares each Options collection in alphabetical order; the editor lists it as declared.
const DETECT_OPTIONS = [
	'Annotate Image',
	'Annotated Image Drawn By',
	'Blur These Labels',
	'Box Stroke Width',
	'Compare With Previous Look',
	'Concurrency',
	'Confidence Threshold',
	'Hide With',
	'Ignore Regions',
	'Ignore These Labels',
	'Max Aspect Ratio',
	'Max Object Size',
	'Max Objects',
	'Min Aspect Ratio',
	'Min Object Size',
	'Minimum Confidence per Label',
	'Only Objects in Zones',
	'Only These Labels',
	'Output Images',
	'Put Annotated Image in Field',
	'Retries',
	'Show Confidence on Boxes',
	'Timeout (Ms)',
	'Zone Anchor Point',
	'Zone Coordinates',
	'Zones',
];
const UPLOAD_OPTIONS = ['Allow as Agent Tool', 'Blur These Labels', 'Concurrency', 'Hide With', 'Retries', 'Timeout (Ms)'];
const CLASSIFY_OPTIONS = ['Concurrency', 'Confidence Threshold', 'Minimum Confidence per Label', 'Retries', 'Timeout (Ms)'];
const SOURCE_FIELDS = ['binaryPropertyName', 'imageUrl', 'imageBase64', 'imageBinary'];

describe('Image Inference in the n8n editor (Chromium)', () => {
	let home: N8nHome;
	let server: N8nServer;
	let service: ReferenceServer;
	let browser: BrowserSession;
	let page: Page;

	beforeAll(async () => {
		service = await startReferenceServer();
		home = await createN8nHome();
		await home.importCredentials(
			imageInferenceCredential(CREDENTIAL_ID, { baseUrl: service.url, apiKey: service.apiKey }, 'Image Inference account'),
		);
		// the photos in the n8n home's own files folder: the panel shows the folder they were read from
		for (const photo of ['car.jpg', 'dog.jpg']) fs.copyFileSync(fixture(photo), path.join(home.filesDir, photo));
		await home.importWorkflows([WORKFLOW, runWorkflow(service.models, home.filesDir)]);
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

	/** Names of the node parameters the panel shows right now (data-test-id="parameter-input-<name>"). */
	async function visibleParameters(): Promise<string[]> {
		const inputs = panel().locator('[data-test-id^="parameter-input-"]:visible');
		const ids = await inputs.evaluateAll((els) => els.map((e) => e.getAttribute('data-test-id') ?? ''));
		return ids.map((id) => id.replace(/^parameter-input-/, '')).filter((n) => n && n !== 'field');
	}

	/** Opens a select and returns the first line (the name) of each option it offers. */
	async function openSelect(trigger: Locator): Promise<string[]> {
		await noOpenSelect();
		await trigger.click();
		const items = page.locator('.el-select-dropdown__item:visible');
		await items.first().waitFor({ state: 'visible' });
		return (await items.allInnerTexts()).map((t) => t.split('\n')[0].trim());
	}

	/** Waits until no select shows options any more (they fade out after a choice or Escape). */
	async function noOpenSelect(): Promise<void> {
		const items = page.locator('.el-select-dropdown__item:visible');
		for (let i = 0; i < 50 && (await items.count()) > 0; i++) await page.waitForTimeout(100);
		expect(await items.count()).toBe(0);
	}

	async function closeSelect(): Promise<void> {
		await page.keyboard.press('Escape');
		await noOpenSelect();
	}

	async function choose(parameter: string, option: string): Promise<string[]> {
		const offered = await openSelect(panel().locator(`[data-test-id="parameter-input-${parameter}"] input`));
		await page.locator('.el-select-dropdown__item:visible').filter({ hasText: option }).first().click();
		await noOpenSelect();
		await expectValue(parameter, option);
		return offered;
	}

	async function expectValue(parameter: string, shown: string): Promise<void> {
		const input = panel().locator(`[data-test-id="parameter-input-${parameter}"] input`);
		await input.waitFor({ state: 'visible' });
		for (let i = 0; i < 40 && (await input.inputValue()) !== shown; i++) await page.waitForTimeout(100);
		expect(await input.inputValue()).toBe(shown);
	}

	async function expectSourceFields(source: string, shown: string | undefined): Promise<void> {
		await choose('imageSource', source);
		const visible = await visibleParameters();
		expect(SOURCE_FIELDS.filter((f) => visible.includes(f))).toEqual(shown ? [shown] : []);
	}

	async function addOptions(): Promise<string[]> {
		const offered = await openSelect(panel().locator('[data-test-id="collection-parameter-add"] input'));
		await closeSelect();
		return offered;
	}

	async function addOption(name: string): Promise<void> {
		await openSelect(panel().locator('[data-test-id="collection-parameter-add"] input'));
		await page.locator('.el-select-dropdown__item:visible').filter({ hasText: name }).first().click();
		await noOpenSelect();
		await panel().locator('label').filter({ hasText: name }).first().waitFor({ state: 'visible' });
	}

	async function switchOn(parameter: string): Promise<void> {
		const toggle = panel().locator(`[data-test-id="parameter-input-${parameter}"] .el-switch`).first();
		await toggle.click();
		await panel().locator(`[data-test-id="parameter-input-${parameter}"] .el-switch.is-checked`).first().waitFor({ state: 'visible' });
	}

	it('shows the node panel as designed, offers its credential, and logs no errors', async () => {
		const started = Date.now();
		await loginToN8n(page, server.url, OWNER, { redirect: `/workflow/${WORKFLOW.id}` });
		const node = page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Image Inference' });
		await node.waitFor({ state: 'visible', timeout: 60_000 });
		await expect(node.innerText()).resolves.toContain('Detect Objects'); // the subtitle

		const loadProblems = browser.problems();
		const loadUnexpected = browser.problems(EDITOR_LOAD_NOISE);
		expect(loadProblems.filter((p) => ABOUT_THIS_PACKAGE.test(p))).toEqual([]);
		expect(loadUnexpected).toEqual([]);
		const loadIgnored = loadProblems.length;
		browser.console.length = 0;
		browser.pageErrors.length = 0;
		browser.failedRequests.length = 0;

		// --- the panel, Detect ---
		await node.dblclick();
		await panel().waitFor({ state: 'visible' });
		await expectValue('operation', 'Detect Objects');
		expect(await visibleParameters()).toEqual(['operation', 'modelId', 'imageSource', 'binaryPropertyName', 'outputItems']);

		const operations = await openSelect(panel().locator('[data-test-id="parameter-input-operation"] input'));
		expect(operations).toEqual(['Detect Objects', 'Classify Image', 'Upload to Project']);
		await closeSelect();

		const sources = await openSelect(panel().locator('[data-test-id="parameter-input-imageSource"] input'));
		expect(sources).toEqual(['All Images on the Item', 'Base64', 'Binary File', 'Binary From Expression', 'URL']);
		await closeSelect();
		await expectSourceFields('URL', 'imageUrl');
		await expectSourceFields('Base64', 'imageBase64');
		await expectSourceFields('Binary From Expression', 'imageBinary');
		await expectSourceFields('All Images on the Item', undefined);
		await expectSourceFields('Binary File', 'binaryPropertyName');

		expect(await openSelect(panel().locator('[data-test-id="parameter-input-outputItems"] input'))).toEqual([
			'One Item per Image',
			'One Item per Object',
		]);
		await closeSelect();
		expect(await addOptions()).toEqual(DETECT_OPTIONS);

		// the credential: the imported one is listed under its type, and a new one is of that type
		const creds = panel().locator('[data-test-id="node-credentials-select"]');
		await creds.locator('input').click();
		const credItem = page.locator(`[data-test-id="node-credentials-select-item-${CREDENTIAL_ID}"]:visible`);
		await credItem.waitFor({ state: 'visible' });
		expect(await credItem.innerText()).toMatch(/Image Inference account\s+Image Inference API/);
		await page.locator('[data-test-id="node-credentials-select-item-new"]:visible').click();
		const modal = page.locator('[data-test-id="editCredential-modal"]');
		await modal.waitFor({ state: 'visible' });
		const modalText = await modal.innerText();
		expect(modalText).toContain('Image Inference API');
		for (const field of ['Base URL', 'API Key', 'Send API Key As']) expect(modalText).toContain(field);
		await modal.locator('.el-dialog__headerbtn, [aria-label="Close"], .el-dialog__close').first().click();
		await modal.waitFor({ state: 'hidden' });

		await addOption('Annotate Image');
		await addOption('Confidence Threshold');

		// --- Detect, one item per object: the object and image options where they apply ---
		await choose('outputItems', 'One Item per Object');
		const notYetAdded = (name: string) => !['Annotate Image', 'Confidence Threshold'].includes(name);
		expect(await addOptions()).toEqual([...DETECT_OPTIONS, 'Crop Each Object', 'Include Images Without Objects'].filter(notYetAdded).sort((a, b) => a.localeCompare(b)));
		await addOption('Output Images');
		await choose('outputImages', 'Original');
		let offered = await addOptions();
		expect(offered).toContain('Put Original Image in Field');
		expect(offered).not.toContain('Put Annotated Image in Field');
		await choose('outputImages', 'Both');
		offered = await addOptions();
		expect(offered).toContain('Put Original Image in Field');
		await addOption('Put Original Image in Field');
		await addOption('Only These Labels');
		await panel().locator('[data-test-id="parameter-input-onlyLabels"] input, [data-test-id="parameter-input-onlyLabels"] textarea').first().fill('person, car');
		await addOption('Max Objects');
		await addOption('Include Images Without Objects');
		await page.mouse.move(0, 0);
		await page.screenshot({ path: path.join(DOCS, 'node-detect-options.png') });
		// --- watching: the comparison's options once it is on, tracking's once tracking is on (what the editor shows is what runs) ---
		offered = await addOptions();
		for (const name of ['Watch Key', 'Cooldown (Minutes)', 'Cooldown Scope', 'Departure After Looks', 'Track Objects Across Looks', 'Track Min Overlap']) expect(offered).not.toContain(name);
		await addOption('Compare With Previous Look');
		await switchOn('compareWithPreviousLook');
		offered = await addOptions();
		expect(offered).toEqual(expect.arrayContaining(['Watch Key', 'Cooldown (Minutes)', 'Track Objects Across Looks']));
		expect(offered).not.toContain('Track Min Overlap');
		await addOption('Track Objects Across Looks');
		await switchOn('trackObjects');
		const tracking = ['Arrival After Looks', 'Count Arrivals', 'Report Stays Longer Than (Minutes)', 'Stay Limits per Zone', 'Track Kept Through Missed Looks', 'Track Min Overlap'];
		expect((await addOptions()).filter((name) => tracking.includes(name))).toEqual(tracking);

		await choose('outputItems', 'One Item per Image');
		expect(await addOptions()).not.toContain('Include Images Without Objects');

		// --- the panel, Upload to Project: no model, its own Image Source (files only), the annotation's field ---
		await choose('operation', 'Upload to Project');
		expect(await visibleParameters()).toEqual(['operation', 'project', 'imageSource', 'binaryPropertyName', 'batchName', 'annotationSource', 'detections']);
		expect(await openSelect(panel().locator('[data-test-id="parameter-input-imageSource"] input'))).toEqual(['All Images on the Item', 'Binary File', 'Binary From Expression']);
		await closeSelect();
		expect(await choose('annotationSource', 'Classification Label')).toEqual(['From Detections', 'Classification Label', 'None']);
		expect((await visibleParameters()).slice(-2)).toEqual(['annotationSource', 'classificationLabel']);
		expect(await addOptions()).toEqual(UPLOAD_OPTIONS);
		await screenshot('node-upload.png');

		// --- the panel, Classify ---
		await choose('operation', 'Classify Image');
		expect(await visibleParameters()).toEqual(['operation', 'modelId', 'imageSource', 'binaryPropertyName']);
		const classifyOptions = await addOptions();
		expect(classifyOptions).toEqual(CLASSIFY_OPTIONS);
		expect(classifyOptions).not.toContain('Annotate Image');
		for (const objectOption of ['Only These Labels', 'Max Objects', 'Output Images', 'Include Images Without Objects']) {
			expect(classifyOptions).not.toContain(objectOption);
		}
		await expectSourceFields('URL', 'imageUrl');
		await expectSourceFields('Base64', 'imageBase64');
		await expectSourceFields('Binary File', 'binaryPropertyName');
		await addOption('Confidence Threshold');

		// back on the canvas the subtitle follows the operation
		await page.locator('[data-test-id="ndv-close-button"]').click();
		await panel().waitFor({ state: 'hidden' });
		await expect(node.innerText()).resolves.toContain('Classify Image');

		const warnings = browser.console.filter((c) => c.type === 'warning' && ABOUT_THIS_PACKAGE.test(c.text));
		expect(browser.problems()).toEqual([]);
		process.stdout.write(
			`[editor e2e] panel checked in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
				`${loadIgnored} known n8n load-time messages ignored; ${warnings.length} console warnings about the package; ` +
				`screenshot docs/node-detect-options.png\n`,
		);
		expect(warnings).toEqual([]);
	}, 180_000);

	/** Opens a node's panel on the canvas and shows its output in the given view (JSON, Binary, …). */
	async function openOutput(nodeName: string, view: 'JSON' | 'Binary'): Promise<Locator> {
		await page.locator('[data-test-id="canvas-node"]').filter({ hasText: nodeName }).dblclick();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.waitFor({ state: 'visible' });
		await output.locator('[data-test-id="ndv-run-data-display-mode"]').getByText(view, { exact: true }).click();
		return output;
	}

	/** Screenshots show the editor, not the "Workflow executed successfully" toast over it. */
	async function screenshot(file: string): Promise<void> {
		for (const close of await page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => undefined);
		await page.locator('.el-notification').first().waitFor({ state: 'hidden' }).catch(() => undefined);
		await page.mouse.move(0, 0);
		fs.mkdirSync(DOCS, { recursive: true });
		await page.screenshot({ path: path.join(DOCS, file) });
	}

	async function closePanel(): Promise<void> {
		await page.locator('[data-test-id="ndv-close-button"]').click();
		await panel().waitFor({ state: 'hidden' });
	}

	it('runs a workflow from the editor: the output shows the detections, the Binary view the annotated image with the car boxed', async () => {
		// a fresh tab (the panel test left unsaved edits in the first one); the sign-in cookie is shared
		await page.close();
		page = await browser.context.newPage();
		// wider, so the output panel shows the annotated photo large enough to read its label
		await page.setViewportSize({ width: 1920, height: 1080 });
		browser.console.length = 0;
		browser.pageErrors.length = 0;
		browser.failedRequests.length = 0;
		await page.goto(`${server.url}/workflow/${RUN_WORKFLOW_ID}`, { waitUntil: 'domcontentloaded' });
		const nodes = page.locator('[data-test-id="canvas-node"]');
		await nodes.filter({ hasText: 'Detect objects' }).waitFor({ state: 'visible', timeout: 60_000 });
		service.requests.splice(0);

		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await page.locator('[data-test-id="canvas-node-status-success"]').nth(4).waitFor({ state: 'visible', timeout: 60_000 });
		expect(await page.locator('[data-test-id="canvas-node-status-success"]').count()).toBe(5);
		expect(service.requests.map((r) => [r.kind, r.status])).toEqual(expect.arrayContaining([['detect', 200], ['classify', 200]]));

		// Detect objects: the output panel, JSON view, shows what the service found: the car
		const detected = service.predict('detect', CAR, { confidence: 0.5 });
		expect(detected.detections.map((d) => d.label)).toContain('car');
		const detectOutput = await openOutput('Detect objects', 'JSON');
		for (const d of detected.detections) {
			await detectOutput.getByText(String(d.confidence), { exact: false }).first().waitFor({ state: 'visible' });
		}
		const shown = await detectOutput.innerText();
		for (const text of ['detections', 'car', 'countsByLabel', 'totalDetections', String(detected.detections[0].x)]) expect(shown).toContain(text);
		await screenshot('node-detect.png');

		// the Binary view: the annotated file, opened as a user does with View
		await detectOutput.locator('[data-test-id="ndv-run-data-display-mode"]').getByText('Binary', { exact: true }).click();
		await detectOutput.getByText('car.annotated.jpg').first().waitFor({ state: 'visible' });
		await detectOutput.locator('[data-test-id="ndv-view-binary-data"]').first().click();
		const image = page.locator('.binary-data-window img');
		await image.waitFor({ state: 'visible' });
		await page.waitForFunction((el) => (el as unknown as ShownImage).complete && (el as unknown as ShownImage).naturalWidth > 0, await image.elementHandle());
		const size = await image.evaluate((el) => [(el as unknown as ShownImage).naturalWidth, (el as unknown as ShownImage).naturalHeight]);
		expect(size).toEqual([676, 380]);
		const shownBytes = Buffer.from(
			await image.evaluate(async (el) => {
				const response = await fetch((el as unknown as ShownImage).src);
				return [...new Uint8Array(await response.arrayBuffer())];
			}),
		);
		expect(shownBytes.equals(Buffer.from(detected.image!, 'base64'))).toBe(true);
		await screenshot('node-detect-annotated.png');
		await closePanel();

		// Classify image: the dominant object of dog.jpg
		const classified = service.predict('classify', DOG, {});
		const classifyOutput = await openOutput('Classify image', 'JSON');
		await classifyOutput.getByText(String(classified.confidence), { exact: false }).first().waitFor({ state: 'visible' });
		expect(await classifyOutput.innerText()).toContain(classified.category);
		await screenshot('node-classify.png');
		await closePanel();

		expect(browser.problems()).toEqual([]);
		process.stdout.write('[editor e2e] run from the editor; screenshots docs/node-detect.png, docs/node-detect-annotated.png, docs/node-classify.png\n');
	}, 180_000);
});
