/**
 * Options that hold no expression are the same for every item: the node reads them once per run
 * (n8n copies the whole collection, zones and all, on each read). An option set by an expression,
 * at any depth of the collection, is read for each item.
 */
import type { IDataObject } from 'n8n-workflow';

import { carItem, detectParameters, useServer } from './setup';

describe('Options read once per run, or per item when an expression sets one', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const items = [carItem(), carItem(), carItem()];
	const keysOf = (outputs: Array<{ json: IDataObject }>) => outputs.map((item) => (item.json.comparison as IDataObject).key);

	it('fixed options: one read for three items, each item with the same options', async () => {
		const options = { compareWithPreviousLook: true, watchKey: 'gate', confidence: 0.4, concurrency: 2 };
		const { items: outputs, parameterReads } = await run(detectParameters(server(), { options }), items);
		expect(parameterReads.options).toBe(1);
		expect(keysOf(outputs)).toEqual(['gate', 'gate', 'gate']);
		expect(server().requests.map((request) => (request.body as IDataObject).confidence)).toEqual([0.4, 0.4, 0.4]);
	});

	it('an option set by an expression: each item reads its own value', async () => {
		const options = { compareWithPreviousLook: true, watchKey: (itemIndex: number) => `camera ${itemIndex}` };
		const { items: outputs, parameterReads } = await run(detectParameters(server(), { options }), items);
		expect(keysOf(outputs)).toEqual(['camera 0', 'camera 1', 'camera 2']);
		expect(parameterReads.options).toBeGreaterThanOrEqual(3);
	});

	it('an expression inside a list of the collection (a zone’s points) is read for each item', async () => {
		const zone = (itemIndex: number) => (itemIndex === 1 ? '0,0 1,0 1,1 0,1' : '0,0 0.01,0 0.01,0.01 0,0.01');
		const options = { onlyInZones: true, zones: { zone: [{ name: 'lot', points: zone }] } };
		const { items: outputs } = await run(detectParameters(server(), { options }), items);
		const kept = outputs.map((item) => (item.json.detections as IDataObject[]).length);
		expect(kept[0]).toBe(0);
		expect(kept[1]).toBeGreaterThan(0);
		expect(kept[2]).toBe(0);
	});

});
