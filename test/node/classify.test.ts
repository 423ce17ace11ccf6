import { CAR, DOG, classifyParameters, dogItem, useServer } from './setup';

describe('Classify Image', () => {
	const { server, run } = useServer();
	type Classification = { category: string; confidence: number; predictions: Array<{ category: string; confidence: number }> };

	it('returns category, confidence and predictions, and passes the input file through', async () => {
		const { items, bytes } = await run(classifyParameters(server()), [dogItem()]);
		const expected = server().predict('classify', DOG, {}) as Classification;
		expect(items[0].json).toEqual({
			category: expected.category,
			confidence: expected.confidence,
			predictions: expected.predictions,
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
		expect(byUrl).toEqual(byFile);
		expect(byBase64).toEqual(byFile);
	});
});
