import { readFileSync } from 'node:fs';

import jpeg from 'jpeg-js';

import type { RgbPicture } from '../../nodes/ImageInference/picture/codec/codec';
import type { Rgb } from '../../nodes/ImageInference/picture/draw/canvas';
import type { Rect } from '../../nodes/ImageInference/picture/draw/canvas';
import { drawLine, drawTag, drawText, fillRect, strokeBox, strokePolygon, textColorOn, textSize } from '../../nodes/ImageInference/picture/draw/canvas';
import { GLYPH_HEIGHT, glyphRows, writableText } from '../../nodes/ImageInference/picture/draw/font';
import { IGNORE_REGION_COLOR, ZONE_COLOR, ZONE_EDGE_COLOR, labelColor } from '../../nodes/ImageInference/picture/draw/palette';
import type { PictureMarks } from '../../nodes/ImageInference/picture/drawnPicture';
import { drawMarks, drawPicture, markSizes, tagText, zoneMarks } from '../../nodes/ImageInference/picture/drawnPicture';
import { shrinkPicture, sizeWithin } from '../../nodes/ImageInference/picture/resize';
import { uprightPicture } from '../../nodes/ImageInference/picture/upright';
import { uprightBox } from '../../nodes/ImageInference/pipeline/geometry';
import { fixture } from '../e2e/lib/paths';

const GREY: Rgb = [100, 100, 100];
const RED: Rgb = [230, 25, 75];

function blank(width: number, height: number, color: Rgb = GREY): RgbPicture {
	const pixels = new Uint8Array(width * height * 3);
	for (let at = 0; at < pixels.length; at += 3) pixels.set(color, at);
	return { width, height, pixels };
}

function pixelAt(picture: RgbPicture, x: number, y: number): number[] {
	const at = (y * picture.width + x) * 3;
	return [...picture.pixels.subarray(at, at + 3)];
}

/** How many pixels of the picture have the colour. */
function countColor(picture: RgbPicture, color: Rgb): number {
	let count = 0;
	for (let at = 0; at < picture.pixels.length; at += 3) {
		if (picture.pixels[at] === color[0] && picture.pixels[at + 1] === color[1] && picture.pixels[at + 2] === color[2]) count++;
	}
	return count;
}

const detection = (label: string, box: { x: number; y: number; width: number; height: number }, extra: object = {}): PictureMarks['detections'][number] => ({
	label,
	confidence: 0.874,
	x: 0,
	y: 0,
	width: 0,
	height: 0,
	relativeBox: box,
	...extra,
});

