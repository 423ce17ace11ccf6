import type { IDataObject } from 'n8n-workflow';

import { anchorPoint, areaFraction, boundedPolygon, edgesCross, inAngleOrder, insideBoundedPolygon, insidePolygon, polygonArea, relativeBox, toPixels } from '../../nodes/ImageInference/pipeline/geometry';
import type { Point } from '../../nodes/ImageInference/pipeline/geometry';
import type { DetectedObject } from '../../nodes/ImageInference/contract';
import { countDetections } from '../../nodes/ImageInference/pipeline/counts';
import type { Size } from '../../nodes/ImageInference/pipeline/geometry';
import type { ZoneAndSizeOptions, ZoneRules } from '../../nodes/ImageInference/pipeline/types';
import { ignoreRegions } from '../../nodes/ImageInference/pipeline/ignoreRegions';
import { checkSizeKnowable, imageFacts, parsePoints, placeDetection, readZoneAndSizeOptions, zonesAndSizes } from '../../nodes/ImageInference/pipeline/zones';
import { failureOf, readerContext } from '../node/setup';

/** The detections placed (relative box, zones) for these options and image size. */
function placeDetections(options: ZoneAndSizeOptions, size: Size | undefined, detections: DetectedObject[]) {
	const image = imageFacts(options, size);
	return { image, placed: detections.map((detection) => placeDetection(detection, image, options.anchor)) };
}

/** The detections the zone and size step keeps, as they came in. */
function keptBy(options: ZoneAndSizeOptions, size: Size | undefined, detections: DetectedObject[]): DetectedObject[] {
	const { image, placed } = placeDetections(options, size, detections);
	const kept = new Set(zonesAndSizes.keep(placed, image, { zonesAndSizes: options }));
	return detections.filter((_, index) => kept.has(placed[index]));
}

const square: Point[] = [
	[0, 0],
	[10, 0],
	[10, 10],
	[0, 10],
];
/** An L: the square 0–10 with its top-right quarter (x 5–10, y 0–5) cut away. */
const ell: Point[] = [
	[0, 0],
	[5, 0],
	[5, 5],
	[10, 5],
	[10, 10],
	[0, 10],
];

