import { ascii, i32le, u16be, u16le, u24le, u32be } from './bytes';

/**
 * An image's pixel size read from its header (JPEG, PNG, WebP, GIF, BMP), without decoding it.
 * The size is the stored one: a JPEG's EXIF orientation (a photo meant to be shown turned) is not applied.
 */
export interface ImageSize {
	width: number;
	height: number;
}

export function readImageSize(bytes: Uint8Array): ImageSize | undefined {
	const size = readers.map((read) => read(bytes)).find((found) => found !== undefined);
	return size && size.width > 0 && size.height > 0 ? size : undefined;
}

const readers: Array<(bytes: Uint8Array) => ImageSize | undefined> = [readPng, readJpeg, readGif, readWebp, readBmp];

/** The IHDR chunk comes first: width and height at bytes 16 and 20. */
function readPng(b: Uint8Array): ImageSize | undefined {
	if (b.length < 24 || b[0] !== 0x89 || ascii(b, 1, 4) !== 'PNG' || ascii(b, 12, 16) !== 'IHDR') return undefined;
	return { width: u32be(b, 16), height: u32be(b, 20) };
}

/** The first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds height, then width. */
function readJpeg(b: Uint8Array): ImageSize | undefined {
	if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
	let at = 2;
	while (at + 3 < b.length) {
		if (b[at] !== 0xff) return undefined;
		const marker = b[at + 1];
		if (marker === 0xff) {
			at++; // fill byte
			continue;
		}
		if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
			at += 2; // markers without a length
			continue;
		}
		if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan data before any frame
		const length = u16be(b, at + 2);
		const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
		if (isFrame) {
			if (at + 9 > b.length) return undefined;
			return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
		}
		at += 2 + length;
	}
	return undefined;
}

/** The logical screen size, little-endian, after the 6-byte signature. */
function readGif(b: Uint8Array): ImageSize | undefined {
	if (b.length < 10 || (ascii(b, 0, 6) !== 'GIF87a' && ascii(b, 0, 6) !== 'GIF89a')) return undefined;
	return { width: u16le(b, 6), height: u16le(b, 8) };
}

/** The first chunk decides: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function readWebp(b: Uint8Array): ImageSize | undefined {
	if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 12) !== 'WEBP') return undefined;
	const chunk = ascii(b, 12, 16);
	if (chunk === 'VP8 ') {
		if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
		return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
	}
	if (chunk === 'VP8L') {
		if (b[20] !== 0x2f) return undefined;
		const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
		return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	if (chunk === 'VP8X') {
		return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
	}
	return undefined;
}

/** BITMAPINFOHEADER (or later): width and height as signed 32-bit; a negative height means top-down. */
function readBmp(b: Uint8Array): ImageSize | undefined {
	if (b.length < 26 || b[0] !== 0x42 || b[1] !== 0x4d || i32le(b, 14) < 40) return undefined;
	return { width: Math.abs(i32le(b, 18)), height: Math.abs(i32le(b, 22)) };
}
