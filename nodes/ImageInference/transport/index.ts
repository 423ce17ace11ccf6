import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { PredictionKind } from '../contract';
import { describeIssues, predictPath } from '../contract';
import type { AnsweredBy, Failure, Redact } from './errors';
import {
	describeHttpFailure,
	describeInvalidResponse,
	describeNetworkFailure,
	describeRedirect,
	toNodeApiError,
} from './errors';
import type { AnswerPicture, ReadAnswer } from './answerReader';
import { AnswerReader } from './answerReader';
import { backoffDelay, parseRetryAfter, sleepUnlessCancelled, surelyNotDone } from './retry';

export const CREDENTIAL_TYPE = 'imageInferenceApi';

/** How one item's requests are sent: read from the node's options, used by the calls. */
export interface RequestSettings {
	concurrency: number;
	retries: number;
	timeoutMs: number;
}

export interface PredictionCall<TSchema extends z.ZodTypeAny> {
	itemIndex: number;
	kind: PredictionKind;
	modelId: string;
	/**
	 * Builds the JSON body's bytes, once per attempt: each attempt lets go of them as soon as the
	 * answer starts, so an image's body and the picture coming back are never held together.
	 */
	body: () => Promise<Buffer>;
	resultSchema: TSchema;
	settings: RequestSettings;
	redact: Redact;
	/** The service's address, for messages (never carries the key). */
	serviceUrl: string;
}

export interface Prediction<T> {
	result: T;
	attempts: number;
	/** The answer's annotated picture, decoded while the answer streamed in. */
	picture?: AnswerPicture;
}

type Outcome<T> = { ok: true; value: T; picture?: AnswerPicture } | { ok: false; failure: Failure };

/** Error bodies are read up to this size: enough for any message, bounded for an HTML page. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * POSTs one prediction through the credential, retrying what is worth retrying, and returns the
 * result checked against the contract. Throws a NodeApiError naming the cause and the attempts.
 */
export async function requestPrediction<TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	call: PredictionCall<TSchema>,
): Promise<Prediction<z.infer<TSchema>>> {
	const { value, attempts, picture } = await requestServiceCall.call(this, {
		...call,
		method: 'POST',
		url: predictPath(call.kind, call.modelId),
		host: call.serviceUrl,
		answeredBy: { kind: call.kind, modelId: call.modelId },
		readsPicture: true,
	});
	return { result: value, attempts, picture };
}

/** What every call to the service shares: the item it is for, how it is retried, what its messages must never show. */
export interface CallSettings {
	itemIndex: number;
	settings: RequestSettings;
	redact: Redact;
}

/**
 * One call to the service through the credential, or to a storage URL the service handed out,
 * sent without it (`withoutCredential`: the key never goes to another host).
 */
export interface ServiceCall<TSchema extends z.ZodTypeAny> extends CallSettings {
	method: 'GET' | 'POST' | 'PUT';
	/** A path under the credential's Base URL, or the whole URL of a call without the credential. */
	url: string;
	/** The body's bytes, built once per attempt; none for a GET. */
	body?: () => Promise<Buffer>;
	/** The body's type (default JSON). */
	contentType?: string;
	withoutCredential?: boolean;
	/** The answer's documented shape; without one, any 2xx answer will do and its body is not kept. */
	resultSchema?: TSchema;
	/** Where the call goes, for messages (never carries the key). */
	host: string;
	answeredBy: AnsweredBy;
	/** Whether the answer may carry an annotated picture to decode as it streams (predictions). */
	readsPicture?: boolean;
	/**
	 * False for a call that creates something each time it is done (a batch, a record,
	 * annotations): it is sent again only after a failure that surely did nothing (retry.ts
	 * surelyNotDone), and an error after which it may have been done says so (mayHaveBeenDone).
	 */
	idempotent?: boolean;
}

/** What a call that is not idempotent says when its answer was lost and the service may have done it. */
export const MAY_HAVE_BEEN_DONE =
	'The service may have done it before the answer was lost, so it was not sent again (a second call would make a second one).';

/** Whether a call's error leaves open that the service did it (a call with `idempotent: false` only). */
export function mayHaveBeenDone(error: unknown): boolean {
	return (error as { errorResponse?: { mayHaveBeenDone?: unknown } } | undefined)?.errorResponse?.mayHaveBeenDone === true;
}

