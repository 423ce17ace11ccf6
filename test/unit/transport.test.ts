import { Readable } from 'node:stream';

import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { classifyAnswerSchema } from '../../nodes/ImageInference/contract';
import { createdAnswerSchema } from '../../nodes/ImageInference/projectContract';
import { mayHaveBeenDone, requestPrediction, requestServiceCall } from '../../nodes/ImageInference/transport';

// A hand-made context: n8n's request helpers answer `encoding: 'stream'` with a stream in both
// tested lines (nodes/ImageInference/transport/index.ts names their source); another runner, or
// a later n8n, may hand the answer over whole, and the node reads it as well.
const node: INode = { id: '1', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0], parameters: {} };
const answer = JSON.stringify({ predictions: [{ category: 'cat', confidence: 0.9 }], category: 'cat', confidence: 0.9 });

function contextAnswering(body: unknown) {
	const calls: unknown[] = [];
	const context = {
		getNode: () => node,
		helpers: {
			async httpRequestWithAuthentication(_type: string, request: unknown) {
				calls.push(request);
				return { statusCode: 200, statusMessage: 'OK', headers: { 'content-type': 'application/json' }, body };
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, calls };
}

const predict = (context: IExecuteFunctions) =>
	requestPrediction.call(context, {
		itemIndex: 3,
		kind: 'classify',
		modelId: '3f2b6a1e-9c1d-4e8a-b5f2-7a6c0d9e1b24',
		body: async () => Buffer.from('{"image":"aGk="}'),
		resultSchema: classifyAnswerSchema,
		settings: { concurrency: 1, retries: 2, timeoutMs: 5000 },
		redact: (text: string) => text,
		serviceUrl: 'https://api.epigos.ai',
	});

describe('the answer as n8n hands it over', () => {
	it('reads an answer that comes as a stream', async () => {
		const { context } = contextAnswering(Readable.from([Buffer.from(answer)]));
		const { result, attempts } = await predict(context);
		expect(result).toMatchObject({ category: 'cat' });
		expect(attempts).toBe(1);
	});

	it.each([
		['a whole Buffer', Buffer.from(answer)],
		['whole bytes', new Uint8Array(Buffer.from(answer))],
		['whole text', answer],
		['JSON already parsed', JSON.parse(answer)],
	])('reads an answer handed over as %s', async (_name, body) => {
		const { context, calls } = contextAnswering(body);
		const { result, attempts } = await predict(context);
		expect(result).toEqual({ category: 'cat', confidence: 0.9, predictions: [{ category: 'cat', confidence: 0.9 }] });
		expect(attempts).toBe(1);
		expect(calls).toHaveLength(1);
	});

	it.each([
		['nothing', undefined],
		['null', null],
	])('an answer of %s is an empty body: the item fails, once, saying so', async (_name, body) => {
		const { context, calls } = contextAnswering(body);
		const error = (await predict(context).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe("The service's answer could not be read: the 200 answer is not JSON");
		expect(error.description).toBe('The body was empty.');
		expect(error.context.itemIndex).toBe(3);
		expect(calls).toHaveLength(1);
	});

	it('chunks with no way to stop them at the Timeout: the item fails, once and clearly', async () => {
		const { context, calls } = contextAnswering((async function* () {
			yield Buffer.from(answer);
		})());
		const error = (await predict(context).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe("The service's answer could not be read: n8n handed it over as chunks that cannot be stopped at the Timeout");
		expect(calls).toHaveLength(1);
	});
});

describe('a call that creates something (idempotent: false)', () => {
	function contextAnsweringInTurn(answers: Array<{ status: number; body?: string } | Error>) {
		const calls: unknown[] = [];
		const context = {
			getNode: () => node,
			helpers: {
				async httpRequestWithAuthentication(_type: string, request: unknown) {
					calls.push(request);
					const next = answers[calls.length - 1];
					if (next instanceof Error) throw next;
					return { statusCode: next.status, statusMessage: '', headers: {}, body: next.body ?? '' };
				},
			},
		} as unknown as IExecuteFunctions;
		return { context, calls };
	}
	const create = (context: IExecuteFunctions, idempotent?: boolean) =>
		requestServiceCall.call(context, {
			itemIndex: 1,
			method: 'POST',
			url: '/projects/p/datasets/records/',
			body: async () => Buffer.from('{}'),
			resultSchema: createdAnswerSchema,
			settings: { concurrency: 1, retries: 2, timeoutMs: 5000 },
			redact: (text: string) => text,
			host: 'https://api.epigos.ai',
			answeredBy: { notFound: { message: 'Project p was not found', description: 'Check it.' } },
			idempotent,
		});
	const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

	it.each([
		['a 500', { status: 500, body: 'boom' }, 'The service failed (500 Internal Server Error)'],
		['a 502', { status: 502 }, 'The service failed (502 Bad Gateway)'],
		// a gateway answers 503 after the backend did the work as well (a request time-out at the proxy)
		['a 503', { status: 503 }, 'The service failed (503 Service Unavailable)'],
		['a dropped connection', reset(), 'The connection to the service was reset before it answered'],
	])('after %s, it is not sent again, and its error says it may have been done', async (_name, failure, message) => {
		const { context, calls } = contextAnsweringInTurn([failure, { status: 201, body: '{"id":"r1"}' }]);
		const error = (await create(context, false).catch((caught: unknown) => caught)) as NodeApiError;
		expect(calls).toHaveLength(1);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(/^The service may have done it before the answer was lost, so it was not sent again \(a second call would make a second one\)\. /);
		expect(mayHaveBeenDone(error)).toBe(true);
	});

	it('a 201 answer it cannot read may have been done: its error says so', async () => {
		const { context } = contextAnsweringInTurn([{ status: 201, body: 'created' }]);
		const error = await create(context, false).catch((caught: unknown) => caught);
		expect(mayHaveBeenDone(error)).toBe(true);
	});

	it('after a 429 it is sent again (a rate limit refuses before any work), and a last 429 is not said to have been done', async () => {
		const { context, calls } = contextAnsweringInTurn([{ status: 429 }, { status: 429 }, { status: 429 }]);
		const error = (await create(context, false).catch((caught: unknown) => caught)) as NodeApiError;
		expect(calls).toHaveLength(3);
		expect(mayHaveBeenDone(error)).toBe(false);
		expect(error.message).toBe('The service is rate-limiting requests (429 Too Many Requests) (gave up after 3 attempts)');
		expect(error.description).toBe('The service gave no reason. Lower "Concurrency" or raise "Retries".');
	});

	it('a call that may be sent twice (the default) is sent again after a 502 and a dropped connection', async () => {
		const { context, calls } = contextAnsweringInTurn([{ status: 502 }, reset(), { status: 201, body: '{"id":"r1"}' }]);
		const { value, attempts } = await create(context);
		expect(value).toEqual({ id: 'r1' });
		expect([attempts, calls.length]).toEqual([3, 3]);
		const { context: failing } = contextAnsweringInTurn([{ status: 500 }, { status: 500 }, { status: 500 }]);
		expect(mayHaveBeenDone(await create(failing, true).catch((caught: unknown) => caught))).toBe(false);
	});

	it('an error that is not a call’s, or has no answer, is not said to have been done', () => {
		expect(mayHaveBeenDone(new Error('x'))).toBe(false);
		expect(mayHaveBeenDone(undefined)).toBe(false);
		expect(mayHaveBeenDone({ errorResponse: { mayHaveBeenDone: 'yes' } })).toBe(false);
	});
});