describe('point in polygon', () => {
	/** Relative points scaled to a 676 × 380 picture: 0.1 × 676 is 67.60000000000001. */
	const scaledZone = toPixels(
		[
			[0.1, 0.1],
			[0.7, 0.1],
			[0.7, 0.9],
		],
		{ width: 676, height: 380 },
	);
	/** A slanted zone on a 24-megapixel photo: coordinates in the thousands. */
	const photoZone = toPixels(
		[
			[0.1, 0.1],
			[0.7, 0.13],
			[0.93, 0.9],
			[0.2, 0.77],
		],
		{ width: 6000, height: 4000 },
	);

	it('finds points inside and outside a square', () => {
		expect(insidePolygon([5, 5], square)).toBe(true);
		expect(insidePolygon([11, 5], square)).toBe(false);
		expect(insidePolygon([5, -0.1], square)).toBe(false);
	});

	it('counts a point on an edge or a corner as inside, whichever way the polygon is walked', () => {
		for (const polygon of [square, [...square].reverse()]) {
			expect(insidePolygon([10, 5], polygon)).toBe(true);
			expect(insidePolygon([5, 0], polygon)).toBe(true);
			expect(insidePolygon([0, 10], polygon)).toBe(true);
			expect(insidePolygon([10, 10], polygon)).toBe(true);
		}
	});

	it('a point in line with an edge but beyond its ends is outside', () => {
		for (const polygon of [square, [...square].reverse()]) {
			for (const point of [[15, 0], [-5, 0], [0, 15], [0, -5], [10, 15], [15, 10], [10.001, 5], [5, 10.001], [-0.001, 5]] as Point[]) {
				expect([point, insidePolygon(point, polygon)]).toEqual([point, false]);
			}
		}
	});

	it('slanted edges: a point on one is inside, a point just beside it is not', () => {
		const triangle: Point[] = [
			[0, 0],
			[100, 40],
			[20, 90],
		];
		for (const polygon of [triangle, [...triangle].reverse()]) {
			expect(insidePolygon([50, 20], polygon)).toBe(true);
			expect(insidePolygon([60, 65], polygon)).toBe(true);
			expect(insidePolygon([10, 45], polygon)).toBe(true);
			expect(insidePolygon([50, 19.9], polygon)).toBe(false);
			expect(insidePolygon([60.1, 65.1], polygon)).toBe(false);
			expect(insidePolygon([9.9, 45], polygon)).toBe(false);
			expect(insidePolygon([40, 40], polygon)).toBe(true);
		}
	});

	it('knows the notch of a concave polygon is outside', () => {
		expect(insidePolygon([7.5, 2.5], ell)).toBe(false);
		expect(insidePolygon([2.5, 2.5], ell)).toBe(true);
		expect(insidePolygon([7.5, 7.5], ell)).toBe(true);
		// on the notch's inner edges
		expect(insidePolygon([5, 2], ell)).toBe(true);
		expect(insidePolygon([8, 5], ell)).toBe(true);
		// level with the notch's corner, ray through a vertex
		expect(insidePolygon([2, 5], ell)).toBe(true);
		expect(insidePolygon([11, 5], ell)).toBe(false);
	});

	it('keeps a border point inside after relative points are scaled to pixels', () => {
		// 0.1 × 676 is 67.60000000000001 in floating point
		expect(insidePolygon([67.6, 38], scaledZone)).toBe(true);
		expect(insidePolygon([473.2, 200], scaledZone)).toBe(true);
		expect(insidePolygon([67, 38], scaledZone)).toBe(false);
	});

	it('on a 24-megapixel photo, every point along the slanted borders of a zone counts as inside', () => {
		// coordinates in the thousands: rounding puts some of these points a hair off the line
		const outside: Point[] = [];
		photoZone.forEach(([ax, ay], edge) => {
			const [bx, by] = photoZone[(edge + 1) % photoZone.length];
			for (let step = 1; step < 100; step++) {
				const point: Point = [ax + (step / 100) * (bx - ax), ay + (step / 100) * (by - ay)];
				if (!insidePolygon(point, photoZone)) outside.push(point);
			}
		});
		expect(outside).toEqual([]);
		// and a point a thousandth of a pixel beside a border is not on it
		expect(insidePolygon([600, 400 - 0.001], photoZone)).toBe(false);
	});

	it('a polygon’s box never changes the answer: points on, beside and a hair off every border, and at the box’s own limits', () => {
		let outsideTheCornersButOnABorder = 0;
		for (const polygon of [square, ell, scaledZone, photoZone, [...photoZone].reverse()]) {
			const bounded = boundedPolygon(polygon);
			const xs = polygon.map(([x]) => x);
			const ys = polygon.map(([, y]) => y);
			const points: Point[] = [];
			polygon.forEach(([ax, ay], edge) => {
				const [bx, by] = polygon[(edge + 1) % polygon.length];
				for (const along of [0, 0.25, 0.5, 1]) {
					// a hair off the border: within the slack a border point is given (1e-9 of the edge), and beyond it
					for (const off of [0, 1e-7, 1e-6, 1e-5, 1e-3, 1]) {
						for (const [dx, dy] of [[-off, 0], [off, 0], [0, -off], [0, off]]) points.push([ax + along * (bx - ax) + dx, ay + along * (by - ay) + dy]);
					}
				}
			});
			const middle: Point = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
			points.push([bounded.left, middle[1]], [bounded.right, middle[1]], [middle[0], bounded.top], [middle[0], bounded.bottom], middle);
			for (const point of points) {
				expect([point, insideBoundedPolygon(point, bounded)]).toEqual([point, insidePolygon(point, polygon)]);
				const pastTheCorners = point[0] < Math.min(...xs) || point[0] > Math.max(...xs) || point[1] < Math.min(...ys) || point[1] > Math.max(...ys);
				if (pastTheCorners && insidePolygon(point, polygon)) outsideTheCornersButOnABorder++;
			}
		}
		// the box is widened by the slack: some border points lie past the polygon's corners
		expect(outsideTheCornersButOnABorder).toBeGreaterThan(0);
		// a square's borders reach the box's own limits (within the slack), and a hair past them is outside
		const hundred = boundedPolygon([
			[0, 0],
			[100, 0],
			[100, 100],
			[0, 100],
		]);
		const limits: Point[] = [[hundred.left, 50], [hundred.right, 50], [50, hundred.top], [50, hundred.bottom]];
		expect(limits.map((point) => insideBoundedPolygon(point, hundred))).toEqual([true, true, true, true]);
		const past: Point[] = [[hundred.left - 1e-9, 50], [hundred.right + 1e-9, 50], [50, hundred.top - 1e-9], [50, hundred.bottom + 1e-9]];
		expect(past.map((point) => insideBoundedPolygon(point, hundred))).toEqual([false, false, false, false]);
	});

	it('answers for a point outside a polygon’s box without reading the polygon’s points', () => {
		let reads = 0;
		const bounded = boundedPolygon(square);
		const points = new Proxy(bounded.points, {
			get(target, key, receiver) {
				if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
				return Reflect.get(target, key, receiver);
			},
		});
		const counted = { ...bounded, points };
		const beside: Point[] = [[-1, 5], [11, 5], [5, -1], [5, 11]];
		expect(beside.map((point) => insideBoundedPolygon(point, counted))).toEqual([false, false, false, false]);
		expect(reads).toBe(0);
		expect(insideBoundedPolygon([5, 5], counted)).toBe(true);
		expect(reads).toBeGreaterThan(0);
	});

	it('handles a triangle and a star-like polygon whose edges cross the ray several times', () => {
		const triangle: Point[] = [
			[0, 0],
			[100, 0],
			[50, 80],
		];
		expect(insidePolygon([50, 40], triangle)).toBe(true);
		expect(insidePolygon([10, 40], triangle)).toBe(false);
		// either side of the slanted edge from (0, 0) to (50, 80), which crosses y 40 at x 25
		expect(insidePolygon([26, 40], triangle)).toBe(true);
		expect(insidePolygon([24, 40], triangle)).toBe(false);
		// a "W" whose three teeth point down: between the teeth is outside
		const teeth: Point[] = [
			[0, 0],
			[30, 0],
			[30, 20],
			[20, 20],
			[20, 10],
			[10, 10],
			[10, 20],
			[0, 20],
		];
		expect(insidePolygon([15, 15], teeth)).toBe(false);
		expect(insidePolygon([5, 15], teeth)).toBe(true);
		expect(insidePolygon([25, 15], teeth)).toBe(true);
		expect(insidePolygon([15, 5], teeth)).toBe(true);
	});
});

