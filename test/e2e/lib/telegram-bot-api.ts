/**
 * A local stand-in for the Telegram Bot API, as far as n8n's Telegram Trigger and Telegram node use
 * it, so a bot workflow runs activated end to end: the Telegram credential's Base URL is this
 * server's url. Binds 127.0.0.1 only; its sockets never keep the test process alive.
 *
 * What n8n calls (n8n-nodes-base/dist/nodes/Telegram/GenericFunctions.js `apiRequest`, the same in
 * 1.123.81 and 2.41.1: `POST <baseUrl>/bot<token>/<method>`, JSON unless a file is uploaded):
 *   getMe                                    the credential test
 *   getWebhookInfo, setWebhook, deleteWebhook the Trigger's activation (TelegramTrigger.node.js
 *                                            `webhookMethods`): setWebhook carries the webhook url
 *                                            and the `secret_token` n8n then requires on each update
 *   getFile                                  Telegram "Get File" (Telegram.node.js, file:get), then
 *   GET /file/bot<token>/<file_path>         its download
 *   sendPhoto, sendDocument (multipart),     the replies
 *   sendMessage (JSON)
 * Each call is recorded. Files are registered by the test (`addFile`); getFile answers as Telegram
 * does for a file over the 20 MB a bot may download (`addFileTooBig` registers such a file_id
 * without its bytes). The replies are held to the Bot API's documented limits
 * (https://core.telegram.org/bots/api): a photo uploaded with sendPhoto at most 10 MB (taken as
 * 10 MiB, the larger reading), a caption at most 1,024 characters, a message's text at most 4,096;
 * beyond them the call fails with a 400, as Telegram's does.
 * `postUpdate` delivers an update to the registered webhook as Telegram does (with the secret).
 */
import { randomBytes } from 'crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'http';

import { listenOnLoopback } from '../../harness/loopback';

export interface BotApiCall {
	method: string;
	/** JSON body or multipart text fields */
	fields: Record<string, unknown>;
	files: Record<string, { fileName: string; mimeType: string; bytes: Buffer }>;
	/** the stand-in's HTTP status for it (200: done; a 400 is a call Telegram refuses) */
	status?: number;
}

export interface TelegramBotApi {
	url: string;
	token: string;
	calls: BotApiCall[];
	/** the webhook n8n registered (setWebhook), undefined until then */
	webhook(): { url: string; secretToken: string } | undefined;
	addFile(bytes: Buffer, filePath: string): string;
	addFileTooBig(): string;
	/** POST an update to n8n's webhook as Telegram does; resolves with n8n's status */
	postUpdate(update: unknown): Promise<number>;
	close(): Promise<void>;
}

/** Telegram's answer to getFile for a file over a bot's download limit (Bot API: "up to 20 MB"). */
const FILE_TOO_BIG = { ok: false, error_code: 400, description: 'Bad Request: file is too big' };
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
const MAX_CAPTION_LENGTH = 1024;
const MAX_TEXT_LENGTH = 4096;
const badRequest = (description: string): [number, unknown] => [400, { ok: false, error_code: 400, description: `Bad Request: ${description}` }];

async function readBody(req: IncomingMessage): Promise<Pick<BotApiCall, 'fields' | 'files'>> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const body = Buffer.concat(chunks);
	const type = String(req.headers['content-type'] ?? '');
	if (type.startsWith('multipart/form-data')) {
		const form = await new Response(body, { headers: { 'content-type': type } }).formData();
		const fields: BotApiCall['fields'] = {};
		const files: BotApiCall['files'] = {};
		for (const [name, value] of form.entries()) {
			if (typeof value === 'string') fields[name] = value;
			else files[name] = { fileName: value.name, mimeType: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
		}
		return { fields, files };
	}
	const text = body.toString('utf8');
	if (type.includes('json') && text) return { fields: JSON.parse(text) as Record<string, unknown>, files: {} };
	return { fields: Object.fromEntries(new URLSearchParams(text)), files: {} };
}

