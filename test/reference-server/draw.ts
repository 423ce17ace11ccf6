import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from './font';
import type { RgbaImage } from './image-codec';

export type Rgb = [number, number, number];

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

/** The outline of a box, `stroke` pixels thick, drawn inside its bounds. */
export function strokeRect(image: RgbaImage, box: { x: number; y: number; width: number; height: number }, stroke: number, colour: Rgb): void {
	const { x, y, width, height } = box;
	fillRect(image, x, y, width, stroke, colour);
	fillRect(image, x, y + height - stroke, width, stroke, colour);
	fillRect(image, x, y, stroke, height, colour);
	fillRect(image, x + width - stroke, y, stroke, height, colour);
}

/** Text on a filled label, its bottom-left corner at (x, y); scale 1 is 5×7 pixels a character. */
export function drawLabel(image: RgbaImage, text: string, x: number, y: number, scale: number, background: Rgb, foreground: Rgb): void {
	const padding = scale;
	const width = text.length * (GLYPH_WIDTH + 1) * scale + padding * 2;
	const height = GLYPH_HEIGHT * scale + padding * 2;
	const top = Math.max(0, y - height);
	fillRect(image, x, top, width, height, background);
	[...text].forEach((character, index) => {
		const rows = glyph(character);
		rows.forEach((row, rowIndex) => {
			[...row].forEach((bit, columnIndex) => {
				if (bit !== '1') return;
				fillRect(
					image,
					x + padding + (index * (GLYPH_WIDTH + 1) + columnIndex) * scale,
					top + padding + rowIndex * scale,
					scale,
					scale,
					foreground,
				);
			});
		});
	});
}
