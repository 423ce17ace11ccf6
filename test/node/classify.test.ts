import { decodeImage } from '../reference-server/image-codec';
import { CAR, DOG, classifyParameters, dogItem, failureOf, useServer } from './setup';

describe('Classify Image', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	type Classification = { category: string; confidence: number; predictions: Array<{ category: string; confidence: number }> };

	it('returns category, confidence and predictions, and passes the input file through', async () => {
		const { items, bytes } = await run(classifyParameters(server()), [dogItem()]);
		const expected = server().predict('classify', DOG, {}) as Classification;
		const { width, height } = decodeImage(DOG);
		expect(items[0].json).toEqual({
			category: expected.category,
			confidence: expected.confidence,
			predictions: expected.predictions,
			field: 'data',
			fileName: 'dog.jpg',
			imageWidth: width,
			imageHeight: height,
		});
		expect(bytes(items[0], 'data').equals(DOG)).toBe(true);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(server().requests[0].path).toBe(`/predict/classify/${server().models.classify}/`);
		expect(server().requests[0].body).toEqual({ image: DOG.toString('base64') });
	});

	it('tells a dog from a car', async () => {
		const { items } = await run(classifyParameters(server()), [dogItem(), { binary: { data: { bytes: CAR, fileName: 'car.jpg' } } }]);
		expect(items[0].json.category).not.toBe(items[1].json.category);
	});

	it('sends the confidence threshold, 0 included', async () => {
		await run(classifyParameters(server(), { options: { confidence: 0 } }), [dogItem()]);
		expect(server().requests[0].body).toEqual({ image: DOG.toString('base64'), confidence: 0 });
	});

	it('classifies by URL and by base64 the same as by file', async () => {
		const byFile = (await run(classifyParameters(server()), [dogItem()])).items[0].json;
		const url = server().hostImage(DOG, 'image/jpeg');
		const byUrl = (await run(classifyParameters(server(), { imageSource: 'url', imageUrl: url }), [{ json: {} }])).items[0].json;
		const byBase64 = (
			await run(classifyParameters(server(), { imageSource: 'base64', imageBase64: DOG.toString('base64') }), [{ json: {} }])
		).items[0].json;
		const result = ({ category, confidence, predictions }: typeof byFile) => ({ category, confidence, predictions });
		expect(result(byUrl)).toEqual(result(byFile));
		expect(result(byBase64)).toEqual(result(byFile));
		// a URL gives the node no bytes to measure; base64 does
		expect(byUrl).toMatchObject({ imageWidth: null, imageHeight: null });
		expect(byUrl.field).toBeUndefined();
		expect(byBase64).toMatchObject({ fileName: 'image', imageWidth: byFile.imageWidth, imageHeight: byFile.imageHeight });
	});

	it('adds no file to an item whose image came as a URL or as base64, and keeps the files it had', async () => {
		const url = server().hostImage(DOG, 'image/jpeg');
		const note = { bytes: Buffer.from('delivery note'), fileName: 'note.txt', mimeType: 'text/plain' };
		const { items: byUrl } = await run(classifyParameters(server(), { imageSource: 'url', imageUrl: url }), [{ json: {} }]);
		const { items: byBase64 } = await run(classifyParameters(server(), { imageSource: 'base64', imageBase64: DOG.toString('base64') }), [
			{ json: {}, binary: { note } },
		]);
		expect(byUrl[0].binary).toBeUndefined();
		expect(Object.keys(byBase64[0].binary ?? {})).toEqual(['note']);
	});

	it('gives no hint when the model names a category', async () => {
		const { items, hints } = await run(classifyParameters(server()), [dogItem()]);
		expect((items[0].json.predictions as unknown[]).length).toBeGreaterThan(0);
		expect(hints).toEqual([]);
	});

	it('refuses a Confidence Threshold out of range by its name, before any request', async () => {
		const failure = await failureOf(run(classifyParameters(server(), { options: { confidence: 1.5 } }), [dogItem()]));
		expect(failure.message).toBe('Confidence Threshold must be a number from 0 to 1, got 1.5');
		expect(failure.itemIndex).toBe(0);
		expect(server().requests).toHaveLength(0);
	});
});
