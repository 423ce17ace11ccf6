import { annotationsFor } from '../../nodes/ImageInference/actions/upload/annotations';

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
