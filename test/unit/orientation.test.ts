import { servicePicture, unsettledOtherPicture, uprightBox, uprightSize } from '../../nodes/ImageInference/pipeline/geometry';

/**
 * The EXIF specification's words for each orientation (where the stored 0th row and 0th column
 * are seen), as the stored pixel shown at each seen pixel: the oracle the box and size are
 * checked against, cell by cell, on a small grid.
 */
const STORED_PIXEL_SEEN_AT: Record<number, (x: number, y: number, w: number, h: number) => [number, number]> = {
	1: (x, y) => [x, y], // 0th row at the top, 0th column on the left
	2: (x, y, w) => [w - 1 - x, y], // top, right
	3: (x, y, w, h) => [w - 1 - x, h - 1 - y], // bottom, right
	4: (x, y, _w, h) => [x, h - 1 - y], // bottom, left
	5: (x, y) => [y, x], // left, top
	6: (x, y, _w, h) => [y, h - 1 - x], // right, top
	7: (x, y, w, h) => [w - 1 - y, h - 1 - x], // right, bottom
	8: (x, y, w) => [w - 1 - y, x], // left, bottom
};

/** The box around the seen pixels whose stored pixel is inside `box`. */
function seenBox(box: { x: number; y: number; width: number; height: number }, stored: { width: number; height: number }, orientation: number) {
	const turned = orientation >= 5;
	const seen = { width: turned ? stored.height : stored.width, height: turned ? stored.width : stored.height };
	const xs: number[] = [];
	const ys: number[] = [];
	for (let y = 0; y < seen.height; y++) {
		for (let x = 0; x < seen.width; x++) {
			const [sx, sy] = STORED_PIXEL_SEEN_AT[orientation](x, y, stored.width, stored.height);
			if (sx >= box.x && sx < box.x + box.width && sy >= box.y && sy < box.y + box.height) {
				xs.push(x);
				ys.push(y);
			}
		}
	}
	return { seen, box: { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs) + 1, height: Math.max(...ys) - Math.min(...ys) + 1 } };
}

describe('a box in the stored pixels, where people see it', () => {
	const stored = { width: 9, height: 5 };
	const boxes = [
		{ x: 1, y: 0, width: 3, height: 2 },
		{ x: 6, y: 2, width: 3, height: 3 },
		{ x: 0, y: 0, width: 9, height: 5 },
	];

	it.each([1, 2, 3, 4, 5, 6, 7, 8])('orientation %i', (orientation) => {
		for (const box of boxes) {
			const expected = seenBox(box, stored, orientation);
			expect(uprightSize({ ...stored, orientation })).toEqual(expected.seen);
			expect(uprightBox(box, { ...stored, orientation })).toEqual(expected.box);
		}
	});

	it('no orientation is as stored', () => {
		expect(uprightSize(stored)).toEqual(stored);
		expect(uprightBox(boxes[1], stored)).toEqual(boxes[1]);
	});
});

describe('the picture the service’s boxes are in', () => {
	const sideways = { width: 676, height: 380, orientation: 6 };

	it('a sideways photo whose annotated picture comes back upright: the service turned it, its boxes are upright', () => {
		expect(servicePicture(sideways, { width: 380, height: 676 })).toEqual({ width: 380, height: 676 });
	});

	it('a sideways photo whose annotated picture is as stored, or of another size, or none: the stored pixels', () => {
		expect(servicePicture(sideways, { width: 676, height: 380 })).toEqual(sideways);
		expect(servicePicture(sideways, { width: 380, height: 380 })).toEqual(sideways);
		expect(servicePicture(sideways, { width: 676, height: 676 })).toEqual(sideways);
		expect(servicePicture(sideways, undefined)).toEqual(sideways);
	});

	it('a photo shown upside down or mirrored keeps its size either way: the stored pixels', () => {
		const upsideDown = { width: 676, height: 380, orientation: 3 };
		expect(servicePicture(upsideDown, { width: 676, height: 380 })).toEqual(upsideDown);
		expect(servicePicture({ width: 676, height: 380 }, { width: 380, height: 676 })).toEqual({ width: 676, height: 380 });
	});

	it('an image whose size the node did not read: the annotated picture’s', () => {
		expect(servicePicture(undefined, { width: 380, height: 676, orientation: 8 })).toEqual({ width: 380, height: 676, orientation: 8 });
		expect(servicePicture(undefined, undefined)).toBeUndefined();
	});
});

describe('the other picture the service’s boxes may be in, when nothing settled which (what must be hidden is hidden in both)', () => {
	const stored = { width: 676, height: 380 };
	/** With the picture the service was asked to draw (or none), the boxes taken to be where servicePicture puts them. */
	const otherPicture = (sent: typeof stored & { orientation?: number }, asked?: { width: number; height: number; orientation?: number }) =>
		unsettledOtherPicture(sent, servicePicture(sent, asked), asked);

	it('a photo shown as stored, or whose size the node did not read: none', () => {
		expect(otherPicture(stored)).toBeUndefined();
		expect(otherPicture({ ...stored, orientation: 1 })).toBeUndefined();
		expect(unsettledOtherPicture(undefined, { width: 380, height: 676 }, { width: 380, height: 676 })).toBeUndefined();
	});

	it.each([5, 6, 7, 8])('a quarter turn (orientation %i) settled by the picture the service was asked to draw, upright or as stored: none', (orientation) => {
		expect(otherPicture({ ...stored, orientation }, { width: 380, height: 676 })).toBeUndefined();
		expect(otherPicture({ ...stored, orientation }, { width: 676, height: 380 })).toBeUndefined();
	});

	it.each([5, 6, 7, 8])('a quarter turn (orientation %i) with no picture asked for, one of another size, or one tagged turned itself: the upright picture', (orientation) => {
		expect(otherPicture({ ...stored, orientation })).toEqual({ width: 380, height: 676 });
		expect(otherPicture({ ...stored, orientation }, { width: 380, height: 380 })).toEqual({ width: 380, height: 676 });
		expect(otherPicture({ ...stored, orientation }, { width: 676, height: 676 })).toEqual({ width: 380, height: 676 });
		expect(otherPicture({ ...stored, orientation }, { width: 676, height: 380, orientation })).toEqual({ width: 380, height: 676 });
	});

	it('a picture sent unasked settles nothing: the boxes taken to be upright by its size are hidden in the stored pixels too', () => {
		const sideways = { ...stored, orientation: 6 };
		const unasked = { width: 380, height: 676 };
		expect(unsettledOtherPicture(sideways, servicePicture(sideways, unasked), undefined)).toEqual(sideways);
		expect(unsettledOtherPicture(sideways, servicePicture(sideways, { width: 676, height: 380 }), undefined)).toEqual({ width: 380, height: 676 });
	});

	it('a square photo turned a quarter, whose picture is taken to come back upright: the stored pixels; with no picture, the upright one', () => {
		const square = { width: 500, height: 500, orientation: 6 };
		expect(servicePicture(square, { width: 500, height: 500 })).toEqual({ width: 500, height: 500 });
		expect(otherPicture(square, { width: 500, height: 500 })).toEqual(square);
		expect(otherPicture(square)).toEqual({ width: 500, height: 500 });
	});

	it.each([2, 3, 4])('a mirror or half turn (orientation %i) keeps its size either way: the upright picture, whatever the service’s', (orientation) => {
		expect(otherPicture({ ...stored, orientation }, { width: 676, height: 380 })).toEqual(stored);
		expect(otherPicture({ ...stored, orientation })).toEqual(stored);
	});
});
