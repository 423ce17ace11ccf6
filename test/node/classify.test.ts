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

	describe('Minimum Confidence per Label', () => {
		const answer = (category: string, confidence: number, predictions: Array<[string, number]>) => ({
			action: { type: 'status' as const, status: 200, body: { category, confidence, predictions: predictions.map(([name, value]) => ({ category: name, confidence: value })) } },
			times: 1,
		});
		const withMinimums = (minConfidenceByLabel: string) => classifyParameters(server(), { options: { minConfidenceByLabel, concurrency: 1 } });

		it('leaves out the predictions under their minimum and keeps the service’s category when it meets its own', async () => {
			server().addFault(answer('defect', 0.9, [['defect', 0.9], ['scratch', 0.35], ['ok', 0.05]]));
			const { items, hints } = await run(withMinimums('defect: 0.8, *: 0.3'), [dogItem()]);
			expect(items[0].json).toMatchObject({ category: 'defect', confidence: 0.9, predictions: [{ category: 'defect', confidence: 0.9 }, { category: 'scratch', confidence: 0.35 }] });
			expect(hints.map((hint) => hint.message)).toEqual(['Minimum Confidence per Label left out 1 of the 3 predictions the service gave (item 0).']);
			// of two equally confident predictions, the service's pick stays
			server().addFault(answer('scratch', 0.5, [['ok', 0.5], ['scratch', 0.5]]));
			const tie = await run(withMinimums('*: 0.3'), [dogItem()]);
			expect(tie.items[0].json).toMatchObject({ category: 'scratch', confidence: 0.5 });
		});

		it('a minimum is met at exactly its value, and a label not named has none without *', async () => {
			server().addFault(answer('defect', 0.8, [['defect', 0.8], ['ok', 0.01]]));
			const { items, hints } = await run(withMinimums('defect: 0.8'), [dogItem()]);
			expect(items[0].json).toMatchObject({ category: 'defect', confidence: 0.8, predictions: [{ category: 'defect', confidence: 0.8 }, { category: 'ok', confidence: 0.01 }] });
			expect(hints).toEqual([]);
		});

		it('a category under its minimum gives way to the most confident prediction kept, the first of equals; none kept gives null', async () => {
			server().addFault(answer('defect', 0.6, [['defect', 0.6], ['ok', 0.3], ['scratch', 0.3], ['dent', 0.1]]));
			server().addFault(answer('defect', 0.6, [['defect', 0.6], ['ok', 0.3]]));
			server().addFault(answer('defect', 0.95, [['defect', 0.95], ['ok', 0.05]]));
			const { items, hints } = await run(withMinimums('defect: 0.9, *: 0.2'), [dogItem(), dogItem(), dogItem()]);
			expect(items.map((item) => [item.json.category, item.json.confidence, item.json.predictions])).toEqual([
				['ok', 0.3, [{ category: 'ok', confidence: 0.3 }, { category: 'scratch', confidence: 0.3 }]],
				['ok', 0.3, [{ category: 'ok', confidence: 0.3 }]],
				['defect', 0.95, [{ category: 'defect', confidence: 0.95 }]],
			]);
			server().addFault(answer('defect', 0.6, [['defect', 0.6], ['ok', 0.1]]));
			server().addFault({ action: { type: 'status', status: 200, body: { category: 'defect', confidence: 0.6 } }, times: 1 });
			const unsure = await run(withMinimums('defect: 0.9, *: 0.2'), [dogItem(), dogItem()]);
			expect(unsure.items.map((item) => [item.json.category, item.json.confidence, item.json.predictions])).toEqual([
				[null, null, []],
				[null, null, []],
			]);
			expect([...hints, ...unsure.hints].map((hint) => hint.message)).toEqual([
				"Minimum Confidence per Label left out 4 of the 8 predictions the service gave (items 0, 1 and 2); the service's category was under its minimum, so the category is the most confident prediction kept (items 0 and 1).",
				"Minimum Confidence per Label left out 3 of the 3 predictions the service gave (items 0 and 1); no prediction met its minimum, so category and confidence are null (items 0 and 1).",
			]);
		});

		it('refuses a minimum it cannot read by the option’s name and the item, before any request', async () => {
			const failure = await failureOf(run(withMinimums('defect 0.8'), [dogItem()]));
			expect(failure.message).toBe('Minimum Confidence per Label: "defect 0.8" is not label: minimum');
			expect(failure.itemIndex).toBe(0);
			const outOfRange = await failureOf(run(withMinimums('defect: 1.5'), [dogItem()]));
			expect(outOfRange.message).toBe('Minimum Confidence per Label: the minimum for "defect" must be a number from 0 to 1, got "1.5"');
			expect(server().requests).toHaveLength(0);
		});
	});
});
