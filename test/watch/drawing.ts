/** Drawing a zone over a picture, for the pictures in docs/ that test/watch/draw-*.ts make. */
import { writeFileSync } from 'node:fs';

import type { Point } from '../../nodes/ImageInference/pipeline/geometry';
import { insidePolygon } from '../../nodes/ImageInference/pipeline/geometry';
import type { Rgb } from '../reference-server/draw';
import { fillRect } from '../reference-server/draw';
import type { RgbaImage } from '../reference-server/image-codec';
import { encodeImage } from '../reference-server/image-codec';

/** Blends the colour into every pixel inside the polygon. */
export function shade(image: RgbaImage, polygon: Point[], colour: Rgb, share: number): void {
	for (let y = 0; y < image.height; y++) {
		for (let x = 0; x < image.width; x++) {
			if (!insidePolygon([x + 0.5, y + 0.5], polygon)) continue;
			const offset = (y * image.width + x) * 4;
			for (let channel = 0; channel < 3; channel++) image.data[offset + channel] = Math.round(image.data[offset + channel] * (1 - share) + colour[channel] * share);
		}
	}
}

/** The polygon's edges, `thickness` pixels wide. */
export function outline(image: RgbaImage, polygon: Point[], colour: Rgb, thickness: number): void {
	polygon.forEach(([x1, y1], index) => {
		const [x2, y2] = polygon[(index + 1) % polygon.length];
		const steps = Math.ceil(Math.max(Math.abs(x2 - x1), Math.abs(y2 - y1)));
		for (let step = 0; step <= steps; step++) {
			const x = x1 + ((x2 - x1) * step) / steps;
			const y = y1 + ((y2 - y1) * step) / steps;
			fillRect(image, Math.round(x - thickness / 2), Math.round(y - thickness / 2), thickness, thickness, colour);
		}
	});
}

/** Writes two panels of one width, one above the other with a white gap, as a JPEG, and prints where. */
export function writeStacked([top, bottom]: RgbaImage[], file: string): void {
	const both: RgbaImage = { width: top.width, height: top.height + bottom.height + 4, data: Buffer.alloc(top.width * (top.height + bottom.height + 4) * 4, 255) };
	top.data.copy(both.data, 0);
	bottom.data.copy(both.data, top.width * (top.height + 4) * 4);
	writeFileSync(file, encodeImage(both, 'jpeg'));
	process.stdout.write(`${file}\n`);
}
