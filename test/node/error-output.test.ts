import type { INodeExecutionData } from 'n8n-workflow';

import { sha256 } from '../reference-server/faults';
import type { InputItem } from '../harness/execute';
import { CAR, DOG, detectParameters, fixture, useServer } from './setup';

/**
 * On Error "Continue (using error output)": the harness routes the node's output as n8n's engine
 * does (test/harness/execute.ts, ported from n8n-core's WorkflowExecute), so each test sees the
 * success and the error output a workflow's next nodes get.
 */
describe('On Error: Continue (using error output)', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const MISSING_MODEL = '00000000-0000-4000-8000-00000000dead';

	const photo = (name: string, bytes: Buffer): InputItem => ({
		json: { photo: name },
		binary: { data: { bytes, fileName: `${name}.jpg`, mimeType: 'image/jpeg' } },
	});
	const car = photo('car', CAR);
	const dog = photo('dog', DOG);
	const failOnDog = (action: Parameters<ReturnType<typeof server>['addFault']>[0]['action']) =>
		server().addFault({ match: { imageSha256: sha256(DOG) }, action });

	/**
	 * The error output holds the failed item alone: its input's fields (n8n's merge), what failed,
	 * and the input's file, so an error branch can forward the photo.
	 */
	const failedItem = (input: string, pairedTo: number, error: Record<string, unknown> & { code: string }, file: Record<string, string> = { data: `${input}.jpg` }): INodeExecutionData => ({
		json: {
			photo: input,
			error: { details: [], httpCode: typeof error.status === 'number' ? String(error.status) : null, status: null, attempts: 0, description: expect.any(String), ...error },
		},
		binary: Object.fromEntries(Object.entries(file).map(([field, fileName]) => [field, expect.objectContaining({ fileName })])),
		pairedItem: { item: pairedTo },
	});

	/** The good item (the car, first) is a detection result on the success output, and nothing else is. */
	const expectCarSucceededAlone = (items: INodeExecutionData[]) => {
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(items[0].json).toMatchObject({ fileName: 'car.jpg', totalDetections: expect.any(Number), detections: expect.any(Array) });
		expect(items[0].json.error).toBeUndefined();
	};

	it('bad input caught before the network (an invalid option)', async () => {
		const parameters = detectParameters(server(), { options: { confidence: (index: number) => (index === 1 ? 1.5 : undefined) } });
		const { items, errorItems } = await run(parameters, [car, dog], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('dog', 1, { message: expect.stringMatching(/Confidence Threshold must be a number from 0 to 1, got 1.5/), code: 'invalid_parameter' }),
		]);
		expect(server().requests).toHaveLength(1);
	});

	it('a 4xx answer (an unknown model)', async () => {
		const parameters = detectParameters(server(), { modelId: (index: number) => (index === 1 ? MISSING_MODEL : server().models.detect) });
		const { items, errorItems } = await run(parameters, [car, dog], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('dog', 1, {
				message: `Model ${MISSING_MODEL} was not found (404 Not Found)`,
				description: expect.stringContaining('deployed'),
				status: 404,
				code: 'not_found',
				attempts: 1,
			}),
		]);
	});

	it('a 5xx answer after every retry', async () => {
		failOnDog({ type: 'status', status: 503, body: 'overloaded' });
		const parameters = detectParameters(server(), { options: { retries: 1 } });
		const { items, errorItems } = await run(parameters, [car, dog], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('dog', 1, {
				message: 'The service failed (503 Service Unavailable) (gave up after 2 attempts)',
				description: expect.stringContaining('overloaded'),
				status: 503,
				code: 'server_error',
				attempts: 2,
			}),
		]);
	});

	it('a time-out', async () => {
		failOnDog({ type: 'hang' });
		const parameters = detectParameters(server(), { options: { retries: 0, timeout: 300 } });
		const { items, errorItems } = await run(parameters, [car, dog], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('dog', 1, { message: 'The service did not answer within 300 ms', description: expect.stringContaining('Timeout'), code: 'timeout', attempts: 1 }),
		]);
	});

	it('an unreadable 200 answer', async () => {
		failOnDog({ type: 'malformed-json' });
		const { items, errorItems } = await run(detectParameters(server()), [car, dog], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('dog', 1, { message: expect.stringMatching(/answer could not be read: the 200 answer is not JSON/), code: 'invalid_response', attempts: 1 }),
		]);
	});

	it('an unreadable image (a file that is not an image)', async () => {
		const invoice: InputItem = { json: { photo: 'invoice' }, binary: { data: { bytes: Buffer.from('%PDF-1.7 hello'), fileName: 'invoice.pdf', mimeType: 'application/pdf' } } };
		const { items, errorItems } = await run(detectParameters(server()), [car, invoice], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('invoice', 1, { message: 'The file in binary field "data" is not an image', description: expect.stringContaining('invoice.pdf'), code: 'invalid_image' }, { data: 'invoice.pdf' }),
		]);
		expect(server().requests).toHaveLength(1);
	});

	it('a failed read of the binary (no such binary field)', async () => {
		const noFile: InputItem = { json: { photo: 'none' }, binary: { picture: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } };
		const { items, errorItems } = await run(detectParameters(server()), [car, noFile], { onError: 'continueErrorOutput' });
		expectCarSucceededAlone(items);
		expect(errorItems).toEqual([
			failedItem('none', 1, { message: 'No binary field "data" on this item', description: expect.stringContaining('"picture"'), code: 'invalid_image' }, { picture: 'dog.jpg' }),
		]);
	});

	it('a mixed batch: the good items leave the success output in input order, each failed one the error output, each paired with its input', async () => {
		failOnDog({ type: 'status', status: 503 });
		const parameters = detectParameters(server(), {
			modelId: (index: number) => (index === 1 ? 'not-a-model' : server().models.detect),
			options: { retries: 0 },
		});
		const inputs = [photo('car 1', CAR), photo('bad id', CAR), photo('car 2', CAR), dog, photo('car 3', CAR)];
		const { items, errorItems } = await run(parameters, inputs, { onError: 'continueErrorOutput' });
		expect(items.map((item) => [item.pairedItem, item.json.fileName, typeof item.json.totalDetections])).toEqual([
			[{ item: 0 }, 'car 1.jpg', 'number'],
			[{ item: 2 }, 'car 2.jpg', 'number'],
			[{ item: 4 }, 'car 3.jpg', 'number'],
		]);
		expect(errorItems).toEqual([
			failedItem('bad id', 1, { message: expect.stringMatching(/Model ID "not-a-model" is not a UUID/), code: 'invalid_parameter' }),
			failedItem('dog', 3, { message: 'The service failed (503 Service Unavailable)', status: 503, code: 'server_error', attempts: 1 }),
		]);
	});

	it('with Continue (using regular output) the error items stay in the one output, in their places, in the same shape: error one object beside the input\'s fields, the input\'s file kept', async () => {
		failOnDog({ type: 'status', status: 503 });
		const parameters = detectParameters(server(), { options: { retries: 0 } });
		const { items, errorItems } = await run(parameters, [car, dog, photo('car 2', CAR)], { onError: 'continueRegularOutput' });
		expect(errorItems).toEqual([]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1]).toEqual(failedItem('dog', 1, { message: 'The service failed (503 Service Unavailable)', description: 'The service gave no reason.', status: 503, code: 'server_error', attempts: 1 }));
		expect([items[0].json.fileName, items[2].json.fileName]).toEqual(['car.jpg', 'car 2.jpg']);
	});
});

