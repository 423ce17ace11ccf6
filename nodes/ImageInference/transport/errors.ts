import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ErrorDetail, PredictionKind } from '../contract';
import { API_KEY_QUERY_PARAMETER, errorBodySchema } from '../contract';

/** Why one attempt failed, in words a user can act on; `retryable` decides whether to try again. */
export interface Failure {
	message: string;
	description: string;
	retryable: boolean;
	status?: number;
	code?: string;
	details?: ErrorDetail[];
	retryAfterMs?: number;
}

export type Redact = (text: string) => string;

/**
 * Whether the call went to the storage URL the service handed out, without the credential (not to
 * the service through it), so its failure never says to check the credential.
 */
type SentTo = { toStorage?: boolean };

/** What every failure of a call to storage says of the credential. */
const NOT_THE_CREDENTIAL = 'the credential is not the cause, as the file goes to storage without it.';

const KEY_IN_QUERY = new RegExp(`([?&]${API_KEY_QUERY_PARAMETER}=)[^&#\\s"'<>]*`, 'gi');
const KEY_IN_HEADER = /(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi;

/**
 * Removes the API key (the exact value in any letter case, as a URL's host name is lowercased;
 * its URL-encoded form; and anything shaped like a key in a URL or header dump).
 */
export function createRedactor(apiKey: unknown): Redact {
	const secret = typeof apiKey === 'string' && apiKey.length >= 4 ? apiKey : undefined;
	const secrets = (secret ? [secret, encodeURIComponent(secret)] : []).map((form) => new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'));
	return (text) => {
		let clean = text.replace(KEY_IN_QUERY, '$1***').replace(KEY_IN_HEADER, '$1***');
		for (const form of secrets) clean = clean.replace(form, '***');
		return clean;
	};
}

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

const STATUS_TEXT: Record<number, string> = {
	300: 'Multiple Choices',
	301: 'Moved Permanently',
	302: 'Found',
	303: 'See Other',
	307: 'Temporary Redirect',
	308: 'Permanent Redirect',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

const OPERATION_NAMES: Record<PredictionKind, string> = {
	detect: 'a detection model (Detect Objects)',
	classify: 'a classification model (Classify Image)',
};

/**
 * Who answered and what a 404 means: a prediction's model, or what another call asked for (a
 * project, or a file at the storage URL the service handed out).
 */
export type AnsweredBy = { kind: PredictionKind; modelId: string } | { notFound: { message: string; description: string }; who?: string };

/** A non-2xx answer as a Failure. `text` is the body as received (JSON or not, possibly empty). */
export function describeHttpFailure(status: number, text: string, context: AnsweredBy & SentTo & { retryAfterMs?: number }): Failure {
	const who = ('who' in context && context.who) || 'The service';
	const retryable = RETRYABLE_STATUSES.has(status);
	const serviceError = parseErrorBody(text);
	const said = serviceError?.message ?? snippet(text);
	const name = STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'Error');

	if (context.toStorage === true && status >= 400 && status <= 499 && status !== 404 && status !== 429) {
		const expired = status === 401 || status === 403;
		const storageSaid = said ? ` ${who} said: ${said}` : '';
		return {
			status,
			code: expired ? 'storage_unauthorized' : 'storage_rejected',
			retryable,
			message: `${who} refused the file (${status} ${name})`,
			description: expired
				? `The storage URL the service handed out was not accepted (it may have expired). Run the item again; ${NOT_THE_CREDENTIAL}${storageSaid}`
				: `The file was not stored. Run the item again: the storage URL the service handed out may have expired, and the item asks for a new one when it runs again; ${NOT_THE_CREDENTIAL}${storageSaid}`,
		};
	}
	if (status === 400) {
		const details = serviceError?.details ?? [];
		return {
			status,
			code: serviceError?.code ?? 'bad_request',
			retryable,
			details,
			message: `${who} rejected the request (400 Bad Request): ${said || 'no reason given'}`,
			description: details.length
				? details.map(formatDetail).join('\n')
				: 'Check the image and the options of this item.',
		};
	}
	if (status === 401) {
		return {
			status,
			code: serviceError?.code ?? 'unauthorized',
			retryable,
			details: serviceError?.details ?? [],
			message: 'Invalid or missing credentials (401 Unauthorized)',
			description:
				'Check the API key in the "Image Inference API" credential (Workspace Settings > API Keys in the dashboard) and that "Send API Key As" is right.',
		};
	}
	if (status === 404) {
		const notFound =
			'notFound' in context
				? context.notFound
				: {
						message: `Model ${context.modelId} was not found`,
						description: `Check that the Model ID is right, that the model is deployed, and that it is ${OPERATION_NAMES[context.kind]}.`,
					};
		return {
			status,
			code: serviceError?.code ?? 'not_found',
			retryable,
			message: `${notFound.message} (404 Not Found)`,
			description: notFound.description + (said ? ` ${who} said: ${said}` : ''),
		};
	}
	const description = said ? `${who} said: ${said}` : `${who} gave no reason.`;
	if (status === 429) {
		return {
			status,
			code: serviceError?.code ?? 'rate_limited',
			retryable,
			retryAfterMs: context.retryAfterMs,
			message: `${who} is rate-limiting requests (429 ${name})`,
			description: `${description} Lower "Concurrency" or raise "Retries".`,
		};
	}
	return {
		status,
		code: serviceError?.code ?? (status >= 500 ? 'server_error' : 'http_error'),
		retryable,
		retryAfterMs: context.retryAfterMs,
		message:
			status >= 500
				? `${who} failed (${status} ${name})`
				: `${who} rejected the request (${status} ${name})`,
		description,
	};
}

/** A request that got no HTTP answer: connection refused or reset, time-out, DNS. */
export function describeNetworkFailure(
	error: unknown,
	context: SentTo & { timeoutMs: number; host: string; elapsedMs?: number },
): Failure {
	const storage = context.toStorage === true;
	const who = storage ? 'the storage' : 'the service';
	const code = findErrorCode(error);
	const text = errorText(error);
	const name = (error as { name?: unknown } | undefined)?.name;
	const reset = code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
	// HTTP clients report a time-out in different ways (n8n 1.x's as a reset): the clock decides.
	const timedOut = context.elapsedMs !== undefined && context.elapsedMs >= context.timeoutMs - 10;
	const timeoutCode = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT';
	const timeoutName = name === 'AbortError' || name === 'TimeoutError';
	if (timedOut || (!reset && (timeoutCode || timeoutName || /timeout|timed out/i.test(text)))) {
		return {
			code: 'timeout',
			retryable: true,
			message: `${storage ? 'The storage' : 'The service'} did not answer within ${context.timeoutMs} ms`,
			description: storage
				? `Raise the "Timeout" option for large images, or run the item again later; ${NOT_THE_CREDENTIAL}`
				: 'Raise the "Timeout" option for large images, or try again later.',
		};
	}
	if (reset || /socket hang up|reset|other side closed|aborted/i.test(text)) {
		return {
			code: 'connection_reset',
			retryable: true,
			message: `The connection to ${who} was reset before it answered`,
			description: `The connection to ${context.host} was dropped${code ? ` (${code})` : ''}. This is usually temporary${storage ? `; ${NOT_THE_CREDENTIAL}` : '.'}`,
		};
	}
	if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') {
		return {
			code: code === 'ECONNREFUSED' ? 'connection_refused' : 'host_unreachable',
			retryable: false,
			message: `Could not connect to ${storage ? 'the storage at ' : ''}${context.host}: ${code === 'ECONNREFUSED' ? 'connection refused' : 'host not found'}`,
			description: storage
				? `The storage URL the service handed out could not be reached from n8n (${code}). Try again later; ${NOT_THE_CREDENTIAL} If it keeps failing, the service hands out a storage address n8n cannot reach: ask its operator.`
				: `Check the Base URL in the "Image Inference API" credential and that the service is reachable from n8n (${code}).`,
		};
	}
	return {
		code: 'request_failed',
		retryable: false,
		message: `The request to ${storage ? 'the storage at ' : ''}${context.host} failed${code ? ` (${code})` : ''}`,
		description: snippet(text) || 'No further information.',
	};
}

/**
 * A 3xx answer. No call follows a redirect (n8n would, and would take the API key along to
 * another host, and turn a POST or a PUT answered 303 into a GET): a redirect of the service
 * means its Base URL is not the address it answers at, or that something between n8n and the
 * service redirects; one of the storage means the file was not stored. Names where it pointed by
 * its origin only (and a path on the Base URL's own origin): a Location's query may carry the key
 * (a query-mode request's query kept) or a signature. A 304 is no redirect: it answers a
 * conditional request, which no call sends.
 */
export function describeRedirect(status: number, location: unknown, context: Required<SentTo> & { host: string }): Failure {
	if (status === 304) return describeNotModified(context.toStorage);
	const name = STATUS_TEXT[status] ?? 'Redirect';
	const said = typeof location === 'string' && location.trim() !== '';
	const target = said ? redirectTarget(location, context.host) : undefined;
	const where = !said
		? 'without saying where to'
		: target === undefined
			? 'to something that is not a web address'
			: target.to.origin === target.from.origin
				? `to another address on ${target.to.origin}`
				: `to ${target.to.origin}`;
	if (context.toStorage) {
		return {
			status,
			code: 'storage_redirect',
			retryable: false,
			message: `The storage answered with a redirect (${status} ${name}) ${where}`,
			description: `The file was not stored: the node does not follow a redirect of the storage (after a 303 the upload would become a download). Run the item again; ${NOT_THE_CREDENTIAL} If it keeps happening, the storage URLs the service hands out do not take uploads: ask its operator.`,
		};
	}
	return {
		status,
		code: 'redirect',
		retryable: false,
		message: `The service answered with a redirect (${status} ${name}) ${where}`,
		description: `The node does not follow redirects, so the API key goes nowhere but the Base URL (${context.host}). ${redirectAdvice(target)}`,
	};
}

const CREDENTIAL_BASE_URL = 'the Base URL in the "Image Inference API" credential';

/** What to do about a redirect of the service, by where it pointed. */
function redirectAdvice(target: { from: URL; to: URL } | undefined): string {
	if (target === undefined) {
		return `Check that ${CREDENTIAL_BASE_URL} is the service’s address (for example https://api.epigos.ai).`;
	}
	const { from, to } = target;
	if (from.protocol === 'https:' && to.protocol === 'http:') {
		return `The service pointed from https:// to plain http://, where the key would travel unencrypted: keep ${CREDENTIAL_BASE_URL} at https:// and ask the service’s operator why it redirects to http://.`;
	}
	if (to.origin === from.origin) {
		return `Check the path of ${CREDENTIAL_BASE_URL}: the service pointed to ${to.pathname}; the Base URL is the service’s address without /predict or /projects (for example https://api.epigos.ai).`;
	}
	// Another origin on the same host name and default ports (URL leaves a scheme's default port
	// out) differs by its scheme only, and is not http://: it is https:// instead of http://.
	if (to.hostname === from.hostname && from.port === '' && to.port === '') {
		return `The service answers at https:// only: use https://${from.host}${from.pathname.replace(/\/+$/, '')} as ${CREDENTIAL_BASE_URL}.`;
	}
	return `Set ${CREDENTIAL_BASE_URL} to ${to.origin} only if ${to.origin} is the service’s own address; a login page or proxy there means something between n8n and the service redirects (ask whoever runs your network). The key was not sent there.`;
}

/** Where a Location points, resolved against the address asked; undefined when it is not a web address. */
function redirectTarget(location: string, asked: string): { from: URL; to: URL } | undefined {
	// a Location that parses against the address asked means that address parses too
	if (!URL.canParse(location, asked)) return undefined;
	const to = new URL(location, asked);
	if (to.protocol !== 'http:' && to.protocol !== 'https:') return undefined;
	return { from: new URL(asked), to };
}

/** A 304 Not Modified: an answer to a conditional request, which the node never sends. */
function describeNotModified(toStorage: boolean): Failure {
	if (toStorage) {
		return {
			status: 304,
			code: 'storage_not_modified',
			retryable: false,
			message: 'The storage answered 304 Not Modified',
			description: `A 304 answers a conditional request, which the node does not send, so the upload cannot be taken as done. Run the item again; ${NOT_THE_CREDENTIAL}`,
		};
	}
	return {
		status: 304,
		code: 'not_modified',
		retryable: false,
		message: 'The service answered 304 Not Modified, without a result',
		description: `A 304 answers a conditional request, which the node does not send: something between n8n and the service (a cache or proxy) may have answered in its place. Check that ${CREDENTIAL_BASE_URL} is the service’s address (for example https://api.epigos.ai).`,
	};
}

/** The 200 answer could not be used: not JSON, or not the documented shape. */
export function describeInvalidResponse(problem: string, text?: string): Failure {
	let description = 'The interface may have changed: check for an update of this node.';
	if (text !== undefined) description = text ? `It began with: ${snippet(text)}` : 'The body was empty.';
	return {
		code: 'invalid_response',
		retryable: false,
		message: `The service's answer could not be read: ${problem}`,
		description,
	};
}

export function toNodeApiError(
	node: INode,
	failure: Failure,
	context: { itemIndex: number; attempts: number; redact: Redact },
): NodeApiError {
	const { redact, attempts, itemIndex } = context;
	const attemptsNote = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
	const errorResponse: IDataObject = {
		code: failure.code ?? null,
		status: failure.status ?? null,
		attempts,
		details: (failure.details ?? []).map((detail) => ({ ...detail, message: redact(detail.message) })),
	};
	return new NodeApiError(node, errorResponse as JsonObject, {
		itemIndex,
		message: redact(failure.message + attemptsNote),
		description: redact(failure.description),
		httpCode: failure.status !== undefined ? String(failure.status) : undefined,
	});
}

function formatDetail(detail: ErrorDetail): string {
	return `${detail.location} ${detail.pointer}: ${detail.message}`;
}

function parseErrorBody(text: string) {
	try {
		const parsed = errorBodySchema.safeParse(JSON.parse(text));
		if (parsed.success) return parsed.data;
		const loose = JSON.parse(text) as Record<string, unknown>;
		const message = [loose.message, loose.detail, loose.error].find((value) => typeof value === 'string');
		return typeof message === 'string' ? { message, code: undefined, details: undefined } : undefined;
	} catch {
		return undefined;
	}
}

/** The first few hundred characters of a body, with an HTML page reduced to its title or text. */
export function snippet(text: string, length = 300): string {
	let clean = text.trim();
	if (/^<!doctype html|^<html|<\/html>/i.test(clean)) {
		const title = /<title[^>]*>([^<]*)<\/title>/i.exec(clean)?.[1]?.trim();
		clean = title
			? `an HTML page titled "${title}"`
			: `an HTML page: ${clean.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()}`;
	}
	return clean.length > length ? `${clean.slice(0, length - 1)}…` : clean;
}

/** The error and what it wraps (n8n wraps the HTTP client's error in `cause` or `errorResponse`). */
export function causeChain(error: unknown): Array<{ code?: unknown; message?: unknown }> {
	const chain: Array<{ code?: unknown; message?: unknown }> = [];
	let current: unknown = error;
	while (current && typeof current === 'object' && !chain.includes(current)) {
		chain.push(current);
		current = (current as { cause?: unknown }).cause ?? (current as { errorResponse?: unknown }).errorResponse;
	}
	return chain;
}

function findErrorCode(error: unknown): string | undefined {
	const found = causeChain(error).find(({ code }) => typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code));
	return found?.code as string | undefined;
}

function errorText(error: unknown): string {
	return causeChain(error)
		.map(({ message }) => message)
		.filter((message): message is string => typeof message === 'string')
		.join(' | ');
}
