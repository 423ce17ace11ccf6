import { Readable } from 'node:stream';

import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { classifyAnswerSchema } from '../../nodes/ImageInference/contract';
import { requestPrediction } from '../../nodes/ImageInference/transport';

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
