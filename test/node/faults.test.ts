import * as retry from '../../nodes/ImageInference/transport/retry';
import type { FaultAction } from '../reference-server';
import { CAR, carItem, detectParameters, failureOf, useServer, asServiceSent, failureIn } from './setup';

type Expectation = { attempts: number; message: RegExp; description?: RegExp; status?: number };

/** Each fault, on every request of its item, with Retries 2 and a short Timeout. */
const permanentFaults: Array<{ name: string; action: FaultAction; expect: Expectation }> = [
	{ name: '500', action: { type: 'status', status: 500, body: { detail: 'model crashed' } }, expect: { attempts: 1, status: 500, message: /^The service failed \(500 Internal Server Error\)$/, description: /model crashed/ } },
	{ name: '502', action: { type: 'status', status: 502 }, expect: { attempts: 3, status: 502, message: /502 Bad Gateway\) \(gave up after 3 attempts\)/ } },
	{ name: '503', action: { type: 'status', status: 503, body: 'overloaded' }, expect: { attempts: 3, status: 503, message: /503 Service Unavailable/, description: /overloaded/ } },
	{ name: '504', action: { type: 'status', status: 504 }, expect: { attempts: 3, status: 504, message: /504 Gateway Timeout/ } },
	{ name: '429 without Retry-After', action: { type: 'status', status: 429 }, expect: { attempts: 3, status: 429, message: /rate-limiting.*gave up after 3 attempts/, description: /Concurrency/ } },
	{ name: '429 with Retry-After', action: { type: 'status', status: 429, headers: { 'retry-after': '0' } }, expect: { attempts: 3, status: 429, message: /rate-limiting/ } },
	{ name: 'an HTML error page', action: { type: 'html', status: 502 }, expect: { attempts: 3, status: 502, message: /502/, description: /an HTML page/ } },
	{ name: 'a connection reset mid-response', action: { type: 'reset' }, expect: { attempts: 3, message: /connection to the service was reset.*gave up after 3 attempts/ } },
	{ name: 'a server that never answers', action: { type: 'hang' }, expect: { attempts: 3, message: /did not answer within 1000 ms \(gave up after 3 attempts\)/ } },
	{ name: 'malformed JSON', action: { type: 'malformed-json' }, expect: { attempts: 1, message: /answer could not be read: the 200 answer is not JSON/ } },
	{ name: 'JSON that breaks the response schema', action: { type: 'schema-break' }, expect: { attempts: 1, message: /does not match the documented result \(.*(detections|labelsCount).*\)/ } },
	{ name: 'a 404 with no body', action: { type: 'status', status: 404, body: '' }, expect: { attempts: 1, status: 404, message: /was not found \(404 Not Found\)/, description: /deployed/ } },
];