describe('drawing on a picture', () => {
	it('fills a rectangle cut to the picture, its right and bottom edges left out', () => {
		const picture = blank(4, 3);
		fillRect(picture, 2, -5, 9, 2, RED);
		expect(countColor(picture, RED)).toBe(4);
		expect(pixelAt(picture, 2, 0)).toEqual([...RED]);
		expect(pixelAt(picture, 3, 1)).toEqual([...RED]);
		expect(pixelAt(picture, 1, 0)).toEqual([...GREY]);
		expect(pixelAt(picture, 2, 2)).toEqual([...GREY]);
	});

	it('frames a box just outside it, leaving the object inside as it was', () => {
		const picture = blank(20, 20);
		strokeBox(picture, { x: 5, y: 6, width: 8, height: 4 }, 2, RED);
		// the frame: (5 + 8 + 2 × 2) × (4 + 2 × 2) minus the box
		expect(countColor(picture, RED)).toBe(12 * 8 - 8 * 4);
		expect(pixelAt(picture, 3, 4)).toEqual([...RED]);
		expect(pixelAt(picture, 14, 11)).toEqual([...RED]);
		expect(pixelAt(picture, 5, 6)).toEqual([...GREY]);
		expect(pixelAt(picture, 12, 9)).toEqual([...GREY]);
		expect(pixelAt(picture, 2, 4)).toEqual([...GREY]);
		expect(pixelAt(picture, 15, 11)).toEqual([...GREY]);
	});

	it('outlines a polygon along each edge, the closing one too, and nothing inside', () => {
		const picture = blank(30, 30);
		strokePolygon(picture, [[5, 5], [25, 5], [25, 25]], 2, RED);
		expect(pixelAt(picture, 15, 5)).toEqual([...RED]);
		expect(pixelAt(picture, 25, 15)).toEqual([...RED]);
		expect(pixelAt(picture, 15, 15)).toEqual([...RED]);
		expect(pixelAt(picture, 20, 10)).toEqual([...GREY]);
		expect(pixelAt(picture, 8, 20)).toEqual([...GREY]);
	});

	it('draws a line without gaps, both its ends included, also from a point off the picture', () => {
		// across, down, and slanting; a line of 1 pixel shows every gap
		const lines: Array<[[number, number], [number, number]]> = [
			[[-40, 5], [40, 5]],
			[[5, -40], [5, 40]],
			[[3, 4], [60, 37]],
		];
		for (const [from, to] of lines) {
			const picture = blank(64, 64);
			drawLine(picture, from, to, 1, RED);
			const across = Math.abs(to[0] - from[0]) >= Math.abs(to[1] - from[1]);
			const first = Math.max(0, across ? from[0] : from[1]);
			const last = across ? to[0] : to[1];
			for (let along = first; along <= last; along++) {
				// the pixels of the line at this column (or row), wherever it crosses it
				const lit = [...Array(64).keys()].filter((other) => {
					const [x, y] = across ? [along, other] : [other, along];
					return pixelAt(picture, x, y).join(',') === RED.join(',');
				});
				expect({ from, to, along, lit: lit.length > 0 }).toEqual({ from, to, along, lit: true });
			}
			expect(pixelAt(picture, to[0], to[1])).toEqual([...RED]);
		}
	});

	it('writes each character of a text one glyph and its gap after the one before', () => {
		const advance = textSize('HH', 2).width - textSize('H', 2).width;
		const whole = blank(40, 20);
		drawText(whole, 'HIH', 1, 2, 2, RED);
		const oneByOne = blank(40, 20);
		[...'HIH'].forEach((character, index) => drawText(oneByOne, character, 1 + index * advance, 2, 2, RED));
		expect(whole.pixels).toEqual(oneByOne.pixels);
		expect(countColor(whole, RED)).toBeGreaterThan(0);
	});

	it('writes text with the font’s glyphs, each font pixel a square of the scale', () => {
		const picture = blank(40, 20, [0, 0, 0]);
		drawText(picture, 'T1', 2, 3, 2, [255, 255, 255]);
		// T: a bar of five across the top, then a stem; 1 after a gap of one font pixel
		const white: Rgb = [255, 255, 255];
		const lit = (rows: readonly number[]) => rows.reduce((sum, bits) => sum + bits.toString(2).split('1').length - 1, 0);
		expect(countColor(picture, white)).toBe((lit(glyphRows('T')) + lit(glyphRows('1'))) * 4);
		expect(pixelAt(picture, 2, 3)).toEqual([...white]);
		expect(pixelAt(picture, 11, 4)).toEqual([...white]);
		expect(pixelAt(picture, 12, 3)).toEqual([0, 0, 0]);
		expect(pixelAt(picture, 6, 16)).toEqual([...white]);
		expect(textSize('T1', 2)).toEqual({ width: (5 + 1 + 5) * 2, height: GLYPH_HEIGHT * 2 });
		expect(textSize('', 3)).toEqual({ width: 0, height: GLYPH_HEIGHT * 3 });
	});

	it('writes any text: accents dropped, other characters as question marks', () => {
		expect(writableText('café crème')).toBe('cafe creme');
		expect(writableText('Straße 🚗')).toBe('Stra?e ??');
		expect(new Set([...Array(95).keys()].map((code) => glyphRows(String.fromCharCode(code + 32)).join(','))).size).toBe(95);
	});

	it('puts a tag above a point, inside the picture when it would cross an edge, with text that reads on its colour', () => {
		const picture = blank(100, 60);
		drawTag(picture, 'car', 90, [5], 2, RED);
		// three glyphs at scale 2 with a padding of 2: 38 × 20, moved left and down into the picture
		expect(countColor(picture, RED) + countColor(picture, textColorOn(RED))).toBe(38 * 20);
		expect(pixelAt(picture, 62, 0)).toEqual([...RED]);
		expect(pixelAt(picture, 61, 0)).toEqual([...GREY]);
		expect(pixelAt(picture, 99, 19)).toEqual([...RED]);
		expect(pixelAt(picture, 99, 20)).toEqual([...GREY]);
		expect(textColorOn([255, 225, 25])).toEqual([0, 0, 0]);
		expect(textColorOn([0, 130, 200])).toEqual([255, 255, 255]);
	});

	it('puts a tag that would cover another at its next place, and at its first when every place is taken', () => {
		const picture = blank(100, 100);
		const taken = [{ left: 0, top: 20, right: 50, bottom: 40 }];
		drawTag(picture, 'a', 10, [40, 80], 2, RED, taken);
		// 'a' at scale 2 with its padding: 14 × 20, at its second place (bottom 80)
		expect(taken[1]).toEqual({ left: 10, top: 60, right: 24, bottom: 80 });
		expect(pixelAt(picture, 12, 30)).toEqual([...GREY]);
		drawTag(picture, 'b', 10, [40], 2, RED, taken);
		expect(taken[2]).toEqual({ left: 10, top: 20, right: 24, bottom: 40 });
	});

	it('writes black on a colour as light as a mid grey or lighter, white on a darker one, blue counted', () => {
		// luma (ITU-R BT.601) exactly 140, and a light blue whose blue lifts it over
		expect(textColorOn([140, 140, 140])).toEqual([0, 0, 0]);
		expect(textColorOn([139, 139, 139])).toEqual([255, 255, 255]);
		expect(textColorOn([100, 150, 255])).toEqual([0, 0, 0]);
		expect(textColorOn([100, 150, 0])).toEqual([255, 255, 255]);
	});

	it('keeps a tag at its first place beside another it only touches or stands apart from, and moves it off one it covers', () => {
		// 'a' at scale 2 with its padding is 14 × 20; the other tag stands at (50, 50) to (64, 70)
		const other: Rect = { left: 50, top: 50, right: 64, bottom: 70 };
		const placeOf = (left: number, bottom: number, taken: Rect[] = [other]): Rect => {
			drawTag(blank(200, 200), 'a', left, [bottom, 190], 2, RED, taken);
			return taken[taken.length - 1];
		};
		// touching it on the right, the left, below and above
		expect(placeOf(64, 70)).toEqual({ left: 64, top: 50, right: 78, bottom: 70 });
		expect(placeOf(36, 70)).toEqual({ left: 36, top: 50, right: 50, bottom: 70 });
		expect(placeOf(50, 90)).toEqual({ left: 50, top: 70, right: 64, bottom: 90 });
		expect(placeOf(50, 50)).toEqual({ left: 50, top: 30, right: 64, bottom: 50 });
		// apart across (on its rows) or down (in its columns)
		expect(placeOf(150, 70)).toEqual({ left: 150, top: 50, right: 164, bottom: 70 });
		expect(placeOf(10, 70)).toEqual({ left: 10, top: 50, right: 24, bottom: 70 });
		expect(placeOf(50, 20)).toEqual({ left: 50, top: 0, right: 64, bottom: 20 });
		expect(placeOf(50, 130)).toEqual({ left: 50, top: 110, right: 64, bottom: 130 });
		// covering one of two taken places moves it
		expect(placeOf(55, 60, [{ left: 150, top: 150, right: 160, bottom: 160 }, other])).toEqual({ left: 55, top: 170, right: 69, bottom: 190 });
	});

	it('moves a tag below the picture’s bottom edge up inside it', () => {
		const taken: Rect[] = [];
		drawTag(blank(100, 60), 'a', 10, [90], 2, RED, taken);
		expect(taken).toEqual([{ left: 10, top: 40, right: 24, bottom: 60 }]);
	});

	it('has twenty label colours that stand apart, each a full colour, none a zone’s or an Ignore Region’s', () => {
		const colours = new Map<string, Rgb>();
		for (let index = 0; index < 2000; index++) {
			const colour = labelColor(`label ${index}`);
			colours.set(colour.join(','), colour);
		}
		expect(colours.size).toBe(20);
		const list = [...colours.values()];
		for (const colour of list) {
			expect(colour).toHaveLength(3);
			for (const channel of colour) expect(Number.isInteger(channel) && channel >= 0 && channel <= 255).toBe(true);
		}
		for (const [index, one] of list.entries()) {
			for (const another of list.slice(index + 1)) expect(Math.hypot(one[0] - another[0], one[1] - another[1], one[2] - another[2])).toBeGreaterThan(35);
		}
		expect(colours.has(ZONE_COLOR.join(','))).toBe(false);
		expect(colours.has(IGNORE_REGION_COLOR.join(','))).toBe(false);
	});

	it('gives each label one colour in every run, the labels a camera sees most each its own', () => {
		expect(labelColor('car')).toEqual(labelColor('car'));
		const labels = ['car', 'person', 'dog', 'cat', 'truck', 'bus', 'bicycle', 'motorcycle', 'bird', 'package'];
		const colours = labels.map((label) => labelColor(label).join(','));
		expect(new Set(colours).size).toBe(labels.length);
		expect(colours).not.toContain(ZONE_COLOR.join(','));
		expect(colours).not.toContain(IGNORE_REGION_COLOR.join(','));
	});

	it('tags an object with its label, track, confidence and time seen, as asked', () => {
		expect(tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }), true)).toBe('car 87%');
		expect(tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }), false)).toBe('car');
		expect(tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }, { trackId: 3, seenForSeconds: 59.6 }), true)).toBe('car #3 87% 1m 0s');
		expect(tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }, { trackId: 12, seenForSeconds: 12.2 }), false)).toBe('car #12 12s');
		expect(tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }, { trackId: 1, seenForSeconds: 3725 }), false)).toBe('car #1 1h 2m');
		expect(tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }, { trackId: null, seenForSeconds: null }), false)).toBe('car');
	});

	it('writes the time seen in seconds under a minute, minutes under an hour, then hours', () => {
		const seen = (seconds: number) => tagText(detection('car', { x: 0, y: 0, width: 1, height: 1 }, { seenForSeconds: seconds }), false);
		expect([seen(59.4), seen(3599.4), seen(3600), seen(7199)]).toEqual(['car 59s', 'car 59m 59s', 'car 1h 0m', 'car 1h 59m']);
	});

	it('draws lines and text larger on larger pictures', () => {
		expect(markSizes({ width: 676, height: 380 })).toEqual({ line: 2, textScale: 2 });
		expect(markSizes({ width: 1080, height: 1920 })).toEqual({ line: 4, textScale: 5 });
		expect(markSizes({ width: 4000, height: 3000 })).toEqual({ line: 8, textScale: 10 });
	});
});

