import type { Size } from '../pipeline/geometry';
import type { RgbPicture } from './codec/codec';
import type { Pause } from './slices';
import { sliceTimer } from './slices';

/** The size within `maxSide` on its longer side, the shape kept; the size itself when it fits. */
export function sizeWithin(size: Size, maxSide: number | undefined): Size {
	const longer = Math.max(size.width, size.height);
	if (maxSide === undefined || longer <= maxSide) return { width: size.width, height: size.height };
	const scale = maxSide / longer;
	return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/**
 * For each of `to` cells along one side, the first of the `from` cells it covers, how many, and
 * how much of each (at `offset` in `weights`; a cell's weights add up to 1).
 */
interface Coverage {
	first: Int32Array;
	count: Int32Array;
	offset: Int32Array;
	weights: Float64Array;
}

function coverage(from: number, to: number): Coverage {
	const step = from / to;
	const first = new Int32Array(to);
	const count = new Int32Array(to);
	const offset = new Int32Array(to);
	const weights: number[] = [];
	for (let cell = 0; cell < to; cell++) {
		const start = cell * step;
		const end = start + step;
		first[cell] = Math.floor(start);
		offset[cell] = weights.length;
		for (let source = first[cell]; source < end && source < from; source++) weights.push((Math.min(end, source + 1) - Math.max(start, source)) / step);
		count[cell] = weights.length - offset[cell];
	}
	return { first, count, offset, weights: Float64Array.from(weights) };
}

/** The picture made smaller: each new pixel the average of the old pixels it covers (a box filter), a row at a time between pauses. */
export async function shrinkPicture(picture: RgbPicture, size: Size, pause: Pause = sliceTimer()): Promise<RgbPicture> {
	if (size.width >= picture.width && size.height >= picture.height) return picture;
	const across = coverage(picture.width, size.width);
	const down = coverage(picture.height, size.height);
	const source = picture.pixels;
	// rows first: each old row shrunk across, kept in 256ths (half the memory of floats: a 2,000 × 1,500 step is 17 MB)
	const rowLength = size.width * 3;
	const rows = new Uint16Array(picture.height * rowLength);
	for (let y = 0; y < picture.height; y++) {
		const rowStart = y * picture.width * 3;
		let to = y * rowLength;
		for (let x = 0; x < size.width; x++) {
			let red = 0;
			let green = 0;
			let blue = 0;
			const weightsAt = across.offset[x];
			let at = rowStart + across.first[x] * 3;
			for (let index = 0; index < across.count[x]; index++, at += 3) {
				const weight = across.weights[weightsAt + index];
				red += source[at] * weight;
				green += source[at + 1] * weight;
				blue += source[at + 2] * weight;
			}
			rows[to++] = Math.round(red * 256);
			rows[to++] = Math.round(green * 256);
			rows[to++] = Math.round(blue * 256);
		}
		await pause();
	}
	const pixels = new Uint8Array(size.height * rowLength);
	const sums = new Float64Array(rowLength);
	for (let y = 0; y < size.height; y++) {
		sums.fill(0);
		for (let index = 0; index < down.count[y]; index++) {
			const weight = down.weights[down.offset[y] + index];
			const rowStart = (down.first[y] + index) * rowLength;
			for (let x = 0; x < rowLength; x++) sums[x] += rows[rowStart + x] * weight;
		}
		const to = y * rowLength;
		for (let x = 0; x < rowLength; x++) pixels[to + x] = Math.round(sums[x] / 256);
		await pause();
	}
	return { width: size.width, height: size.height, pixels };
}
