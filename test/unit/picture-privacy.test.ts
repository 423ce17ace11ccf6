import type { RgbPicture } from '../../nodes/ImageInference/picture/codec/codec';
import { cropAround } from '../../nodes/ImageInference/picture/crop';
import { hideBoxes } from '../../nodes/ImageInference/picture/privacy';

/** A picture of fine random detail (a fixed sequence, the same in every run), like a face's or a plate's. */
function detailed(width: number, height: number): RgbPicture {
	let seed = 12345;
	const pixels = new Uint8Array(width * height * 3);
	for (let index = 0; index < pixels.length; index++) {
		seed = (seed * 1103515245 + 12345) >>> 0;
		pixels[index] = seed >>> 24;
	}
	return { width, height, pixels };
}

/** The variance of one channel's values over an area: how much detail it holds. */
function variance(picture: RgbPicture, left: number, top: number, right: number, bottom: number): number {
	const values: number[] = [];
	for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) values.push(picture.pixels[(y * picture.width + x) * 3]);
	const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
	return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
}

const copy = (picture: RgbPicture): RgbPicture => ({ ...picture, pixels: picture.pixels.slice() });
/** How many bytes of two pictures of one size differ (jest's own comparison of typed arrays takes seconds). */
const differingBytes = (one: RgbPicture, other: RgbPicture): number => one.pixels.reduce((count, value, index) => count + (value === other.pixels[index] ? 0 : 1), 0);
const pixelAtOf = (picture: RgbPicture, x: number, y: number): number[] => [...picture.pixels.subarray((y * picture.width + x) * 3, (y * picture.width + x) * 3 + 3)];
// a box of 100 × 80 pixels at (50, 40) in a 200 × 160 picture; hidden with a margin of 5 and 4
const BOX = { x: 0.25, y: 0.25, width: 0.5, height: 0.5 };

describe('hiding boxes', () => {
	for (const effect of ['blur', 'pixelate'] as const) {
		it(`${effect}: the box loses at least 90 % of its detail, and nothing outside its margin changes`, async () => {
			const before = detailed(200, 160);
			const after = copy(before);
			await hideBoxes(after, [BOX], effect);
			expect(variance(after, 50, 40, 150, 120)).toBeLessThan(variance(before, 50, 40, 150, 120) * 0.1);
			// the margin: a twentieth of the box each side
			let changedOutside = 0;
			for (let y = 0; y < 160; y++) {
				for (let x = 0; x < 200; x++) {
					const inside = x >= 45 && x < 155 && y >= 36 && y < 124;
					const at = (y * 200 + x) * 3;
					if (!inside && before.pixels[at] !== after.pixels[at]) changedOutside++;
				}
			}
			expect(changedOutside).toBe(0);
			// the mean colour stays: the box is hidden, not painted over
			const mean = (picture: RgbPicture) => {
				let sum = 0;
				for (let y = 40; y < 120; y++) for (let x = 50; x < 150; x++) sum += picture.pixels[(y * 200 + x) * 3];
				return sum / (100 * 80);
			};
			expect(Math.abs(mean(after) - mean(before))).toBeLessThan(4);
		});
	}

	/** A 200 × 160 picture of `outside`, with the area BOX hides (its margin too: 45–155 across, 36–124 down) of `inside`. */
	function twoColours(inside: readonly number[], outside: readonly number[]): RgbPicture {
		const pixels = new Uint8Array(200 * 160 * 3);
		for (let y = 0; y < 160; y++) for (let x = 0; x < 200; x++) pixels.set(x >= 45 && x < 155 && y >= 36 && y < 124 ? inside : outside, (y * 200 + x) * 3);
		return { width: 200, height: 160, pixels };
	}

	for (const effect of ['blur', 'pixelate'] as const) {
		it(`${effect}: an area of one colour keeps that colour, channel for channel, and no colour from outside comes in`, async () => {
			const picture = twoColours([200, 40, 90], [10, 250, 30]);
			await hideBoxes(picture, [BOX], effect);
			expect(differingBytes(picture, twoColours([200, 40, 90], [10, 250, 30]))).toBe(0);
		});

		it(`${effect}: the margin around the box is hidden too`, async () => {
			const before = detailed(200, 160);
			const after = copy(before);
			await hideBoxes(after, [BOX], effect);
			// the strip left of the box (45–50) and the one above it (36–40)
			expect(variance(after, 45, 36, 50, 124)).toBeLessThan(variance(before, 45, 36, 50, 124) * 0.1);
			expect(variance(after, 45, 36, 155, 40)).toBeLessThan(variance(before, 45, 36, 155, 40) * 0.1);
		});
	}

	it('pixelates into square blocks a tenth of the box’s longer side, at least 8 pixels', async () => {
		// the hidden area is 110 × 88 (blocks of 11); a box of 20 × 20 in 200 × 160 hides 22 × 22 (blocks of 8, not 2)
		for (const [box, block] of [[BOX, 11], [{ x: 0.5, y: 0.5, width: 0.1, height: 0.125 }, 8]] as const) {
			const picture = detailed(200, 160);
			await hideBoxes(picture, [box], 'pixelate');
			const left = Math.floor(box.x * 200 - (box.width * 200) / 20);
			const top = Math.floor(box.y * 160 - (box.height * 160) / 20);
			const first = pixelAtOf(picture, left, top);
			for (let y = top; y < top + block; y++) for (let x = left; x < left + block; x++) expect(pixelAtOf(picture, x, y)).toEqual(first);
			expect(pixelAtOf(picture, left + block, top)).not.toEqual(first);
			expect(pixelAtOf(picture, left, top + block)).not.toEqual(first);
		}
	});

	it('blurs smoothly across and down: no blocks, and next pixels close in colour both ways', async () => {
		const picture = detailed(200, 160);
		await hideBoxes(picture, [BOX], 'blur');
		let across = 0;
		let down = 0;
		for (let y = 40; y < 119; y++) {
			for (let x = 50; x < 149; x++) {
				const here = picture.pixels[(y * 200 + x) * 3];
				across = Math.max(across, Math.abs(picture.pixels[(y * 200 + x + 1) * 3] - here));
				down = Math.max(down, Math.abs(picture.pixels[((y + 1) * 200 + x) * 3] - here));
			}
		}
		// random detail spans 0–255 from one pixel to the next; blurred, neighbours differ by a few levels
		expect(across).toBeLessThan(6);
		expect(down).toBeLessThan(6);
	});

	it('leaves the picture as it is for a box wholly past its right and bottom edges', async () => {
		const picture = detailed(100, 100);
		for (const effect of ['blur', 'pixelate'] as const) {
			await hideBoxes(picture, [{ x: 1.2, y: 1.2, width: 0.1, height: 0.1 }], effect);
			expect(differingBytes(picture, detailed(100, 100))).toBe(0);
		}
	});

	it('hides a box that reaches past the picture’s edge up to the edge, and skips one wholly outside', async () => {
		const picture = detailed(100, 100);
		const before = variance(picture, 80, 80, 100, 100);
		await hideBoxes(picture, [{ x: 0.8, y: 0.8, width: 0.5, height: 0.5 }, { x: 1.2, y: 0, width: 0.1, height: 0.1 }], 'pixelate');
		expect(variance(picture, 80, 80, 100, 100)).toBeLessThan(before * 0.1);
	});
});