describe('the marks of a picture', () => {
	const car = detection('car', { x: 0.5, y: 0.5, width: 0.2, height: 0.2 });

	it('frames each kept object in its label’s colour, tagged above it', () => {
		const picture = blank(200, 100);
		drawMarks(picture, { detections: [car], zones: [], ignoreRegions: [] }, { showConfidence: true, showZones: true });
		const colour = labelColor('car');
		// the frame's left edge, beside the box at (100, 50)
		expect(pixelAt(picture, 99, 60)).toEqual([...colour]);
		expect(pixelAt(picture, 101, 60)).toEqual([...GREY]);
		// the tag above the box
		expect(pixelAt(picture, 98, 40)).toEqual([...colour]);
		expect(pixelAt(picture, 98, 27)).toEqual([...GREY]);
	});

	it('moves an object’s tag below its box where the zone’s name already stands above it', () => {
		const picture = blank(200, 100);
		const inZone = detection('car', { x: 0.1, y: 0.55, width: 0.2, height: 0.2 });
		drawMarks(picture, { detections: [inZone], zones: [{ name: 'drive', points: [[0.1, 0.5], [0.9, 0.5], [0.9, 0.9], [0.1, 0.9]] }], ignoreRegions: [] }, { showConfidence: false, showZones: true });
		// the zone's name above its corner (20, 50); the car's tag, 20 high, below the box (55 to 75) and its frame
		expect(pixelAt(picture, 20, 45)).toEqual([...ZONE_COLOR]);
		expect(pixelAt(picture, 18, 90)).toEqual([...labelColor('car')]);
		expect(pixelAt(picture, 50, 95)).not.toEqual([...GREY]);
		expect(pixelAt(picture, 40, 52)).not.toEqual([...labelColor('car')]);
	});

	it('puts an object’s tag just above its frame', () => {
		// the box from (100, 50) to (140, 70), its frame 2 wide; the tag 'car', 38 × 20, ends on the frame
		const picture = blank(200, 100);
		drawMarks(picture, { detections: [car], zones: [], ignoreRegions: [] }, { showConfidence: false, showZones: false });
		expect(pixelAt(picture, 130, 27)).toEqual([...GREY]);
		expect(pixelAt(picture, 130, 28)).toEqual([...labelColor('car')]);
		expect(pixelAt(picture, 130, 47)).toEqual([...labelColor('car')]);
		expect(pixelAt(picture, 145, 49)).toEqual([...GREY]);
	});

	it('names a zone above its topmost corner (the leftmost of two as high), and a second zone named there just inside it', () => {
		// in 200 × 100: the first zone, drawn from its bottom corner, has its top edge from (180, 30) to (40, 30); the second shares that edge
		const picture = blank(200, 100);
		const zones = [
			{ name: 'drive', points: [[0.5, 0.8], [0.9, 0.3], [0.2, 0.3]] as Array<[number, number]> },
			{ name: 'gate', points: [[0.9, 0.3], [0.2, 0.3], [0.1, 0.8]] as Array<[number, number]> },
		];
		drawMarks(picture, { detections: [], zones, ignoreRegions: [] }, { showConfidence: false, showZones: true });
		// 'drive', 62 × 20, from (40, 10); its top padding is white
		expect(pixelAt(picture, 41, 10)).toEqual([...ZONE_COLOR]);
		expect(pixelAt(picture, 39, 10)).toEqual([...GREY]);
		expect(pixelAt(picture, 101, 10)).toEqual([...ZONE_COLOR]);
		expect(pixelAt(picture, 102, 10)).toEqual([...GREY]);
		// 'gate', 50 × 20, below the edge: from (40, 32), inside both zones
		expect(pixelAt(picture, 70, 33)).toEqual([...ZONE_COLOR]);
		expect(pixelAt(picture, 89, 50)).toEqual([...ZONE_COLOR]);
		expect(pixelAt(picture, 85, 53)).toEqual([...GREY]);
	});

	it('names an Ignore Region “ignored”', () => {
		// its topmost corners (20, 30) and (180, 30); the tag, 86 × 20, from (20, 10)
		const picture = blank(200, 100);
		drawMarks(picture, { detections: [], zones: [], ignoreRegions: [[[0.1, 0.3], [0.9, 0.3], [0.9, 0.6]]] }, { showConfidence: false, showZones: true });
		expect(pixelAt(picture, 105, 10)).toEqual([...IGNORE_REGION_COLOR]);
		expect(pixelAt(picture, 106, 10)).toEqual([...GREY]);
		const text = blank(200, 100, IGNORE_REGION_COLOR);
		drawText(text, 'ignored', 22, 12, 2, textColorOn(IGNORE_REGION_COLOR));
		for (let y = 12; y < 28; y++) for (let x = 22; x < 104; x++) expect(pixelAt(picture, x, y)).toEqual(pixelAt(text, x, y));
	});

	it('leaves out an object whose box is not known', () => {
		const picture = blank(50, 50);
		drawMarks(picture, { detections: [{ ...car, relativeBox: null }], zones: [], ignoreRegions: [] }, { showConfidence: true, showZones: true });
		expect(countColor(picture, GREY)).toBe(50 * 50);
	});

	it('outlines and names the zones and Ignore Regions when asked, and only then', () => {
		const marks: PictureMarks = {
			detections: [],
			zones: [{ name: 'drive', points: [[0.1, 0.5], [0.9, 0.5], [0.9, 0.9], [0.1, 0.9]] }],
			ignoreRegions: [[[0.6, 0.1], [0.9, 0.1], [0.9, 0.3]]],
		};
		const shown = blank(200, 100);
		drawMarks(shown, marks, { showConfidence: true, showZones: true });
		expect(pixelAt(shown, 100, 90)).toEqual([...ZONE_COLOR]);
		// edged in black on both sides
		expect(pixelAt(shown, 100, 88)).toEqual([...ZONE_EDGE_COLOR]);
		expect(pixelAt(shown, 100, 91)).toEqual([...ZONE_EDGE_COLOR]);
		expect(pixelAt(shown, 100, 70)).toEqual([...GREY]);
		expect(pixelAt(shown, 179, 20)).toEqual([...IGNORE_REGION_COLOR]);
		// the zone's tag, above its top-left corner: white with black text
		expect(pixelAt(shown, 21, 49)).toEqual([...ZONE_COLOR]);
		expect(countColor(shown, [0, 0, 0])).toBeGreaterThan(0);
		const hidden = blank(200, 100);
		drawMarks(hidden, marks, { showConfidence: true, showZones: false });
		expect(countColor(hidden, GREY)).toBe(200 * 100);
	});

	it('takes zones in pixels or in fractions to fractions of the picture', () => {
		const zone = { name: 'a', points: [[10, 20], [30, 20], [30, 40]] as Array<[number, number]> };
		expect(zoneMarks({ zones: [zone], ignoreRegions: [[[0, 0], [50, 0], [50, 10]]], units: 'pixels', anchor: 'center', onlyInZones: false }, { width: 100, height: 50 })).toEqual({
			zones: [{ name: 'a', points: [[0.1, 0.4], [0.3, 0.4], [0.3, 0.8]] }],
			ignoreRegions: [[[0, 0], [0.5, 0], [0.5, 0.2]]],
		});
		expect(zoneMarks({ zones: [zone], units: 'relative', anchor: 'center', onlyInZones: false }, { width: 100, height: 50 })).toEqual({
			zones: [{ name: 'a', points: [[10, 20], [30, 20], [30, 40]] }],
			ignoreRegions: [],
		});
	});
});

