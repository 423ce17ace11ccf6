/**
 * examples/ask-a-person.json, activated in real n8n against the reference server (its real
 * detector-based classifier) and the Telegram Bot API stand-in (./lib/telegram-bot-api): photos are
 * posted to the Form Trigger's production URL as a browser posts them; the person's chat is REVIEWER.
 * The example is imported as shipped, with the credentials, the model, the project and the chat filled in.
 *
 * The person is the test: it reads the question the Telegram node sent (sendMessage, its button's
 * link is the execution's signed resume URL), opens the form there (GET) and sends its answer
 * (POST, multipart, the dropdown as field-0, to the same URL with its query, as n8n's form page
 * does). Read in the installed n8n of both versions, which agree on all of it:
 *   n8n-nodes-base/dist/utils/sendAndWait/utils.js   getSendAndWaitConfig (the button's signed URL),
 *                                                    sendAndWaitWebhook (customForm: GET renders, POST
 *                                                    resumes with {data: {<field label>: value}})
 *   n8n-nodes-base/dist/nodes/Telegram/Telegram.node.js, GenericFunctions.js createSendAndWaitMessageBody
 *                                                    (sendMessage, Markdown, one url button)
 *   n8n-nodes-base/dist/nodes/Telegram/hitl/webhook.js (2.x: a form request goes to sendAndWaitWebhook)
 *   n8n-nodes-base/dist/nodes/Form/utils/utils.js    parseFormFields / resolveRawData (the JSON form's
 *                                                    {{ }} resolved against the waiting node's input),
 *                                                    prepareFormReturnItem (multipart required)
 *   n8n/templates/form-trigger.handlebars            the dropdown's <option>s; the POST to location.search
 *   n8n-core/dist/execution-engine/node-execution-context/webhook-context.js (the input the form sees)
 *   n8n/dist/webhooks/waiting-webhooks.js            a finished execution's link: "No action required"
 *
 * The photos: car.jpg and dog.jpg, which the classifier is unsure of (under the example's 0.8), and
 * car-dog-grid.jpg, answered by the service as a trained classifier would (a canned answer, 0.96),
 * which must ask nobody.
 */
import * as fs from 'node:fs';

