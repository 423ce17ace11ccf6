/**
 * The warnings of an image that gives no output item (One Item per Object without objects, Include
 * Images Without Objects off) are said in one execution hint, per item, rather than lost.
 */
import { ExecutionHints } from '../../nodes/ImageInference/output/executionHints';

const plan = (itemIndex: number, position = 0) => ({ itemIndex, position, image: { fileName: `${itemIndex}.jpg` } });

describe('warnings without an output item', () => {
	it('none: no hint, also for an image whose warnings are empty', () => {
		const hints = new ExecutionHints('header');
		hints.warningsWithoutItem(plan(0), []);
		expect(hints.list()).toEqual([]);
	});

	it('two images: one hint naming each item with its warnings, in item order', () => {
		const hints = new ExecutionHints('header');
		hints.warningsWithoutItem(plan(2), ['Second.']);
		hints.warningsWithoutItem(plan(0), ['First.', 'Then this.']);
		expect(hints.list()).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'One Item per Object gave no output item for 2 images without objects (Include Images Without Objects is off), so their warnings are given here: item 0: First. Then this.; item 2: Second.',
			},
		]);
	});
});
