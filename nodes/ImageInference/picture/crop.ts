import type { Box } from '../pipeline/geometry';
import type { RgbPicture } from './codec/codec';

/**
 * The part of the picture around a box (in fractions of the picture): the box grown by
 * `padding` (0.1: a tenth of its width and height in all, as Frigate crops), at least
 * `minSide` pixels each way where the picture allows, moved inside the picture rather than cut.
 */
export function cropAround(picture: RgbPicture, box: Box, padding: number, minSide: number): RgbPicture {
	const centerX = (box.x + box.width / 2) * picture.width;
	const centerY = (box.y + box.height / 2) * picture.height;
	const width = Math.min(picture.width, Math.max(minSide, Math.round(box.width * picture.width * (1 + padding)), 1));
	const height = Math.min(picture.height, Math.max(minSide, Math.round(box.height * picture.height * (1 + padding)), 1));
	const left = Math.max(0, Math.min(picture.width - width, Math.round(centerX - width / 2)));
	const top = Math.max(0, Math.min(picture.height - height, Math.round(centerY - height / 2)));
	const pixels = new Uint8Array(width * height * 3);
	for (let row = 0; row < height; row++) {
		const from = ((top + row) * picture.width + left) * 3;
		pixels.set(picture.pixels.subarray(from, from + width * 3), row * width * 3);
	}
	return { width, height, pixels };
}
