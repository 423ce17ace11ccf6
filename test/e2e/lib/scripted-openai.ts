/**
 * A scripted, OpenAI-compatible chat-completions endpoint for AI Agent tests: n8n's OpenAI Chat
 * Model node talks to it through its credential's Base URL. Each answer comes from the test's
 * script (a tool call or a text), so a run is deterministic and needs no network. Every request
 * it receives is logged, parsed, for the test to read what n8n sent to the model (the tools, their
 * descriptions and schemas, the tool results in the messages). Binds 127.0.0.1 only; its sockets
 * never keep the test process alive.
 *
 * Exports (stable):
 *   startScriptedOpenAi({script, apiKey?}): Promise<ScriptedOpenAi>
 *     script(request, turn)  what to answer to the `turn`-th (0-based) chat completion: a reply, or
 *                            throw to answer 500 with the error's message (the test then sees why)
 *   ScriptedOpenAi { baseUrl (…/v1, for the credential's Base URL), apiKey, requests, completions(),
 *                    setScript(script), close() }
 *   types ChatRequest, ChatMessage, ChatTool, ScriptedReply, LoggedRequest
 *   toolMessages(request)  the `role: tool` messages of a request (what the tools returned)
 *
 * Answers: POST /v1/chat/completions (JSON, or SSE when `stream: true`), GET /v1/models; a wrong
 * bearer key gets OpenAI's 401 error body, anything else 404.
 */
import { randomUUID } from 'crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'http';

import { listenOnLoopback } from '../../harness/loopback';

export interface ChatToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: ChatToolCall[];
	tool_call_id?: string;
	name?: string;
}

export interface ChatTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: { type: string; properties?: Record<string, { type?: string; description?: string }>; required?: string[] } };
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
	[key: string]: unknown;
}

export type ScriptedReply =
	| { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
	| { content: string };

export type Script = (request: ChatRequest, turn: number) => ScriptedReply;

export interface LoggedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: ChatRequest | undefined;
	status: number;
	/** The reply sent, as the script gave it. */
	reply?: ScriptedReply;
}

export interface ScriptedOpenAi {
	baseUrl: string;
	apiKey: string;
	requests: LoggedRequest[];
	/** The chat-completion requests only, in order. */
	completions(): Array<LoggedRequest & { body: ChatRequest }>;
	setScript(script: Script): void;
	close(): Promise<void>;
}

/** The text a tool returned, for each `role: tool` message of a request. */
export function toolMessages(request: ChatRequest): Array<{ toolCallId: string; content: string }> {
	return request.messages
		.filter((message) => message.role === 'tool')
		.map((message) => ({
			toolCallId: message.tool_call_id ?? '',
			content:
				typeof message.content === 'string'
					? message.content
					: (message.content ?? []).map((part) => part.text ?? '').join(''),
		}));
}

const CREATED = 1_767_225_600; // fixed: answers are identical from run to run

export async function startScriptedOpenAi(o: { script: Script; apiKey?: string }): Promise<ScriptedOpenAi> {
	const apiKey = o.apiKey ?? `sk-scripted-${randomUUID()}`;
	let script = o.script;
	let turn = 0;
	const requests: LoggedRequest[] = [];

	const send = (res: ServerResponse, log: LoggedRequest, status: number, body: unknown) => {
		log.status = status;
		const text = JSON.stringify(body);
		res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
		res.end(text);
	};

	async function handle(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const raw = await readBody(req);
		const log: LoggedRequest = {
			method: req.method ?? '',
			path: url.pathname,
			headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
			body: undefined,
			status: 0,
		};
		requests.push(log);
		try {
			log.body = raw.length ? (JSON.parse(raw.toString('utf8')) as ChatRequest) : undefined;
		} catch {
			return send(res, log, 400, openAiError('The body is not valid JSON', 'invalid_request_error'));
		}
		if (req.headers.authorization !== `Bearer ${apiKey}`) {
			return send(res, log, 401, openAiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
		}
		if (req.method === 'GET' && url.pathname === '/v1/models') {
			return send(res, log, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: CREATED, owned_by: 'test' }] });
		}
		if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions' || !log.body) {
			return send(res, log, 404, openAiError(`No route ${req.method} ${url.pathname}`, 'invalid_request_error'));
		}
		const request = log.body;
		const index = turn++;
		let reply: ScriptedReply;
		try {
			reply = script(request, index);
		} catch (error) {
			return send(res, log, 500, openAiError(`script, turn ${index}: ${error instanceof Error ? error.message : String(error)}`, 'server_error'));
		}
		log.reply = reply;
		const message =
			'toolCalls' in reply
				? {
						role: 'assistant' as const,
						content: null,
						tool_calls: reply.toolCalls.map((call, i) => ({
							id: `call_${index}_${i}`,
							type: 'function' as const,
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						})),
					}
				: { role: 'assistant' as const, content: reply.content };
		const finishReason = 'toolCalls' in reply ? 'tool_calls' : 'stop';
		const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
		const id = `chatcmpl-scripted-${index}`;
		if (request.stream) {
			log.status = 200;
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			const chunk = (delta: object, finish: string | null, extra: object = {}) =>
				res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
			if ('toolCalls' in reply) {
				chunk({ role: 'assistant', content: null, tool_calls: message.tool_calls!.map((call, i) => ({ index: i, ...call })) }, null);
			} else {
				chunk({ role: 'assistant', content: reply.content }, null);
			}
			chunk({}, finishReason);
			const options = request.stream_options as { include_usage?: boolean } | undefined;
			if (options?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model: request.model, choices: [], usage })}\n\n`);
			res.end('data: [DONE]\n\n');
			return;
		}
		send(res, log, 200, {
			id,
			object: 'chat.completion',
			created: CREATED,
			model: request.model,
			choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
			usage,
		});
	}

	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
			res.end(String(error));
		});
	});
	const listening = await listenOnLoopback(server);

	return {
		baseUrl: `${listening.url}/v1`,
		apiKey,
		requests,
		completions: () =>
			requests.filter((r): r is LoggedRequest & { body: ChatRequest } => r.path === '/v1/chat/completions' && !!r.body),
		setScript(next) {
			script = next;
			turn = 0;
		},
		close: listening.close,
	};
}

function openAiError(message: string, type: string, code: string | null = null) {
	return { error: { message, type, param: null, code } };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}