describe('boxes', () => {
	const box = { x: 290, y: 196, width: 28, height: 22 };

	it('anchors at the centre or at the bottom centre', () => {
		expect(anchorPoint(box, 'center')).toEqual([304, 207]);
		expect(anchorPoint(box, 'bottomCenter')).toEqual([304, 218]);
	});

	it('gives the box in fractions of the image, four decimals', () => {
		expect(relativeBox(box, { width: 676, height: 380 })).toEqual({ x: 0.429, y: 0.5158, width: 0.0414, height: 0.0579 });
		expect(relativeBox({ x: 0, y: 0, width: 200, height: 100 }, { width: 200, height: 100 })).toEqual({ x: 0, y: 0, width: 1, height: 1 });
	});

	it('measures the area as a fraction of the image', () => {
		expect(areaFraction({ x: 5, y: 5, width: 10, height: 20 }, { width: 100, height: 100 })).toBe(0.02);
	});
});

describe('zone points', () => {
	it('reads text with spaces, semicolons and spaces after commas', () => {
		expect(parsePoints('0.1,0.6 0.5,0.6 0.5,1 0.1,1', 'relative')).toEqual([
			[0.1, 0.6],
			[0.5, 0.6],
			[0.5, 1],
			[0.1, 1],
		]);
		expect(parsePoints(' 0.1, 0.6; 0.5 ,0.6;0.5,1 ', 'relative')).toEqual([
			[0.1, 0.6],
			[0.5, 0.6],
			[0.5, 1],
		]);
	});

	it('reads lists from an expression: pairs, {x, y} and "x,y" texts', () => {
		const expected = [
			[10, 20],
			[30, 20],
			[30, 40],
		];
		expect(parsePoints(expected, 'pixels')).toEqual(expected);
		expect(parsePoints([{ x: 10, y: 20 }, { x: 30, y: 20 }, { x: 30, y: 40 }], 'pixels')).toEqual(expected);
		expect(parsePoints(['10,20', '30,20', '30,40'], 'pixels')).toEqual(expected);
	});

	it('says what is wrong', () => {
		expect(parsePoints('0.1,0.6 0.5,0.6', 'relative')).toBe('only 2 points; a zone needs at least 3');
		expect(parsePoints('', 'relative')).toBe('no points; a zone needs at least 3');
		expect(parsePoints('0.1,0.6 0.5 0.5,1', 'relative')).toBe('point 2 "0.5" is not two numbers (x,y)');
		expect(parsePoints('0.1,0.6 a,b 0.5,1', 'relative')).toBe('point 2 "a,b" is not two numbers (x,y)');
		expect(parsePoints('0.1,0.6 0.5,1.2 0.5,1', 'relative')).toMatch(/^point 2 \(0.5,1.2\) is outside 0–1/);
		expect(parsePoints('10,20 -1,5 30,40', 'pixels')).toMatch(/^point 2 \(-1,5\) is negative/);
		expect(parsePoints('100,60 300,60 300,200', 'pixels')).toHaveLength(3);
	});

	it('says what is wrong with one point, none, or too many', () => {
		expect(parsePoints('0.1,0.6', 'relative')).toBe('only 1 point; a zone needs at least 3');
		expect(parsePoints(undefined, 'relative')).toBe('no points; a zone needs at least 3');
		const points = (count: number) => Array.from({ length: count }, (_, index) => `${index},5`).join(' ');
		expect(parsePoints(points(101), 'pixels')).toBe('101 points; a zone has at most 100');
		expect(parsePoints(points(100), 'pixels')).toHaveLength(100);
	});

	it('relative points left of or above the image are outside 0–1; pixel points there are negative, on its edge they are fine', () => {
		const outside = '; relative coordinates are fractions of the image (use Zone Coordinates: Pixels for pixels)';
		expect(parsePoints('0.1,0.6 -0.1,0.6 0.5,1', 'relative')).toBe(`point 2 (-0.1,0.6) is outside 0–1${outside}`);
		expect(parsePoints('0.1,0.6 0.5,-0.1 0.5,1', 'relative')).toBe(`point 2 (0.5,-0.1) is outside 0–1${outside}`);
		const negative = ' is negative; pixels count from the image’s top-left corner';
		expect(parsePoints('10,20 30,-1 30,40', 'pixels')).toBe(`point 2 (30,-1)${negative}`);
		expect(parsePoints('0,0 30,0 0,40', 'pixels')).toEqual([
			[0, 0],
			[30, 0],
			[0, 40],
		]);
	});

	it('a point is exactly two numbers: not three, not a blank, not one number and some text', () => {
		expect(parsePoints('10,20,30 30,20 30,40', 'pixels')).toBe('point 1 "10,20,30" is not two numbers (x,y)');
		expect(parsePoints([[10, 20, 30], [30, 20], [30, 40]], 'pixels')).toBe('point 1 [10,20,30] is not two numbers (x,y)');
		expect(parsePoints('10,20 1,abc 30,40', 'pixels')).toBe('point 2 "1,abc" is not two numbers (x,y)');
		expect(parsePoints('10,20 abc,1 30,40', 'pixels')).toBe('point 2 "abc,1" is not two numbers (x,y)');
		// from an expression: blank texts are not 0
		expect(parsePoints(['10,20', ' ,20', '30,40'], 'pixels')).toBe('point 2 " ,20" is not two numbers (x,y)');
		expect(parsePoints(['10,20', ',20', '30,40'], 'pixels')).toBe('point 2 ",20" is not two numbers (x,y)');
	});

	it('a list from an expression with empty pieces says which point is not two numbers', () => {
		expect(parsePoints([[10, 20], null, [30, 40]], 'pixels')).toBe('point 2 null is not two numbers (x,y)');
		expect(parsePoints([[10, 20], [null, 20], [30, 40]], 'pixels')).toBe('point 2 [null,20] is not two numbers (x,y)');
		expect(parsePoints([{ x: 10, y: 20 }, { x: 30, y: null }, { x: 30, y: 40 }], 'pixels')).toBe('point 2 {"x":30,"y":null} is not two numbers (x,y)');
	});
});

