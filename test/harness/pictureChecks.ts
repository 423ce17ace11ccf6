/**
 * Checks of a picture the node drew, by its pixels: a JPEG keeps a frame's colour only roughly
 * (its colour is stored at half resolution), so a frame is told by the colour moving towards the
 * label's against the same place in the picture it was drawn on.
 */
import type { Rgb } from '../../nodes/ImageInference/picture/draw/canvas';
import { decodeImage } from '../reference-server/image-codec';

export interface Pixels {
	width: number;
	height: number;
	pixel(x: number, y: number): number[];
}

/** A JPEG's or PNG's pixels, read with the reference server's codec (jpeg-js, pngjs), not the node's. */
export function pixelsOf(bytes: Buffer): Pixels {
	const { width, height, data } = decodeImage(bytes);
	return { width, height, pixel: (x, y) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)] };
}

/** The largest difference of one channel. */
export const channelDistance = (a: readonly number[], b: readonly number[]): number => Math.max(...a.map((value, index) => Math.abs(value - b[index])));

/**
 * Whether the box (in the pictures' pixels) is framed in the colour: the middle of its left frame
 * edge (the pixel just outside the box) is nearer the colour than the plain picture there, by at
 * least 50 in its furthest channel.
 */
export function framedIn(drawn: Pixels, plain: Pixels, box: { x: number; y: number; width: number; height: number }, color: Rgb): boolean {
	const x = Math.round(box.x) - 1;
	const y = Math.round(box.y + box.height / 2);
	return channelDistance(drawn.pixel(x, y), color) < channelDistance(plain.pixel(x, y), color) - 50;
}