/**
 * Sends one call, retrying what is worth retrying until the item's Retries are used up (waiting as
 * the service's Retry-After asks, when it does), and returns its checked answer. Throws a
 * NodeApiError naming the cause and the attempts.
 */
export async function requestServiceCall<TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	call: ServiceCall<TSchema>,
): Promise<{ value: z.infer<TSchema>; attempts: number; picture?: AnswerPicture }> {
	const signal = this.getExecutionCancelSignal?.();
	const maxAttempts = call.settings.retries + 1;
	for (let attempts = 1; ; attempts++) {
		throwIfCancelled.call(this, signal, call.itemIndex);
		const outcome = await attemptOnce.call(this, call, signal);
		if (outcome.ok) return { value: outcome.value, attempts, picture: outcome.picture };
		const { failure } = outcome;
		const maybeDone = call.idempotent === false && !surelyNotDone(failure);
		if (maybeDone || !failure.retryable || attempts >= maxAttempts) {
			const shown = maybeDone ? { ...failure, description: `${MAY_HAVE_BEEN_DONE} ${failure.description}` } : failure;
			const error = toNodeApiError(this.getNode(), shown, { itemIndex: call.itemIndex, attempts, redact: call.redact });
			if (maybeDone) (error.errorResponse as { mayHaveBeenDone?: boolean }).mayHaveBeenDone = true;
			throw error;
		}
		await sleepUnlessCancelled(backoffDelay(attempts, failure.retryAfterMs), signal);
	}
}

async function attemptOnce<TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	call: ServiceCall<TSchema>,
	signal: AbortSignal | undefined,
): Promise<Outcome<z.infer<TSchema>>> {
	let body: Buffer | undefined = await call.body?.();
	const toStorage = call.withoutCredential === true;
	const headers: Record<string, string> = call.withoutCredential ? {} : { Accept: 'application/json' };
	if (body) headers['Content-Type'] = call.contentType ?? 'application/json';
	const request: IHttpRequestOptions = {
		method: call.method,
		url: call.url,
		headers,
		body,
		json: false,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: call.settings.timeoutMs,
		// A 3xx is answered as it is, never followed (describeRedirect says why). Both tested lines
		// hand axios maxRedirects 0 for it, in convertN8nRequestToAxios: 1.123.81 in n8n-core
		// 1.122.48's execution-engine/node-execution-context/utils/request-helper-functions.js; 2.41.1
		// (n8n-core 2.41.1's utils/request-helpers/factory.js and authentication.js send through
		// OutboundHttp.requests().request) in @n8n/backend-network 1.15.1's http/axios/request.js,
		// whose own redirect follower (http/axios/redirect.js) is skipped when maxRedirects is 0.
		disableFollowRedirect: true,
	};
	const started = Date.now();
	const networkFailure = (error: unknown) => {
		// only the execution's own cancel signal means cancelled; any other abort is a time-out
		throwIfCancelled.call(this, signal, call.itemIndex);
		const elapsedMs = Date.now() - started;
		return { ok: false as const, failure: describeNetworkFailure(error, { timeoutMs: call.settings.timeoutMs, host: call.host, elapsedMs, toStorage }) };
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (
			call.withoutCredential
				? await this.helpers.httpRequest(request)
				: await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request)
		) as IN8nHttpFullResponse;
	} catch (error) {
		return networkFailure(error);
	} finally {
		request.body = undefined;
	}

	const stream = isReadable(response.body) ? response.body : wholeAnswer(response.body);
	if (!stream) {
		return { ok: false, failure: describeInvalidResponse('n8n handed it over as chunks that cannot be stopped at the Timeout') };
	}
	const status = response.statusCode;
	if (status >= 300 && status <= 399) {
		// Decided by the status and the headers: the body is not waited for (it may never end), and
		// destroying the stream lets the connection go.
		stream.destroy();
		return { ok: false, failure: describeRedirect(status, response.headers?.location, { host: call.host, toStorage }) };
	}
	const ok = status >= 200 && status <= 299;
	// A success was answered after the whole body was sent: the picture is decoded into its bytes.
	const answer = call.readsPicture ? new AnswerReader(Number(response.headers?.['content-length']) || undefined, ok ? body : undefined) : new TextReader();
	body = undefined;
	let errorText = '';
	try {
		await readBody(stream, Math.max(0, call.settings.timeoutMs - (Date.now() - started)), signal, (chunk) => {
			if (ok) {
				if (call.resultSchema) answer.push(chunk);
			} else if (errorText.length < MAX_ERROR_BODY_BYTES) errorText += chunk.toString('utf8');
		});
	} catch (error) {
		return networkFailure(error);
	}
	if (!ok) {
		return {
			ok: false,
			failure: describeHttpFailure(status, errorText, { ...call.answeredBy, retryAfterMs: parseRetryAfter(response.headers?.['retry-after']), toStorage }),
		};
	}
	if (!call.resultSchema) return { ok: true, value: undefined };
	const { text, picture } = answer.end();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { ok: false, failure: describeInvalidResponse(`the ${status} answer is not JSON`, text) };
	}
	const parsed = call.resultSchema.safeParse(json);
	if (!parsed.success) {
		return {
			ok: false,
			failure: describeInvalidResponse(`it does not match the documented result (${describeIssues(parsed.error)})`),
		};
	}
	return { ok: true, value: parsed.data as z.infer<TSchema>, picture };
}