describe('a zone’s shape', () => {
	it('has the area of what it encloses, whichever way it is walked', () => {
		expect(polygonArea(square)).toBe(100);
		expect(polygonArea([...square].reverse())).toBe(100);
		expect(polygonArea(ell)).toBe(75);
		expect(polygonArea([[0, 0], [5, 5], [10, 10]])).toBe(0);
	});

	it('tells a bow-tie (edges crossing) from a concave zone (edges meeting only at corners)', () => {
		expect(edgesCross([[0, 0], [10, 10], [10, 0], [0, 10]])).toBe(true);
		expect(edgesCross(square)).toBe(false);
		expect(edgesCross(ell)).toBe(false);
		expect(edgesCross([[0, 0], [10, 0], [5, 5]])).toBe(false);
		// a five-pointed star drawn in one stroke
		expect(edgesCross([[5, 0], [8, 10], [0, 4], [10, 4], [2, 10]])).toBe(true);
		// a corner touching another edge is not a crossing
		expect(edgesCross([[0, 0], [4, 0], [4, 4], [8, 0], [8, 4], [0, 4]])).toBe(false);
	});

	it('walks a shuffled rectangle’s corners around its centre', () => {
		expect(inAngleOrder([[0, 0], [10, 10], [10, 0], [0, 10]])).toEqual(square.map(([x, y]) => [x, y]));
	});
});

