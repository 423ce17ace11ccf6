import type { IExecuteFunctions } from 'n8n-workflow';

import { annotationsFor, readAnnotations } from '../../nodes/ImageInference/actions/upload/annotations';
import type { GivenBox } from '../../nodes/ImageInference/actions/upload/annotations';
import type { ImageSize } from '../../nodes/ImageInference/input/imageSize';

const fail = (message: string): never => {
	throw new Error(message);
};

describe('annotations for an upload, in the stored pixels of the uploaded image', () => {
	it('turns a relativeBox of a photo stored sideways (Exif 6) back into its stored pixels', () => {
		// stored 400 × 300, shown turned a quarter clockwise: 300 × 400 as people see it
		const [{ annotation }] = annotationsFor(
			{ source: 'detections', boxes: [{ label: 'car', relative: { x: 0.1, y: 0.2, width: 0.3, height: 0.25 } }] },
			{ width: 400, height: 300, orientation: 6 },
			fail,
		);
		// upright pixels (30, 80, 90 × 100); stored: x = 80, y = 300 − 30 − 90 = 180, 100 × 90
		expect(annotation).toEqual({ category: 'bounding_box', left: 80, top: 180, width: 100, height: 90, metadata: { image: { width: 400, height: 300 } } });
	});

	it('turns a relativeBox of a photo stored the other way (Exif 8) back', () => {
		const [{ annotation }] = annotationsFor(
			{ source: 'detections', boxes: [{ label: 'car', relative: { x: 0.1, y: 0.2, width: 0.3, height: 0.25 } }] },
			{ width: 400, height: 300, orientation: 8 },
			fail,
		);
		// upright (30, 80, 90 × 100) in 300 × 400; shown turned anticlockwise: stored x = 400 − 80 − 100 = 220, y = 30
		expect(annotation).toMatchObject({ left: 220, top: 30, width: 100, height: 90 });
	});

	it('takes pixel boxes as given and a label as one category annotation', () => {
		expect(annotationsFor({ source: 'classificationLabel', label: 'ok' }, { width: 10, height: 20 }, fail)).toEqual([
			{ label: 'ok', annotation: { category: 'category', metadata: { image: { width: 10, height: 20 } } } },
		]);
		expect(annotationsFor({ source: 'none' }, { width: 10, height: 20 }, fail)).toEqual([]);
	});

	it.each([
		[{ x: -0.6, y: 0, width: 5, height: 5 }],
		[{ x: 0, y: -0.6, width: 5, height: 5 }],
		[{ x: 5.6, y: 0, width: 5, height: 5 }],
		[{ x: 0, y: 15.6, width: 5, height: 5 }],
	])('refuses a box more than half a pixel past an edge: %o', (pixels) => {
		expect(() => annotationsFor({ source: 'detections', boxes: [{ label: 'a', pixels }] }, { width: 10, height: 20 }, fail)).toThrow(/is outside the image \(10 × 20 pixels\)/);
	});

	it('takes a box up to half a pixel past each edge, clipped', () => {
		const [{ annotation }] = annotationsFor({ source: 'detections', boxes: [{ label: 'a', pixels: { x: -0.5, y: -0.5, width: 11, height: 21 } }] }, { width: 10, height: 20 }, fail);
		expect(annotation).toMatchObject({ left: 0, top: 0, width: 10, height: 20 });
	});
});

/**
 * Detect Objects' x, y, width, height are in the pixels the service detected on, its relativeBox
 * in the picture as people see it. A phone photo stored sideways (Exif 6): 480 × 320 stored,
 * shown turned a quarter clockwise, 320 × 480 as people see it.
 */
