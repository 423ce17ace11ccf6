/**
 * readOptions: options that hold no expression are the same for every item, so they are read once
 * per run (n8n copies the whole collection on each read) and shared, frozen; an option set by an
 * expression, at any depth of the collection, is read for each item. The context plays n8n's part:
 * the node's stored parameters, and getNodeParameter resolving each expression for the item.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { prepare } from '../../nodes/ImageInference/actions/detect/detect.operation';
import { readOptions } from '../../nodes/ImageInference/parameters/readers';
import { labelMinimums } from '../../nodes/ImageInference/pipeline/labelMinimums';
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

	it('a watch is read once for items that share options, and for each item when an expression sets them', () => {
		const watching = { compareWithPreviousLook: true, watchKey: 'gate', trackObjects: true, zones: { zone: [{ name: 'lot', points: '0,0 1,0 1,1' }] } };
		const watchesOf = (stored: unknown, resolved: (itemIndex: number) => IDataObject) => {
			const { context } = contextOf(stored, resolved);
			const run = Object.assign(Object.create(context) as IExecuteFunctions, {
				getNodeParameter: (name: string, itemIndex: number, fallback: unknown) => (name === 'options' ? resolved(itemIndex) : fallback),
				getTimezone: () => 'UTC',
			});
			return [0, 1, 2].map((itemIndex) => prepare.call(run, itemIndex, 'binary').watch);
		};
		const [first, ...others] = watchesOf(watching, () => structuredClone(watching));
		expect(first).toMatchObject({ key: 'gate', tracking: { zoned: true } });
		expect(others).toEqual([first, first]);
		expect(others[0]).toBe(first);
		expect(others[1]).toBe(first);
		const cameras = watchesOf('={{ $json.options }}', (itemIndex) => ({ ...watching, watchKey: `camera ${itemIndex}`, trackObjects: itemIndex < 2 }));
		expect(cameras.map((watch) => [watch?.key, watch?.tracking !== undefined])).toEqual([
			['camera 0', true],
			['camera 1', true],
			['camera 2', false],
		]);
		// tracking counts nothing: a look's counts are taken under the same settings with it off
		expect(cameras.map((watch) => watch?.settings === first!.settings)).toEqual([true, true, true]);
		const zonedApart = watchesOf('={{ $json.options }}', (itemIndex) => ({ ...watching, zones: { zone: [{ name: 'lot', points: itemIndex < 2 ? '0,0 1,0 1,1' : '0,0 1,0 0,1' }] } }));
		expect(zonedApart.map((watch) => watch?.settings === first!.settings)).toEqual([true, true, false]);
	});

	it('the minimums per label are made into one test per options', () => {
		let listed = 0;
		const minimums = {
			get byLabel(): Array<[string, number]> {
				listed++;
				return [['car', 0.5]];
			},
			others: 0.9,
		};
		const detections = [
			{ label: 'car', confidence: 0.6, x: 0, y: 0, width: 1, height: 1, relativeBox: null },
			{ label: 'dog', confidence: 0.6, x: 0, y: 0, width: 1, height: 1, relativeBox: null },
		];
		for (let look = 0; look < 3; look++) expect(labelMinimums.keep(detections, { zones: [] }, { labelMinimums: minimums } as never)).toEqual([detections[0]]);
		expect(listed).toBe(1);
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
