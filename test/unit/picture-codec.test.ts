import { readFileSync } from 'node:fs';

import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

import type { RgbPicture } from '../../nodes/ImageInference/picture/codec/codec';
import { sliceTimer } from '../../nodes/ImageInference/picture/slices';
import { MAX_JPEG_PIXELS, decodePicture, encodeJpeg, jpegScale } from '../../nodes/ImageInference/picture/codec/codec';
import { fixture } from '../e2e/lib/paths';

/** The picture, or the test fails with why it could not be read. */
async function decoded(bytes: Uint8Array, options?: Parameters<typeof decodePicture>[1]): Promise<{ picture: RgbPicture; damaged: boolean }> {
	const result = await decodePicture(bytes, options);
	if (result.unreadable !== undefined) throw new Error(`unreadable: ${result.unreadable}`);
	return result;
}

/** jpeg-js's decoding (another decoder, written apart from libjpeg) as RGB. */
function referenceRgb(bytes: Uint8Array): RgbPicture {
	const { width, height, data } = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false });
	return { width, height, pixels: data };
}

function meanDifference(a: Uint8Array, b: Uint8Array): number {
	expect(a.length).toBe(b.length);
	let sum = 0;
	for (let index = 0; index < a.length; index++) sum += Math.abs(a[index] - b[index]);
	return sum / a.length;
}

/** A picture of `width` × `height` with a smooth gradient and a red square, for round trips. */
function madePicture(width: number, height: number): RgbPicture {
	const pixels = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const at = (y * width + x) * 3;
			const inSquare = x >= width / 4 && x < width / 2 && y >= height / 4 && y < height / 2;
			pixels[at] = inSquare ? 230 : Math.round((x / width) * 200);
			pixels[at + 1] = inSquare ? 20 : Math.round((y / height) * 200);
			pixels[at + 2] = inSquare ? 20 : 100;
		}
	}
	return { width, height, pixels };
}

const car = readFileSync(fixture('car.jpg'));

