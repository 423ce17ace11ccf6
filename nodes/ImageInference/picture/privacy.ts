import type { Box } from '../pipeline/geometry';
import type { RgbPicture } from './codec/codec';
import type { Pause } from './slices';
import { sliceTimer } from './slices';

export const PRIVACY_EFFECTS = ['blur', 'pixelate'] as const;
export type PrivacyEffect = (typeof PRIVACY_EFFECTS)[number];

/**
 * A box in whole pixels, widened by a twentieth of its size on each side (a box cut close to a face
 * leaves its edge) and cut to the picture. A box given from its far corner (a negative width or
 * height) covers the same area.
 */
function hiddenArea(box: Box, picture: RgbPicture): { left: number; top: number; right: number; bottom: number } {
	const width = Math.abs(box.width);
	const height = Math.abs(box.height);
	const x = Math.min(box.x, box.x + box.width);
	const y = Math.min(box.y, box.y + box.height);
	const marginX = (width * picture.width) / 20;
	const marginY = (height * picture.height) / 20;
	return {
		left: Math.max(0, Math.floor(x * picture.width - marginX)),
		top: Math.max(0, Math.floor(y * picture.height - marginY)),
		right: Math.min(picture.width, Math.ceil((x + width) * picture.width + marginX)),
		bottom: Math.min(picture.height, Math.ceil((y + height) * picture.height + marginY)),
	};
}

/**
 * Each box (in fractions of the picture) made unrecognisable, in place: pixelated into blocks of a
 * tenth of its longer side (at least 8 pixels), or blurred three times over with a box blur of
 * that radius (close to a Gaussian blur), so a face or a plate keeps its colour and place but
 * loses its detail.
 */
export async function hideBoxes(picture: RgbPicture, boxes: readonly Box[], effect: PrivacyEffect, pause: Pause = sliceTimer()): Promise<void> {
	for (const box of boxes) {
		const area = hiddenArea(box, picture);
		if (area.right <= area.left || area.bottom <= area.top) continue;
		const size = Math.max(8, Math.round(Math.max(area.right - area.left, area.bottom - area.top) / 10));
		if (effect === 'pixelate') await pixelate(picture, area, size, pause);
		else for (let pass = 0; pass < 3; pass++) await boxBlur(picture, area, size, pause);
	}
}

type Area = ReturnType<typeof hiddenArea>;

async function pixelate(picture: RgbPicture, area: Area, block: number, pause: Pause): Promise<void> {
	const { pixels } = picture;
	for (let top = area.top; top < area.bottom; top += block) {
		const bottom = Math.min(area.bottom, top + block);
		for (let left = area.left; left < area.right; left += block) {
			const right = Math.min(area.right, left + block);
			let red = 0;
			let green = 0;
			let blue = 0;
			for (let y = top; y < bottom; y++) {
				for (let at = (y * picture.width + left) * 3; at < (y * picture.width + right) * 3; at += 3) {
					red += pixels[at];
					green += pixels[at + 1];
					blue += pixels[at + 2];
				}
			}
			const count = (bottom - top) * (right - left);
			const mean = [Math.round(red / count), Math.round(green / count), Math.round(blue / count)];
			for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) pixels.set(mean, (y * picture.width + x) * 3);
		}
		await pause();
	}
}

/**
 * One line of a box blur: `length` pixels from `start`, `stride` bytes apart, each replaced by the
 * mean of the window [index - radius, index + radius] cut to the line (a running sum).
 */
function blurLine(pixels: Uint8Array, line: Float64Array, start: number, stride: number, length: number, radius: number): void {
	for (let index = 0, at = start; index < length; index++, at += stride) {
		line[index * 3] = pixels[at];
		line[index * 3 + 1] = pixels[at + 1];
		line[index * 3 + 2] = pixels[at + 2];
	}
	let red = 0;
	let green = 0;
	let blue = 0;
	for (let index = 0; index < Math.min(radius, length); index++) {
		red += line[index * 3];
		green += line[index * 3 + 1];
		blue += line[index * 3 + 2];
	}
	for (let index = 0, at = start; index < length; index++, at += stride) {
		const entering = index + radius;
		const leaving = index - radius - 1;
		if (entering < length) {
			red += line[entering * 3];
			green += line[entering * 3 + 1];
			blue += line[entering * 3 + 2];
		}
		if (leaving >= 0) {
			red -= line[leaving * 3];
			green -= line[leaving * 3 + 1];
			blue -= line[leaving * 3 + 2];
		}
		const count = Math.min(length - 1, entering) - Math.max(0, index - radius) + 1;
		pixels[at] = Math.round(red / count);
		pixels[at + 1] = Math.round(green / count);
		pixels[at + 2] = Math.round(blue / count);
	}
}

/** One pass of a box blur of `radius` inside the area, across then down; pixels outside the area are left as they are and not read. */
async function boxBlur(picture: RgbPicture, area: Area, radius: number, pause: Pause): Promise<void> {
	const width = area.right - area.left;
	const height = area.bottom - area.top;
	const line = new Float64Array(Math.max(width, height) * 3);
	for (let y = area.top; y < area.bottom; y++) {
		blurLine(picture.pixels, line, (y * picture.width + area.left) * 3, 3, width, radius);
		await pause();
	}
	for (let x = area.left; x < area.right; x++) {
		blurLine(picture.pixels, line, (area.top * picture.width + x) * 3, picture.width * 3, height, radius);
		await pause();
	}
}
