import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

import { readImageSize } from '../../nodes/ImageInference/input/imageSize';
import { tiffHeader, withExifOrientation } from '../harness/images';

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

	it('reads an extended WebP wider and taller than 65,536 pixels (24-bit sizes)', () => {
		const webp = Buffer.from(fixture('car-140x90-extended.webp'));
		webp.writeUIntLE(0x012345, 24, 3);
		webp.writeUIntLE(0x020304, 27, 3);
		expect(readImageSize(webp)).toEqual({ width: 0x012346, height: 0x020305 });
	});

	it('gives nothing for a header that says 0 pixels wide or high', () => {
		const png = (width: number, height: number) => {
			const bytes = PNG.sync.write(new PNG({ width: 4, height: 4 }));
			bytes.writeUInt32BE(width, 16);
			bytes.writeUInt32BE(height, 20);
			return bytes;
		};
		expect(readImageSize(png(5, 6))).toEqual({ width: 5, height: 6 });
		expect(readImageSize(png(0, 6))).toBeUndefined();
		expect(readImageSize(png(5, 0))).toBeUndefined();
	});

	it('reads a PNG’s first 24 bytes; gives nothing for a PNG signature with a damaged or cut header', () => {
		const good = PNG.sync.write(new PNG({ width: 4, height: 4 }));
		const damaged = (at: number, text: string) => {
			const bytes = Buffer.from(good);
			bytes.write(text, at, 'latin1');
			return bytes;
		};
		expect(readImageSize(good)).toEqual({ width: 4, height: 4 });
		expect(readImageSize(damaged(0, 'X'))).toBeUndefined();
		expect(readImageSize(damaged(1, 'JPG'))).toBeUndefined();
		expect(readImageSize(damaged(12, 'IDAT'))).toBeUndefined();
		expect(readImageSize(good.subarray(0, 24))).toEqual({ width: 4, height: 4 });
		expect(readImageSize(good.subarray(0, 23))).toBeUndefined();
		// cut inside a height whose first bytes are not 0: still nothing, not a smaller height
		const tall = Buffer.from(good);
		tall.writeUInt32BE(65_540, 20);
		expect(readImageSize(tall.subarray(0, 24))).toEqual({ width: 4, height: 65_540 });
		expect(readImageSize(tall.subarray(0, 23))).toBeUndefined();
		expect(readImageSize(tall.subarray(0, 22))).toBeUndefined();
	});

	it('reads GIF and WebP headers from their shortest length; gives nothing when one is damaged', () => {
		const changed = (name: string, at: number, bytes: number[] | string) => {
			const copy = Buffer.from(fixture(name));
			if (typeof bytes === 'string') copy.write(bytes, at, 'latin1');
			else Buffer.from(bytes).copy(copy, at);
			return copy;
		};
		const gif = fixture('car-96x64.gif');
		expect(readImageSize(gif.subarray(0, 10))).toEqual({ width: 96, height: 64 });
		expect(readImageSize(gif.subarray(0, 9))).toBeUndefined();
		expect(readImageSize(changed('car-96x64.gif', 0, 'GIF87a'))).toEqual({ width: 96, height: 64 });
		expect(readImageSize(changed('car-96x64.gif', 0, 'GIF88a'))).toBeUndefined();

		const lossy = fixture('car-120x80.webp');
		expect(readImageSize(lossy.subarray(0, 30))).toEqual({ width: 120, height: 80 });
		expect(readImageSize(lossy.subarray(0, 29))).toBeUndefined();
		for (const [at, bytes] of [
			[0, 'RIFX'],
			[8, 'WEBQ'],
			[12, 'VP8Z'],
			[23, [0x9c]],
			[24, [0x02]],
			[25, [0x2b]],
		] as const) {
			expect([at, readImageSize(changed('car-120x80.webp', at, bytes as number[] | string))]).toEqual([at, undefined]);
		}
		expect(readImageSize(changed('car-100x60-lossless.webp', 20, [0x2e]))).toBeUndefined();
		expect(readImageSize(changed('car-140x90-extended.webp', 12, 'VP8Y'))).toBeUndefined();
	});

	describe('JPEG markers before the frame', () => {
		const SOI = [0xff, 0xd8];
		/** A start-of-frame segment (marker 0xC0 unless given) for a 48 × 32 image. */
		const frame = (marker = 0xc0) => [0xff, marker, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x30, ...Array(10).fill(0)];
		const segment = (marker: number, payload = 4) => [0xff, marker, 0x00, payload + 2, ...Array(payload).fill(0)];
		const size = (...parts: number[][]) => readImageSize(Buffer.from(parts.flat()));

		it('finds the frame after other segments, fill bytes and markers without a length', () => {
			expect(size(SOI, frame())).toEqual({ width: 48, height: 32 });
			expect(size(SOI, segment(0xe0, 14), segment(0xdb, 65), frame(0xc2))).toEqual({ width: 48, height: 32 });
			expect(size(SOI, [0xff, 0xff, 0xff], frame())).toEqual({ width: 48, height: 32 });
			expect(size(SOI, [0xff, 0x01, 0xff, 0xd0, 0xff, 0xd8], frame(0xc1))).toEqual({ width: 48, height: 32 });
			expect(size(SOI, segment(0xc4), segment(0xc8), segment(0xcc), frame(0xcf))).toEqual({ width: 48, height: 32 });
		});

		it('gives nothing when the scan or the end comes before any frame, or the frame is cut', () => {
			expect(size(SOI, segment(0xda), frame())).toBeUndefined();
			expect(size(SOI, [0xff, 0xd9], frame())).toBeUndefined();
			expect(size(SOI, [0x00], frame())).toBeUndefined();
			// the frame's size is its bytes 5 to 8: nine bytes of it are enough, eight are not
			expect(size(SOI, frame().slice(0, 9))).toEqual({ width: 48, height: 32 });
			expect(size(SOI, frame().slice(0, 8))).toBeUndefined();
			// cut inside a width whose first byte is not 0 (304 = 0x0130): nothing, not 256
			const wide = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x01, 0x30];
			expect(size(SOI, wide)).toEqual({ width: 304, height: 32 });
			expect(size(SOI, wide.slice(0, 8))).toBeUndefined();
			expect(size([0xff, 0xd9], frame())).toBeUndefined();
			expect(size([0x00, 0xd8], frame())).toBeUndefined();
			expect(size([0xff, 0xd8, 0xff])).toBeUndefined();
		});
	});

	it('reads a BMP header', () => {
		const bmp = Buffer.alloc(54);
		bmp.write('BM', 0, 'latin1');
		bmp.writeUInt32LE(40, 14);
		bmp.writeInt32LE(33, 18);
		bmp.writeInt32LE(-21, 22); // top-down
		expect(readImageSize(bmp)).toEqual({ width: 33, height: 21 });
		expect(readImageSize(bmp.subarray(0, 26))).toEqual({ width: 33, height: 21 });
		expect(readImageSize(bmp.subarray(0, 25))).toBeUndefined();
		const changed = (at: number, write: (copy: Buffer) => void) => {
			const copy = Buffer.from(bmp);
			write(copy);
			return [at, readImageSize(copy)];
		};
		expect(changed(0, (copy) => copy.write('C', 0, 'latin1'))).toEqual([0, undefined]);
		expect(changed(1, (copy) => copy.write('N', 1, 'latin1'))).toEqual([1, undefined]);
		// an info header under 40 bytes is the old OS/2 one, whose sizes are 16-bit: not read
		expect(changed(14, (copy) => copy.writeUInt32LE(12, 14))).toEqual([14, undefined]);
		expect(changed(14, (copy) => copy.writeUInt32LE(39, 14))).toEqual([14, undefined]);
		expect(changed(14, (copy) => copy.writeUInt32LE(124, 14))).toEqual([14, { width: 33, height: 21 }]);
	});

	it('gives nothing for text, a cut-off header or a JPEG without a frame', () => {
		expect(readImageSize(Buffer.from('%PDF-1.7 hello'))).toBeUndefined();
		expect(readImageSize(fixture('car.jpg').subarray(0, 20))).toBeUndefined();
		expect(readImageSize(fixture('car-120x80.webp').subarray(0, 20))).toBeUndefined();
		expect(readImageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined();
	});
});