describe('turning and shrinking a picture', () => {
	it('stands a picture upright as its EXIF orientation says, as the boxes are turned', async () => {
		// 3 × 2 stored pixels, each its own value
		const stored: RgbPicture = { width: 3, height: 2, pixels: new Uint8Array(Array.from({ length: 18 }, (_, index) => Math.floor(index / 3) * 10)) };
		for (let orientation = 1; orientation <= 8; orientation++) {
			const upright = await uprightPicture(stored, orientation);
			expect([upright.width, upright.height]).toEqual(orientation >= 5 ? [2, 3] : [3, 2]);
			for (let y = 0; y < 2; y++) {
				for (let x = 0; x < 3; x++) {
					const seen = uprightBox({ x, y, width: 1, height: 1 }, { width: 3, height: 2, orientation });
					expect(pixelAt(upright, seen.x, seen.y)).toEqual(pixelAt(stored, x, y));
				}
			}
		}
		expect(await uprightPicture(stored, undefined)).toBe(stored);
		expect(await uprightPicture(stored, 9)).toBe(stored);
	});

	it('fits a size within a longer side, keeping its shape', () => {
		expect(sizeWithin({ width: 4000, height: 3000 }, 1920)).toEqual({ width: 1920, height: 1440 });
		expect(sizeWithin({ width: 3000, height: 4000 }, 1920)).toEqual({ width: 1440, height: 1920 });
		expect(sizeWithin({ width: 1920, height: 1080 }, 1920)).toEqual({ width: 1920, height: 1080 });
		expect(sizeWithin({ width: 1920, height: 1080 }, undefined)).toEqual({ width: 1920, height: 1080 });
		expect(sizeWithin({ width: 10000, height: 10 }, 64)).toEqual({ width: 64, height: 1 });
		expect(sizeWithin({ width: 100, height: 50 }, 200)).toEqual({ width: 100, height: 50 });
	});

	it('shrinks a picture of one colour to that colour in every pixel, whatever the sizes', async () => {
		// 7 → 6 across and 9 → 7 down: the last cell's end lands a hair past the last pixel in floating point
		const sizes: Array<[number, number, number, number]> = [[7, 9, 6, 7], [997, 601, 100, 60], [640, 480, 7, 5], [37, 1000, 1, 27]];
		for (const [width, height, toWidth, toHeight] of sizes) {
			const shrunk = await shrinkPicture(blank(width, height, RED), { width: toWidth, height: toHeight });
			expect([shrunk.width, shrunk.height, countColor(shrunk, RED)]).toEqual([toWidth, toHeight, toWidth * toHeight]);
		}
	});

	it('shrinks a picture one pixel wide down its length', async () => {
		const tall: RgbPicture = { width: 1, height: 1000, pixels: new Uint8Array(3000).map((_, index) => (Math.floor(index / 3) % 2 ? 200 : 0)) };
		const size = sizeWithin(tall, 500);
		const shrunk = await shrinkPicture(tall, size);
		expect(shrunk).toEqual({ width: 1, height: 500, pixels: new Uint8Array(1500).fill(100) });
	});

	it('shrinks by averaging the pixels each new pixel covers', async () => {
		const picture: RgbPicture = { width: 3, height: 2, pixels: new Uint8Array([0, 0, 0, 30, 30, 30, 60, 60, 60, 90, 90, 90, 120, 120, 120, 150, 150, 150]) };
		const shrunk = await shrinkPicture(picture, { width: 2, height: 1 });
		// across: cell 0 covers pixels 0 and half of 1, cell 1 half of 1 and 2; down: both rows
		expect(shrunk).toEqual({ width: 2, height: 1, pixels: new Uint8Array([55, 55, 55, 95, 95, 95]) });
		expect(await shrinkPicture(picture, { width: 3, height: 2 })).toBe(picture);
	});
});