describe('faults, one item at a time', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const parameters = () => detectParameters(server(), { options: { retries: 2, timeout: 1000 } });

	describe.each([false, true])('Continue On Fail %s', (continueOnFail) => {
		it.each(permanentFaults)('$name', async ({ action, expect: expected }) => {
			server().addFault({ match: { kind: 'detect' }, action });
			const attemptsSeen = () => server().requests.length;
			if (continueOnFail) {
				const { items } = await run(parameters(), [carItem()], { continueOnFail });
				expect(items).toHaveLength(1);
				expect(failureIn(items[0])?.message).toMatch(expected.message);
				if (expected.description) expect(failureIn(items[0])?.description).toMatch(expected.description);
				expect(failureIn(items[0])?.attempts).toBe(expected.attempts);
				expect(failureIn(items[0])?.status).toBe(expected.status ?? null);
				expect(items[0].pairedItem).toEqual({ item: 0 });
			} else {
				const failure = await failureOf(run(parameters(), [carItem()]));
				expect(failure.message).toMatch(expected.message);
				if (expected.description) expect(failure.description).toMatch(expected.description);
				expect(failure.itemIndex).toBe(0);
			}
			expect(attemptsSeen()).toBe(expected.attempts);
		});
	});

	it('gives up on an answer that trickles in past the Timeout, though the connection never goes quiet', async () => {
		// n8n's HTTP client times out only a connection that goes quiet (the harness does the same):
		// a byte every 50 ms would hold the item for 10 s if the node did not watch its own Timeout
		server().addFault({ match: { kind: 'detect' }, action: { type: 'trickle', intervalMs: 50, forMs: 10_000 } });
		const failure = await failureOf(run(detectParameters(server(), { options: { retries: 0, timeout: 600 } }), [carItem()]));
		expect(failure.message).toMatch(/did not answer within 600 ms/);
		expect(failure.itemIndex).toBe(0);
	});

	it('gives up on a trickling answer at the Timeout in a runner that gives no cancel signal', async () => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'trickle', intervalMs: 50, forMs: 3000 } });
		const parameters = detectParameters(server(), { options: { retries: 0, timeout: 600 } });
		const failure = await failureOf(run(parameters, [carItem()], { contextWithout: ['getExecutionCancelSignal'] }));
		expect(failure.message).toMatch(/did not answer within 600 ms/);
	});

	it('counts the Timeout from the request, not from a late head: a trickle that ends after it fails the item', async () => {
		// the head comes at 1000 ms, the body ends at 2000 ms: past the 1500 ms Timeout, however loaded the machine
		server().addFault({ match: { kind: 'detect' }, action: { type: 'trickle', intervalMs: 50, forMs: 1000, headAfterMs: 1000 } });
		const failure = await failureOf(run(detectParameters(server(), { options: { retries: 0, timeout: 1500 } }), [carItem()]));
		expect(failure.message).toMatch(/did not answer within 1500 ms/);
		expect(failure.itemIndex).toBe(0);
	});

	it('reads an error body that comes in two pieces whole, and says what the service said', async () => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 500, body: { detail: 'model crashed while loading its weights' }, inTwoPiecesMs: 100 } });
		const failure = await failureOf(run(detectParameters(server(), { options: { retries: 0 } }), [carItem()]));
		expect(failure.message).toBe('The service failed (500 Internal Server Error)');
		expect(failure.description).toBe('The service said: model crashed while loading its weights');
	});

	it('recovers when a 503 clears before the retries run out', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 2, action: { type: 'status', status: 503 } });
		const { items } = await run(parameters(), [carItem()]);
		expect(asServiceSent(items[0].json.detections)).toEqual((server().predict('detect', CAR, {}) as { detections: unknown[] }).detections);
		expect(server().requests).toHaveLength(3);
	});

	it('a retry after a reset mid-answer sends the whole image again and succeeds', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'reset' } });
		const { items } = await run(detectParameters(server(), { options: { retries: 2, timeout: 20000, confidence: 0.4 } }), [carItem()]);
		expect(asServiceSent(items[0].json.detections)).toEqual((server().predict('detect', CAR, { confidence: 0.4 }) as { detections: unknown[] }).detections);
		const [first, retry] = server().requests;
		expect(server().requests).toHaveLength(2);
		expect(retry.body).toEqual({ image: CAR.toString('base64'), confidence: 0.4 });
		expect(retry.body).toEqual(first.body);
	});

	it('waits as long as Retry-After asks', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 429, headers: { 'retry-after': '1' } } });
		// the wait the node chose is read, not timed
		const backoff = jest.spyOn(retry, 'backoffDelay');
		try {
			const { items } = await run(parameters(), [carItem()]);
			expect(items[0].json.totalDetections).toBeGreaterThan(0);
			expect(backoff.mock.results.map((result) => result.value)).toEqual([1000]);
		} finally {
			backoff.mockRestore();
		}
		expect(server().requests).toHaveLength(2);
	});

	it('Retries 0 sends each request once', async () => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 503 } });
		const failure = await failureOf(run(detectParameters(server(), { options: { retries: 0 } }), [carItem()]));
		expect(failure.message).toBe('The service failed (503 Service Unavailable)');
		expect(server().requests).toHaveLength(1);
	});

	it.each([false, true])('stops promptly when the execution is cancelled, sending nothing new (Continue On Fail %s)', async (continueOnFail) => {
		server().setLatency(200);
		const controller = new AbortController();
		// cancelled while the first two requests are open on the service: the third is never sent
		void server().whenRequests(2).then(() => controller.abort());
		const failure = await failureOf(
			run(detectParameters(server(), { options: { concurrency: 2 } }), Array.from({ length: 40 }, () => carItem()), { signal: controller.signal, continueOnFail }),
		);
		// a cancelled execution stops, whatever On Error says: no error items for the images it did not send
		expect(failure.message).toBe('The execution was cancelled');
		// under Stop Workflow it names an item whose request was open (n8n shows it with the error)
		if (!continueOnFail) expect([0, 1]).toContain(failure.itemIndex);
		expect(server().requests).toHaveLength(2);
	});
});

/** A tiny seeded generator so the "random" batch is the same on every run. */
function seeded(seed: number) {
	return () => {
		seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
		return seed / 2 ** 31;
	};
}

describe('a mixed batch of 50 items with faults on random items, concurrency 10', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it.each([true, false])('Continue On Fail %s: 50 items out, in order, none lost or duplicated', async (continueOnFail) => {
		const random = seeded(continueOnFail ? 7 : 11);
		const transient: FaultAction[] = [{ type: 'status', status: 503 }, { type: 'status', status: 429 }, { type: 'reset' }, { type: 'status', status: 502 }];
		const permanent: FaultAction[] = [{ type: 'status', status: 500 }, { type: 'malformed-json' }, { type: 'status', status: 404, body: '' }];
		const plan = Array.from({ length: 50 }, (_, index) => {
			const roll = random();
			if (roll < 0.3) {
				const modelId = server().registerModel('detect');
				server().addFault({ match: { modelId }, times: 1 + Math.floor(random() * 2), action: transient[index % transient.length] });
				return { modelId, outcome: 'ok' as const };
			}
			if (roll < 0.45 && continueOnFail) {
				const modelId = server().registerModel('detect');
				server().addFault({ match: { modelId }, action: permanent[index % permanent.length] });
				return { modelId, outcome: 'error' as const };
			}
			return { modelId: server().models.detect, outcome: 'ok' as const };
		});
		server().setLatency(10);
		const items = Array.from({ length: 50 }, (_, index) => ({ ...carItem(), json: { index } }));
		const { items: output } = await run(
			detectParameters(server(), { modelId: (index: number) => plan[index].modelId, options: { concurrency: 10, retries: 3 } }),
			items,
			{ continueOnFail },
		);
		const expected = server().predict('detect', CAR, {}) as { detections: unknown[] };
		expect(output).toHaveLength(50);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		output.forEach((item, index) => {
			if (plan[index].outcome === 'ok') {
				expect(asServiceSent(item.json.detections)).toEqual(expected.detections);
			} else {
				expect(failureIn(item)?.message).toEqual(expect.any(String));
				expect(failureIn(item)?.attempts).toBe(1);
			}
		});
		// the slots that failed are exactly the ones planned to fail (none without Continue On Fail: the retries recover all)
		const errorSlots = output.flatMap((item, index) => (failureIn(item) ? [index] : []));
		expect(errorSlots).toEqual(plan.flatMap((entry, index) => (entry.outcome === 'error' ? [index] : [])));
		if (continueOnFail) expect(errorSlots.length).toBeGreaterThan(0);
	});
});