function answer(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

export async function startTelegramBotApi(): Promise<TelegramBotApi> {
	const token = `${1000 + Math.floor(Math.random() * 9000)}:${randomBytes(12).toString('hex')}`;
	const calls: BotApiCall[] = [];
	const files = new Map<string, { bytes: Buffer; filePath: string } | 'too big'>();
	let webhook: { url: string; secretToken: string } | undefined;
	let messageIds = 1000;

	const handleMethod = (method: string, call: BotApiCall): [number, unknown] => {
		switch (method) {
			case 'getMe':
				return [200, { ok: true, result: { id: Number(token.split(':')[0]), is_bot: true, first_name: 'Photo bot', username: 'photo_test_bot' } }];
			case 'getWebhookInfo':
				return [200, { ok: true, result: { url: webhook?.url ?? '', pending_update_count: 0 } }];
			case 'setWebhook':
				webhook = { url: String(call.fields.url), secretToken: String(call.fields.secret_token ?? '') };
				return [200, { ok: true, result: true, description: 'Webhook was set' }];
			case 'deleteWebhook':
				webhook = undefined;
				return [200, { ok: true, result: true }];
			case 'getFile': {
				const fileId = String(call.fields.file_id);
				const file = files.get(fileId);
				if (file === 'too big' || (file && file.bytes.length > MAX_DOWNLOAD_BYTES)) return [400, FILE_TOO_BIG];
				if (!file) return badRequest('invalid file_id');
				return [200, { ok: true, result: { file_id: fileId, file_unique_id: fileId.slice(0, 8), file_size: file.bytes.length, file_path: file.filePath } }];
			}
			case 'sendPhoto':
			case 'sendDocument':
			case 'sendMessage': {
				const chatId = Number(call.fields.chat_id);
				if (method === 'sendMessage' && String(call.fields.text ?? '').length > MAX_TEXT_LENGTH) return badRequest('message is too long');
				if (String(call.fields.caption ?? '').length > MAX_CAPTION_LENGTH) return badRequest('message caption is too long');
				if (method === 'sendPhoto' && (call.files.photo?.bytes.length ?? 0) > MAX_PHOTO_BYTES) return badRequest('PHOTO_SAVE_FILE_INVALID'); // MTProto's name for it; the Bot API documents only the limit
				const sent = { message_id: ++messageIds, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' } };
				return [200, { ok: true, result: method === 'sendMessage' ? { ...sent, text: call.fields.text } : { ...sent, caption: call.fields.caption } }];
			}
			default:
				return [404, { ok: false, error_code: 404, description: 'Not Found' }];
		}
	};

	const server = createServer((req, res) => {
		const path = (req.url ?? '').split('?')[0];
		const download = `/file/bot${token}/`;
		if (req.method === 'GET' && path.startsWith(download)) {
			const filePath = decodeURIComponent(path.slice(download.length));
			const file = [...files.values()].find((f) => f !== 'too big' && f.filePath === filePath);
			calls.push({ method: 'download', fields: { file_path: filePath }, files: {} });
			if (!file || file === 'too big') return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
			res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
			return void res.end(file.bytes);
		}
		const match = /^\/bot([^/]+)\/(\w+)$/.exec(path);
		if (!match || match[1] !== token) {
			req.resume();
			return answer(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
		}
		readBody(req).then(
			(body) => {
				const call: BotApiCall = { method: match[2], ...body };
				calls.push(call);
				const [status, result] = handleMethod(match[2], call);
				call.status = status;
				answer(res, status, result);
			},
			(error: unknown) => answer(res, 400, { ok: false, error_code: 400, description: `Bad Request: ${String(error)}` }),
		);
	});
	const listening = await listenOnLoopback(server);

	let fileSeq = 0;
	return {
		url: listening.url,
		token,
		calls,
		webhook: () => webhook,
		addFile(bytes, filePath) {
			const fileId = `AgAC-file-${++fileSeq}-${randomBytes(6).toString('hex')}`;
			files.set(fileId, { bytes, filePath });
			return fileId;
		},
		addFileTooBig() {
			const fileId = `BQAC-big-${++fileSeq}-${randomBytes(6).toString('hex')}`;
			files.set(fileId, 'too big');
			return fileId;
		},
		async postUpdate(update) {
			if (!webhook) throw new Error('n8n has not registered a webhook (setWebhook) with the Bot API stand-in');
			const response = await fetch(webhook.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': webhook.secretToken },
				body: JSON.stringify(update),
			});
			await response.arrayBuffer();
			return response.status;
		},
		close: () => listening.close(),
	};
}