describe('the node’s own picture of a photo', () => {
	const photo = readFileSync(fixture('car.jpg'));
	const marks: PictureMarks = { detections: [detection('car', { x: 0.44, y: 0.52, width: 0.045, height: 0.06 })], zones: [], ignoreRegions: [] };
	const settings = { showConfidence: true, showZones: true, quality: 90 };

	function decodedJpeg(bytes: Buffer): RgbPicture {
		const { width, height, data } = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false });
		return { width, height, pixels: data };
	}

	/** The largest difference of one channel. */
	const distance = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((value, index) => Math.abs(value - b[index])));

	it('is a JPEG of the photo with the object framed in its label’s colour', async () => {
		const drawn = await drawPicture(photo, undefined, marks, settings);
		if (drawn.unreadable !== undefined) throw new Error(drawn.unreadable);
		expect(drawn.size).toEqual({ width: 676, height: 380 });
		expect(drawn.damaged).toBe(false);
		const picture = decodedJpeg(drawn.jpeg);
		expect([picture.width, picture.height]).toEqual([676, 380]);
		const plain = decodedJpeg(photo);
		const colour = labelColor('car');
		// the tag above the box, a band of the colour (the JPEG keeps it nearly exact)
		expect(distance(pixelAt(picture, 310, 185), colour)).toBeLessThan(20);
		// the frame's left edge, 2 pixels wide just left of x = 297 (the JPEG's halved colour resolution blurs it)
		expect(distance(pixelAt(picture, 296, 205), colour)).toBeLessThan(distance(pixelAt(plain, 296, 205), colour) - 50);
		// away from the marks, the photo
		expect(distance(pixelAt(picture, 150, 300), pixelAt(plain, 150, 300))).toBeLessThan(10);
	});

	it('is within Max Side, and stands upright when the file says it is stored turned', async () => {
		const small = await drawPicture(photo, undefined, marks, { ...settings, maxSide: 300 });
		// 676 × 380 decoded at 3/8: 254 × 143, within 300 and more than three quarters of it
		expect(small.unreadable === undefined && small.size).toEqual({ width: 254, height: 143 });
		// within 160 an eighth (85) is too small: decoded at 2/8 (169 × 95) and shrunk
		const smaller = await drawPicture(photo, undefined, marks, { ...settings, maxSide: 160 });
		expect(smaller.unreadable === undefined && smaller.size).toEqual({ width: 160, height: 90 });
		const turned = await drawPicture(photo, 6, marks, { ...settings, maxSide: 338 });
		expect(turned.unreadable === undefined && turned.size).toEqual({ width: 190, height: 338 });
	});

	it('says why a file cannot be drawn on', async () => {
		expect(await drawPicture(readFileSync(fixture('car-96x64.gif')), undefined, marks, settings)).toEqual({
			unreadable: 'the node draws on JPEG (baseline or progressive, colour or greyscale) and PNG only',
		});
	});
});