describe('placing detections', () => {
	const size = { width: 200, height: 100 };
	const options = (extra: Partial<ZoneAndSizeOptions> = {}): ZoneAndSizeOptions => ({
		zones: [
			{ name: 'left', points: [[0, 0], [0.5, 0], [0.5, 1], [0, 1]] },
			{ name: 'bottom', points: [[0, 0.5], [1, 0.5], [1, 1], [0, 1]] },
		],
		units: 'relative',
		anchor: 'center',
		onlyInZones: false,
		...extra,
	});
	// centre (20, 20): left only; bottom edge at y 30: still above "bottom"
	const topLeft = { label: 'car', confidence: 0.9, x: 10, y: 10, width: 20, height: 20 };
	// centre (150, 45): no zone; bottom centre (150, 60): bottom
	const standing = { label: 'person', confidence: 0.8, x: 140, y: 30, width: 20, height: 30 };
	// centre (50, 75): both
	const both = { label: 'car', confidence: 0.7, x: 40, y: 70, width: 20, height: 10 };

	it('puts the zones and regions in each image’s pixels, once for images of the size before', () => {
		const watched = options({ ignoreRegions: [[[0, 0], [0.1, 0], [0.1, 0.1]]] });
		const wide = imageFacts(watched, { width: 200, height: 100, orientation: 1 });
		expect(wide.zones.map((zone) => zone.points[1])).toEqual([[100, 0], [200, 50]]);
		expect(wide.ignoreRegions?.map((region) => region.points)).toEqual([[[0, 0], [20, 0], [20, 10]]]);
		const again = imageFacts(watched, { width: 200, height: 100 });
		expect([again.zones, again.ignoreRegions]).toEqual([wide.zones, wide.ignoreRegions]);
		expect(again.zones).toBe(wide.zones);
		expect(again.stored).toBeUndefined();
		// another size, another width or height alone, and no size: each its own
		expect(imageFacts(watched, { width: 200, height: 300 }).zones.map((zone) => zone.points[1])).toEqual([[100, 0], [200, 150]]);
		expect(imageFacts(watched, { width: 400, height: 300 }).zones.map((zone) => zone.points[1])).toEqual([[200, 0], [400, 150]]);
		expect(imageFacts(watched, undefined).zones.map((zone) => zone.points[1])).toEqual([[0.5, 0], [1, 0.5]]);
		expect(imageFacts(watched, { width: 200, height: 100 }).zones.map((zone) => zone.points[1])).toEqual([[100, 0], [200, 50]]);
	});

	it('lists the zones’ own rules once for a list of zones', () => {
		let read = 0;
		const ruled = { name: 'left', points: [[0, 0], [100, 0], [100, 100], [0, 100]] as Point[] };
		Object.defineProperty(ruled, 'rules', { enumerable: true, get: () => (read++, { labels: ['car'] }) });
		const image = { size, zones: [Object.assign(ruled, boundedPolygon(ruled.points))] };
		const person = { ...topLeft, label: 'person', relativeBox: null, zones: ['left'] };
		for (let look = 0; look < 3; look++) {
			const kept = zonesAndSizes.keep([{ ...person, zones: ['left'] }], image, { zonesAndSizes: options({ zones: [ruled] }) });
			expect(kept.map((detection) => detection.zones)).toEqual([[]]);
		}
		expect(read).toBe(1);
	});

	it('gives each detection its zones by its anchor, and counts per zone', () => {
		const { image, placed } = placeDetections(options(), size, [topLeft, standing, both]);
		expect(placed.map((detection) => detection.zones)).toEqual([['left'], [], ['left', 'bottom']]);
		expect(countDetections(placed, [], image).countsByZone).toEqual({ left: { car: 2 }, bottom: { car: 1 } });

		const grounded = placeDetections(options({ anchor: 'bottomCenter' }), size, [topLeft, standing]);
		expect(grounded.placed.map((detection) => detection.zones)).toEqual([['left'], ['bottom']]);
	});

	it('gives relative boxes, and null ones when the size is unknown', () => {
		expect(placeDetections(options(), size, [both]).placed[0].relativeBox).toEqual({ x: 0.2, y: 0.7, width: 0.1, height: 0.1 });
		const pixelZones: ZoneAndSizeOptions = { ...options(), units: 'pixels', zones: [{ name: 'all', points: [[0, 0], [300, 0], [0, 300]] }] };
		expect(placeDetections(pixelZones, undefined, [both]).placed[0]).toEqual({ ...both, relativeBox: null, zones: ['all'] });
	});

	it('keeps objects by zone and by size', () => {
		const keep = (extra: Partial<ZoneAndSizeOptions>) => keptBy(options(extra), size, [topLeft, standing, both]);
		expect(keep({ onlyInZones: true })).toEqual([topLeft, both]);
		// areas: 400, 600, 200 of 20,000 pixels
		expect(keep({ minSize: 0.02 })).toEqual([topLeft, standing]);
		expect(keep({ maxSize: 0.02 })).toEqual([topLeft, both]);
		expect(keep({ minSize: 0.015, maxSize: 0.025, onlyInZones: true })).toEqual([topLeft]);
	});

	it('keeps objects by shape: width ÷ height within Min and Max Aspect Ratio, both ends kept', () => {
		// ratios: 1, 2/3, 2
		const keep = (extra: Partial<ZoneAndSizeOptions>, known: Size | undefined = size) => keptBy(options(extra), known, [topLeft, standing, both]);
		expect(keep({ minAspectRatio: 1 })).toEqual([topLeft, both]);
		expect(keep({ maxAspectRatio: 1 })).toEqual([topLeft, standing]);
		expect(keep({ minAspectRatio: 0.5, maxAspectRatio: 0.7 })).toEqual([standing]);
		expect(keep({ minAspectRatio: 2, maxAspectRatio: 2 })).toEqual([both]);
		// the shape needs no image size
		expect(keep({ minAspectRatio: 1.5 }, undefined)).toEqual([both]);
		// a box of no height is infinitely wide: kept by a minimum, left out by a maximum
		const line = { ...both, height: 0 };
		expect(keptBy(options({ minAspectRatio: 0.1 }), size, [line])).toEqual([line]);
		expect(keptBy(options({ maxAspectRatio: 100 }), size, [line])).toEqual([]);
	});

	it('measures the shape as people see the picture: a box in a phone photo stored sideways is turned first', () => {
		// stored 200 × 100 with Exif orientation 6 (turned a quarter): the 20 × 10 box stands 10 wide, 20 high
		const sideways = { width: 200, height: 100, orientation: 6 };
		expect(keptBy(options({ zones: [], maxAspectRatio: 0.5 }), sideways, [both])).toEqual([both]);
		expect(keptBy(options({ zones: [], minAspectRatio: 2 }), sideways, [both])).toEqual([]);
		expect(keptBy(options({ zones: [], minAspectRatio: 2 }), size, [both])).toEqual([both]);
	});

	it('Ignore Regions leave out the objects whose anchor is in one, by the zones’ anchor rule and coordinates, before the zones', () => {
		// the region covers the right half's top (x 0.5–1, y 0–0.5 of 200 × 100): standing's centre (150, 45) is in it, its bottom centre (150, 60) is not
		const region = [[0.5, 0], [1, 0], [1, 0.5], [0.5, 0.5]] as Point[];
		const keep = (extra: Partial<ZoneAndSizeOptions>) => {
			const opts = options({ ignoreRegions: [region], ...extra });
			const { image, placed } = placeDetections(opts, size, [topLeft, standing, both]);
			const kept = new Set(ignoreRegions.keep(placed, image, { zonesAndSizes: opts }));
			return [topLeft, standing, both].filter((_, index) => kept.has(placed[index]));
		};
		expect(keep({})).toEqual([topLeft, both]);
		expect(keep({ anchor: 'bottomCenter' })).toEqual([topLeft, standing, both]);
		// in pixels: the same region, drawn on the 200 × 100 picture
		expect(keep({ units: 'pixels', ignoreRegions: [[[100, 0], [200, 0], [200, 50], [100, 50]]] })).toEqual([topLeft, both]);
		// two regions: either one leaves an object out
		expect(keep({ ignoreRegions: [region, [[0, 0], [0.2, 0], [0.2, 0.4], [0, 0.4]]] })).toEqual([both]);
		expect(keep({ ignoreRegions: undefined })).toEqual([topLeft, standing, both]);
	});

	it('Ignore Regions are drawn on the picture as people see it: a phone photo stored sideways is turned first', () => {
		// stored 100 × 200 with orientation 6: seen 200 × 100; the stored box at (70, 140) of 20 × 10 is seen at (50, 70), 10 × 20
		const sideways = { width: 100, height: 200, orientation: 6 };
		const box = { label: 'car', confidence: 0.9, x: 70, y: 140, width: 20, height: 10 };
		const opts = options({ zones: [], ignoreRegions: [[[0.2, 0.6], [0.4, 0.6], [0.4, 1], [0.2, 1]]] });
		const { image, placed } = placeDetections(opts, sideways, [box]);
		expect(ignoreRegions.keep(placed, image, { zonesAndSizes: opts })).toEqual([]);
		const upright = placeDetections(opts, { width: 100, height: 200 }, [box]);
		expect(ignoreRegions.keep(upright.placed, upright.image, { zonesAndSizes: opts })).toHaveLength(1);
	});

	it('a zone’s own labels: it counts only those; an object in two zones is judged per zone, and one that fits none is an object in no zone', () => {
		const personOnlyLeft = options();
		personOnlyLeft.zones[0].rules = { labels: ['person'] };
		const { image, placed } = placeDetections(personOnlyLeft, size, [topLeft, standing, both]);
		const kept = zonesAndSizes.keep(placed, image, { zonesAndSizes: personOnlyLeft });
		expect(kept.map((detection) => detection.zones)).toEqual([[], [], ['bottom']]);
		expect(countDetections(kept, [], image).countsByZone).toEqual({ left: {}, bottom: { car: 1 } });
		expect(keptBy({ ...personOnlyLeft, onlyInZones: true }, size, [topLeft, standing, both])).toEqual([both]);
	});

	it('a detection every zone of which counts it keeps the list it was placed with; one a zone drops gets a new list', () => {
		const carsOnlyLeft = options();
		carsOnlyLeft.zones[0].rules = { labels: ['car'] };
		const { image, placed } = placeDetections(carsOnlyLeft, size, [topLeft, { ...both, label: 'person' }]);
		const placedZones = placed.map((detection) => detection.zones);
		const kept = zonesAndSizes.keep(placed, image, { zonesAndSizes: carsOnlyLeft });
		expect(kept.map((detection) => detection.zones)).toEqual([['left'], ['bottom']]);
		expect(kept[0].zones).toBe(placedZones[0]);
		expect(kept[1].zones).not.toBe(placedZones[1]);
		expect(placedZones[1]).toEqual(['left', 'bottom']);
	});

	it('a zone’s own Min / Max Object Size replace the node’s for the objects in it; the others keep the node’s', () => {
		// areas: topLeft 0.02 (left), standing 0.03 (no zone), both 0.01 (left and bottom)
		const farBottom = options({ minSize: 0.025 });
		farBottom.zones[1].rules = { minSize: 0.005 };
		const { image, placed } = placeDetections(farBottom, size, [topLeft, standing, both]);
		const kept = zonesAndSizes.keep(placed, image, { zonesAndSizes: farBottom });
		expect(kept.map(({ label, zones }) => ({ label, zones }))).toEqual([
			{ label: 'person', zones: [] },
			{ label: 'car', zones: ['bottom'] },
		]);
		const smallLeft = options({ maxSize: 0.015 });
		smallLeft.zones[0].rules = { maxSize: 0.025, labels: ['car'] };
		expect(keptBy(smallLeft, size, [topLeft, standing, both])).toEqual([topLeft, both]);
		// a zone's minimum goes with the node's maximum: topLeft (0.02) is too big for "left" too
		const zonesKept = (leftRules: ZoneRules) => {
			const minOnly = options({ maxSize: 0.015 });
			minOnly.zones[0].rules = leftRules;
			const { image, placed } = placeDetections(minOnly, size, [topLeft, standing, both]);
			return zonesAndSizes.keep(placed, image, { zonesAndSizes: minOnly }).map(({ confidence, zones }) => ({ confidence, zones }));
		};
		expect(zonesKept({ minSize: 0.012 })).toEqual([{ confidence: both.confidence, zones: ['bottom'] }]);
		expect(zonesKept({ minSize: 0.005 })).toEqual([{ confidence: both.confidence, zones: ['left', 'bottom'] }]);
	});

	it('with the size unknown, pixel zones still filter, and no size filter applies', () => {
		const pixelZones: Partial<ZoneAndSizeOptions> = { units: 'pixels', zones: [{ name: 'left', points: [[0, 0], [100, 0], [100, 100], [0, 100]] }] };
		const keep = (extra: Partial<ZoneAndSizeOptions>) => keptBy(options({ ...pixelZones, ...extra }), undefined, [topLeft, standing, both]);
		expect(keep({ onlyInZones: true })).toEqual([topLeft, both]);
		// the node refuses size options before this when the size stays unknown (requireSize)
		expect(keep({ minSize: 0.5 })).toEqual([topLeft, standing, both]);
	});

	it('without zones: no zones on the detections and no zone counts', () => {
		const { image, placed } = placeDetections(options({ zones: [] }), size, [topLeft]);
		expect(placed[0]).not.toHaveProperty('zones');
		expect(countDetections(placed, [], image)).not.toHaveProperty('countsByZone');
	});
});

