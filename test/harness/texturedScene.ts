import { colourScene } from './images';
import { decodeImage, encodeImage } from '../reference-server/image-codec';

/** Where the scene's red block is, in its 480 × 320 pixels. */
export const RED_BLOCK = { left: 260, top: 30, right: 330, bottom: 90 };

/**
 * Two blue blocks, a red one and a green one on grey (images.ts), 480 × 320, made opaque (the
 * harness's ground is half transparent, which the node would show on white), the red block given a
 * checkered texture of 4-pixel squares: detail for Blur These Labels to take away.
 */
export const TEXTURED_SCENE = ((): Buffer => {
	const scene = decodeImage(colourScene());
	for (let at = 3; at < scene.data.length; at += 4) scene.data[at] = 255;
	for (let y = RED_BLOCK.top; y < RED_BLOCK.bottom; y++) {
		for (let x = RED_BLOCK.left; x < RED_BLOCK.right; x++) if (((x >> 2) + (y >> 2)) % 2) scene.data.set([200, 70, 70], (y * scene.width + x) * 4);
	}
	return encodeImage(scene, 'png');
})();

/** The variance of the red channel inside a block, away from its edges by 10 pixels: its detail. */
export function detailIn(picture: { pixel(x: number, y: number): number[] }, block: typeof RED_BLOCK = RED_BLOCK): number {
	const values: number[] = [];
	for (let y = block.top + 10; y < block.bottom - 10; y++) for (let x = block.left + 10; x < block.right - 10; x++) values.push(picture.pixel(x, y)[0]);
	const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
	return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
}

/**
 * The fine detail inside a block, away from its edges by 10 pixels: the mean squared difference of
 * the red channel between neighbouring pixels, across and down. Unlike the variance it leaves out
 * what a blur keeps, a photo's smooth changes (sky into trees); it is what a blur takes away.
 */
export function fineDetailIn(picture: { pixel(x: number, y: number): number[] }, block: typeof RED_BLOCK): number {
	let sum = 0;
	let count = 0;
	for (let y = block.top + 10; y < block.bottom - 10; y++) {
		for (let x = block.left + 10; x < block.right - 10; x++) {
			const here = picture.pixel(x, y)[0];
			sum += (picture.pixel(x + 1, y)[0] - here) ** 2 + (picture.pixel(x, y + 1)[0] - here) ** 2;
			count += 2;
		}
	}
	return sum / count;
}
