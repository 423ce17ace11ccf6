import { NIL_UUID } from '../../nodes/ImageInference/contract';
import { CAR, carItem, classifyParameters, detectParameters, dogItem, failureOf, useServer, failureIn } from './setup';

describe('what the service answers, as the user reads it', () => {
	const { server, run } = useServer({ apiKey: 'key-for-http-errors', defaultModels: 'synthetic' });

	it.each(['header', 'query'] as const)('authenticates with the key as %s, and only that way', async (sendAs) => {
		const { items } = await run(detectParameters(server()), [carItem()], { credentials: { sendAs } });
		expect(items[0].json.totalDetections).toBeGreaterThan(0);
		const [received] = server().requests;
		if (sendAs === 'header') {
			expect(received.headers['x-api-key']).toBe(server().apiKey);
			expect(received.query['api-key']).toBeUndefined();
		} else {
			expect(received.query['api-key']).toBe(server().apiKey);
			expect(received.headers['x-api-key']).toBeUndefined();
		}
	});

	it('tolerates a trailing slash on the base URL', async () => {
		const { items } = await run(detectParameters(server()), [carItem()], { credentials: { baseUrl: `${server().url}/` } });
		expect(items[0].json.totalDetections).toBeGreaterThan(0);
		expect(server().requests[0].path).toBe(`/predict/detect/${server().models.detect}/`);
	});

	it.each(['header', 'query'] as const)('401 with a wrong key sent as %s, never retried', async (sendAs) => {
		const failure = await failureOf(
			run(detectParameters(server(), { options: { retries: 3 } }), [carItem()], { credentials: { sendAs, apiKey: 'wrong-key' } }),
		);
		expect(failure.message).toBe('Invalid or missing credentials (401 Unauthorized)');
		expect(failure.description).toMatch(/API key.*Send API Key As/);
		expect(failure.httpCode).toBe('401');
		expect(failure.itemIndex).toBe(0);
		expect(server().requests).toHaveLength(1);
	});

	it('404 names the model and says to check it is deployed', async () => {
		const failure = await failureOf(run(detectParameters(server(), { modelId: NIL_UUID }), [carItem()]));
		expect(failure.message).toBe(`Model ${NIL_UUID} was not found (404 Not Found)`);
		expect(failure.description).toMatch(/deployed/);
		expect(failure.httpCode).toBe('404');
	});

	it('404 when a classification model is used to detect', async () => {
		const failure = await failureOf(run(detectParameters(server(), { modelId: server().models.classify }), [carItem()]));
		expect(failure.message).toContain(server().models.classify);
		expect(failure.description).toMatch(/detection model/);
	});

	it('400 carries the service’s message and every detail', async () => {
		const failure = await failureOf(
			run(classifyParameters(server(), { imageSource: 'url', imageUrl: 'http://images.example.invalid/dog.jpg' }), [{ json: {} }]),
		);
		expect(failure.message).toMatch(/^The service rejected the request \(400 Bad Request\): /);
		expect(failure.description).toMatch(/^body \/image: /m);
		expect(failure.httpCode).toBe('400');
	});

	it('a service that is not there: a clear connection error', async () => {
		const failure = await failureOf(run(classifyParameters(server()), [dogItem()], { credentials: { baseUrl: 'http://127.0.0.1:9' } }));
		expect(failure.message).toBe('Could not connect to http://127.0.0.1:9: connection refused');
		expect(failure.description).toMatch(/Base URL.*ECONNREFUSED/);
	});

	it('with Continue On Fail each failure is an error item in its slot with status, code and details', async () => {
		const { items } = await run(
			detectParameters(server(), {
				modelId: (index: number) => (index === 1 ? NIL_UUID : server().models.detect),
			}),
			// a JPEG cut short: the node sends it (it begins as a JPEG), the service cannot read it
			[carItem(), carItem(), { binary: { data: { bytes: CAR.subarray(0, 600), fileName: 'cut.jpg', mimeType: 'image/jpeg' } } }, carItem()],
			{ continueOnFail: true },
		);
		expect(items).toHaveLength(4);
		expect(items[0].json.totalDetections).toBeGreaterThan(0);
		expect(failureIn(items[1])).toMatchObject({ status: 404, code: 'not_found', attempts: 1 });
		expect(failureIn(items[1])?.message).toContain(NIL_UUID);
		expect(failureIn(items[2])).toMatchObject({ status: 400, code: 'bad_request', attempts: 1 });
		expect((failureIn(items[2])?.details as Array<{ pointer: string }>)[0].pointer).toBe('/image');
		expect(items[3].json.totalDetections).toBeGreaterThan(0);
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	});
});

describe('an answer that does not match the contract, as the user reads it', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const box = { label: 'car', confidence: 0.9, x: 1, y: 2, width: 3, height: 4 };
	const answering = (body: unknown) => server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: body as object } });

	it.each([
		['a confidence sent as text', { detections: [box, { ...box, confidence: '0.8' }], labelsCount: [] }, 'detections[1].confidence: Expected number, received string'],
		['two fields wrong at once', { detections: [{ ...box, label: 7 }], labelsCount: [{ label: 'car', total: 'one' }] }, 'detections[0].label: Expected string, received number; labelsCount[0].total: Expected number, received string'],
		['a list instead of an object', [box], '(body): Expected object, received array'],
	])('%s: the path to the field and what was wrong, never retried', async (_, body, said) => {
		answering(body);
		const failure = await failureOf(run(detectParameters(server(), { options: { retries: 2 } }), [carItem()]));
		expect(failure.message).toBe(`The service's answer could not be read: it does not match the documented result (${said})`);
		expect(failure.description).toBe('The interface may have changed: check for an update of this node.');
		expect(server().requests).toHaveLength(1);
	});
});