describe('reading the zone, size and shape options', () => {
	const context = readerContext();
	const read = (options: IDataObject) => readZoneAndSizeOptions.call(context, 4, options);
	const failure = async (options: IDataObject) => await failureOf((async () => read(options))());

	it('reads Min and Max Aspect Ratio from 0.01 to 100, off when not set', () => {
		expect(read({})).toMatchObject({ minAspectRatio: undefined, maxAspectRatio: undefined });
		expect(read({ minAspectRatio: 0.01, maxAspectRatio: '100' })).toMatchObject({ minAspectRatio: 0.01, maxAspectRatio: 100 });
		expect(read({ minAspectRatio: 1, maxAspectRatio: 1 })).toMatchObject({ minAspectRatio: 1, maxAspectRatio: 1 });
	});

	it('an aspect ratio of 0 or less, above 100, or Min above Max fails the item saying what to fix', async () => {
		for (const [name, label] of [
			['minAspectRatio', 'Min Aspect Ratio'],
			['maxAspectRatio', 'Max Aspect Ratio'],
		]) {
			for (const value of [0, -1, 101]) {
				expect(await failure({ [name]: value })).toMatchObject({ message: `${label} must be a number from 0.01 to 100, got ${value}`, itemIndex: 4 });
			}
		}
		expect(await failure({ minAspectRatio: 2, maxAspectRatio: 0.5 })).toEqual({
			message: 'Min Aspect Ratio (2) is larger than Max Aspect Ratio (0.5)',
			description: 'Both are a box’s width divided by its height: make Min Aspect Ratio the smaller one.',
			itemIndex: 4,
		});
	});
});

