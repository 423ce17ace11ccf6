import type { Size } from '../pipeline/geometry';
import type { RgbPicture } from './codec/codec';

/** The size within `maxSide` on its longer side, the shape kept; the size itself when it fits. */
export function sizeWithin(size: Size, maxSide: number | undefined): Size {
	const longer = Math.max(size.width, size.height);
	if (maxSide === undefined || longer <= maxSide) return { width: size.width, height: size.height };
	const scale = maxSide / longer;
	return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/** For each of `to` cells along one side, the `from` cells it covers and how much of each (their weights add up to 1). */
function coverage(from: number, to: number): Array<{ first: number; weights: number[] }> {
	const step = from / to;
	return Array.from({ length: to }, (_, cell) => {
		const start = cell * step;
		const end = start + step;
		const first = Math.floor(start);
		const weights: number[] = [];
		for (let source = first; source < end && source < from; source++) {
			weights.push((Math.min(end, source + 1) - Math.max(start, source)) / step);
		}
		return { first, weights };
	});
}

/** The picture made smaller: each new pixel the average of the old pixels it covers (a box filter). */
export function shrinkPicture(picture: RgbPicture, size: Size): RgbPicture {
	if (size.width >= picture.width && size.height >= picture.height) return picture;
	const across = coverage(picture.width, size.width);
	const down = coverage(picture.height, size.height);
	// rows first: each old row shrunk across, kept in 256ths (half the memory of floats: a 2,000 × 1,500 step is 17 MB)
	const rows = new Uint16Array(picture.height * size.width * 3);
	for (let y = 0; y < picture.height; y++) {
		const rowStart = y * picture.width * 3;
		across.forEach(({ first, weights }, x) => {
			let red = 0;
			let green = 0;
			let blue = 0;
			weights.forEach((weight, offset) => {
				const at = rowStart + (first + offset) * 3;
				red += picture.pixels[at] * weight;
				green += picture.pixels[at + 1] * weight;
				blue += picture.pixels[at + 2] * weight;
			});
			const to = (y * size.width + x) * 3;
			rows[to] = Math.round(red * 256);
			rows[to + 1] = Math.round(green * 256);
			rows[to + 2] = Math.round(blue * 256);
		});
	}
	const pixels = new Uint8Array(size.width * size.height * 3);
	down.forEach(({ first, weights }, y) => {
		for (let x = 0; x < size.width * 3; x++) {
			let sum = 0;
			weights.forEach((weight, offset) => {
				sum += rows[(first + offset) * size.width * 3 + x] * weight;
			});
			pixels[y * size.width * 3 + x] = Math.round(sum / 256);
		}
	});
	return { width: size.width, height: size.height, pixels };
}
