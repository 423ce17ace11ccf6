/**
 * The hint of objects left out by the node's steps says what the annotated image shows: the
 * objects kept when the node drew it for every item the hint names, every object the service drew
 * otherwise (the service's picture, also one the node fell back on).
 */
import { ExecutionHints } from '../../nodes/ImageInference/output/executionHints';

const plan = (itemIndex: number) => ({ itemIndex, position: 0, image: { fileName: `${itemIndex}.jpg` } });
const BY_NODE = '. Counts, summary and the annotated image (drawn by the node) are of the objects kept.';
const BY_SERVICE = '. Counts and summary are of the objects kept; the annotated image still shows every object the service drew.';

function filteredHint(...images: Array<{ item: number; drawnByNode?: boolean }>): string {
	const hints = new ExecutionHints('header');
	for (const { item, drawnByNode } of images) {
		if (drawnByNode === undefined) hints.leftOut(plan(item), 4, { maxObjects: 1 });
		else hints.leftOut(plan(item), 4, { maxObjects: 1 }, drawnByNode);
	}
	const messages = hints.list().map((hint) => hint.message);
	expect(messages).toHaveLength(1);
	return messages[0];
}

describe('what the left-out objects hint says of the annotated image', () => {
	it('drawn by the node for every item: the picture is of the objects kept', () => {
		expect(filteredHint({ item: 0, drawnByNode: true }, { item: 2, drawnByNode: true })).toBe(`Max Objects left out 2 of the 8 objects the service found (items 0 and 2)${BY_NODE}`);
	});

	it('drawn by the service for one of the items: the picture still shows every object', () => {
		expect(filteredHint({ item: 0, drawnByNode: true }, { item: 1, drawnByNode: false })).toBe(`Max Objects left out 2 of the 8 objects the service found (items 0 and 1)${BY_SERVICE}`);
		expect(filteredHint({ item: 0, drawnByNode: false }, { item: 1, drawnByNode: true })).toBe(`Max Objects left out 2 of the 8 objects the service found (items 0 and 1)${BY_SERVICE}`);
	});

	it('not said who drew it: the service', () => {
		expect(filteredHint({ item: 3 })).toBe(`Max Objects left out 1 of the 4 objects the service found (item 3)${BY_SERVICE}`);
	});

	it('nothing left out: no hint, whoever drew the picture', () => {
		for (const drawnByNode of [true, false]) {
			const hints = new ExecutionHints('header');
			hints.leftOut(plan(0), 4, { maxObjects: 0, onlyLabels: 0 }, drawnByNode);
			expect(hints.list()).toEqual([]);
		}
	});

	it('one step of several left out objects: a hint naming that step alone', () => {
		const hints = new ExecutionHints('header');
		hints.leftOut(plan(0), 4, { maxObjects: 0, onlyLabels: 3 }, true);
		expect(hints.list().map((hint) => hint.message)).toEqual([`Only These Labels left out 3 of the 4 objects the service found (item 0)${BY_NODE}`]);
	});
});
