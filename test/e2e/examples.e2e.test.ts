/**
 * The workflows in examples/ run in real n8n against the reference server. Their triggers need a
 * browser form or a Google account, so the run swaps them (see examples/README.md):
 *   detect-objects-from-form-upload.json  Form Trigger "Upload a photo" → Manual Trigger + Read File
 *                                         named "Upload a photo" putting car.jpg in binary field "Photo"
 *   classify-google-drive-files.json      Google Drive Trigger → Manual Trigger (same name); the
 *                                         "Download file" node → Read File with dog.jpg in "data"
 * Everything after the swapped nodes is the example exactly as a user imports it. The reference
 * server's default models are a real COCO detector, so the detect example runs as shipped: on
 * car.jpg it finds the car and takes the IF's true branch, where n8n's Send Email node delivers the
 * annotated photo to a real SMTP server on 127.0.0.1 (test/e2e/lib/smtp); on dog.jpg there is no car,
 * it takes the false branch and no mail is sent. A mail server refusing the message (550) or not
 * listening fails the Send Email node; the example's error output keeps the detections in the run.
 * With its disabled Telegram and Discord alternatives enabled, they post the photo to stand-ins on
 * 127.0.0.1 (test/e2e/lib/messengers) that record the multipart upload.
 */
import { asServiceSent } from '../harness/detections';
import * as fs from 'fs';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { intersectionOverUnion } from '../reference-server/detector';
import {
	createN8nHome,
	e2eVersions,
	executedNodes,
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
	startSmtpCapture,
	swapNodeForFile,
	useCredential,
	useCredentialAndModels,
	type N8nHome,
	startMessengerCapture,
	type MessengerCapture,
	type SmtpCapture,
	type WorkflowJson,
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
	let smtp: SmtpCapture;
	let refusingSmtp: SmtpCapture;
	let messengers: MessengerCapture;
	const ids = { detectCar: '', detectDog: '', classify: '', smtpRefuses: '', smtpDown: '', messengers: '' };
	const ALTERNATIVES = ['Telegram the photo (alternative)', 'Discord the photo (alternative)'];
	const enable = (wf: WorkflowJson, names: string[]): WorkflowJson => ({
		...wf,
		nodes: wf.nodes.map((n) => (names.includes(n.name) ? { ...n, disabled: false } : n)),
	});

	beforeAll(async () => {
		server = await startReferenceServer({});
		smtp = await startSmtpCapture();
		refusingSmtp = await startSmtpCapture({ refuse: true });
		messengers = await startMessengerCapture();
		// installed the other way users' installs are reproduced: npm install of the tarball, no dev/peer deps, no scripts
		home = await createN8nHome({ version, installStyle: 'npm' });
		await home.importCredentials([
			imageInferenceCredential('credExamples0001', { baseUrl: server.url, apiKey: server.apiKey }),
			smtpCredential('credSmtpLocal001', smtp.port),
			smtpCredential('credSmtpRefuse01', refusingSmtp.port),
			smtpCredential('credSmtpClosed01', await freePort()),
			{ id: 'credTelegram0001', name: 'Telegram capture', type: 'telegramApi', data: { accessToken: messengers.telegramToken, baseUrl: messengers.url } },
			{ id: 'credDiscord00001', name: 'Discord capture', type: 'discordWebhookApi', data: { webhookUri: messengers.discordWebhookUrl } },
		]);
		const models = { credentialId: 'credExamples0001', detect: server.models.detect, classify: server.models.classify };
		const detect = (photo: string, smtpCredentialId = 'credSmtpLocal001') =>
			feedTriggerWithFile(
				useCredential(useCredentialAndModels(loadExample('detect-objects-from-form-upload.json'), models), 'smtp', smtpCredentialId),
				'Upload a photo',
				fixture(photo),
				'Photo',
			);
		let classify = useCredentialAndModels(loadExample('classify-google-drive-files.json'), models);
		classify = replaceNode(classify, 'New file in folder', manualTrigger('New file in folder'));
		classify = swapNodeForFile(classify, 'Download file', fixture('dog.jpg'), 'data');
		[ids.detectCar, ids.detectDog, ids.classify, ids.smtpRefuses, ids.smtpDown, ids.messengers] = await home.importWorkflows([
			detect('car.jpg'),
			{ ...detect('dog.jpg'), name: 'Detect objects from a form upload (dog.jpg)' },
			classify,
			{ ...detect('car.jpg', 'credSmtpRefuse01'), name: 'Detect, mail server refuses' },
			{ ...detect('car.jpg', 'credSmtpClosed01'), name: 'Detect, no mail server listening' },
			{
				...useCredential(useCredential(enable(detect('car.jpg'), ALTERNATIVES), 'telegramApi', 'credTelegram0001'), 'discordWebhookApi', 'credDiscord00001'),
				name: 'Detect, Telegram and Discord alternatives enabled',
			},
		]);
	});

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
		await smtp?.close();
		await refusingSmtp?.close();
		await messengers?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
		smtp.messages.splice(0);
		messengers.requests.splice(0);
	});

	const sentOptions = (path: string) => {
		const sent = server.requests.find((q) => q.path.includes(path))!.body as Record<string, unknown>;
		const { image: _i, ...options } = sent;
		void _i;
		return options;
	};

	it('detect example on car.jpg: finds the car, IF "car" takes its true branch, Send Email delivers the annotated photo over SMTP', async () => {
		const res = await home.execute(ids.detectCar);
		expect(res.error).toBeUndefined();
		const run = res.run!;
		expect(sentOptions('/detect/')).toEqual({ confidence: 0.5, show_prob: true });
		const expected = server.predict('detect', CAR, sentOptions('/detect/')) as DetectResult;
		const [detected] = nodeItems(run, 'Detect objects');
		expect(asServiceSent(detected.json.detections)).toEqual(expected.detections);
		expect(detected.json.countsByLabel).toEqual(Object.fromEntries(expected.labelsCount.map((l) => [l.label, l.total])));
		// the car on the road where the photo has it: label and box overlap (IoU ≥ 0.5), not exact floats
		const [truth] = TRUTH['car.jpg'];
		const car = (detected.json.detections as Detection[]).find((d) => d.label === 'car');
		expect(car).toBeDefined();
		expect(intersectionOverUnion(car!, truth)).toBeGreaterThanOrEqual(0.5);

		expect(nodeItems(run, 'Car spotted?', { output: 0 })).toHaveLength(1);
		expect(nodeItems(run, 'Car spotted?', { output: 1 })).toHaveLength(0);
		expect(executedNodes(run)).not.toContain('No car');
		expect(executedNodes(run)).not.toContain('Email not sent');
		// what arrived at the SMTP server: one message, counts in the subject, the summary in the body,
		// the annotated picture the service returned attached byte for byte, named and typed as a JPEG
		expect(smtp.messages).toHaveLength(1);
		const [mail] = smtp.messages;
		const summary = expected.labelsCount.map((l) => `${l.total} ${l.label}`).join(', ');
		expect(summary).toMatch(/\b1 car\b/);
		expect(mail.subject).toBe(`Spotted: ${summary}`);
		expect(mail.text?.trim()).toBe(`Found ${expected.detections.length} object(s) in car.jpg: ${summary}. The photo with the boxes drawn is attached.`);
		expect(mail.from?.text).toBe('n8n@example.com');
		expect(mail.attachments).toHaveLength(1);
		const [attachment] = mail.attachments;
		expect(attachment.filename).toBe('car.annotated.jpg');
		expect(attachment.contentType).toBe('image/jpeg');
		expect(attachment.content.equals(Buffer.from(expected.image!, 'base64'))).toBe(true);
	});

	it.each([
		['refuses the message (550)', 'smtpRefuses', /550|Relaying denied/],
		['is not listening', 'smtpDown', /ECONNREFUSED|connect/i],
	] as const)('detect example, the mail server %s: the run ends, its output still holds the detections', async (_case, id, error) => {
		const res = await home.execute(ids[id]);
		expect(res.error).toBeUndefined();
		const expected = server.predict('detect', CAR, sentOptions('/detect/')) as DetectResult;
		expect(nodeItems(res.run!, 'Email the photo', { output: 0 })).toHaveLength(0);
		const [unsent] = nodeItems(res.run!, 'Email not sent');
		expect(unsent.json.error).toMatch(error);
		expect(asServiceSent(unsent.json.detections)).toEqual(expected.detections);
		expect(unsent.json.countsByLabel).toEqual(Object.fromEntries(expected.labelsCount.map((l) => [l.label, l.total])));
	});

	it('detect example with its Telegram and Discord alternatives enabled: each posts the annotated photo and the summary as its caption', async () => {
		expect(loadExample('detect-objects-from-form-upload.json').nodes.filter((n) => ALTERNATIVES.includes(n.name)).map((n) => n.disabled)).toEqual([true, true]);
		const res = await home.execute(ids.messengers);
		expect(res.error).toBeUndefined();
		const expected = server.predict('detect', CAR, sentOptions('/detect/')) as DetectResult;
		const annotated = Buffer.from(expected.image!, 'base64');
		const summary = expected.labelsCount.map((l) => `${l.total} ${l.label}`).join(', ');
		expect(messengers.requests.map((r) => r.service).sort()).toEqual(['discord', 'telegram']);
		const telegram = messengers.requests.find((r) => r.service === 'telegram')!;
		expect(telegram.fields.chat_id).toBe('REPLACE_WITH_YOUR_CHAT_ID');
		expect(telegram.fields.caption).toBe(`Spotted: ${summary}`);
		expect(telegram.files.photo.fileName).toBe('car.annotated.jpg');
		expect(telegram.files.photo.mimeType).toBe('image/jpeg');
		expect(telegram.files.photo.bytes.equals(annotated)).toBe(true);
		const discord = messengers.requests.find((r) => r.service === 'discord')!;
		expect(JSON.parse(discord.fields.payload_json)).toMatchObject({ content: `Spotted: ${summary}`, attachments: [{ id: 0, filename: 'car.annotated.jpg' }] });
		const file = discord.files['files[0]'];
		// n8n 1.x's Discord node swaps the file part's name and type (contentType: name, filename: mime,
		// which form-data cuts to its basename "jpeg"); the payload_json above names it right in both
		const [partName, partType] = version.startsWith('1.') ? ['jpeg', 'car.annotated.jpg'] : ['car.annotated.jpg', 'image/jpeg'];
		expect([file.fileName, file.mimeType]).toEqual([partName, partType]);
		expect(file.bytes.equals(annotated)).toBe(true);
		for (const name of ALTERNATIVES) expect(nodeItems(res.run!, name)[0].json).not.toHaveProperty('error');
		// the email goes out as well
		expect(smtp.messages).toHaveLength(1);
	});

	it('detect example on dog.jpg: no car, the IF takes its false branch and no mail is sent', async () => {
		const res = await home.execute(ids.detectDog);
		expect(res.error).toBeUndefined();
		const expected = server.predict('detect', DOG, sentOptions('/detect/')) as DetectResult;
		expect(expected.detections.some((d) => d.label === 'car')).toBe(false);
		expect(asServiceSent(nodeItems(res.run!, 'Detect objects')[0].json.detections)).toEqual(expected.detections);
		expect(nodeItems(res.run!, 'Car spotted?', { output: 0 })).toHaveLength(0);
		expect(nodeItems(res.run!, 'No car')).toHaveLength(1);
		expect(executedNodes(res.run!)).not.toContain('Email the photo');
		expect(smtp.messages).toHaveLength(0);
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
