import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export type ImageFormat = 'jpeg' | 'png';

/** An RGBA raster, 4 bytes per pixel, row-major. */
export interface RgbaImage {
	width: number;
	height: number;
	data: Buffer;
}

export interface DecodedImage extends RgbaImage {
	format: ImageFormat;
}

export class ImageDecodeError extends Error {}

/** Refuse rasters above this many pixels so a hostile header cannot exhaust memory. */
const MAX_PIXELS = 50_000_000;
const MAX_MEMORY_MB = 1024;

export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
	if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
		return 'png';
	}
	return undefined;
}

export function decodeImage(bytes: Buffer): DecodedImage {
	const format = sniffFormat(bytes);
	if (!format) throw new ImageDecodeError('image is neither a JPEG nor a PNG');
	try {
		if (format === 'jpeg') {
			const raw = jpeg.decode(bytes, {
				useTArray: true,
				formatAsRGBA: true,
				maxResolutionInMP: MAX_PIXELS / 1e6,
				maxMemoryUsageInMB: MAX_MEMORY_MB,
			});
			return { format, width: raw.width, height: raw.height, data: Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength) };
		}
		const png = PNG.sync.read(bytes);
		if (png.width * png.height > MAX_PIXELS) throw new ImageDecodeError('image is too large');
		return { format, width: png.width, height: png.height, data: png.data };
	} catch (error) {
		if (error instanceof ImageDecodeError) throw error;
		const reason = error instanceof Error ? error.message : String(error);
		throw new ImageDecodeError(`image could not be decoded as ${format.toUpperCase()}: ${reason}`);
	}
}

export function encodeImage(image: RgbaImage, format: ImageFormat): Buffer {
	if (format === 'jpeg') {
		return Buffer.from(jpeg.encode({ width: image.width, height: image.height, data: image.data }, 90).data);
	}
	const png = new PNG({ width: image.width, height: image.height });
	image.data.copy(png.data);
	return PNG.sync.write(png);
}
