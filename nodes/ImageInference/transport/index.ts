import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { PredictionKind } from '../contract';
import { describeIssues, predictPath } from '../contract';
import type { RequestSettings } from '../helpers/parameters';
import type { Failure, Redact } from './errors';
import {
	describeHttpFailure,
	describeInvalidResponse,
	describeNetworkFailure,
	isCancellation,
	toNodeApiError,
} from './errors';
import { backoffDelay, parseRetryAfter, sleepUnlessCancelled } from './retry';

export const CREDENTIAL_TYPE = 'imageInferenceApi';

export interface PredictionCall<TSchema extends z.ZodTypeAny> {
	itemIndex: number;
	kind: PredictionKind;
	modelId: string;
	/** The JSON body's bytes; released once an answer arrives so a large one is decoded alone. */
	body?: Buffer;
	resultSchema: TSchema;
	settings: RequestSettings;
	redact: Redact;
	/** The service's address, for messages (never carries the key). */
	serviceUrl: string;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/**
 * POSTs one prediction through the credential, retrying what is worth retrying, and returns the
 * result checked against the contract. Throws a NodeApiError naming the cause and the attempts.
 */
export async function requestPrediction<TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	call: PredictionCall<TSchema>,
): Promise<{ result: z.infer<TSchema>; attempts: number }> {
	const signal = this.getExecutionCancelSignal?.();
	const maxAttempts = call.settings.retries + 1;
	for (let attempt = 1; ; attempt++) {
		throwIfCancelled.call(this, signal, call.itemIndex);
		const outcome = await attemptOnce.call(this, call, signal);
		if (outcome.ok) return { result: outcome.value, attempts: attempt };
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
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: predictPath(call.kind, call.modelId),
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body: call.body,
		json: false,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: call.settings.timeoutMs,
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			request,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		if (isCancellation(error, signal)) throwIfCancelled.call(this, { aborted: true } as AbortSignal, call.itemIndex);
		return { ok: false, failure: describeNetworkFailure(error, { timeoutMs: call.settings.timeoutMs, host: call.serviceUrl }) };
	}

	const status = response.statusCode;
	const text = bodyText(response.body);
	response.body = undefined;
	if (status >= 200 && status <= 299) call.body = undefined;
	if (status < 200 || status > 299) {
		return {
			ok: false,
			failure: describeHttpFailure(status, text, {
				kind: call.kind,
				modelId: call.modelId,
				retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
			}),
		};
	}
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
	return { ok: true, value: parsed.data as z.infer<TSchema> };
}

function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (typeof body === 'string') return body;
	return JSON.stringify(body);
}

function throwIfCancelled(this: IExecuteFunctions, signal: AbortSignal | undefined, itemIndex: number): void {
	if (signal?.aborted) {
		throw new NodeOperationError(this.getNode(), 'The execution was cancelled', { itemIndex });
	}
}