describe('cropping around a box', () => {
	const picture = detailed(400, 300);
	const pixelOf = (image: RgbPicture, x: number, y: number) => [...image.pixels.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3)];

	it('takes the box grown by the padding, centred on it, pixel for pixel', () => {
		const crop = cropAround(picture, { x: 0.25, y: 0.5, width: 0.25, height: 0.2 }, 0.1, 0);
		// 100 × 60 grown by a tenth: 110 × 66 around the centre (150, 180)
		expect([crop.width, crop.height]).toEqual([110, 66]);
		expect(pixelOf(crop, 0, 0)).toEqual(pixelOf(picture, 95, 147));
		expect(pixelOf(crop, 109, 65)).toEqual(pixelOf(picture, 204, 212));
	});

	it('is at least the minimum size, moved inside the picture at its edges, and never larger than the picture', () => {
		const corner = cropAround(picture, { x: 0.95, y: 0.95, width: 0.05, height: 0.05 }, 0.1, 120);
		expect([corner.width, corner.height]).toEqual([120, 120]);
		expect(pixelOf(corner, 119, 119)).toEqual(pixelOf(picture, 399, 299));
		const whole = cropAround(picture, { x: 0.1, y: 0.1, width: 0.5, height: 0.5 }, 0.1, 1000);
		expect([whole.width, whole.height]).toEqual([400, 300]);
		expect(pixelOf(whole, 0, 0)).toEqual(pixelOf(picture, 0, 0));
	});
});

describe('hiding a box given from its far corner (a negative width or height)', () => {
	for (const effect of ['blur', 'pixelate'] as const) {
		it(`${effect}: hides the same area, margin and all, as the box given from its near corner`, async () => {
			const asGiven = detailed(200, 160);
			await hideBoxes(asGiven, [BOX], effect);
			for (const fromFarCorner of [
				{ x: 0.75, y: 0.75, width: -0.5, height: -0.5 },
				{ x: 0.75, y: 0.25, width: -0.5, height: 0.5 },
				{ x: 0.25, y: 0.75, width: 0.5, height: -0.5 },
			]) {
				const picture = detailed(200, 160);
				await hideBoxes(picture, [fromFarCorner], effect);
				expect(differingBytes(picture, asGiven)).toBe(0);
			}
		});
	}
});
