/**
 * Every payload in test/fixtures/service-shapes (the official SDKs' test mocks and the docs' examples;
 * INDEX.json gives each one's source) served to the node and read by its real reader: the HTTP
 * answer streamed through the transport, the image lifted out, the result checked and shaped.
 */
import { EMPTY_CLASSIFY, RETRY_5XX, body, errors, index, payload, successes } from '../harness/serviceShapes';
import { carItem, classifyParameters, detectParameters, failureOf, useServer, asServiceSent, failureIn } from './setup';

describe('the shapes the official SDKs and docs show, read by the node', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const parameters = (operation: 'detect' | 'classify', options: object = {}) =>
		(operation === 'detect' ? detectParameters : classifyParameters)(server(), { options: { retries: 2, ...options } });

	it('every file in the folder is covered here', () => {
		const covered = [...Object.keys(successes), EMPTY_CLASSIFY, ...errors.map(([file]) => file), RETRY_5XX];
		expect(index.files.map((f) => f.file).sort()).toEqual(covered.sort());
	});

	it.each(Object.entries(successes))('%s', async (file, { operation, expected, picture }) => {
		server().addFault({ match: { kind: operation }, action: { type: 'status', status: 200, body: body(file) } });
		const { items } = await run(parameters(operation, operation === 'detect' ? { annotatedImageField: 'annotated' } : {}), [carItem()]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject(expected);
		if (operation === 'detect') expect(asServiceSent(items[0].json.detections)).toEqual(JSON.parse(payload(file)).detections);
		if (picture === 'none') {
			expect(items[0].binary?.annotated).toBeUndefined();
		}
		if (picture === 'jpeg') expect(items[0].binary?.annotated.mimeType).toBe('image/jpeg');
		expect(server().requests).toHaveLength(1);
	});

	it('ts-sdk.classify.200.empty.json ({}): an invalid answer naming the missing fields, category and confidence', async () => {
		server().addFault({ match: { kind: 'classify' }, action: { type: 'status', status: 200, body: body(EMPTY_CLASSIFY) } });
		const failure = await failureOf(run(parameters('classify', { retries: 0 }), [carItem()]));
		expect(`${failure.message} ${failure.description}`).toMatch(/category: Required.*confidence: Required/);
	});

	it.each(errors)('%s: a 400 the user reads, sent once', async (file, status, text) => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status, body: body(file) } });
		const { items } = await run(parameters('detect'), [carItem()], { continueOnFail: true });
		expect(failureIn(items[0])).toMatchObject({ status, attempts: 1 });
		expect(`${failureIn(items[0])?.message} ${failureIn(items[0])?.description}`).toContain(text);
		expect(server().requests).toHaveLength(1);
	});

	it.each([502, 503, 504])('py-sdk.error.5xx-retry.json as %d: retried as the SDK does, then reported', async (status) => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status, body: body(RETRY_5XX) } });
		const { items } = await run(parameters('detect', { retries: 2 }), [carItem()], { continueOnFail: true });
		expect(failureIn(items[0])).toMatchObject({ status, attempts: 3 });
		expect(server().requests).toHaveLength(3);
	});

	it('the reference server answering sparsely: the node gives what it gives for the full answers', async () => {
		const full = {
			detect: (await run(parameters('detect', { annotatedImageField: 'annotated' }), [carItem()])).items,
			classify: (await run(parameters('classify'), [carItem()])).items,
		};
		server().setAnswerShape('sparse');
		try {
			const detect = (await run(parameters('detect', { annotatedImageField: 'annotated' }), [carItem()])).items;
			const classify = (await run(parameters('classify'), [carItem()])).items;
			expect(jsonWithoutIds(detect)).toEqual(jsonWithoutIds(full.detect));
			expect(detect[0].binary?.annotated.fileSize).toBe(full.detect[0].binary?.annotated.fileSize);
			// no predictions in the answer: the one category given is the one prediction
			const { category, confidence } = full.classify[0].json;
			expect(classify[0].json).toEqual({ ...full.classify[0].json, predictions: [{ category, confidence }] });
			expect(server().requests.filter((r) => r.status === 200)).toHaveLength(4);
		} finally {
			server().setAnswerShape('full');
		}
	});
});

const jsonWithoutIds = (items: Array<{ json: object }>) => items.map((item) => item.json);