import { sha256, startReferenceServer, type ReferenceServer } from '../reference-server';
import {
	createN8nHome,
	e2eVersions,
	fixture,
	imageInferenceCredential,
	loadExample,
	RestClient,
	startTelegramBotApi,
	useCredential,
	useCredentialAndModels,
	type BotApiCall,
	type N8nHome,
	type N8nServer,
	type TelegramBotApi,
	type WorkflowJson,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
const SURE = fs.readFileSync(fixture('car-dog-grid.jpg'));
const REVIEWER = 4242;
const THRESHOLD = 0.8;
const CHOICES = 5;
const NONE = 'None of these';
const LABELLED_BATCH = 'checked by a person';
const UNLABELLED_BATCH = "none of the model's categories";

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
	for (const started = Date.now(); ; ) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The dropdown's choices on n8n's form page (the disabled "Select an option ..." left out). */
const optionsOnPage = (html: string) =>
	[...html.matchAll(/<option value='([^']*)'/g)].map((match) => match[1].replace(/&#x27;/g, "'").replace(/&amp;/g, '&')).filter(Boolean);

/** A page's text as a person reads it: no styles, scripts, pictures or tags. */
const visibleText = (html: string) =>
	html
		.replace(/<(style|script|svg)\b[\s\S]*?<\/\1>/g, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ');

describe.each(e2eVersions())('examples/ask-a-person.json activated in real n8n %s', (version) => {
	let server: ReferenceServer;
	let bot: TelegramBotApi;
	let home: N8nHome;
	let n8n: N8nServer;
	let rest: RestClient;
	let workflowId: string;
	let formUrl: string;
	let example: WorkflowJson;
	const projectId = '4d2f7a9c-1b3e-4c5d-8e6f-7a8b9c0d1e2f';

	const project = () => server.projects(projectId)!;
	const labelName = (labelId: string) => project().labels.find((label) => label.id === labelId)?.name;
	const batchName = (batchId: string) => project().batches.find((batch) => batch.id === batchId)?.name;
	const executions = async () => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		return (await rest.request<{ results: Array<{ id: string; status: string }> }>('GET', `/rest/executions?filter=${filter}`)).body.results;
	};

	const sendPhoto = async (bytes: Buffer, fileName: string) => {
		const body = new FormData();
		body.append('field-0', new Blob([bytes], { type: 'image/jpeg' }), fileName);
		const response = await fetch(formUrl, { method: 'POST', body });
		await response.text();
		expect(response.status).toBe(200);
	};
	/** What the bot sent to the person since `from` (the photo, then the question), once both are there. */
	const sentToReviewer = async (from: number): Promise<{ photo: BotApiCall; question: BotApiCall }> => {
		const calls = await until('the photo and the question in the person’s chat', () => {
			const sent = bot.calls.slice(from).filter((call) => Number(call.fields.chat_id) === REVIEWER && call.status === 200);
			return sent.length >= 2 ? sent : undefined;
		});
		expect(calls.map((call) => call.method)).toEqual(['sendPhoto', 'sendMessage']);
		return { photo: calls[0], question: calls[1] };
	};
	const resumeUrlOf = (question: BotApiCall) => {
		const keyboard = (question.fields.reply_markup as { inline_keyboard: Array<Array<{ text: string; url: string }>> }).inline_keyboard;
		expect(keyboard).toEqual([[{ text: 'Answer', url: expect.stringMatching(new RegExp(`^${n8n.url}/webhook-waiting/\\d+/`)) }]]);
		return keyboard[0][0].url;
	};
	/** n8n's form at the resume URL (the execution may not be marked waiting the moment the message is out). */
	const openForm = async (url: string) =>
		await until('the form at the resume URL', async () => {
			const response = await fetch(url);
			const html = await response.text();
			return response.status === 200 && html.includes('<select') ? html : undefined;
		});
	const answer = async (url: string, label: string) => {
		const body = new FormData();
		body.append('field-0', label);
		const response = await fetch(url, { method: 'POST', body });
		await response.text();
		expect(response.status).toBe(200);
	};
	const recordOf = (bytes: Buffer) => until('the photo’s record in the project', () => project().records.find((record) => record.sha256 === sha256(bytes)));
	const choicesFor = (bytes: Buffer) => [...server.predict('classify', bytes, {}).predictions.slice(0, CHOICES).map((p) => p.category), NONE];

	/** Nothing a person is sent or shown says how the workflow is set up, nor how sure the model was. */
	const expectNoInternals = (text: string, bytes: Buffer) => {
		for (const secret of [server.apiKey, server.models.classify, projectId, 'REPLACE_WITH', server.url]) expect(text).not.toContain(secret);
		for (const { confidence } of server.predict('classify', bytes, {}).predictions) {
			expect(text).not.toContain(String(confidence));
			expect(text).not.toContain(`${Math.round(confidence * 100)}%`);
		}
		expect(text).not.toMatch(/confidence/i);
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		server.addProject('classification', { id: projectId, name: 'What the photos show' });
		bot = await startTelegramBotApi();
		home = await createN8nHome({ version });
		await home.importCredentials([
			imageInferenceCredential('askImgInfCred001', { baseUrl: server.url, apiKey: server.apiKey }, 'Image Inference account'),
			{ id: 'askTelegramCred1', name: 'Telegram account', type: 'telegramApi', data: { accessToken: bot.token, baseUrl: bot.url } },
		]);
		example = loadExample('ask-a-person.json');
		const filled = JSON.parse(
			JSON.stringify(example).replaceAll('REPLACE_WITH_YOUR_PROJECT_ID', projectId).replaceAll('REPLACE_WITH_YOUR_CHAT_ID', String(REVIEWER)),
		) as WorkflowJson;
		const withModel = useCredentialAndModels(filled, { credentialId: 'askImgInfCred001', classify: server.models.classify });
		const wf = useCredential(withModel, 'telegramApi', 'askTelegramCred1');
		[workflowId] = await home.importWorkflows([wf]);
		const published = await home.cli(['publish:workflow', `--id=${workflowId}`], { allowFailure: true });
		if (published.code !== 0) await home.cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
		n8n = await home.start();
		rest = await RestClient.setupOwner(n8n.url);
		const trigger = example.nodes.find((node) => node.type === 'n8n-nodes-base.formTrigger')!;
		formUrl = `${n8n.url}/form/${(trigger as { webhookId: string }).webhookId}`;
		// n8n activates published workflows in the background after it reports ready
		await until('the form trigger registered', async () => ((await fetch(formUrl)).status === 200 ? true : undefined));
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await bot?.close();
		await server?.close();
	});

	it('an unsure photo goes to the person’s chat; the label they pick in the form, not the model’s, is the photo’s label in the project', async () => {
		const predicted = server.predict('classify', CAR, {});
		expect(predicted.confidence).toBeLessThan(THRESHOLD);
		const choices = choicesFor(CAR);
		// the person disagrees with the model: a category the model ranked lower
		const picked = choices[2];
		expect(picked).not.toBe(predicted.category);

		const from = bot.calls.length;
		await sendPhoto(CAR, 'car.jpg');
		const { photo, question } = await sentToReviewer(from);
		expect(photo.files.photo.bytes.equals(CAR)).toBe(true);
		const asked = example.nodes.find((node) => node.name === 'Ask a person')!.parameters.message as string;
		expect(question.fields.text).toBe(asked);
		const url = resumeUrlOf(question);
		for (const call of [photo, question]) expectNoInternals(JSON.stringify(call.fields), CAR);

		const page = await openForm(url);
		expect(optionsOnPage(page)).toEqual(choices);
		expect(page).toContain('What does the photo show?');
		expectNoInternals(visibleText(page), CAR);
		for (const secret of [server.apiKey, server.models.classify, projectId]) expect(page).not.toContain(secret);
		// nothing is uploaded while the person has not answered; the execution waits
		expect(project().records).toHaveLength(0);
		expect((await executions()).map((execution) => execution.status)).toEqual(['waiting']);

		await answer(url, picked);
		// the record exists before its annotations call is made: read it once the execution is done
		await until('the execution finished', async () => ((await executions())[0]?.status === 'success' ? true : undefined));
		const record = await recordOf(CAR);
		expect(record).toMatchObject({ name: 'car.jpg', size: CAR.length });
		expect(batchName(record.batchId)).toBe(LABELLED_BATCH);
		expect(record.annotations.map(({ label_id, annotation }) => ({ label: labelName(label_id), category: annotation.category }))).toEqual([
			{ label: picked, category: 'category' },
		]);
		expect(project().labels.map((label) => label.name)).toEqual([picked]);

		// the link answers once: n8n shows a second answer "No action required", and it changes nothing
		const again = new FormData();
		again.append('field-0', choices[0]);
		const second = await fetch(url, { method: 'POST', body: again });
		expect({ status: second.status, said: visibleText(await second.text()).includes('No action required') }).toEqual({ status: 200, said: true });
		expect(project().records).toHaveLength(1);
		expect(project().labels.map((label) => label.name)).toEqual([picked]);
	});

	it('“None of these”, or an answer the form did not offer (posted by hand), uploads the photo without a label, in a batch of its own', async () => {
		const labelsBefore = project().labels.length;
		for (const [bytes, fileName, said] of [
			[DOG, 'dog.jpg', NONE],
			[CAR, 'car again.jpg', 'zebra'],
		] as const) {
			expect(server.predict('classify', bytes, {}).confidence).toBeLessThan(THRESHOLD);
			const recordsBefore = project().records.length;
			const from = bot.calls.length;
			await sendPhoto(bytes, fileName);
			const { question } = await sentToReviewer(from);
			const url = resumeUrlOf(question);
			expect(optionsOnPage(await openForm(url))).toEqual(choicesFor(bytes));
			await answer(url, said);
			await until('the photo’s record', () => (project().records.length > recordsBefore ? true : undefined));
			const record = project().records[recordsBefore];
			expect(record).toMatchObject({ name: fileName, sha256: sha256(bytes), annotations: [] });
			expect(batchName(record.batchId)).toBe(UNLABELLED_BATCH);
		}
		expect(project().labels).toHaveLength(labelsBefore);
	});

	it('a photo the model is sure of asks nobody and uploads nothing', async () => {
		const sure = { category: 'dog', confidence: 0.96, predictions: [{ category: 'dog', confidence: 0.96 }, { category: 'car', confidence: 0.04 }] };
		server.addFault({ match: { kind: 'classify', imageSha256: sha256(SURE) }, action: { type: 'status', status: 200, body: sure } });
		const before = new Set((await executions()).map((execution) => execution.id));
		const calls = bot.calls.length;
		const records = project().records.length;
		await sendPhoto(SURE, 'sure.jpg');
		const [status] = await until('its execution finished', async () => {
			const statuses = (await executions()).filter((execution) => !before.has(execution.id) && execution.status !== 'running' && execution.status !== 'new');
			return statuses.length ? statuses.map((execution) => execution.status) : undefined;
		});
		expect(status).toBe('success');
		expect(server.faultsFired()).toEqual([1]);
		expect(bot.calls.slice(calls)).toEqual([]);
		expect(project().records).toHaveLength(records);
	});

	it('the storage never received the API key, and it is in nothing the person was sent', () => {
		expect(server.storage.requests.filter((request) => request.method === 'PUT').length).toBe(project().records.length);
		for (const request of server.storage.requests) {
			expect(JSON.stringify(request)).not.toContain(server.apiKey);
			expect(request.query['api-key']).toBeUndefined();
		}
		for (const call of bot.calls) expect(JSON.stringify(call.fields)).not.toContain(server.apiKey);
	});
});
