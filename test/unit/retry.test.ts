import * as n8nWorkflow from 'n8n-workflow';

import { BASE_BACKOFF_MS, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS, backoffDelay, parseRetryAfter, sleepUnlessCancelled, surelyNotDone } from '../../nodes/ImageInference/transport/retry';

describe('backoff', () => {
	it('grows exponentially with jitter between half and the full step, capped', () => {
		for (let retry = 1; retry <= 12; retry++) {
			const step = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (retry - 1));
			expect(backoffDelay(retry, undefined, () => 0)).toBe(step / 2);
			expect(backoffDelay(retry, undefined, () => 1)).toBe(step);
		}
		expect(backoffDelay(30, undefined, () => 1)).toBe(MAX_BACKOFF_MS);
	});

	it('honours Retry-After over the exponential step, within the cap', () => {
		expect(backoffDelay(1, 2_000, () => 0)).toBe(2_000);
		expect(backoffDelay(5, 0, () => 1)).toBe(0);
		expect(backoffDelay(1, 3_600_000)).toBe(MAX_RETRY_AFTER_MS);
	});
});

describe('Retry-After', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');
	it('reads delta-seconds and HTTP dates', () => {
		expect(parseRetryAfter('3', now)).toBe(3_000);
		expect(parseRetryAfter(['1.5'], now)).toBe(1_500);
		expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:07 GMT', now)).toBe(7_000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
		// the two obsolete forms HTTP still allows (RFC 9110, section 5.6.7)
		expect(parseRetryAfter('Sunday, 22-Nov-26 10:00:07 GMT', now)).toBe(7_000);
		expect(parseRetryAfter('Sun Nov 22 10:00:07 2026', Date.parse('2026-11-22T10:00:00'))).toBe(7_000);
	});
	it('reads the value as proxies pass it on: padded, as a number, the first of several', () => {
		expect(parseRetryAfter(' 5 ', now)).toBe(5_000);
		expect(parseRetryAfter(2, now)).toBe(2_000);
		expect(parseRetryAfter(['12', '1'], now)).toBe(12_000);
		expect(parseRetryAfter('0.25', now)).toBe(250);
	});
	it('ignores what it cannot read', () => {
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
		expect(parseRetryAfter({ seconds: 3 }, now)).toBeUndefined();
		expect(parseRetryAfter(true, now)).toBeUndefined();
		expect(parseRetryAfter('5 minutes', now)).toBeUndefined();
		expect(parseRetryAfter('in 5', now)).toBeUndefined();
		expect(parseRetryAfter('1.', now)).toBeUndefined();
		expect(parseRetryAfter('2026-11-22', now)).toBeUndefined();
		expect(parseRetryAfter('x Mon 5', now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter('', now)).toBeUndefined();
	});
});

describe('sleepUnlessCancelled', () => {
	// n8n's sleep, counted instead of timed: each slice is one call
	afterEach(() => jest.restoreAllMocks());

	it('ends a long wait as soon as the execution is cancelled', async () => {
		const controller = new AbortController();
		const slices: number[] = [];
		jest.spyOn(n8nWorkflow, 'sleep').mockImplementation(async (ms: number) => {
			slices.push(ms);
			if (slices.length === 2) controller.abort();
		});
		await sleepUnlessCancelled(30_000, controller.signal);
		expect(slices).toHaveLength(2);
		expect(slices.every((ms) => ms <= 100)).toBe(true);
	});
	it('does not wait at all when already cancelled', async () => {
		const controller = new AbortController();
		controller.abort();
		const sleep = jest.spyOn(n8nWorkflow, 'sleep');
		await sleepUnlessCancelled(30_000, controller.signal);
		expect(sleep).not.toHaveBeenCalled();
	});
	it('waits where the execution gives no cancel signal (n8n’s getExecutionCancelSignal may return none)', async () => {
		const slices: number[] = [];
		jest.spyOn(n8nWorkflow, 'sleep').mockImplementation(async (ms: number) => {
			slices.push(ms);
		});
		await sleepUnlessCancelled(250, undefined);
		expect(slices.length).toBeGreaterThanOrEqual(3);
		expect(slices.every((ms) => ms <= 100)).toBe(true);
	});
});

describe('what surely left nothing done (a call that creates something is sent again only then)', () => {
	it.each([
		[307, true],
		[308, true],
		[400, true],
		[401, true],
		[404, true],
		[429, true],
		[499, true],
		[303, false],
		[399, false],
		[500, false],
		[502, false],
		// a gateway's 503 (Heroku's request timeout, Envoy's upstream reset) may come after the backend did the work
		[503, false],
		[504, false],
		[599, false],
		[200, false],
	])('an answer with status %i: %s', (status, nothingDone) => {
		expect(surelyNotDone({ status, code: 'connection_refused' })).toBe(nothingDone);
	});

	it.each([
		['connection_refused', true],
		['host_unreachable', true],
		['timeout', false],
		['connection_reset', false],
		['invalid_response', false],
		['request_failed', false],
		[undefined, false],
	])('no answer, %s: %s', (code, nothingDone) => {
		expect(surelyNotDone({ code })).toBe(nothingDone);
	});
});