describe('reading Ignore Regions', () => {
	const context = readerContext();
	const read = (options: IDataObject) => readZoneAndSizeOptions.call(context, 2, options);
	const failure = async (options: IDataObject) => await failureOf((async () => read(options))());
	const regions = (...points: unknown[]) => ({ ignoreRegions: { region: points.map((entry) => ({ points: entry })) } });

	it('reads each region’s points in the zones’ coordinates; none set is none', () => {
		expect(read(regions('0,0 1,0 1,0.3'))).toMatchObject({ ignoreRegions: [[[0, 0], [1, 0], [1, 0.3]]] });
		expect(read({ ...regions([[10, 10], [300, 10], [300, 90]]), zoneCoordinates: 'pixels' })).toMatchObject({ ignoreRegions: [[[10, 10], [300, 10], [300, 90]]] });
		expect(read({})).not.toHaveProperty('ignoreRegions');
		expect(read({ ignoreRegions: {} })).not.toHaveProperty('ignoreRegions');
		expect(read({ ignoreRegions: { region: [] } })).not.toHaveProperty('ignoreRegions');
	});

	it('a region of fewer than 3 points, a bad point, crossing edges or more than 20 regions fail the item, naming the region', async () => {
		const format = 'Write the points as x,y pairs separated by spaces, e.g. "0.1,0.6 0.5,0.6 0.5,1 0.1,1" (fractions 0–1 of the image’s width and height).';
		expect(await failure(regions('0,0 1,0 1,1', '0,0 1,1'))).toEqual({ message: 'Ignore Region 2: only 2 points; a region needs at least 3', description: format, itemIndex: 2 });
		expect(await failure(regions(''))).toMatchObject({ message: 'Ignore Region 1: no points; a region needs at least 3' });
		expect(await failure(regions('0,0 2,0 1,1'))).toMatchObject({ message: expect.stringMatching(/^Ignore Region 1: point 2 \(2,0\) is outside 0–1/) });
		expect(await failure(regions('0,0 1,1 1,0 0,1'))).toMatchObject({ message: 'Ignore Region 1: its edges cross: the points are not in the order of its corners', description: expect.stringContaining('0,0 1,0 1,1 0,1') });
		expect(await failure(regions(...Array(21).fill('0,0 1,0 1,1')))).toMatchObject({ message: '21 ignore regions are set; at most 20 are allowed' });
		expect(await failure({ ignoreRegions: { region: 'top half' } })).toMatchObject({ message: 'Ignore Regions must be a list of regions' });
		expect(await failure({ ignoreRegions: { region: [null] } })).toMatchObject({ message: 'Ignore Region 1: no points; a region needs at least 3' });
	});

	it('relative regions need the image’s size: refused before the request for an image URL without the annotated picture', async () => {
		const relative = read(regions('0,0 1,0 1,1'));
		expect(await failureOf((async () => checkSizeKnowable.call(context, 2, relative, { url: true, annotated: false }))())).toMatchObject({
			message: 'Ignore Regions in relative coordinates need the image’s size, which the node does not learn from an image URL without the annotated picture',
			itemIndex: 2,
		});
		expect(() => checkSizeKnowable.call(context, 2, read({ ...regions('10,10 300,10 300,90'), zoneCoordinates: 'pixels' }), { url: true, annotated: false })).not.toThrow();
	});
});