/**
 * A failed item's `code` tells a workflow what to do next: `invalid_image` (ask for another file),
 * `invalid_parameter` (the workflow is set up wrong), or the service's or the network's code.
 */
describe('the code of a refusal before any request', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const file = (bytes: Buffer, fileName: string, mimeType?: string): InputItem => ({ json: {}, binary: { data: { bytes, fileName, ...(mimeType ? { mimeType } : {}) } } });
	const PDF = Buffer.from('%PDF-1.7 hello');

	it.each([
		['a PDF', {}, file(PDF, 'invoice.pdf', 'application/pdf')],
		['an empty file', {}, file(Buffer.alloc(0), 'empty.jpg', 'image/jpeg')],
		['a HEIC photo', {}, file(fixture('car-64x36.heic'), 'IMG_0001.HEIC', 'image/heic')],
		['no such binary field', { binaryPropertyName: 'photo' }, file(CAR, 'car.jpg', 'image/jpeg')],
		['All Images on the Item, none an image', { imageSource: 'allImages' }, file(PDF, 'invoice.pdf', 'application/pdf')],
		['Base64 that is not base64', { imageSource: 'base64', imageBase64: '%%%' }, { json: {} }],
		['Base64 of a text', { imageSource: 'base64', imageBase64: Buffer.from('hello').toString('base64') }, { json: {} }],
		['Base64 of a HEIC photo', { imageSource: 'base64', imageBase64: fixture('car-64x36.heic').toString('base64') }, { json: {} }],
		['an ftp:// Image URL', { imageSource: 'url', imageUrl: 'ftp://example.com/car.jpg' }, { json: {} }],
		['Binary File Reference that is a text', { imageSource: 'binaryExpression', imageBinary: 'data' }, { json: {} }],
	])('%s: invalid_image', async (_case, parameters, item) => {
		const { items } = await run(detectParameters(server(), parameters), [item], { onError: 'continueRegularOutput' });
		expect(items.map((output) => (output.json.error as { code: unknown }).code)).toEqual(['invalid_image']);
		expect(server().requests).toHaveLength(0);
	});

	it.each([
		['the example’s placeholder Model ID', { modelId: 'REPLACE_WITH_YOUR_DETECTION_MODEL_ID' }],
		['an option out of range', { options: { confidence: 1.5 } }],
		['an empty Input Binary Field', { binaryPropertyName: ' ' }],
		['a zone that is not a polygon', { options: { zones: { zone: [{ name: 'door', points: '0,0 1,1' }] } } }],
	])('%s: invalid_parameter', async (_case, parameters) => {
		const { items } = await run(detectParameters(server(), parameters), [file(CAR, 'car.jpg', 'image/jpeg')], { onError: 'continueRegularOutput' });
		expect(items.map((output) => (output.json.error as { code: unknown }).code)).toEqual(['invalid_parameter']);
		expect(server().requests).toHaveLength(0);
	});
});