/** A small answer's text, whole. */
class TextReader {
	private readonly chunks: Buffer[] = [];
	push(chunk: Buffer): void {
		this.chunks.push(chunk);
	}
	end(): ReadAnswer {
		return { text: Buffer.concat(this.chunks).toString('utf8') };
	}
}

/**
 * Reads a response body stream, chunk by chunk, within the attempt's remaining time. Node code has
 * no timers but n8n's sleep, so the deadline is watched in short sleeps that end as soon as the
 * body is read.
 */
async function readBody(
	body: ReadableBody,
	timeLeftMs: number,
	signal: AbortSignal | undefined,
	onChunk: (chunk: Buffer) => void,
): Promise<void> {
	let done = false;
	const reading = (async () => {
		try {
			for await (const chunk of body) onChunk(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
		} finally {
			done = true;
		}
	})();
	const deadline = Date.now() + timeLeftMs;
	// Not awaited: the reader must not wait out the watcher's last slice (at most 100 ms).
	void (async () => {
		while (!done && Date.now() < deadline && !signal?.aborted) {
			await sleepUnlessCancelled(Math.min(100, deadline - Date.now()), signal);
		}
		if (!done) {
			const error = signal?.aborted
				? Object.assign(new Error('canceled'), { code: 'ERR_CANCELED' })
				: Object.assign(new Error(`timeout of ${timeLeftMs}ms exceeded while reading the answer`), { code: 'ECONNABORTED' });
			body.destroy(error);
		}
	})();
	await reading;
}

interface ReadableBody extends AsyncIterable<unknown> {
	destroy(error?: Error): void;
}

/**
 * `encoding: 'stream'` gives a stream in both tested n8n lines: the request helpers hand axios
 * `responseType: 'stream'` (1.123: n8n-core's utils/request-helper-functions.js
 * `convertN8nRequestToAxios`; 2.41: @n8n/backend-network's http/axios/request.js), and 2.41's
 * evaluation mocks answer with `Readable.from` (n8n-core's execution-engine/eval-mock-helpers.js
 * `serializeMockToHttpResponse`).
 */
function isReadable(body: unknown): body is ReadableBody {
	return typeof body === 'object' && body !== null && Symbol.asyncIterator in body && typeof (body as ReadableBody).destroy === 'function';
}

/**
 * An answer handed over whole (bytes, text, or JSON a runner already parsed; nothing at all is an
 * empty body), read as a stream of one chunk; undefined for chunks that come without a way to
 * stop them, which the Timeout could not end.
 */
function wholeAnswer(body: unknown): ReadableBody | undefined {
	if (typeof body === 'object' && body !== null && Symbol.asyncIterator in body) return undefined;
	const bytes =
		body === undefined || body === null
			? Buffer.alloc(0)
			: body instanceof Uint8Array
				? Buffer.from(body)
				: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
	return {
		async *[Symbol.asyncIterator]() {
			yield bytes;
		},
		destroy() {},
	};
}

function throwIfCancelled(this: IExecuteFunctions, signal: AbortSignal | undefined, itemIndex: number): void {
	if (signal?.aborted) {
		throw new NodeOperationError(this.getNode(), 'The execution was cancelled', { itemIndex });
	}
}
