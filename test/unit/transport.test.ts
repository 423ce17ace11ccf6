import { Readable } from 'node:stream';

import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { classifyAnswerSchema } from '../../nodes/ImageInference/contract';
import { requestPrediction } from '../../nodes/ImageInference/transport';

// A hand-made context: n8n's request helpers always answer `encoding: 'stream'` with a stream
// (nodes/ImageInference/transport/index.ts names their source), so no real runner gives the node
// anything else; this unit test pins down what the node does if one ever does.
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
		['whole text', answer],
		['parsed JSON', JSON.parse(answer)],
		['nothing', undefined],
		['null', null],
		// it could be read, but not stopped when the Timeout runs out
		['chunks with no way to stop them', (async function* () { yield Buffer.from(answer); })()],
	])('fails the item, once and clearly, when it comes as %s instead of a stream', async (_name, body) => {
		const { context, calls } = contextAnswering(body);
		const error = await predict(context).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toBe("The service's answer could not be read: n8n handed it over whole, not as the stream this node asked for");
		expect((error as NodeApiError).context.itemIndex).toBe(3);
		expect(calls).toHaveLength(1);
	});
});
