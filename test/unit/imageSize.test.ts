import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

import { readImageSize } from '../../nodes/ImageInference/helpers/imageSize';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', name));

describe('readImageSize', () => {
	it('reads a JPEG’s frame header (the size its decoder finds)', () => {
		for (const name of ['car.jpg', 'dog.jpg']) {
			const bytes = fixture(name);
			const decoded = jpeg.decode(bytes, { useTArray: true });
			expect(readImageSize(bytes)).toEqual({ width: decoded.width, height: decoded.height });
		}
	});

	it('reads a PNG’s IHDR, for a PNG encoded from the photo’s pixels', () => {
		const photo = jpeg.decode(fixture('car.jpg'), { useTArray: true, formatAsRGBA: true });
		const width = 173;
		const height = 61;
		const png = new PNG({ width, height });
		for (let y = 0; y < height; y++) {
			photo.data.subarray((y * photo.width) * 4, (y * photo.width + width) * 4).forEach((value, x) => (png.data[(y * width) * 4 + x] = value));
		}
		const bytes = PNG.sync.write(png);
		expect(PNG.sync.read(bytes)).toMatchObject({ width, height });
		expect(readImageSize(bytes)).toEqual({ width, height });
	});

	// made from car.jpg with GraphicsMagick and cwebp at the size in the name (see test/fixtures/README.md)
	it.each([
		['car-96x64.gif', 96, 64],
		['car-120x80.webp', 120, 80],
		['car-100x60-lossless.webp', 100, 60],
		['car-140x90-extended.webp', 140, 90],
	])('reads %s', (name, width, height) => {
		expect(readImageSize(fixture(name))).toEqual({ width, height });
	});

	it('reads a BMP header', () => {
		const bmp = Buffer.alloc(54);
		bmp.write('BM', 0, 'latin1');
		bmp.writeUInt32LE(40, 14);
		bmp.writeInt32LE(33, 18);
		bmp.writeInt32LE(-21, 22); // top-down
		expect(readImageSize(bmp)).toEqual({ width: 33, height: 21 });
	});

	it('gives nothing for text, a cut-off header or a JPEG without a frame', () => {
		expect(readImageSize(Buffer.from('%PDF-1.7 hello'))).toBeUndefined();
		expect(readImageSize(fixture('car.jpg').subarray(0, 20))).toBeUndefined();
		expect(readImageSize(fixture('car-120x80.webp').subarray(0, 20))).toBeUndefined();
		expect(readImageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined();
	});
});
