/**
 * Stand-ins for the two chat services whose n8n nodes can be pointed away from the cloud: they
 * speak the part of the API n8n's Telegram and Discord nodes use to send a photo, and record each
 * multipart request, parsed, for the test to read what n8n sent. Binds 127.0.0.1 only; its
 * sockets never keep the test process alive.
 *
 *   Telegram Bot API  POST /bot<token>/sendPhoto (the Telegram credential's Base URL is this
 *                     server's url): fields chat_id, caption, the file in `photo`; answers
 *                     { ok: true, result: <a message> } as Telegram does
 *   Discord webhook   POST /api/webhooks/<id>/<token> (the Discord Webhook credential's URL is
 *                     `discordWebhookUrl`): `payload_json` and the file in `files[0]`; answers 200
 *                     with the created message
 *
 * Exports (stable):
 *   startMessengerCapture(): Promise<MessengerCapture>
 *   MessengerCapture { url, telegramToken, discordWebhookUrl, requests: CapturedRequest[], close() }
 *   CapturedRequest { service: 'telegram' | 'discord', path, fields: {name: text}, files: {name: CapturedFile} }
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'http';

import { listenOnLoopback } from '../../harness/loopback';

export interface CapturedFile {
	fileName: string;
	mimeType: string;
	bytes: Buffer;
}

export interface CapturedRequest {
	service: 'telegram' | 'discord';
	path: string;
	fields: Record<string, string>;
	files: Record<string, CapturedFile>;
}

export interface MessengerCapture {
	url: string;
	telegramToken: string;
	discordWebhookUrl: string;
	requests: CapturedRequest[];
	close(): Promise<void>;
}

const TELEGRAM_TOKEN = '123456:capture-token';
const DISCORD_WEBHOOK_PATH = '/api/webhooks/1000000000000000001/capture-webhook-token';

async function readMultipart(req: IncomingMessage): Promise<Pick<CapturedRequest, 'fields' | 'files'>> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	// the multipart parser of Node's own fetch (undici), so the body is read as a real server would
	const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
	const fields: Record<string, string> = {};
	const files: Record<string, CapturedFile> = {};
	for (const [name, value] of form.entries()) {
		if (typeof value === 'string') fields[name] = value;
		else files[name] = { fileName: value.name, mimeType: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
	}
	return { fields, files };
}

function answer(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

export async function startMessengerCapture(): Promise<MessengerCapture> {
	const requests: CapturedRequest[] = [];
	const server = createServer((req, res) => {
		const path = (req.url ?? '').split('?')[0];
		const service = path === `/bot${TELEGRAM_TOKEN}/sendPhoto` ? 'telegram' : path === DISCORD_WEBHOOK_PATH ? 'discord' : undefined;
		if (req.method !== 'POST' || !service || !String(req.headers['content-type']).startsWith('multipart/form-data')) {
			req.resume();
			return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
		}
		readMultipart(req).then(
			(form) => {
				requests.push({ service, path, ...form });
				const message = { message_id: requests.length, date: Math.floor(Date.now() / 1000) };
				if (service === 'telegram') {
					answer(res, 200, { ok: true, result: { ...message, chat: { id: Number(form.fields.chat_id) || 0 }, caption: form.fields.caption } });
				} else {
					const payload = JSON.parse(form.fields.payload_json ?? '{}') as Record<string, unknown>;
					answer(res, 200, { id: String(message.message_id), content: payload.content ?? '', attachments: Object.values(form.files).map((f) => ({ filename: f.fileName })) });
				}
			},
			(error: Error) => answer(res, 400, { ok: false, description: error.message }),
		);
	});
	const listening = await listenOnLoopback(server);
	return {
		url: listening.url,
		telegramToken: TELEGRAM_TOKEN,
		discordWebhookUrl: `${listening.url}${DISCORD_WEBHOOK_PATH}`,
		requests,
		close: () => listening.close(),
	};
}
