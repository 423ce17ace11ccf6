import { carItem, detectParameters, failureOf, useServer } from './setup';

/**
 * The Model parameter in its two shapes: version 1's text (an ID, an expression's value or a
 * pasted link) and version 1.1's resource locator (By ID, By URL). What counts is the model the
 * request went to, as the reference server received it, and for bad input the item error before
 * any request.
 */
describe('Model: the ID the request goes to', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const WORKSPACE = '0b7d9f3a-2c4e-4a6b-8d1f-3e5a7c9b1d2f';
	const model = () => server().models.detect;
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });
	const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });
	const sentTo = () => server().requests.map((request) => request.path);

	const detectWith = async (modelId: unknown) => {
		const { items } = await run(detectParameters(server(), { modelId }), [carItem()]);
		return items;
	};

	describe('version 1.1, the resource locator', () => {
		it('By ID: the UUID as pasted (spaces around it, capitals) reaches the service in lower case', async () => {
			const items = await detectWith(byId(` ${model().toUpperCase()}\n`));
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
			expect(items[0].json).toHaveProperty('detections');
		});

		it('By URL: the ID after models/ in the dashboard link', async () => {
			await detectWith(byUrl(`https://app.epigos.ai/models/${model()}`));
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
		});

		it('By URL: a link with the workspace UUID before the model’s sends the model’s', async () => {
			await detectWith(byUrl(`https://app.epigos.ai/workspaces/${WORKSPACE}/models/${model()}/details?tab=deploy`));
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
		});

		it.each([
			['the service’s own API link', (id: string) => `https://api.epigos.ai/predict/detect/${id}/`],
			['a query naming the model', (id: string) => `https://app.epigos.ai/deploy?model=${id}&tab=api`],
			['a query naming it id', (id: string) => `https://app.epigos.ai/deploy?project=7&id=${id}`],
			['a model version’s link: the model’s ID, not the version’s', (id: string) => `https://app.epigos.ai/models/${id}/versions/${WORKSPACE}`],
		])('By URL: %s', async (_case, link) => {
			await detectWith(byUrl(link(model())));
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
		});

		it('By ID: an expression’s value, one per item', async () => {
			const { items } = await run(
				detectParameters(server(), { modelId: (index: number) => byId(index === 0 ? model() : server().models.classify) }),
				[carItem(), carItem()],
				{ continueOnFail: true },
			);
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`, `/predict/detect/${server().models.classify}/`]);
			expect(items).toHaveLength(2);
		});

		it.each([
			['By ID, one character too many', () => byId(`${model()}X`), /^Model ID ".+X" is not a UUID$/],
			['By ID, a link', () => byId(`https://app.epigos.ai/models/${model()}`), /is not a UUID/],
			['By ID, a UUID one digit short', () => byId(model().slice(0, -1)), /is not a UUID/],
			['By ID, empty', () => byId(''), /^Model ID is empty$/],
			['By URL, one character too many after the ID', () => byUrl(`https://app.epigos.ai/models/${model()}X/details`), /^The link ".+" does not name a model ID where a link names one$/],
			['By URL, a link without models/', () => byUrl(`https://app.epigos.ai/workspaces/${model()}`), /does not name a model ID/],
			['By URL, a bare ID', () => byUrl(model()), /does not name a model ID/],
			['By URL, another prediction kind’s path', () => byUrl(`https://api.epigos.ai/predict/segment/${model()}/`), /does not name a model ID/],
		])('%s: an item error saying what a model ID looks like, and no request', async (_case, value, message) => {
			const parameters = detectParameters(server(), { modelId: (index: number) => (index === 1 ? value() : byId(model())) });
			const failure = await failureOf(run(parameters, [carItem(), carItem()]));
			expect(failure.message).toMatch(message);
			expect(failure.itemIndex).toBe(1);
			expect(failure.description).toMatch(/A model ID is a UUID: 36 characters.*like 4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f/);
			expect(server().requests).toHaveLength(0);
		});
	});

	describe('version 1, the text field saved workflows hold', () => {
		it('an exact UUID', async () => {
			await detectWith(model());
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
		});

		it('a pasted API link is read as By URL reads it', async () => {
			await detectWith(`https://api.epigos.ai/predict/detect/${model()}/`);
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
		});

		it('a pasted link with the workspace UUID first is read as By URL reads it: the model’s ID is sent', async () => {
			await detectWith(`https://app.epigos.ai/workspaces/${WORKSPACE}/models/${model()}`);
			expect(sentTo()).toEqual([`/predict/detect/${model()}/`]);
		});

		it('an expression’s value per item (as n8n resolves `={{ $json.model }}`)', async () => {
			const ids = [model(), server().models.classify];
			await run(detectParameters(server(), { modelId: (index: number) => ids[index] }), [carItem(), carItem()], { continueOnFail: true });
			expect(sentTo()).toEqual(ids.map((id) => `/predict/detect/${id}/`));
		});

		it.each([
			['a UUID with one character too many', () => `${model()}X`, /^Model ID ".+X" is not a UUID$/],
			['two UUIDs in a text that is not a model link', () => `${WORKSPACE} ${model()}`, /is not a UUID/],
			['a name', () => 'my-model', /^Model ID "my-model" is not a UUID$/],
		])('%s: an item error, no request', async (_case, value, message) => {
			const parameters = detectParameters(server(), { modelId: (index: number) => (index === 1 ? value() : model()) });
			const failure = await failureOf(run(parameters, [carItem(), carItem()]));
			expect(failure.message).toMatch(message);
			expect(failure.itemIndex).toBe(1);
			expect(failure.description).toMatch(/A model ID is a UUID/);
			expect(server().requests).toHaveLength(0);
		});
	});
});
