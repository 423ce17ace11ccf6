/**
 * Phone-sized photos for the batch benchmark: 40 JPEGs of 8–16 MB made from the project's test
 * photos (car.jpg, dog.jpg): the photo cropped to 4:3 and upscaled to a phone camera's resolution
 * (10 to 16 megapixels), with real photographic detail laid over at full resolution (both photos,
 * mirror-tiled at 1:1, as texture), encoded at JPEG quality 100 (no chroma subsampling). Made once
 * (a few seconds each) and cached outside the clone, beside the n8n installs.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import jpeg from 'jpeg-js';

import { cacheRoot, fixture } from '../e2e/lib/paths';
import type { RgbaImage } from '../reference-server/image-codec';
import { decodeImage } from '../reference-server/image-codec';

export const PHOTO_COUNT = 40;
export const PHOTO_FOLDER = join(cacheRoot, 'bench-phone-photos-v1');
const QUALITY = 100;
/** Gain of the full-resolution texture (the photos' own fine detail) added to the upscaled photo. */
const DETAIL = 0.9;
/** The texture is each photo minus its local mean over a (2 × 3 + 1)² box: edges, no shapes. */
const TEXTURE_RADIUS = 3;

/** The cached photos' paths (made on first use): `photo-01.jpg` … `photo-40.jpg`. */
export function phonePhotos(log: (line: string) => void = () => undefined): string[] {
	const files = Array.from({ length: PHOTO_COUNT }, (_, index) => join(PHOTO_FOLDER, `photo-${String(index + 1).padStart(2, '0')}.jpg`));
	if (files.every((file) => existsSync(file))) return files;
	mkdirSync(PHOTO_FOLDER, { recursive: true });
	const sources = [decodeImage(readFileSync(fixture('car.jpg'))), decodeImage(readFileSync(fixture('dog.jpg')))];
	files.forEach((file, index) => {
		if (existsSync(file)) return;
		const started = Date.now();
		const bytes = makePhoto(sources, index);
		writeFileSync(`${file}.partial`, bytes);
		renameSync(`${file}.partial`, file);
		log(`made ${file} (${(bytes.length / 2 ** 20).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});
	return files;
}

/** Photo `index`: car or dog, its own resolution, mirroring, exposure and texture offsets. */
export function makePhoto(sources: RgbaImage[], index: number): Buffer {
	const base = crop43(sources[index % 2]);
	const textures = [sources[(index + 1) % 2], sources[index % 2]].map(highPass);
	const landscape = base.width >= base.height;
	// 3600×2700 (10 MP) to 4640×3480 (16 MP); portrait photos the other way round
	const long = 3600 + Math.round((((index * 7) % PHOTO_COUNT) / (PHOTO_COUNT - 1)) * 65) * 16;
	const short = (long / 4) * 3;
	const width = landscape ? long : short;
	const height = landscape ? short : long;
	const mirrored = index % 4 >= 2;
	const exposure = 0.92 + ((index * 5) % 9) * 0.02;
	const offsets = textures.map((texture, layer) => [(index * 37 + layer * 101) % texture.width, (index * 53 + layer * 61) % texture.height]);
	const data = Buffer.alloc(width * height * 4);
	const scaleX = (base.width - 1) / (width - 1);
	const scaleY = (base.height - 1) / (height - 1);
	for (let y = 0; y < height; y++) {
		const sy = y * scaleY;
		const y0 = Math.floor(sy);
		const y1 = Math.min(base.height - 1, y0 + 1);
		const fy = sy - y0;
		const rows = textures.map((texture, layer) => mirrorIndex(y + offsets[layer][1], texture.height) * texture.width);
		for (let x = 0; x < width; x++) {
			const sx = (mirrored ? width - 1 - x : x) * scaleX;
			const x0 = Math.floor(sx);
			const x1 = Math.min(base.width - 1, x0 + 1);
			const fx = sx - x0;
			const t0 = (rows[0] + mirrorIndex(x + offsets[0][0], textures[0].width)) * 4;
			const t1 = (rows[1] + mirrorIndex(x + offsets[1][0], textures[1].width)) * 4;
			const out = (y * width + x) * 4;
			for (let channel = 0; channel < 3; channel++) {
				const top = base.data[(y0 * base.width + x0) * 4 + channel] * (1 - fx) + base.data[(y0 * base.width + x1) * 4 + channel] * fx;
				const bottom = base.data[(y1 * base.width + x0) * 4 + channel] * (1 - fx) + base.data[(y1 * base.width + x1) * 4 + channel] * fx;
				const smooth = top * (1 - fy) + bottom * fy;
				const texture = (textures[0].data[t0 + channel] + textures[1].data[t1 + channel]) / 2;
				const value = (smooth + texture * DETAIL) * exposure;
				data[out + channel] = value > 255 ? 255 : value < 0 ? 0 : value;
			}
			data[out + 3] = 255;
		}
	}
	return Buffer.from(jpeg.encode({ width, height, data }, QUALITY).data);
}

interface Texture {
	width: number;
	height: number;
	data: Float32Array;
}

/** Each pixel minus the mean of the box around it: the photo's fine detail, zero on average. */
function highPass(image: RgbaImage): Texture {
	const data = new Float32Array(image.width * image.height * 4);
	for (let y = 0; y < image.height; y++) {
		for (let x = 0; x < image.width; x++) {
			for (let channel = 0; channel < 3; channel++) {
				let sum = 0;
				let count = 0;
				for (let dy = -TEXTURE_RADIUS; dy <= TEXTURE_RADIUS; dy++) {
					for (let dx = -TEXTURE_RADIUS; dx <= TEXTURE_RADIUS; dx++) {
						const yy = Math.min(image.height - 1, Math.max(0, y + dy));
						const xx = Math.min(image.width - 1, Math.max(0, x + dx));
						sum += image.data[(yy * image.width + xx) * 4 + channel];
						count++;
					}
				}
				const at = (y * image.width + x) * 4 + channel;
				data[at] = image.data[at] - sum / count;
			}
		}
	}
	return { width: image.width, height: image.height, data };
}

/** The centre of the image at 4:3 (landscape) or 3:4 (portrait). */
function crop43(image: RgbaImage): RgbaImage {
	const landscape = image.width >= image.height;
	const width = landscape ? Math.min(image.width, Math.round((image.height * 4) / 3)) : Math.min(image.width, Math.round((image.height * 3) / 4));
	const height = landscape ? Math.round((width * 3) / 4) : Math.round((width * 4) / 3);
	const left = Math.floor((image.width - width) / 2);
	const top = Math.floor((image.height - height) / 2);
	const data = Buffer.alloc(width * height * 4);
	for (let row = 0; row < height; row++) {
		image.data.copy(data, row * width * 4, ((top + row) * image.width + left) * 4, ((top + row) * image.width + left + width) * 4);
	}
	return { width, height, data };
}

/** Mirror-repeat tiling (0 1 … n-1 n-1 … 1 0 0 1 …), so the texture has no seams. */
function mirrorIndex(position: number, size: number): number {
	const period = position % (2 * size);
	return period < size ? period : 2 * size - 1 - period;
}

/** The project's two small photos (car.jpg, dog.jpg), copied beside the phone photos (their answers are cached there). */
export function smallPhotos(): string[] {
	mkdirSync(PHOTO_FOLDER, { recursive: true });
	return ['car.jpg', 'dog.jpg'].map((name) => {
		const target = join(PHOTO_FOLDER, `smoke-${name}`);
		if (!existsSync(target)) copyFileSync(fixture(name), target);
		return target;
	});
}
