/**
 * The Image Inference Trigger tested from n8n's editor, in a real browser (Debian's Chromium driven
 * by playwright-core), on each tested n8n version: examples/driveway-to-telegram.json pointed at a
 * stand-in camera and the reference server, not activated, its trigger opened and run with the
 * panel's button, as a user builds the workflow.
 *
 * For a trigger that neither polls nor listens for a webhook, the panel's button reads "Execute
 * step" on both lines (n8n-editor-ui's NodeExecuteButton: "Fetch Test Event" is for polling nodes
 * only). n8n then calls the trigger in manual mode and waits for its `manualTriggerFunction` to
 * emit (n8n-core's `triggers-and-pollers.js`, `runTrigger`). Each run is one look: the camera asked
 * once, the service once, the car in view shown as the arrival the example picks (with a `test:`
 * id), the Telegram node not run, and the workflow's static data left as it was (none), run after
 * run. A camera that refuses the login fails the run with its message, without the camera's
 * address or the API key.
 *
 * n8n itself saves no static data after a manual run (2.41.1 and 1.123.81:
 * `execution-lifecycle/execution-lifecycle-hooks.js`, `saveStaticDataById` only when the mode is
 * not manual), so the static data checked here holds whatever the trigger does with it; the
 * trigger's own copy for the run is checked in test/node/trigger.test.ts.
 */
import * as path from 'path';

import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { cameraFrame } from '../harness/images';
import { startStandInCamera, type StandInCamera } from '../harness/standInCamera';
import { launchBrowser, loginToN8n, EDITOR_LOAD_NOISE, type BrowserSession } from './lib/browser';
import {
	createN8nHome,
	DEFAULT_N8N_VERSION,
	DRIVEWAY_TRIGGER,
	importDriveway,
	e2eVersions,
	OWNER,
	repoRoot,
	RestClient,
	startTelegramBotApi,
	type N8nHome,
	type N8nServer,
	type TelegramBotApi,
} from './lib';

type Event = { kind: string; label: string | null; zone: string | null; trackId: number | null; id: string };

describe.each(e2eVersions())('the trigger run from the editor of n8n %s (Chromium)', (version) => {
	let service: ReferenceServer;
	let camera: StandInCamera;
	let telegram: TelegramBotApi;
	let home: N8nHome;
	let n8n: N8nServer;
	let rest: RestClient;
	let browser: BrowserSession;
	let workflowId: string;

	beforeAll(async () => {
		service = await startReferenceServer({ defaultModels: 'synthetic' });
		camera = await startStandInCamera([cameraFrame('carInZone')]);
		telegram = await startTelegramBotApi();
		home = await createN8nHome({ version });
		workflowId = await importDriveway(home, { service, cameraUrl: camera.url, telegram });
		n8n = await home.start();
		rest = await RestClient.setupOwner(n8n.url);
		browser = await launchBrowser({ viewport: { width: 1920, height: 1080 } });
	}, 240_000);

	afterAll(async () => {
		await browser?.close();
		await home?.dispose();
		await telegram?.close();
		await camera?.close();
		await service?.close();
	});

	const staticData = async () => (await rest.request<{ staticData?: unknown }>('GET', `/rest/workflows/${workflowId}`)).body.staticData ?? null;

	it('Execute step runs one look each time and keeps nothing; a camera refusing the login fails the run with what to fix', async () => {
		const page = browser.page;
		await loginToN8n(page, n8n.url, OWNER, { redirect: `/workflow/${workflowId}` });
		const triggerNode = page.locator('[data-test-id="canvas-node"]').filter({ hasText: DRIVEWAY_TRIGGER });
		await triggerNode.waitFor({ state: 'visible', timeout: 60_000 });
		const savedBefore = await staticData();
		expect(savedBefore).toBeNull();

		await triggerNode.dblclick();
		const button = page.locator('[data-test-id="node-execute-button"]').first();
		await button.waitFor({ state: 'visible', timeout: 30_000 });
		expect((await button.innerText()).trim()).toBe('Execute step');
		const output = page.locator('[data-test-id="output-panel"]');

		for (let run = 1; run <= 3; run++) {
			await button.click();
			const runs = await rest.waitForFinishedExecutions(workflowId, run, 60_000, () => `camera served ${camera.served}, service saw ${service.requests.length} requests`);
			const latest = runs[run - 1];
			expect(latest.status).toBe('success');
			const items = latest.runData[DRIVEWAY_TRIGGER][0].data!.main[0]!;
			expect(items).toHaveLength(1);
			const event = items[0].json.event as Event;
			// the car in view, as the event the example picks: what Send the photo's caption is made from
			expect({ kind: event.kind, label: event.label, zone: event.zone, trackId: event.trackId }).toEqual({ kind: 'arrival', label: 'red', zone: 'driveway', trackId: null });
			expect(event.id).toMatch(/^test:[^:]+:1:arrival:red:driveway:$/);
			expect((items[0].json.detections as Array<{ label: string }>).map((detection) => detection.label)).toEqual(['red']);
			expect(Object.keys(latest.runData)).toEqual([DRIVEWAY_TRIGGER]);
			expect([camera.served, service.requests.filter((request) => request.kind === 'detect').length]).toEqual([run, run]);
			expect(await staticData()).toEqual(savedBefore);
		}
		expect(telegram.calls).toEqual([]);

		// what the panel shows: the look as an item, the picture beside it
		await output.locator('[data-test-id="ndv-run-data-display-mode"]').getByText('JSON', { exact: true }).click();
		await output.getByText('"arrival"').first().waitFor({ state: 'visible', timeout: 30_000 });
		if (version === DEFAULT_N8N_VERSION) {
			for (const close of await page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => undefined);
			await page.mouse.move(0, 0);
			await page.screenshot({ path: path.join(repoRoot, 'docs', 'trigger-execute-step.png') });
		}

		// the camera now refuses: the run fails with the camera's message, naming neither its address nor the key
		camera.answerWith((_request, response) => response.writeHead(401).end());
		await button.click();
		const shown = output.getByText('The camera refused the login (401)').first();
		await shown.waitFor({ state: 'visible', timeout: 60_000 });
		const failed = await rest.waitForFinishedExecutions(workflowId, 4, 60_000, () => `camera asked ${camera.requests.length} times`);
		expect(failed[3].status).toBe('error');
		const panelText = await output.innerText();
		expect(panelText).not.toContain(camera.url);
		expect(await page.content()).not.toContain(service.apiKey);
		expect(await staticData()).toEqual(savedBefore);
		// n8n 1.123's editor reports problems of its own after sign-in (its AI assistant's licence, its version check); none is the trigger's
		const problems = browser.problems(EDITOR_LOAD_NOISE);
		if (version === DEFAULT_N8N_VERSION) expect(problems).toEqual([]);
		expect(problems.filter((problem) => /imageInference|snapshot|camera|\/run\b/i.test(problem))).toEqual([]);
	}, 240_000);
});
