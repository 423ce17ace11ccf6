import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from './font';
import type { RgbaImage } from './image-codec';

export type Rgb = [number, number, number];

type Box = { x: number; y: number; width: number; height: number };

function setPixel(image: RgbaImage, x: number, y: number, [r, g, b]: Rgb): void {
	if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
	const offset = (y * image.width + x) * 4;
	image.data[offset] = r;
	image.data[offset + 1] = g;
	image.data[offset + 2] = b;
	image.data[offset + 3] = 255;
}

export function fillRect(image: RgbaImage, x: number, y: number, width: number, height: number, colour: Rgb): void {
	for (let row = Math.max(0, y); row < Math.min(image.height, y + height); row++) {
		for (let column = Math.max(0, x); column < Math.min(image.width, x + width); column++) {
			setPixel(image, column, row, colour);
		}
	}
}

/**
 * The outline of a box, `stroke` pixels thick, drawn just outside its bounds so the object inside
 * stays uncovered; a side that would fall off the image is drawn just inside instead.
 */
export function strokeAround(image: RgbaImage, box: Box, stroke: number, colour: Rgb): void {
	const { x, y, width, height } = box;
	const left = x - stroke >= 0 ? x - stroke : x;
	const top = y - stroke >= 0 ? y - stroke : y;
	const right = x + width + stroke <= image.width ? x + width + stroke : x + width;
	const bottom = y + height + stroke <= image.height ? y + height + stroke : y + height;
	fillRect(image, left, top, right - left, stroke, colour);
	fillRect(image, left, bottom - stroke, right - left, stroke, colour);
	fillRect(image, left, top, stroke, bottom - top, colour);
	fillRect(image, right - stroke, top, stroke, bottom - top, colour);
}

/** The size of a label (text on a filled background) at `scale` pixels per font pixel. */
export function labelSize(text: string, scale: number): { width: number; height: number } {
	return { width: text.length * (GLYPH_WIDTH + 1) * scale + scale, height: (GLYPH_HEIGHT + 2) * scale };
}

/** Text on a filled label, its top-left corner at (x, y); scale 1 is 5×9 pixels a character. */
export function drawLabel(image: RgbaImage, text: string, x: number, y: number, scale: number, background: Rgb, foreground: Rgb): void {
	const { width, height } = labelSize(text, scale);
	fillRect(image, x, y, width, height, background);
	[...text].forEach((character, index) => {
		glyph(character).forEach((row, rowIndex) => {
			[...row].forEach((bit, columnIndex) => {
				if (bit !== '1') return;
				fillRect(image, x + scale + (index * (GLYPH_WIDTH + 1) + columnIndex) * scale, y + scale + rowIndex * scale, scale, scale, foreground);
			});
		});
	});
}