describe('boxes given with both their pixels and their relativeBox, as Detect Objects gives them', () => {
	const SIDEWAYS = { width: 480, height: 320, orientation: 6 };
	const boxOf = (given: Omit<GivenBox, 'label'>, size: ImageSize = SIDEWAYS) => {
		const [{ annotation }] = annotationsFor({ source: 'detections', boxes: [{ label: 'car', ...given }] }, size, fail);
		return annotation as { left: number; top: number; width: number; height: number };
	};

	it('the service turned the photo before detecting (its annotated picture came back upright): the pixels are upright, turned back into the stored ones', () => {
		// upright x 20, y 30, 60 × 40 of 320 × 480: relativeBox 20/320, 30/480, 60/320, 40/480 rounded to 4 places
		const given = { pixels: { x: 20, y: 30, width: 60, height: 40 }, relative: { x: 0.0625, y: 0.0625, width: 0.1875, height: 0.0833 } };
		// shown turned clockwise, so stored: left = upright y = 30; top = 320 − (20 + 60) = 240; 40 × 60
		expect(boxOf(given)).toEqual({ category: 'bounding_box', left: 30, top: 240, width: 40, height: 60, metadata: { image: { width: 480, height: 320 } } });
	});

	it('the service detected on the stored pixels: they are taken as they are', () => {
		// stored x 250, y 20, 40 × 60; upright: x = 320 − 20 − 60 = 240, y = 250, 60 × 40: 0.75, 250/480, 0.1875, 40/480
		const given = { pixels: { x: 250, y: 20, width: 40, height: 60 }, relative: { x: 0.75, y: 0.5208, width: 0.1875, height: 0.0833 } };
		expect(boxOf(given)).toMatchObject({ left: 250, top: 20, width: 40, height: 60 });
	});

	const refusalOf = (given: Omit<GivenBox, 'label'>, size: ImageSize) => {
		const failures: Array<[string, string]> = [];
		const record = (message: string, description: string): never => {
			failures.push([message, description]);
			throw new Error(message);
		};
		expect(() => annotationsFor({ source: 'detections', boxes: [{ label: 'car', relative: { x: 0, y: 0, width: 0.01, height: 0.01 } }, { label: 'car', ...given }] }, size, record)).toThrow();
		return failures[0];
	};
	const WHAT_TO_DO =
		'If you edited x, y, width or height, remove relativeBox or update it to match. If the image was resized after Detect Objects, remove x, y, width and height so that relativeBox is used.';

	it('pixels that give the relativeBox in neither frame (the image resized after Detect Objects) fail the item, naming both boxes and what to do', () => {
		// the same photo at half size, 240 × 160 stored, 160 × 240 as people see it; Detect’s upright pixels of the full size
		const given = { pixels: { x: 20, y: 30, width: 60, height: 40 }, relative: { x: 0.0625, y: 0.0625, width: 0.1875, height: 0.0833 } };
		// relativeBox in 160 × 240: x 10, y 15, 30 × 19.992
		expect(refusalOf(given, { width: 240, height: 160, orientation: 6 })).toEqual([
			'Detection 1’s x, y, width, height (x 20, y 30, 60 × 40) and its relativeBox (x 0.0625, y 0.0625, 0.1875 × 0.0833: x 10, y 15, 30 × 20 of the 160 × 240 picture) are not the same box',
			WHAT_TO_DO,
		]);
	});

	it('pixels edited after Detect Objects (padded in Edit Fields, relativeBox kept) fail the item rather than being dropped for the relativeBox', () => {
		// Detect’s box 100, 100, 50 × 50 of an upright 640 × 480 photo: relativeBox 100/640, 100/480, 50/640, 50/480 to 4 places
		const detected = { x: 0.1563, y: 0.2083, width: 0.0781, height: 0.1042 };
		expect(refusalOf({ pixels: { x: 90, y: 90, width: 70, height: 70 }, relative: detected }, { width: 640, height: 480 })).toEqual([
			'Detection 1’s x, y, width, height (x 90, y 90, 70 × 70) and its relativeBox (x 0.1563, y 0.2083, 0.0781 × 0.1042: x 100, y 100, 50 × 50 of the 640 × 480 picture) are not the same box',
			WHAT_TO_DO,
		]);
		// the service’s own pixels, within a pixel of the relativeBox (100.032, 99.984, 49.984, 50.016): taken as they are
		expect(boxOf({ pixels: { x: 101, y: 100, width: 50, height: 51 }, relative: detected }, { width: 640, height: 480 })).toMatchObject({ left: 101, top: 100, width: 50, height: 51 });
	});

	it('a pixel apart in each field is the same box; more is not, in either frame', () => {
		// a relativeBox exact in pixels: 100, 120, 50 × 60 of 640 × 480
		const relative = { x: 0.15625, y: 0.25, width: 0.078125, height: 0.125 };
		const exact = { x: 100, y: 120, width: 50, height: 60 };
		for (const key of ['x', 'y', 'width', 'height'] as const) {
			for (const step of [-1, 1]) {
				const pixels = { ...exact, [key]: exact[key] + step };
				expect(boxOf({ pixels, relative }, { width: 640, height: 480 })).toMatchObject({ left: pixels.x, top: pixels.y, width: pixels.width, height: pixels.height });
				expect(refusalOf({ pixels: { ...exact, [key]: exact[key] + step * 1.01 }, relative }, { width: 640, height: 480 })[0]).toMatch(/^Detection 1’s x, y, width, height .* are not the same box$/);
			}
		}
		// the upright frame of a photo stored sideways (Exif 6, 480 × 640 stored): upright pixels a pixel off are turned back; more fail
		const sideways = { width: 480, height: 640, orientation: 6 };
		// upright 101, 120, 50 × 60 of 640 × 480; stored: left = upright y = 120, top = 640 − 101 − 50 = 489, 60 × 50
		expect(boxOf({ pixels: { ...exact, x: 101 }, relative }, sideways)).toMatchObject({ left: 120, top: 489, width: 60, height: 50 });
		expect(refusalOf({ pixels: { ...exact, x: 101.01 }, relative }, sideways)[0]).toMatch(/are not the same box$/);
	});

	it('a photo stored upright: pixels that agree with their relativeBox are taken exactly; pixels alone are the stored pixels', () => {
		expect(boxOf({ pixels: { x: 1, y: 2, width: 3, height: 4 }, relative: { x: 0.1, y: 0.1, width: 0.3, height: 0.2 } }, { width: 10, height: 20 })).toMatchObject({ left: 1, top: 2, width: 3, height: 4 });
		expect(boxOf({ pixels: { x: 250, y: 20, width: 40, height: 60 } }, { width: 480, height: 320 })).toMatchObject({ left: 250, top: 20, width: 40, height: 60 });
	});

	it('pixels alone: the stored pixels of a photo mirrored or turned half (Exif 2–4); for one turned a quarter (5–8), they may be in either picture, and the item fails', () => {
		for (const orientation of [2, 3, 4]) {
			expect(boxOf({ pixels: { x: 250, y: 20, width: 40, height: 60 } }, { width: 480, height: 320, orientation })).toMatchObject({ left: 250, top: 20, width: 40, height: 60 });
		}
		for (const orientation of [5, 6, 7, 8]) {
			expect(refusalOf({ pixels: { x: 250, y: 20, width: 40, height: 60 } }, { width: 480, height: 320, orientation })[0]).toBe(
				`Detection 1’s box (x 250, y 20, 40 × 60) comes without a relativeBox of four fractions, and the photo is stored turned a quarter (EXIF orientation ${orientation}: 480 × 320 pixels stored, 320 × 480 as people see it)`,
			);
		}
	});
});