describe('the picture codec: JPEG', () => {
	it('decodes a photo to the pixels another decoder sees', async () => {
		const { picture, damaged } = await decoded(car);
		expect([picture.width, picture.height]).toEqual([676, 380]);
		expect(damaged).toBe(false);
		expect(meanDifference(picture.pixels, referenceRgb(car).pixels)).toBeLessThan(1.5);
	});

	it('decodes progressive and arithmetic-coded copies of a photo to the same pixels as the photo', async () => {
		const { picture: baseline } = await decoded(readFileSync(fixture('car-338x190.jpg')));
		const { picture: progressive } = await decoded(readFileSync(fixture('car-338x190-progressive.jpg')));
		expect([progressive.width, progressive.height]).toEqual([baseline.width, baseline.height]);
		expect(Buffer.compare(progressive.pixels, baseline.pixels)).toBe(0);
		const arithmetic = await decodePicture(readFileSync(fixture('car-338x190-arithmetic.jpg')));
		expect(arithmetic).toEqual({ unreadable: 'it is an arithmetic-coded JPEG' });
	});

	it('decodes a greyscale JPEG to grey RGB pixels', async () => {
		const { picture } = await decoded(readFileSync(fixture('car-338x190-grey.jpg')));
		expect([picture.width, picture.height]).toEqual([338, 190]);
		let notGrey = 0;
		for (let at = 0; at < picture.pixels.length; at += 3) {
			if (picture.pixels[at + 1] !== picture.pixels[at] || picture.pixels[at + 2] !== picture.pixels[at]) notGrey++;
		}
		expect(notGrey).toBe(0);
		expect(new Set(picture.pixels).size).toBeGreaterThan(100);
	});

	it('says a CMYK JPEG cannot be read', async () => {
		expect(await decodePicture(readFileSync(fixture('car-338x190-cmyk.jpg')))).toEqual({ unreadable: 'it is a CMYK JPEG' });
	});

	it('decodes at the smallest eighth of the size still as long as asked', async () => {
		const { picture } = await decoded(car, { longSide: 338 });
		expect([picture.width, picture.height]).toEqual([338, 190]);
		const { picture: eighth } = await decoded(car, { longSide: 80 });
		expect([eighth.width, eighth.height]).toEqual([85, 48]);
		const { picture: full } = await decoded(car, { longSide: 2000 });
		expect([full.width, full.height]).toEqual([676, 380]);
	});

	it('picks the scale from the longer side, landscape or portrait', () => {
		// the largest scale that fits, when it is at least three quarters of the side: 3/8 of 4,000 is 1,500 ≥ 1,440
		expect(jpegScale(4000, 3000, 1920)).toBe(3);
		expect(jpegScale(3000, 4000, 1920)).toBe(3);
		expect(jpegScale(4000, 3000, 2000)).toBe(4);
		expect(jpegScale(4000, 3000, 1999)).toBe(3);
		expect(jpegScale(4000, 3000, 2001)).toBe(4);
		expect(jpegScale(4000, 3000, 500)).toBe(1);
		// 1/8 of 8,000 is 1,000, under three quarters of 1,920: decoded at 2/8 (2,000) and shrunk
		expect(jpegScale(8000, 6000, 1920)).toBe(2);
		// an eighth is the smallest: 4,000 at 1/8 is 500, shrunk to 64
		expect(jpegScale(4000, 3000, 64)).toBe(1);
		expect(jpegScale(1920, 1080, 1920)).toBe(8);
		expect(jpegScale(1920, 1080, 1681)).toBe(7);
		expect(jpegScale(1920, 1080, 1680)).toBe(7);
		expect(jpegScale(1920, 1080, 1679)).toBe(6);
		expect(jpegScale(1920, 1080, undefined)).toBe(8);
	});

	it('decodes a JPEG cut short as far as it goes and says it is damaged', async () => {
		const { picture, damaged } = await decoded(car.subarray(0, Math.floor(car.length / 2)));
		expect([picture.width, picture.height]).toEqual([676, 380]);
		expect(damaged).toBe(true);
		// the top rows are the photo's, the bottom ones libjpeg's grey
		const reference = referenceRgb(car).pixels;
		const rowBytes = 676 * 3;
		expect(meanDifference(picture.pixels.subarray(0, 40 * rowBytes), reference.subarray(0, 40 * rowBytes))).toBeLessThan(1.5);
		expect(new Set(picture.pixels.subarray(379 * rowBytes))).toEqual(new Set([128]));
	});

	it('does not call a JPEG damaged for the stray bytes cameras leave between its parts', async () => {
		// three bytes before the end-of-image marker: libjpeg warns of extraneous data and reads on
		const stray = Buffer.concat([car.subarray(0, car.length - 2), Buffer.from([0, 0, 0]), car.subarray(car.length - 2)]);
		const { picture, damaged } = await decoded(stray);
		expect(damaged).toBe(false);
		expect(Buffer.compare(picture.pixels, (await decoded(car)).picture.pixels)).toBe(0);
	});

	it('refuses, before decoding, a header that declares more pixels than it decodes', async () => {
		const bomb = Buffer.from(car);
		// car.jpg's start of frame (FFC0): length, precision, then height and width
		const frame = bomb.indexOf(Buffer.from([0xff, 0xc0]));
		bomb.writeUInt16BE(30000, frame + 5);
		bomb.writeUInt16BE(30000, frame + 7);
		expect(await decodePicture(bomb)).toEqual({ unreadable: 'its header declares 30000 × 30000 pixels, more than the 120 million the node decodes' });
		// one pixel fewer than the most is decoded (its data ends early: it is damaged, not refused)
		const justUnder = Buffer.from(car);
		justUnder.writeUInt16BE(10000, frame + 5);
		justUnder.writeUInt16BE(MAX_JPEG_PIXELS / 10000, frame + 7);
		const result = await decodePicture(justUnder, { longSide: 100 });
		expect(result.unreadable).toBeUndefined();
	});

	it('decodes at full size (for crops and blurred images) at most 50 million pixels; a larger JPEG is still drawn scaled down', async () => {
		const large = Buffer.from(car);
		const frame = large.indexOf(Buffer.from([0xff, 0xc0]));
		// 10,000 × 5,001: one row past 50 million pixels at full size; at an eighth, 1,250 × 626
		large.writeUInt16BE(5001, frame + 5);
		large.writeUInt16BE(10000, frame + 7);
		expect(await decodePicture(large)).toEqual({
			unreadable: 'its header declares 10000 × 5001 pixels, more than the 50 million the node decodes at full size (for crops and blurred images)',
		});
		const scaled = await decodePicture(large, { longSide: 1920 });
		expect(scaled.unreadable === undefined && [scaled.picture.width, scaled.picture.height]).toEqual([2500, 1251]);
		large.writeUInt16BE(5000, frame + 5);
		expect((await decodePicture(large)).unreadable).toBeUndefined();
	});

	it('says a JPEG cut short or damaged in its header is so', async () => {
		for (const length of [20, 300]) expect(await decodePicture(car.subarray(0, length))).toEqual({ unreadable: 'its header is damaged or cut short' });
		expect(await decodePicture(Buffer.from([0xff, 0xd8, 0, 0, 0]))).toEqual({ unreadable: 'its header is damaged or cut short' });
	});

	it('stops a progressive JPEG of more than 1,000 scans', async () => {
		const progressive = readFileSync(fixture('car-338x190-progressive.jpg'));
		// its last scan (start of scan FFDA to the end of image FFD9), repeated: each repeat is a scan libjpeg warns of and reads
		const lastScan = progressive.subarray(progressive.lastIndexOf(Buffer.from([0xff, 0xda])), progressive.length - 2);
		const endOfImage = Buffer.from([0xff, 0xd9]);
		const scans = (count: number) => Buffer.concat([progressive.subarray(0, progressive.length - 2), ...Array<Buffer>(count).fill(lastScan), endOfImage]);
		expect(await decodePicture(scans(1000))).toEqual({ unreadable: 'it is a progressive JPEG of more than 1,000 scans' });
		const { picture } = await decoded(scans(900));
		expect(picture.width).toBe(338);
	});

	it('says what is not a JPEG or PNG', async () => {
		const gif = readFileSync(fixture('car-96x64.gif'));
		expect(await decodePicture(gif)).toEqual({ unreadable: 'the node draws on JPEG (baseline or progressive, colour or greyscale) and PNG only' });
		expect(await decodePicture(Buffer.from('{"error":"not an image"}'))).toEqual({
			unreadable: 'the node draws on JPEG (baseline or progressive, colour or greyscale) and PNG only',
		});
		expect((await decodePicture(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).unreadable).toBe('its header is damaged or cut short');
	});

	it('says which JPEGs it cannot read: 12-bit, lossless', async () => {
		const frame = car.indexOf(Buffer.from([0xff, 0xc0]));
		const twelveBit = Buffer.from(car);
		twelveBit[frame + 4] = 12;
		expect(await decodePicture(twelveBit)).toEqual({ unreadable: 'it is a 12-bit JPEG' });
		const lossless = Buffer.from(car);
		lossless[frame + 1] = 0xc3;
		expect(await decodePicture(lossless)).toEqual({ unreadable: 'it is a lossless or hierarchical JPEG' });
	});

	it('encodes a picture that decodes back to it, smaller at a lower quality', async () => {
		const picture = madePicture(320, 200);
		const good = await encodeJpeg(picture, 95);
		const poor = await encodeJpeg(picture, 20);
		expect(good.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
		expect(poor.length).toBeLessThan(good.length / 2);
		const back = referenceRgb(good);
		expect([back.width, back.height]).toEqual([320, 200]);
		expect(meanDifference(back.pixels, picture.pixels)).toBeLessThan(2);
		expect(meanDifference(referenceRgb(poor).pixels, picture.pixels)).toBeGreaterThan(meanDifference(back.pixels, picture.pixels));
	});

	it('lets the event loop run while it decodes and encodes a large picture', async () => {
		const picture = madePicture(2000, 1500);
		let encodeYields = 0;
		const bytes = await encodeJpeg(
			picture,
			90,
			sliceTimer(async () => {
				encodeYields++;
			}),
		);
		let decodeYields = 0;
		await decoded(bytes, {
			pause: sliceTimer(async () => {
				decodeYields++;
			}),
		});
		expect(encodeYields).toBeGreaterThan(0);
		expect(decodeYields).toBeGreaterThan(0);
	});
});

describe('the picture codec: PNG', () => {
	/** A PNG of RGBA `pixel`s, each channel 0–255, or 0–65535 for 16 bits (pngjs reads those from a Uint16Array's bytes). */
	function png(width: number, height: number, colorType: 0 | 2 | 4 | 6, bitDepth: 8 | 16, pixel: (x: number, y: number) => number[]): Buffer {
		const image = new PNG({ width, height, colorType, inputColorType: 6, bitDepth, inputHasAlpha: true });
		const channels = bitDepth === 16 ? new Uint16Array(width * height * 4) : new Uint8Array(width * height * 4);
		for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) channels.set(pixel(x, y), (y * width + x) * 4);
		image.data = Buffer.from(channels.buffer);
		return PNG.sync.write(image, { colorType, inputColorType: 6, bitDepth, inputHasAlpha: true });
	}

	it('decodes colour, grey and 16-bit PNGs', async () => {
		const colour = await decoded(png(3, 2, 2, 8, (x, y) => [x * 100, y * 100, 7, 255]));
		expect(colour.picture).toEqual({ width: 3, height: 2, pixels: new Uint8Array([0, 0, 7, 100, 0, 7, 200, 0, 7, 0, 100, 7, 100, 100, 7, 200, 100, 7]) });
		const grey = await decoded(png(2, 1, 0, 8, (x) => [x * 90, x * 90, x * 90, 255]));
		expect(grey.picture.pixels).toEqual(new Uint8Array([0, 0, 0, 90, 90, 90]));
		const deep = await decoded(png(2, 1, 2, 16, (x) => [x * 65535, 0, 65535 - x * 65535, 65535]));
		expect(deep.picture.pixels).toEqual(new Uint8Array([0, 0, 255, 255, 0, 0]));
	});

	it('shows transparent pixels on white', async () => {
		const { picture } = await decoded(png(3, 1, 6, 8, (x) => [0, 0, 0, [0, 128, 255][x]]));
		expect(picture.pixels).toEqual(new Uint8Array([255, 255, 255, 127, 127, 127, 0, 0, 0]));
	});

	it('refuses, before decoding, a header that declares more than 16 million pixels, and says a damaged PNG cannot be read', async () => {
		const bomb = png(2, 2, 2, 8, () => [1, 2, 3, 255]);
		bomb.writeUInt32BE(30000, 16);
		bomb.writeUInt32BE(30000, 20);
		expect(await decodePicture(bomb)).toEqual({ unreadable: 'its header declares 30000 × 30000 pixels, more than the 16 million the node decodes' });
		const cut = png(40, 40, 2, 8, (x, y) => [x, y, 0, 255]);
		expect(await decodePicture(cut.subarray(0, cut.length - 30))).toEqual({ unreadable: 'it is not a PNG the node can read (damaged or cut short)' });
	});
});
