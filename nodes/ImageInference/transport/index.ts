import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { PredictionKind } from '../contract';
import { describeIssues, predictPath } from '../contract';
import type { Failure, Redact } from './errors';
import {
	describeHttpFailure,
	describeInvalidResponse,
	describeNetworkFailure,
	toNodeApiError,
} from './errors';
import type { AnswerPicture } from './answerReader';
import { AnswerReader } from './answerReader';
import { backoffDelay, parseRetryAfter, sleepUnlessCancelled } from './retry';

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
	const signal = this.getExecutionCancelSignal?.();
	const maxAttempts = call.settings.retries + 1;
	for (let attempt = 1; ; attempt++) {
		throwIfCancelled.call(this, signal, call.itemIndex);
		const outcome = await attemptOnce.call(this, call, signal);
		if (outcome.ok) return { result: outcome.value, attempts: attempt, picture: outcome.picture };
		if (!outcome.failure.retryable || attempt >= maxAttempts) {
			throw toNodeApiError(this.getNode(), outcome.failure, {
				itemIndex: call.itemIndex,
				attempts: attempt,
				redact: call.redact,
			});
		}
		await sleepUnlessCancelled(backoffDelay(attempt, outcome.failure.retryAfterMs), signal);
	}
}

async function attemptOnce<TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	call: PredictionCall<TSchema>,
	signal: AbortSignal | undefined,
): Promise<Outcome<z.infer<TSchema>>> {
	let body: Buffer | undefined = await call.body();
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: predictPath(call.kind, call.modelId),
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body,
		json: false,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: call.settings.timeoutMs,
	};
	const started = Date.now();
	const networkFailure = (error: unknown) => {
		// only the execution's own cancel signal means cancelled; any other abort is a time-out
		throwIfCancelled.call(this, signal, call.itemIndex);
		const elapsedMs = Date.now() - started;
		return { ok: false as const, failure: describeNetworkFailure(error, { timeoutMs: call.settings.timeoutMs, host: call.serviceUrl, elapsedMs }) };
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request)) as IN8nHttpFullResponse;
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
	const ok = status >= 200 && status <= 299;
	// A success was answered after the whole body was sent: the picture is decoded into its bytes.
	const answer = new AnswerReader(Number(response.headers?.['content-length']) || undefined, ok ? body : undefined);
	body = undefined;
	let errorText = '';
	try {
		await readBody(stream, Math.max(0, call.settings.timeoutMs - (Date.now() - started)), signal, (chunk) => {
			if (ok) answer.push(chunk);
			else if (errorText.length < MAX_ERROR_BODY_BYTES) errorText += chunk.toString('utf8');
		});
	} catch (error) {
		return networkFailure(error);
	}
	if (!ok) {
		return {
			ok: false,
			failure: describeHttpFailure(status, errorText, {
				kind: call.kind,
				modelId: call.modelId,
				retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
			}),
		};
	}
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