describe('readImageSize: how the picture is to be shown', () => {
	const car = fixture('car.jpg');
	const stored = jpeg.decode(car, { useTArray: true });

	it('reads a JPEG’s Exif orientation, in either byte order; the size stays the stored one', () => {
		for (const orientation of [2, 3, 4, 5, 6, 7, 8]) {
			for (const order of ['II', 'MM'] as const) {
				expect(readImageSize(withExifOrientation(car, orientation, order))).toEqual({ width: stored.width, height: stored.height, orientation });
			}
		}
	});

	it('a JPEG still decodes with the Exif segment the tests add (its size is the decoder’s)', () => {
		const decoded = jpeg.decode(withExifOrientation(car, 6), { useTArray: true });
		expect([decoded.width, decoded.height]).toEqual([stored.width, stored.height]);
	});

	it('orientation 1, 0 or 9 is shown as stored: no orientation', () => {
		for (const orientation of [1, 0, 9]) expect(readImageSize(withExifOrientation(car, orientation))).toEqual({ width: stored.width, height: stored.height });
	});

	it('an APP1 segment that is not Exif (XMP) or a damaged Exif block leaves the orientation out', () => {
		const exif = withExifOrientation(car, 6);
		const xmp = Buffer.from(exif);
		xmp.write('http:', 6, 'latin1');
		expect(readImageSize(xmp)).toEqual({ width: stored.width, height: stored.height });
		const notTiff = Buffer.from(exif);
		notTiff.write('XX', 12, 'latin1');
		expect(readImageSize(notTiff)).toEqual({ width: stored.width, height: stored.height });
		const not42 = Buffer.from(exif);
		not42.writeUInt16BE(43, 14);
		expect(readImageSize(not42)).toEqual({ width: stored.width, height: stored.height });
	});

	it('reads a TIFF’s width and length, SHORT or LONG, either byte order, and its orientation', () => {
		expect(readImageSize(tiffHeader('II', [{ tag: 256, type: 3, value: 640 }, { tag: 257, type: 3, value: 480 }]))).toEqual({ width: 640, height: 480 });
		expect(readImageSize(tiffHeader('MM', [{ tag: 256, type: 4, value: 70_000 }, { tag: 257, type: 4, value: 50_000 }]))).toEqual({ width: 70_000, height: 50_000 });
		expect(readImageSize(tiffHeader('II', [{ tag: 256, type: 4, value: 70_000 }, { tag: 257, type: 3, value: 3 }, { tag: 274, type: 3, value: 8 }]))).toEqual({
			width: 70_000,
			height: 3,
			orientation: 8,
		});
	});

	it('a TIFF without its width or length, or cut before its directory, gives nothing', () => {
		expect(readImageSize(tiffHeader('II', [{ tag: 256, type: 3, value: 640 }]))).toBeUndefined();
		expect(readImageSize(tiffHeader('MM', [{ tag: 257, type: 3, value: 480 }]))).toBeUndefined();
		expect(readImageSize(tiffHeader('II', [{ tag: 256, type: 3, value: 640 }, { tag: 257, type: 3, value: 480 }]).subarray(0, 9))).toBeUndefined();
	});
});
