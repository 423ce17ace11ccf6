import { ascii, i32le, u16be, u16le, u24le, u32be } from './bytes';

/**
 * An image's pixel size read from its header (JPEG, PNG, WebP, GIF, BMP, TIFF), without decoding
 * it: the stored size, and the EXIF orientation (2–8) when the file says its stored pixels are to
 * be shown turned or mirrored (a phone photo taken upright is often stored sideways).
 */
export interface ImageSize {
	width: number;
	height: number;
	orientation?: number;
}

export function readImageSize(bytes: Uint8Array): ImageSize | undefined {
	const size = readers.map((read) => read(bytes)).find((found) => found !== undefined);
	return size && size.width > 0 && size.height > 0 ? size : undefined;
}

const readers: Array<(bytes: Uint8Array) => ImageSize | undefined> = [readPng, readJpeg, readGif, readWebp, readBmp, readTiff];

/** The IHDR chunk comes first: width and height at bytes 16 and 20. */
function readPng(b: Uint8Array): ImageSize | undefined {
	if (b.length < 24 || b[0] !== 0x89 || ascii(b, 1, 4) !== 'PNG' || ascii(b, 12, 16) !== 'IHDR') return undefined;
	return { width: u32be(b, 16), height: u32be(b, 20) };
}

/**
 * The first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds height, then width; an
 * APP1 Exif segment before it may hold the orientation.
 */
function readJpeg(b: Uint8Array): ImageSize | undefined {
	if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
	let orientation: number | undefined;
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
			return withOrientation({ height: u16be(b, at + 5), width: u16be(b, at + 7) }, orientation);
		}
		if (marker === 0xe1 && ascii(b, at + 4, at + 10) === 'Exif\0\0') {
			orientation ??= readTiffTags(b.subarray(at + 10, at + 2 + length))?.orientation;
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

/** TIFF's first image file directory: ImageWidth and ImageLength, and its Orientation. */
function readTiff(b: Uint8Array): ImageSize | undefined {
	const tags = readTiffTags(b);
	if (tags?.width === undefined || tags.height === undefined) return undefined;
	return withOrientation({ width: tags.width, height: tags.height }, tags.orientation);
}

const TIFF_TAG = { width: 0x0100, height: 0x0101, orientation: 0x0112 } as const;

/**
 * The tags of a TIFF structure's first directory (a TIFF file, or the Exif block of a JPEG), in
 * either byte order: SHORT or LONG values held in the entry itself.
 */
function readTiffTags(b: Uint8Array): { width?: number; height?: number; orientation?: number } | undefined {
	if (b.length < 8) return undefined;
	const order = ascii(b, 0, 2);
	if (order !== 'II' && order !== 'MM') return undefined;
	const little = order === 'II';
	const u16 = (at: number) => (little ? u16le(b, at) : u16be(b, at));
	const u32 = (at: number) => (little ? u16le(b, at) + u16le(b, at + 2) * 0x10000 : u32be(b, at));
	if (u16(2) !== 42) return undefined;
	const directory = u32(4);
	if (directory + 2 > b.length) return undefined;
	const tags: { width?: number; height?: number; orientation?: number } = {};
	const count = u16(directory);
	for (let entry = directory + 2; entry + 12 <= b.length && entry < directory + 2 + count * 12; entry += 12) {
		const tag = u16(entry);
		const type = u16(entry + 2);
		const value = type === 3 ? u16(entry + 8) : type === 4 ? u32(entry + 8) : undefined;
		if (value === undefined) continue;
		if (tag === TIFF_TAG.width) tags.width = value;
		else if (tag === TIFF_TAG.height) tags.height = value;
		else if (tag === TIFF_TAG.orientation) tags.orientation = value;
	}
	return tags;
}

/** The size, with the orientation when it turns or mirrors the picture (2–8; 1 and anything else mean as stored). */
function withOrientation(size: ImageSize, orientation: number | undefined): ImageSize {
	return orientation !== undefined && orientation >= 2 && orientation <= 8 ? { ...size, orientation } : size;
}
