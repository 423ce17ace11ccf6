/**
 * examples/telegram-photo-bot.json, activated in real n8n: Telegram Trigger → Bot settings →
 * Allowed chat? → Get File (the largest size of the photo) → Image Inference: Detect → Send Photo
 * (or Send Document over 10 MB, or the counts as text without a picture) back to the same chat,
 * with the replies for a message without a photo, a file that is not a picture, a file over the
 * Bot API's 20 MB download limit, a bot that is not set up right (the details to the owner's
 * chat) and a service that is busy. Telegram is the Bot API stand-in on 127.0.0.1
 * (./lib/telegram-bot-api): the Telegram credential's Base URL points there, n8n registers its
 * production webhook there on activation (setWebhook), and each update is posted to that webhook
 * as Telegram does, with the secret token n8n registered. Assertions read what the bot sent back,
 * what reached the reference server, and n8n's log.
 *
 * Two bots run side by side, each its own stand-in (a bot is its token) and its own import of the
 * example, its "Bot settings" edited as a user edits them:
 *   the bot      modelId set; ownerChatId OWNER, allow-list empty (everyone)
 *   the new bot  modelId left as imported (the placeholder); ownerChatId NEW_OWNER, allowedChatIds ALLOWED
 * (The Image Inference credential is picked in both, as a user must before the workflow runs.)
 */
import * as fs from 'fs';

