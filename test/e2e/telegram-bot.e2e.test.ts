/**
 * examples/telegram-photo-bot.json, activated in real n8n: Telegram Trigger → Get File (the
 * largest size of the photo) → Image Inference: Detect → Send Photo back to the same chat, with
 * the replies for a message without a photo, a file that is not a picture, a file over the Bot
 * API's 20 MB download limit and a failed detection. Telegram is the Bot API stand-in on 127.0.0.1
 * (./lib/telegram-bot-api): the Telegram credential's Base URL points there, n8n registers its
 * production webhook there on activation (setWebhook), and each update is posted to that webhook
 * as Telegram does, with the secret token n8n registered. Assertions read what the bot sent back,
 * what reached the reference server, and n8n's log.
 */
import * as fs from 'fs';

import type { DetectResult } from '../../nodes/ImageInference/contract';
import { sha256, startReferenceServer, type ReferenceServer } from '../reference-server';
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
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
/** What Telegram lists first in `message.photo`: a small size of the same photo. */
const THUMBNAIL = fs.readFileSync(fixture('car-120x80.webp'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

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
	let home: N8nHome;
	let n8n: N8nServer;

	const photoUpdate = (chatId: number, photo: Buffer, name: string) => {
		const small = bot.addFile(THUMBNAIL, `photos/${name}-small.webp`);
		const large = bot.addFile(photo, `photos/${name}.jpg`);
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
	const captionFor = (result: DetectResult) =>
		`I see: ${result.labelsCount.length ? result.labelsCount.map((l) => `${l.total} ${l.label}`).join(', ') : 'nothing detected'}`;

	/** The bot's replies (sendPhoto / sendMessage) to a chat, once `count` of them have arrived. */
	const repliesTo = async (chatId: number, count = 1): Promise<BotApiCall[]> => {
		const replies = () => bot.calls.filter((c) => ['sendPhoto', 'sendMessage'].includes(c.method) && Number(c.fields.chat_id) === chatId);
		for (const started = Date.now(); replies().length < count; ) {
			if (Date.now() - started > 60_000) throw new Error(`no reply to chat ${chatId} within 60 s; the bot saw: ${bot.calls.map((c) => c.method).join(', ')}`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		// a reply that should not be there would come right after the expected ones
		await new Promise((resolve) => setTimeout(resolve, 1000));
		return replies();
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		bot = await startTelegramBotApi();
		home = await createN8nHome({ version });
		await home.importCredentials([
			imageInferenceCredential('tgImgInfCred001', { baseUrl: server.url, apiKey: server.apiKey }, 'Image Inference account'),
			{ id: 'tgBotApiCred001', name: 'Telegram account', type: 'telegramApi', data: { accessToken: bot.token, baseUrl: bot.url } },
		]);
		const wf = useCredential(useCredentialAndModels(loadExample('telegram-photo-bot.json'), { credentialId: 'tgImgInfCred001', detect: server.models.detect }), 'telegramApi', 'tgBotApiCred001');
		const [id] = await home.importWorkflows(wf);
		const published = await home.cli(['publish:workflow', `--id=${id}`], { allowFailure: true });
		if (published.code !== 0) await home.cli(['update:workflow', `--id=${id}`, '--active=true']);
		n8n = await home.start();
		// n8n activates published workflows (here: the Trigger's setWebhook) shortly after it is up
		for (let tries = 0; !bot.webhook(); tries++) {
			if (tries > 240) throw new Error('n8n never registered its webhook with the Bot API stand-in');
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await bot?.close();
		await server?.close();
	});

	beforeEach(() => {
		server.requests.splice(0);
		server.clearFaults();
		bot.calls.splice(0);
	});

	it('activation registers n8n’s production webhook with the secret the Trigger checks', async () => {
		expect(bot.webhook()!.url).toMatch(new RegExp(`^${n8n.url}/webhook/[^/]+/webhook$`));
		expect(bot.webhook()!.secretToken).not.toBe('');
	});

	it('a photo comes back to its chat, annotated by the service, with the counts as its caption', async () => {
		const update = photoUpdate(7001, CAR, 'car');
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(7001);

		// the largest size was fetched and sent to the service, byte for byte
		expect(server.requests.filter((r) => r.kind === 'detect')).toHaveLength(1);
		const expected = whatTheServiceSaw(CAR);
		expect(expected.labelsCount.some((l) => l.label === 'car')).toBe(true);

		expect(reply.method).toBe('sendPhoto');
		expect(reply.files.photo.mimeType).toBe('image/jpeg');
		expect(reply.files.photo.bytes.equals(Buffer.from(expected.image!, 'base64'))).toBe(true);
		expect(reply.fields.caption).toBe(captionFor(expected));
		expect(Number(reply.fields.reply_to_message_id)).toBe(update.message.message_id);
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
		const car = photoUpdate(7003, CAR, 'car-two');
		const dog = photoUpdate(7004, DOG, 'dog-two');
		expect(await Promise.all([bot.postUpdate(car), bot.postUpdate(dog)])).toEqual([200, 200]);
		const [toCar] = await repliesTo(7003);
		const [toDog] = await repliesTo(7004);
		expect(Number(toCar.fields.reply_to_message_id)).toBe(car.message.message_id);
		expect(Number(toDog.fields.reply_to_message_id)).toBe(dog.message.message_id);
		for (const [reply, photo] of [[toCar, CAR], [toDog, DOG]] as const) {
			const expected = whatTheServiceSaw(photo);
			expect(reply.files.photo.bytes.equals(Buffer.from(expected.image!, 'base64'))).toBe(true);
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

	it('a detection that fails at the service gets a readable "try again" reply through the node’s error output', async () => {
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(DOG) }, action: { type: 'status', status: 503 } });
		const update = photoUpdate(7007, DOG, 'dog-fails');
		expect(await bot.postUpdate(update)).toBe(200);
		const [reply] = await repliesTo(7007);
		expect(reply.method).toBe('sendMessage');
		expect(reply.fields.text).toMatch(/^Sorry, I couldn't analyse your photo just now \(.*503.*\)\. Please try again in a few minutes\.$/);
		expect(server.faultsFired()[0]).toBeGreaterThan(1);
	});

	it('the API key is in no message the bot sent and nowhere in n8n’s log', async () => {
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(DOG) }, action: { type: 'status', status: 401 } });
		await bot.postUpdate(photoUpdate(7008, DOG, 'dog-401'));
		await bot.postUpdate(photoUpdate(7009, CAR, 'car-key'));
		const replies = [...(await repliesTo(7008)), ...(await repliesTo(7009))];
		expect(replies).toHaveLength(2);
		for (const reply of replies) expect(JSON.stringify(reply.fields)).not.toContain(server.apiKey);
		expect(fs.readFileSync(n8n.logFile, 'utf8')).not.toContain(server.apiKey);
	});
});
