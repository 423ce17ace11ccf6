import { sleep } from 'n8n-workflow';

import type { Failure } from './errors';

export const BASE_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 10_000;
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Wait before retry number `retry` (1-based): exponential with jitter in [½, 1] of the step,
 * or what the service asked for in Retry-After, capped so one item cannot stall a workflow.
 */
export function backoffDelay(retry: number, retryAfterMs?: number, random: () => number = Math.random): number {
	if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, 0), MAX_RETRY_AFTER_MS);
	const step = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (retry - 1));
	return Math.round(step / 2 + (random() * step) / 2);
}

const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s/i;

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now: number = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	// every HTTP date form begins with the day's name; Date.parse alone reads "in 5" as a day in 2001
	if (!HTTP_DATE_START.test(trimmed)) return undefined;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Granularity of a cancellable wait: node code has n8n's `sleep` only, which cannot be cleared. */
const WAIT_SLICE_MS = 100;

/** Waits `ms` with n8n's sleep, in short slices so a cancelled execution stops waiting at once. */
export async function sleepUnlessCancelled(ms: number, signal: AbortSignal | undefined): Promise<void> {
	const until = Date.now() + ms;
	for (let left = ms; left > 0 && !signal?.aborted; left = until - Date.now()) {
		await sleep(Math.min(left, WAIT_SLICE_MS));
	}
}

/**
 * Whether a failed attempt surely left nothing done, so a call that creates something may be sent
 * again. The service refused it (4xx: RFC 9110 §15.5, the request was not acted on), redirected it
 * elsewhere to be sent again (307, 308; a 303 answers a POST that was done), or no connection was
 * made (refused, host not found). 429 is among the refusals: a rate limit turns a request away
 * before any work starts. A time-out, a dropped connection, a 500, a gateway's 502, 503 or 504 (the
 * SDK's evidence groups the three: a gateway sends 503 on its own time-out or an upstream reset,
 * after the backend may have done the work), or a 2xx answer that could not be read may each come
 * after the work was done.
 */
export function surelyNotDone(failure: Pick<Failure, 'status' | 'code'>): boolean {
	const { status, code } = failure;
	if (status !== undefined) return status === 307 || status === 308 || (status >= 400 && status <= 499);
	return code === 'connection_refused' || code === 'host_unreachable';
}