import type { DetectResult } from '../../nodes/ImageInference/contract';
import { sha256, startReferenceServer, type ReferenceServer } from '../reference-server';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { labelColor } from '../../nodes/ImageInference/picture/draw/palette';
import type { Pixels } from '../harness/pictureChecks';
import { channelDistance, framedIn, pixelsOf } from '../harness/pictureChecks';
import { fineDetailIn } from '../harness/texturedScene';
import {
	createN8nHome,
	e2eVersions,
	fixture,
	imageInferenceCredential,
	loadExample,
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
/** What Telegram lists first in `message.photo`: a small size of the same photo. */
const THUMBNAIL = fs.readFileSync(fixture('car-120x80.webp'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Bot API limits (https://core.telegram.org/bots/api): a caption, a photo upload, a bot's download. */
const MAX_CAPTION = 1024;
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/** The mean over every pixel of the largest difference of one channel between two pictures of one size. */
function meanDistance(a: Pixels, b: Pixels): number {
	let sum = 0;
	for (let y = 0; y < a.height; y++) for (let x = 0; x < a.width; x++) sum += channelDistance(a.pixel(x, y), b.pixel(x, y));
	return sum / (a.width * a.height);
}

/**
 * A picture sent as a file of 10–20 MB: car.jpg four times as large, with noise so that PNG cannot
 * compress it (the reference server draws on it and answers a PNG of about the same size).
 */
function bigPicture(): Buffer {
	const car = decodeImage(CAR);
	const scale = 4;
	const width = car.width * scale;
	const height = car.height * scale;
	const data = Buffer.alloc(width * height * 4);
	let seed = 12345;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const from = (Math.floor(y / scale) * car.width + Math.floor(x / scale)) * 4;
			const to = (y * width + x) * 4;
			for (let c = 0; c < 3; c++) {
				seed = (seed * 1103515245 + 12345) & 0x7fffffff;
				data[to + c] = Math.max(0, Math.min(255, car.data[from + c] + (seed % 81) - 40));
			}
			data[to + 3] = 255;
		}
	}
	return encodeImage({ width, height, data }, 'png');
}

const OWNER = 9101;
const NEW_OWNER = 9102;
const ALLOWED = [7101, 7102];

/** The example's "Bot settings", edited as a user edits them (the node's fields, by name). */
function withBotSettings(wf: WorkflowJson, settings: { modelId?: string; allowedChatIds: string; ownerChatId: string }): WorkflowJson {
	const node = wf.nodes.find((n) => n.name === 'Bot settings');
	if (!node) throw new Error('the example has no "Bot settings" node');
	const assignments = (node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }).assignments;
	for (const [name, value] of Object.entries(settings)) {
		const field = assignments.find((a) => a.name === name);
		if (!field) throw new Error(`"Bot settings" has no field ${name}`);
		field.value = value;
	}
	return wf;
}

let updateIds = 5000;
let messageIds = 100;
const person = (chatId: number) => ({ id: chatId, is_bot: false, first_name: `Person ${chatId}` });
const message = (chatId: number, fields: Record<string, unknown>) => ({
	update_id: ++updateIds,
	message: { message_id: ++messageIds, from: person(chatId), chat: { id: chatId, type: 'private', first_name: `Person ${chatId}` }, date: Math.floor(Date.now() / 1000), ...fields },
});

describe.each(e2eVersions())('examples/telegram-photo-bot.json activated in real n8n %s', (version) => {
	let server: ReferenceServer;
	let bot: TelegramBotApi;
	let newBot: TelegramBotApi;
	let home: N8nHome;
	let n8n: N8nServer;
	/** Every call either bot received, over all tests (the API key must be in none). */
	const everyCall: BotApiCall[] = [];
	/** The options the example's Detect node sends (Confidence Threshold, Show Confidence on Boxes). */
	let detectOptions: { confidence?: number; show_prob?: boolean } = {};
	/** bigPicture(), made before n8n starts (a second of work that would hold up the test's sockets) */
	let big: Buffer;

	const photoUpdate = (api: TelegramBotApi, chatId: number, photo: Buffer, name: string) => {
		const small = api.addFile(THUMBNAIL, `photos/${name}-small.webp`);
		const large = api.addFile(photo, `photos/${name}.jpg`);
		return message(chatId, {
			photo: [
				{ file_id: small, file_unique_id: `${small}-u`, width: 120, height: 80, file_size: THUMBNAIL.length },
				{ file_id: large, file_unique_id: `${large}-u`, width: 1280, height: 720, file_size: photo.length },
			],
			caption: 'what is this?',
		});
	};

	/** What the service answered for this photo, found by the bytes it received (so a photo it never got fails). */
	const whatTheServiceSaw = (photo: Buffer): DetectResult => {
		const sent = server.requests.find((r) => r.kind === 'detect' && Buffer.from((r.body as { image: string }).image, 'base64').equals(photo));
		if (!sent) throw new Error('the service never received this photo');
		const { image: _image, ...options } = sent.body as { image: string };
		void _image;
		return server.predict('detect', photo, options) as DetectResult;
	};
	/** The node's `summary` (README: "2 car, 1 person", or "nothing detected") after "I see: ". */
	const captionFor = (result: DetectResult) =>
		`I see: ${result.labelsCount.length ? result.labelsCount.map((l) => `${l.total} ${l.label}`).join(', ') : 'nothing detected'}`;

	const REPLIES = ['sendPhoto', 'sendDocument', 'sendMessage'];
	/** A reply the Bot API took (one it refused, over a limit, reaches nobody). */
	const isReplyTo = (chatId: number) => (c: BotApiCall) => REPLIES.includes(c.method) && c.status === 200 && Number(c.fields.chat_id) === chatId;
	/** The bot's replies (sendPhoto / sendDocument / sendMessage) to a chat, once `count` of them have arrived. */
	const repliesTo = async (chatId: number, count = 1, api: TelegramBotApi = bot): Promise<BotApiCall[]> => {
		const replies = () => api.calls.filter(isReplyTo(chatId));
		for (const started = Date.now(); replies().length < count; ) {
			if (Date.now() - started > 60_000) throw new Error(`no reply to chat ${chatId} within 60 s; the bot saw: ${api.calls.map((c) => c.method).join(', ')}`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		// a reply that should not be there would come right after the expected ones
		await new Promise((resolve) => setTimeout(resolve, 1000));
		return replies();
	};
	/** What was sent to a chat so far, without waiting. */
	const sentTo = (chatId: number, api: TelegramBotApi = bot) => api.calls.filter(isReplyTo(chatId));
	/** A reply to a person says nothing of the set-up: no model id, no credential, no status, no error text. */
	const expectNoInternals = (reply: BotApiCall) => {
		const said = JSON.stringify(reply.fields);
		expect(said).not.toContain(server.models.detect);
		expect(said).not.toContain('REPLACE_WITH');
		expect(said).not.toMatch(/credential|api key|unauthori[sz]ed|not found|40[014]|429|50[0-4]|error/i);
	};

	beforeAll(async () => {
		big = bigPicture();
		server = await startReferenceServer({});
		bot = await startTelegramBotApi();
		newBot = await startTelegramBotApi();
		home = await createN8nHome({ version });
		await home.importCredentials([
			imageInferenceCredential('tgImgInfCred001', { baseUrl: server.url, apiKey: server.apiKey }, 'Image Inference account'),
			{ id: 'tgBotApiCred001', name: 'Telegram account', type: 'telegramApi', data: { accessToken: bot.token, baseUrl: bot.url } },
			{ id: 'tgBotApiCred002', name: 'New Telegram bot', type: 'telegramApi', data: { accessToken: newBot.token, baseUrl: newBot.url } },
		]);
		const example = loadExample('telegram-photo-bot.json');
		const detect = example.nodes.find((n) => n.name === 'Detect objects')!.parameters.options as { confidence?: number; showConfidence?: boolean };
		detectOptions = { confidence: detect.confidence, show_prob: detect.showConfidence };

		const wf = withBotSettings(
			useCredential(useCredentialAndModels(loadExample('telegram-photo-bot.json'), { credentialId: 'tgImgInfCred001' }), 'telegramApi', 'tgBotApiCred001'),
			{ modelId: server.models.detect, allowedChatIds: '', ownerChatId: String(OWNER) },
		);
		const unset = withBotSettings(
			useCredential(useCredentialAndModels(loadExample('telegram-photo-bot.json'), { credentialId: 'tgImgInfCred001' }), 'telegramApi', 'tgBotApiCred002'),
			{ allowedChatIds: ALLOWED.join(', '), ownerChatId: String(NEW_OWNER) },
		);
		// a second import of a workflow gets its own webhook path in the editor; the CLI keeps the file's
		unset.nodes = unset.nodes.map((n) => (n.type === 'n8n-nodes-base.telegramTrigger' ? { ...n, webhookId: 'f3b9a0c1-7d2e-4c55-9e61-0a8b7c6d5e4f' } : n));
		unset.name = `${unset.name} (new bot)`;
		const ids = await home.importWorkflows([wf, unset]);
		for (const id of ids) {
			const published = await home.cli(['publish:workflow', `--id=${id}`], { allowFailure: true });
			if (published.code !== 0) await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
		}
		n8n = await home.start();
		// n8n activates published workflows (here: the Triggers' setWebhook) shortly after it is up
		for (let tries = 0; !bot.webhook() || !newBot.webhook(); tries++) {
			if (tries > 240) throw new Error('n8n never registered its webhooks with the Bot API stand-ins');
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await bot?.close();
		await newBot?.close();
		await server?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
		server.clearFaults();
		everyCall.push(...bot.calls.splice(0), ...newBot.calls.splice(0));
	});

	it('activation registers n8n’s production webhook with the secret the Trigger checks, for each bot', async () => {
		for (const api of [bot, newBot]) {
			expect(api.webhook()!.url).toMatch(new RegExp(`^${n8n.url}/webhook/[^/]+/webhook$`));
			expect(api.webhook()!.secretToken).not.toBe('');
		}
		expect(bot.webhook()!.url).not.toBe(newBot.webhook()!.url);
	});

	it('a photo comes back to its chat drawn by the node, its people blurred, with the counts as its caption', async () => {
		// the service's answer for the photo: its car, and a person scripted over the trees (detail to blur)
		const seen = server.predict('detect', CAR, detectOptions) as DetectResult;
		const car = seen.detections.find((detection) => detection.label === 'car')!;
		const detections = [car, { label: 'person', confidence: 0.9, x: 60, y: 30, width: 120, height: 100 }];
		const answer = { detections, labelsCount: [{ label: 'car', total: 1 }, { label: 'person', total: 1 }], image: null };
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(CAR) }, action: { type: 'status', status: 200, body: answer } });
		const update = photoUpdate(bot, 7001, CAR, 'car');
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(7001);

		// the largest size was fetched and sent to the service, byte for byte, which was asked for no picture
		const sent = server.requests.filter((r) => r.kind === 'detect');
		expect(sent).toHaveLength(1);
		expect(Buffer.from((sent[0].body as { image: string }).image, 'base64').equals(CAR)).toBe(true);
		expect((sent[0].body as { annotate?: boolean }).annotate).toBe(false);

		expect(reply.method).toBe('sendPhoto');
		expect(reply.files.photo.mimeType).toBe('image/jpeg');
		const picture = pixelsOf(reply.files.photo.bytes);
		const photo = pixelsOf(CAR);
		expect([picture.width, picture.height]).toEqual([photo.width, photo.height]);
		// the car framed in its label's colour; the person's box at least 90 % of its detail gone
		expect(framedIn(picture, photo, car, labelColor('car'))).toBe(true);
		const inPerson = { left: 60, top: 30, right: 180, bottom: 130 };
		expect(fineDetailIn(photo, inPerson)).toBeGreaterThan(100);
		expect(fineDetailIn(picture, inPerson)).toBeLessThan(fineDetailIn(photo, inPerson) * 0.1);
		expect(reply.fields.caption).toBe(captionFor(answer));
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
		expect(sentTo(OWNER)).toHaveLength(0);
	});

	it('a message without a photo gets the text reply asking for one, and nothing reaches the service', async () => {
		expect(await bot.postUpdate(message(7002, { text: 'hello' }))).toBe(200);
		const [reply] = await repliesTo(7002);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/^Send me a photo/);
		expect(bot.calls.filter((c) => c.method === 'getFile')).toHaveLength(0);
		expect(server.requests).toHaveLength(0);
	});

	it('two photos sent at once get two answers, each to its own chat and message, each with its own picture', async () => {
		const car = photoUpdate(bot, 7003, CAR, 'car-two');
		const dog = photoUpdate(bot, 7004, DOG, 'dog-two');
		expect(await Promise.all([bot.postUpdate(car), bot.postUpdate(dog)])).toEqual([200, 200]);
		const [toCar] = await repliesTo(7003);
		const [toDog] = await repliesTo(7004);
		expect(Number(toCar.fields.reply_to_message_id)).toBe(car.message.message_id);
		expect(Number(toDog.fields.reply_to_message_id)).toBe(dog.message.message_id);
		for (const [reply, photo] of [[toCar, CAR], [toDog, DOG]] as const) {
			const expected = whatTheServiceSaw(photo);
			// the node's picture of that photo: its size, and on the whole its colours (boxes and tags are a small part of it)
			const [picture, source] = [pixelsOf(reply.files.photo.bytes), pixelsOf(photo)];
			expect([picture.width, picture.height]).toEqual([source.width, source.height]);
			expect(meanDistance(picture, source)).toBeLessThan(12);
			expect(reply.fields.caption).toBe(captionFor(expected));
		}
		expect(toCar.fields.caption).not.toBe(toDog.fields.caption);
	});

	it('a PDF sent as a file gets a readable reply that it is not a picture; it is not uploaded to the service', async () => {
		const file = bot.addFile(PDF, 'documents/file_3.pdf');
		const update = message(7005, { document: { file_name: 'invoice.pdf', mime_type: 'application/pdf', file_id: file, file_unique_id: `${file}-u`, file_size: PDF.length } });
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(7005);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/^I can only look at pictures \(JPEG, PNG.*isn't one\. Send it as a photo/);
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
		expect(server.requests).toHaveLength(0);
		// the person's file, not the set-up: the owner is not bothered
		expect(sentTo(OWNER)).toHaveLength(0);
	});

	it('a file over the Bot API’s download limit (getFile 400 "file is too big") gets a readable reply, asked once, no retry', async () => {
		const file = bot.addFileTooBig();
		const update = message(7006, { document: { file_name: 'DSC0001.JPG', mime_type: 'image/jpeg', file_id: file, file_unique_id: `${file}-u`, file_size: 31_000_000 } });
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(7006);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/^That file is over 20 MB, more than a bot may download\. Send it as a photo/);
		expect(bot.calls.filter((c) => c.method === 'getFile')).toHaveLength(1);
		expect(server.requests).toHaveLength(0);
	});

	it.each([
		['503', 7007, { type: 'status', status: 503 }],
		['429', 7008, { type: 'status', status: 429, headers: { 'retry-after': '0' } }],
		['a reset connection', 7009, { type: 'reset' }],
	] as const)('the service failing with %s after the node’s retries: "try again later", no details, the owner not bothered', async (_case, chatId, action) => {
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(DOG) }, action });
		const update = photoUpdate(bot, chatId, DOG, `dog-later-${chatId}`);
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(chatId);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/try again in a few minutes\.$/);
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
		expectNoInternals(reply);
		// the node retried before giving up (README: Retries, 3 by default, on 429, 503 and resets)
		expect(server.faultsFired()[0]).toBe(4);
		expect(sentTo(OWNER)).toHaveLength(0);
	});

	it.each([
		['401 (a wrong API key)', 7010, 401, 'unauthorized'],
		['404 (a wrong or undeployed model)', 7011, 404, 'not_found'],
	] as const)('the service answering %s: a short apology to the person, the details to the owner’s chat', async (_case, chatId, status, code) => {
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(CAR) }, action: { type: 'status', status } });
		const update = photoUpdate(bot, chatId, CAR, `car-${status}`);
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(chatId);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/not set up right/);
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
		expectNoInternals(reply);
		// asked once: neither is worth retrying
		expect(server.faultsFired()).toEqual([1]);

		const [toOwner, ...more] = await repliesTo(OWNER);
		expect(more).toHaveLength(0);
		expect(toOwner.method).toBe('sendMessage');
		expect(toOwner.fields.text).toContain(`chat ${chatId}`);
		expect(toOwner.fields.text).toContain(`(${code}, HTTP ${status})`);
		// the node's message for a 404 names the model: the owner sees which id to check
		if (status === 404) expect(toOwner.fields.text).toContain(server.models.detect);
		expect(toOwner.fields.reply_to_message_id).toBeUndefined();
	});

	it('a bot whose Model ID is still the placeholder: the person gets the apology, the owner the details, nothing reaches the service', async () => {
		const shipped = loadExample('telegram-photo-bot.json').nodes.find((n) => n.name === 'Bot settings')!;
		expect(JSON.stringify(shipped.parameters)).toContain('"name":"modelId","value":"REPLACE_WITH_YOUR_DETECTION_MODEL_ID"');
		const update = photoUpdate(newBot, ALLOWED[0], CAR, 'car-placeholder');
		expect(await newBot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(ALLOWED[0], 1, newBot);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/not set up right/);
		expect(reply.fields.text).not.toMatch(/picture/i);
		expectNoInternals(reply);
		expect(server.requests).toHaveLength(0);

		const [toOwner] = await repliesTo(NEW_OWNER, 1, newBot);
		expect(toOwner.fields.text).toContain('(invalid_parameter)');
		expect(toOwner.fields.text).toContain('REPLACE_WITH_YOUR_DETECTION_MODEL_ID');
		// the other bot's owner hears nothing of it
		expect(sentTo(OWNER)).toHaveLength(0);
	});

	it('a chat outside a non-empty allow-list gets a short refusal; nothing is fetched and nothing reaches the service', async () => {
		const outsider = 7103;
		const update = photoUpdate(newBot, outsider, CAR, 'car-outsider');
		expect(await newBot.postUpdate(update)).toBe(200);
		const [reply, ...more] = await repliesTo(outsider, 1, newBot);
		expect(more).toHaveLength(0);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/^Sorry, this bot only answers/);
		expectNoInternals(reply);
		expect(newBot.calls.filter((c) => c.method === 'getFile' || c.method === 'download')).toHaveLength(0);
		expect(server.requests).toHaveLength(0);
		expect(sentTo(NEW_OWNER, newBot)).toHaveLength(0);

		// a listed chat goes on into the workflow (its ids written with spaces after the commas)
		expect(await newBot.postUpdate(message(ALLOWED[1], { text: 'hello' }))).toBe(200);
		const [toListed] = await repliesTo(ALLOWED[1], 1, newBot);
		expect(toListed.fields.text).toMatch(/^Send me a photo/);
	});

	it('a picture sent as a file of 10–20 MB comes back as a photo: the node draws it within 1,920 pixels', async () => {
		expect(big.length).toBeGreaterThan(10_000_000);
		expect(big.length).toBeLessThanOrEqual(MAX_DOWNLOAD_BYTES);
		const file = bot.addFile(big, 'documents/IMG_0001.png');
		const update = message(7012, { document: { file_name: 'IMG_0001.png', mime_type: 'image/png', file_id: file, file_unique_id: `${file}-u`, file_size: big.length } });
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply, ...more] = await repliesTo(7012);
		expect(more).toHaveLength(0);

		const expected = whatTheServiceSaw(big);
		expect(reply.method).toBe('sendPhoto');
		expect(reply.files.photo.mimeType).toBe('image/jpeg');
		expect(reply.files.photo.bytes.length).toBeLessThan(MAX_PHOTO_BYTES);
		const picture = pixelsOf(reply.files.photo.bytes);
		expect([picture.width, picture.height]).toEqual([1920, Math.round((decodeImage(big).height * 1920) / decodeImage(big).width)]);
		expect(reply.fields.caption).toBe(captionFor(expected));
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
		expect(bot.calls.filter((c) => c.method === 'sendDocument')).toHaveLength(0);
	}, 120_000);

	it('a file the node cannot draw on (a CMYK JPEG sent as a file): the counts come back as text', async () => {
		const cmyk = fs.readFileSync(fixture('car-338x190-cmyk.jpg'));
		const answer = { detections: [{ label: 'car', confidence: 0.8, x: 140, y: 95, width: 20, height: 15 }], labelsCount: [{ label: 'car', total: 1 }], image: null };
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(cmyk) }, action: { type: 'status', status: 200, body: answer } });
		const file = bot.addFile(cmyk, 'documents/print.jpg');
		const update = message(7013, { document: { file_name: 'print.jpg', mime_type: 'image/jpeg', file_id: file, file_unique_id: `${file}-u`, file_size: cmyk.length } });
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply, ...more] = await repliesTo(7013);
		expect(more).toHaveLength(0);
		expect(reply.method).toBe('sendMessage');
		expect(server.requests.filter((r) => r.kind === 'detect')).toHaveLength(1);
		expect(reply.fields.text).toBe('I see: 1 car');
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
		expect(sentTo(OWNER)).toHaveLength(0);
	});

	it('an answer with more labels than a caption holds: the caption stays within 1,024 characters, whole labels first', async () => {
		const labels = Array.from({ length: 60 }, (_, i) => `label number ${String(i + 1).padStart(2, '0')} with a long descriptive name`);
		const detections = labels.map((label, i) => ({ label, confidence: 0.9, x: 10 + i, y: 10 + i, width: 20, height: 20 }));
		const labelsCount = labels.map((label) => ({ label, total: 1 }));
		// the full list, as the node's summary gives it, is too long for a caption
		const full = captionFor({ detections, labelsCount, image: null });
		expect(full.length).toBeGreaterThan(MAX_CAPTION);
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(DOG) }, action: { type: 'status', status: 200, body: { detections, labelsCount, image: DOG.toString('base64') } } });

		const update = photoUpdate(bot, 7016, DOG, 'dog-many-labels');
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply, ...more] = await repliesTo(7016);
		expect(more).toHaveLength(0);
		expect(reply.method).toBe('sendPhoto');
		expect(pixelsOf(reply.files.photo.bytes)).toMatchObject({ width: pixelsOf(DOG).width, height: pixelsOf(DOG).height });
		const caption = String(reply.fields.caption);
		expect(caption.length).toBeLessThanOrEqual(MAX_CAPTION);
		// as many whole labels as fit, in the service's order, then a word that there are more
		const listed = caption.replace(/^I see: /, '').replace(/, and more$/, '').split(', ');
		expect(caption).toMatch(/, and more$/);
		expect(listed.length).toBeGreaterThan(10);
		expect(listed).toEqual(labelsCount.slice(0, listed.length).map((l) => `${l.total} ${l.label}`));
	});

	it('the API key is in no message either bot sent (to a person or an owner) and nowhere in n8n’s log', async () => {
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(DOG) }, action: { type: 'status', status: 401 } });
		await bot.postUpdate(photoUpdate(bot, 7017, DOG, 'dog-401'));
		await bot.postUpdate(photoUpdate(bot, 7018, CAR, 'car-key'));
		const replies = [...(await repliesTo(7017)), ...(await repliesTo(7018))];
		expect(replies).toHaveLength(2);
		// the 401's details went to the owner
		expect(await repliesTo(OWNER)).toHaveLength(1);
		const sent = [...everyCall, ...bot.calls, ...newBot.calls].filter((c) => REPLIES.includes(c.method));
		for (const call of sent) expect(JSON.stringify(call.fields)).not.toContain(server.apiKey);
		expect(fs.readFileSync(n8n.logFile, 'utf8')).not.toContain(server.apiKey);
	});
});