describe('an entry’s boxes, read', () => {
	const read = (detections: unknown) => {
		const node = { id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0], parameters: {} };
		const context = { getNode: () => node, getNodeParameter: (name: string) => (name === 'annotationSource' ? 'detections' : detections) } as unknown as IExecuteFunctions;
		return readAnnotations.call(context, 0);
	};

	it('keeps both the pixels and a relativeBox of four fractions; a relativeBox null or not four fractions beside the pixels is left out', () => {
		const pixels = { x: 20, y: 30, width: 60, height: 40 };
		const relativeBox = { x: 0.0625, y: 0.0625, width: 0.1875, height: 0.0833 };
		expect(read([{ label: 'car', ...pixels, relativeBox }])).toEqual({ source: 'detections', boxes: [{ label: 'car', pixels, relative: relativeBox }] });
		expect(read([{ label: 'car', ...pixels, relativeBox: null }])).toEqual({ source: 'detections', boxes: [{ label: 'car', pixels }] });
		expect(read([{ label: 'car', ...pixels, relativeBox: { ...relativeBox, x: 1.5 } }])).toEqual({ source: 'detections', boxes: [{ label: 'car', pixels }] });
		expect(read([{ label: 'car', relativeBox }])).toEqual({ source: 'detections', boxes: [{ label: 'car', relative: relativeBox }] });
	});
});