describe('reading a zone’s own rules', () => {
	const context = readerContext();
	const read = (options: IDataObject) => readZoneAndSizeOptions.call(context, 3, options);
	const failure = async (options: IDataObject) => await failureOf((async () => read(options))());
	const zone = (extra: IDataObject) => ({ zones: { zone: [{ name: 'door', points: '0,0 1,0 1,1', ...extra }] } });

	it('reads the labels and sizes a zone sets; blank, 0 or absent is the node’s, and such a zone has no rules', () => {
		expect(read(zone({ labels: ' person, dog ', minObjectSize: 0.001, maxObjectSize: '0.5' })).zones[0].rules).toEqual({ labels: ['person', 'dog'], minSize: 0.001, maxSize: 0.5 });
		expect(read(zone({ maxObjectSize: 1 })).zones[0].rules).toEqual({ maxSize: 1 });
		for (const empty of [{}, { labels: '', minObjectSize: 0, maxObjectSize: 0 }, { labels: ' , ', minObjectSize: null, maxObjectSize: '' }]) {
			expect(read(zone(empty)).zones[0]).not.toHaveProperty('rules');
		}
	});

	it('a zone size outside 0–1 or not a number, or its Min above its Max, fails the item naming the zone', async () => {
		for (const [extra, message] of [
			[{ minObjectSize: 1.5 }, 'Zone "door": Min Object Size must be a fraction from 0 to 1, got 1.5'],
			[{ maxObjectSize: -0.1 }, 'Zone "door": Max Object Size must be a fraction from 0 to 1, got -0.1'],
			[{ maxObjectSize: 'big' }, 'Zone "door": Max Object Size must be a fraction from 0 to 1, got "big"'],
		] as Array<[IDataObject, string]>) {
			expect(await failure(zone(extra))).toEqual({ message, description: expect.stringMatching(/^A fraction of the image’s area, e\.g\. 0\.002 \(0\.2 %\); 0 uses the node’s M(in|ax) Object Size\.$/), itemIndex: 3 });
		}
		expect(await failure(zone({ minObjectSize: 0.3, maxObjectSize: 0.1 }))).toEqual({
			message: 'Zone "door": Min Object Size (0.3) is larger than Max Object Size (0.1)',
			description: 'Both are fractions of the image’s area: make Min Object Size the smaller one.',
			itemIndex: 3,
		});
	});

	it('a zone’s sizes need the image’s size, in pixels too', async () => {
		const pixelZone = (extra: IDataObject) => read({ zoneCoordinates: 'pixels', zones: { zone: [{ name: 'door', points: '0,0 100,0 100,100', ...extra }] } });
		expect(await failureOf((async () => checkSizeKnowable.call(context, 3, pixelZone({ minObjectSize: 0.01 }), { url: true, annotated: false }))())).toMatchObject({
			message: 'A zone’s Min / Max Object Size needs the image’s size, which the node does not learn from an image URL without the annotated picture',
		});
		expect(() => checkSizeKnowable.call(context, 3, pixelZone({ labels: 'person' }), { url: true, annotated: false })).not.toThrow();
	});
});
