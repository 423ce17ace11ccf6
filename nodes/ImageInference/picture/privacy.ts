import type { Box } from '../pipeline/geometry';
import type { RgbPicture } from './codec/codec';

export const PRIVACY_EFFECTS = ['blur', 'pixelate'] as const;
export type PrivacyEffect = (typeof PRIVACY_EFFECTS)[number];

/** A box in whole pixels, widened by a twentieth of its size on each side (a box cut close to a face leaves its edge) and cut to the picture. */
function hiddenArea(box: Box, picture: RgbPicture): { left: number; top: number; right: number; bottom: number } {
	const marginX = (box.width * picture.width) / 20;
	const marginY = (box.height * picture.height) / 20;
	return {
		left: Math.max(0, Math.floor(box.x * picture.width - marginX)),
		top: Math.max(0, Math.floor(box.y * picture.height - marginY)),
		right: Math.min(picture.width, Math.ceil((box.x + box.width) * picture.width + marginX)),
		bottom: Math.min(picture.height, Math.ceil((box.y + box.height) * picture.height + marginY)),
	};
}

/**
 * Each box (in fractions of the picture) made unrecognisable, in place: pixelated into blocks of a
 * tenth of its longer side (at least 8 pixels), or blurred three times over with a box blur of
 * that radius (close to a Gaussian blur), so a face or a plate keeps its colour and place but
 * loses its detail.
 */
export function hideBoxes(picture: RgbPicture, boxes: readonly Box[], effect: PrivacyEffect): void {
	for (const box of boxes) {
		const area = hiddenArea(box, picture);
		if (area.right <= area.left || area.bottom <= area.top) continue;
		const size = Math.max(8, Math.round(Math.max(area.right - area.left, area.bottom - area.top) / 10));
		if (effect === 'pixelate') pixelate(picture, area, size);
		else for (let pass = 0; pass < 3; pass++) boxBlur(picture, area, size);
	}
}

type Area = ReturnType<typeof hiddenArea>;

function pixelate(picture: RgbPicture, area: Area, block: number): void {
	for (let top = area.top; top < area.bottom; top += block) {
		const bottom = Math.min(area.bottom, top + block);
		for (let left = area.left; left < area.right; left += block) {
			const right = Math.min(area.right, left + block);
			const sum = [0, 0, 0];
			for (let y = top; y < bottom; y++) {
				for (let x = left; x < right; x++) for (let channel = 0; channel < 3; channel++) sum[channel] += picture.pixels[(y * picture.width + x) * 3 + channel];
			}
			const count = (bottom - top) * (right - left);
			const mean = sum.map((value) => Math.round(value / count));
			for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) picture.pixels.set(mean, (y * picture.width + x) * 3);
		}
	}
}

/** One pass of a box blur of `radius` inside the area, across then down; pixels outside the area are left as they are and not read. */
function boxBlur(picture: RgbPicture, area: Area, radius: number): void {
	const width = area.right - area.left;
	const height = area.bottom - area.top;
	const line = new Float64Array(Math.max(width, height) * 3);
	const blurLine = (length: number, at: (index: number) => number) => {
		for (let index = 0; index < length; index++) for (let channel = 0; channel < 3; channel++) line[index * 3 + channel] = picture.pixels[at(index) + channel];
		// a running sum over the window [index - radius, index + radius], cut to the line
		const sum = [0, 0, 0];
		for (let index = 0; index < Math.min(radius, length); index++) for (let channel = 0; channel < 3; channel++) sum[channel] += line[index * 3 + channel];
		for (let index = 0; index < length; index++) {
			const entering = index + radius;
			const leaving = index - radius - 1;
			for (let channel = 0; channel < 3; channel++) {
				if (entering < length) sum[channel] += line[entering * 3 + channel];
				if (leaving >= 0) sum[channel] -= line[leaving * 3 + channel];
			}
			const count = Math.min(length - 1, entering) - Math.max(0, index - radius) + 1;
			for (let channel = 0; channel < 3; channel++) picture.pixels[at(index) + channel] = Math.round(sum[channel] / count);
		}
	};
	for (let y = area.top; y < area.bottom; y++) blurLine(width, (index) => (y * picture.width + area.left + index) * 3);
	for (let x = area.left; x < area.right; x++) blurLine(height, (index) => ((area.top + index) * picture.width + x) * 3);
}
