/** Plane geometry on boxes and polygons, in one coordinate system (pixels from the top-left corner). */

export type Point = readonly [x: number, y: number];

export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

export interface Size {
	width: number;
	height: number;
}

/**
 * A picture's stored pixels and how they are to be shown (EXIF orientation 1–8): 2 mirrored,
 * 3 turned half round, 4 flipped, 5 mirrored across the diagonal, 6 turned a quarter clockwise,
 * 7 mirrored across the other diagonal, 8 turned a quarter anticlockwise.
 */
export interface StoredPicture extends Size {
	orientation?: number;
}

/** The picture's size as people see it: width and height swapped when it is shown turned a quarter. */
export function uprightSize(picture: StoredPicture): Size {
	return (picture.orientation ?? 1) >= 5 ? { width: picture.height, height: picture.width } : { width: picture.width, height: picture.height };
}

/**
 * The picture the service's boxes are in. Its annotated picture, drawn on the pixels it detected
 * on, tells when there is one: a photo stored sideways (orientation 5–8) whose annotated picture
 * comes back upright was turned by the service before it detected, so its boxes are upright
 * already. Otherwise the boxes are taken to be in the stored pixels, as a decoder that does not
 * apply EXIF orientation (Pillow's Image.open) gives them (docs/watching.md, Turned photos).
 */
export function servicePicture(sent: StoredPicture | undefined, annotated: StoredPicture | undefined): StoredPicture | undefined {
	if (!sent) return annotated;
	const turnedBack = annotated !== undefined && (sent.orientation ?? 1) >= 5 && annotated.width === sent.height && annotated.height === sent.width;
	return turnedBack ? { width: annotated.width, height: annotated.height } : sent;
}

/**
 * The other picture the service's boxes may be in, when nothing settled which: a photo shown turned
 * or mirrored (EXIF 2–8). Only a quarter turn can be settled, by a picture the service was asked to
 * draw coming back upright or as stored, itself untagged (so not a square one); a mirror or a half
 * turn keeps its width and height either way. The upright picture when the boxes were taken to be
 * in the stored pixels (`chosen`, servicePicture's), else the stored pixels: what must be hidden is
 * then hidden in both places the box can be.
 */
export function unsettledOtherPicture(sent: StoredPicture | undefined, chosen: StoredPicture | undefined, asked: StoredPicture | undefined): StoredPicture | undefined {
	const orientation = sent?.orientation ?? 1;
	if (!sent || orientation < 2) return undefined;
	const drawnAs = (width: number, height: number) => asked !== undefined && asked.orientation === undefined && asked.width === width && asked.height === height;
	const settled = orientation >= 5 && sent.width !== sent.height && (drawnAs(sent.width, sent.height) || drawnAs(sent.height, sent.width));
	if (settled) return undefined;
	return chosen === sent ? uprightSize(sent) : sent;
}

/** A box in the stored pixels, where it is in the picture as people see it. */
export function uprightBox(box: Box, picture: StoredPicture): Box {
	const { x, y, width, height } = box;
	const right = picture.width - x - width;
	const bottom = picture.height - y - height;
	switch (picture.orientation) {
		case 2:
			return { x: right, y, width, height };
		case 3:
			return { x: right, y: bottom, width, height };
		case 4:
			return { x, y: bottom, width, height };
		case 5:
			return { x: y, y: x, width: height, height: width };
		case 6:
			return { x: bottom, y: x, width: height, height: width };
		case 7:
			return { x: bottom, y: right, width: height, height: width };
		case 8:
			return { x: y, y: right, width: height, height: width };
		default:
			return box;
	}
}

/** Where a box stands: its centre, or the middle of its bottom edge (what stands on the ground). */
export type Anchor = 'center' | 'bottomCenter';

export function anchorPoint(box: Box, anchor: Anchor): Point {
	return [box.x + box.width / 2, anchor === 'center' ? box.y + box.height / 2 : box.y + box.height];
}

/**
 * Whether the point lies inside the polygon or on its border (even-odd rule, so concave polygons
 * work; a point on an edge or a corner counts as inside, whichever way the polygon is walked).
 */
export function insidePolygon(point: Point, polygon: readonly Point[]): boolean {
	const px = point[0];
	const py = point[1];
	let inside = false;
	for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
		const xi = polygon[i][0];
		const yi = polygon[i][1];
		const xj = polygon[j][0];
		const yj = polygon[j][1];
		if (onSegment(px, py, xj, yj, xi, yi)) return true;
		if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
	}
	return inside;
}

function onSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
	const length = edgeLength(ax, ay, bx, by);
	const slack = EDGE_SLACK * length;
	if (px < Math.min(ax, bx) - slack || px > Math.max(ax, bx) + slack || py < Math.min(ay, by) - slack || py > Math.max(ay, by) + slack) return false;
	return Math.abs((bx - ax) * (py - ay) - (by - ay) * (px - ax)) <= slack * length;
}

/** How far, per unit of an edge's length, a point may miss the edge and still be on it: relative points scaled to pixels carry rounding (0.1 × 676 = 67.60000000000001). */
const EDGE_SLACK = 1e-9;

/** An edge's length as onSegment measures it: across plus down, at least 1. */
function edgeLength(ax: number, ay: number, bx: number, by: number): number {
	return Math.max(1, Math.abs(bx - ax) + Math.abs(by - ay));
}

/** A polygon and the box around it, widened by the slack a point on an edge is given: a point outside the box is outside the polygon. */
export interface BoundedPolygon {
	points: readonly Point[];
	left: number;
	top: number;
	right: number;
	bottom: number;
}

export function boundedPolygon(points: readonly Point[]): BoundedPolygon {
	let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
	let slack = 0;
	for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
		const [x, y] = points[i];
		left = Math.min(left, x);
		top = Math.min(top, y);
		right = Math.max(right, x);
		bottom = Math.max(bottom, y);
		slack = Math.max(slack, EDGE_SLACK * edgeLength(points[j][0], points[j][1], x, y));
	}
	return { points, left: left - slack, top: top - slack, right: right + slack, bottom: bottom + slack };
}

/** insidePolygon, told in four comparisons for a point outside the polygon's box: most objects are outside most zones. */
export function insideBoundedPolygon(point: Point, polygon: BoundedPolygon): boolean {
	if (point[0] < polygon.left || point[0] > polygon.right || point[1] < polygon.top || point[1] > polygon.bottom) return false;
	return insidePolygon(point, polygon.points);
}

/** The box in fractions of the image's width and height (0–1 inside the image), four decimals. */
export function relativeBox(box: Box, size: Size): Box {
	return {
		x: fraction(box.x, size.width),
		y: fraction(box.y, size.height),
		width: fraction(box.width, size.width),
		height: fraction(box.height, size.height),
	};
}

/** The box's area as a fraction of the image's. */
export function areaFraction(box: Box, size: Size): number {
	return (box.width * box.height) / (size.width * size.height);
}

/** A polygon given in fractions of the image, in pixels. */
export function toPixels(polygon: readonly Point[], size: Size): Point[] {
	return polygon.map(([x, y]) => [x * size.width, y * size.height] as const);
}

function fraction(value: number, whole: number): number {
	return Math.round((value / whole) * 10_000) / 10_000;
}

/** The polygon's area (the shoelace formula), whichever way it is walked. */
export function polygonArea(polygon: readonly Point[]): number {
	let twice = 0;
	for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) twice += polygon[j][0] * polygon[i][1] - polygon[i][0] * polygon[j][1];
	return Math.abs(twice) / 2;
}

/** Whether two edges that share no corner cross each other (a bow-tie, a figure eight). */
export function edgesCross(polygon: readonly Point[]): boolean {
	const count = polygon.length;
	for (let i = 0; i < count; i++) {
		for (let j = i + 2; j < count; j++) {
			if (i === 0 && j === count - 1) continue; // the first and the last edge share the first corner
			if (segmentsCross(polygon[i], polygon[(i + 1) % count], polygon[j], polygon[(j + 1) % count])) return true;
		}
	}
	return false;
}

/** Whether segments a–b and c–d cross at a point inside both (touching at an end does not count). */
function segmentsCross(a: Point, b: Point, c: Point, d: Point): boolean {
	const side = (p: Point, q: Point, r: Point) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
	return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}

/** The points walked around their centre, clockwise on screen: a rectangle's corners in an order that draws it. */
export function inAngleOrder(polygon: readonly Point[]): Point[] {
	const cx = polygon.reduce((sum, [x]) => sum + x, 0) / polygon.length;
	const cy = polygon.reduce((sum, [, y]) => sum + y, 0) / polygon.length;
	return [...polygon].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
}
