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

/** One old row shrunk across, into `row`. */
function shrinkRowAcross(source: Uint8Array, rowStart: number, across: Coverage, row: Float32Array): void {
	const { first, count, offset, weights } = across;
	for (let x = 0, to = 0; x < first.length; x++) {
		let red = 0;
		let green = 0;
		let blue = 0;
		let at = rowStart + first[x] * 3;
		const end = offset[x] + count[x];
		for (let index = offset[x]; index < end; index++, at += 3) {
			const weight = weights[index];
			red += source[at] * weight;
			green += source[at + 1] * weight;
			blue += source[at + 2] * weight;
		}
		row[to++] = red;
		row[to++] = green;
		row[to++] = blue;
	}
}

function addWeighted(sums: Float32Array, row: Float32Array, weight: number): void {
	for (let x = 0; x < sums.length; x++) sums[x] += row[x] * weight;
}

function roundInto(pixels: Uint8Array, to: number, sums: Float32Array): void {
	for (let x = 0; x < sums.length; x++) pixels[to + x] = Math.round(sums[x]);
}

/**
 * The picture made smaller: each new pixel the average of the old pixels it covers (a box filter),
 * a new row at a time between pauses. Each new row is made from the old rows it covers, each shrunk
 * across as it is needed; the one it shares with the next new row is kept for it, so no shrunk copy
 * of the whole picture is held.
 */
export async function shrinkPicture(picture: RgbPicture, size: Size, pause: Pause = sliceTimer()): Promise<RgbPicture> {
	if (size.width >= picture.width && size.height >= picture.height) return picture;
	const across = coverage(picture.width, size.width);
	const down = coverage(picture.height, size.height);
	const rowLength = size.width * 3;
	const pixels = new Uint8Array(size.height * rowLength);
	const sums = new Float32Array(rowLength);
	let shrunk = new Float32Array(rowLength);
	let kept = new Float32Array(rowLength);
	let keptRow = -1;
	for (let y = 0; y < size.height; y++) {
		sums.fill(0);
		for (let index = 0; index < down.count[y]; index++) {
			const sourceRow = down.first[y] + index;
			if (sourceRow !== keptRow) {
				shrinkRowAcross(picture.pixels, sourceRow * picture.width * 3, across, shrunk);
				[shrunk, kept] = [kept, shrunk];
				keptRow = sourceRow;
			}
			addWeighted(sums, kept, down.weights[down.offset[y] + index]);
		}
		roundInto(pixels, y * rowLength, sums);
		await pause();
	}
	return { width: size.width, height: size.height, pixels };
}
