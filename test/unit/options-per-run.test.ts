/**
 * readOptions: options that hold no expression are the same for every item, so they are read once
 * per run (n8n copies the whole collection on each read) and shared, frozen; an option set by an
 * expression, at any depth of the collection, is read for each item. The context plays n8n's part:
 * the node's stored parameters, and getNodeParameter resolving each expression for the item.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readOptions } from '../../nodes/ImageInference/parameters/readers';
import { readDetectionOptions } from '../../nodes/ImageInference/pipeline/steps';

/** `stored` as the workflow holds it; `resolved(itemIndex)` what n8n's getNodeParameter gives for the item. */
function contextOf(stored: unknown, resolved: (itemIndex: number) => unknown) {
	const reads: number[] = [];
	const node = { id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0], parameters: { options: stored } };
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, itemIndex: number, fallback: unknown) => {
			if (name !== 'options') throw new Error(`unexpected parameter ${name}`);
			reads.push(itemIndex);
			return resolved(itemIndex) ?? fallback;
		},
	} as unknown as IExecuteFunctions;
	return { context, reads };
}

describe('Options read once per run, or per item when an expression sets one', () => {
	it('fixed options: read at the first item asked, the same frozen object for every item after', () => {
		const stored = { watchKey: 'gate', zones: { zone: [{ name: 'lot', points: '0,0 1,0 1,1' }] } };
		const { context, reads } = contextOf(stored, () => structuredClone(stored));
		const first = readOptions.call(context, 2);
		expect([0, 1, 3].map((itemIndex) => readOptions.call(context, itemIndex))).toEqual([first, first, first]);
		expect(readOptions.call(context, 0)).toBe(first);
		expect(reads).toEqual([2]);
		expect(first).toEqual(stored);
		expect(Object.isFrozen(first)).toBe(true);
	});

	it('no options set: the same empty options for every item, read once', () => {
		const { context, reads } = contextOf(undefined, () => undefined);
		expect(readOptions.call(context, 0)).toEqual({});
		expect(readOptions.call(context, 1)).toBe(readOptions.call(context, 0));
		expect(reads).toEqual([0]);
	});

	it('options that are not an object read as none', () => {
		const { context } = contextOf('text', () => 'text');
		expect(readOptions.call(context, 0)).toEqual({});
	});

	it.each([
		['the whole collection', '={{ $json.options }}'],
		['one option', { watchKey: '={{ $json.camera }}' }],
		['an option in a list of the collection (a zone’s points)', { zones: { zone: [{ name: 'lot', points: '={{ $json.lot }}' }] } }],
		['a resource locator’s value', { model: { __rl: true, mode: 'id', value: '={{ $json.model }}' } }],
	])('an expression in %s: each item reads its own value', (_, stored) => {
		const { context, reads } = contextOf(stored, (itemIndex) => ({ watchKey: `camera ${itemIndex}` }));
		expect([0, 1, 2].map((itemIndex) => readOptions.call(context, itemIndex).watchKey)).toEqual(['camera 0', 'camera 1', 'camera 2']);
		expect(reads).toEqual([0, 1, 2]);
	});

	it('text that only holds an equals sign later is no expression', () => {
		const stored = { watchKey: 'a=b', minConfidenceByLabel: 'car: 0.5' };
		const { context, reads } = contextOf(stored, () => structuredClone(stored));
		readOptions.call(context, 0);
		readOptions.call(context, 1);
		expect(reads).toEqual([0]);
	});

	it('the steps’ options of items that share options are read once, and again for other options', () => {
		const { context } = contextOf(undefined, () => undefined);
		const options: IDataObject = { onlyLabels: 'car' };
		const first = readDetectionOptions.call(context, 0, options);
		// the same object (options with no expression): found without writing its JSON
		const stringify = jest.spyOn(JSON, 'stringify');
		try {
			expect(readDetectionOptions.call(context, 1, options)).toBe(first);
			expect(stringify).not.toHaveBeenCalled();
		} finally {
			stringify.mockRestore();
		}
		// other options with the same text (an expression read per item) give the same steps' options
		expect(readDetectionOptions.call(context, 2, { onlyLabels: 'car' })).toBe(first);
		const other = readDetectionOptions.call(context, 3, { onlyLabels: 'dog' });
		expect(other).not.toBe(first);
		expect(other.onlyLabels).toEqual(['dog']);
	});

	it('a node given without its stored parameters: its options are read for each item', () => {
		const reads: number[] = [];
		const context = {
			getNode: () => ({ id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0] }),
			getNodeParameter: (_name: string, itemIndex: number) => (reads.push(itemIndex), { watchKey: 'gate' }),
		} as unknown as IExecuteFunctions;
		expect([0, 1].map((itemIndex) => readOptions.call(context, itemIndex).watchKey)).toEqual(['gate', 'gate']);
		expect(reads).toEqual([0, 1]);
	});
});
