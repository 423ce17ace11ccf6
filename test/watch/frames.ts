/**
 * A camera's frames made from the car.jpg fixture, for the watch tests, the example's e2e test
 * and the docs picture: the road entrance empty, with the car where the photo has it (in the
 * example's driveway zone), and with the car moved right along the road (outside the zone).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RgbaImage } from '../reference-server/image-codec';
import { decodeImage, encodeImage } from '../reference-server/image-codec';

export const CAR_JPG = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));

/** The car's box in car.jpg (test/fixtures/annotations.json), with a margin around it. */
const CAR_PATCH = { x: 284, y: 190, width: 40, height: 34 };
/** How far right the car is moved for "outside the zone". */
const MOVED_BY = 230;

/** The example's driveway: the road entrance the car stands in, relative to the image. */
export const DRIVEWAY = '0.38,0.53 0.52,0.53 0.58,0.64 0.33,0.64';

export type FrameName = 'empty' | 'carInZone' | 'carOutsideZone';

export function frame(name: FrameName): Buffer {
	if (name === 'carInZone') return CAR_JPG;
	const image = decodeImage(CAR_JPG);
	const car = copyRegion(image, CAR_PATCH);
	eraseRegion(image, CAR_PATCH);
	if (name === 'carOutsideZone') pasteRegion(image, car, CAR_PATCH.x + MOVED_BY, CAR_PATCH.y);
	return encodeImage(image, 'jpeg');
}

type Region = { x: number; y: number; width: number; height: number };

function copyRegion(image: RgbaImage, region: Region): RgbaImage {
	const data = Buffer.alloc(region.width * region.height * 4);
	for (let row = 0; row < region.height; row++) {
		const start = ((region.y + row) * image.width + region.x) * 4;
		image.data.copy(data, row * region.width * 4, start, start + region.width * 4);
	}
	return { width: region.width, height: region.height, data };
}

function pasteRegion(image: RgbaImage, patch: RgbaImage, x: number, y: number): void {
	for (let row = 0; row < patch.height; row++) {
		patch.data.copy(image.data, ((y + row) * image.width + x) * 4, row * patch.width * 4, (row + 1) * patch.width * 4);
	}
}

/** Each row of the region becomes the blend of the pixels just left and right of it: the road without the car. */
function eraseRegion(image: RgbaImage, region: Region): void {
	for (let y = region.y; y < region.y + region.height; y++) {
		const left = (y * image.width + region.x - 1) * 4;
		const right = (y * image.width + region.x + region.width) * 4;
		for (let column = 0; column < region.width; column++) {
			const share = (column + 1) / (region.width + 1);
			const at = (y * image.width + region.x + column) * 4;
			for (let channel = 0; channel < 4; channel++) {
				image.data[at + channel] = Math.round(image.data[left + channel] * (1 - share) + image.data[right + channel] * share);
			}
		}
	}
}
