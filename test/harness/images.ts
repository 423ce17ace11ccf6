import { PNG } from 'pngjs';

import { fillRect } from '../reference-server/draw';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import type { FrameName } from '../watch/frames';

/**
 * A photo's own pixels re-encoded as a PNG: a real image in a second format; `uncompressed`
 * stores the pixels as they are, for a file about as large as its pixels (4 bytes each).
 */
export function pngOf(jpegBytes: Buffer, options: { uncompressed?: boolean } = {}): Buffer {
	const decoded = decodeImage(jpegBytes);
	const png = new PNG({ width: decoded.width, height: decoded.height });
	decoded.data.copy(png.data);
	return PNG.sync.write(png, options.uncompressed ? { deflateLevel: 0 } : {});
}

/** A small but well-formed PDF, for "a file that is not an image". */
export const SAMPLE_PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** A PNG of one flat grey: nothing in it for a model to find. */
export function flatPng(width: number, height: number): Buffer {
	const png = new PNG({ width, height });
	png.data.fill(128);
	return PNG.sync.write(png);
}

/**
 * A small PNG whose header says it is width × height: the node reads an image's size from its
 * header, so a test can show it a photo of any size without making (or a service decoding) one.
 */
export function pngClaimingSize(width: number, height: number): Buffer {
	const bytes = flatPng(64, 48);
	bytes.writeUInt32BE(width, 16);
	bytes.writeUInt32BE(height, 20);
	return bytes;
}

/**
 * Several objects of several labels to the reference server's colour-region model: on a grey
 * ground, two blue blocks, a red one (the most confident object of all) and a green one.
 */
export function colourScene(): Buffer {
	const image = { width: 480, height: 320, data: Buffer.alloc(480 * 320 * 4, 128) };
	fillRect(image, 20, 20, 160, 120, [50, 90, 240]);
	fillRect(image, 300, 200, 60, 50, [50, 90, 240]);
	fillRect(image, 260, 30, 70, 60, [230, 40, 40]);
	fillRect(image, 40, 220, 50, 40, [40, 200, 70]);
	return encodeImage(image, 'png');
}

/** A camera's view for the colour-region model: a red block on a grey road stands in for a car. */
export const CAMERA = { width: 676, height: 380 };
/**
 * Where the model boxes the red "car" in 'carInZone': the block is aligned to the model's grid of
 * 15-pixel cells, so its box is exact. It stands where car.jpg's car does, in DRIVEWAY
 * (test/watch/frames.ts); 'carOutsideZone' has it 225 pixels further right along the road.
 */
export const CAMERA_CAR_BOX = { x: 285, y: 195, width: 30, height: 30 };
const CAMERA_CAR_MOVED_BY = 225;

const cameraFrames = new Map<FrameName, Buffer>();

export function cameraFrame(name: FrameName): Buffer {
	let frame = cameraFrames.get(name);
	if (!frame) {
		const image = { ...CAMERA, data: Buffer.alloc(CAMERA.width * CAMERA.height * 4, 128) };
		const { x, y, width, height } = CAMERA_CAR_BOX;
		if (name !== 'empty') fillRect(image, x + (name === 'carOutsideZone' ? CAMERA_CAR_MOVED_BY : 0), y, width, height, [230, 40, 40]);
		frame = encodeImage(image, 'png');
		cameraFrames.set(name, frame);
	}
	return frame;
}

/**
 * The JPEG with an APP1 Exif segment right after its start saying how its stored pixels are to be
 * shown (orientation 1–8), as a phone writes it: TIFF structure, one directory, one entry.
 */
export function withExifOrientation(jpegBytes: Buffer, orientation: number, byteOrder: 'II' | 'MM' = 'MM'): Buffer {
	const tiff = tiffStructure(byteOrder, [{ tag: 0x0112, type: 3, value: orientation }]);
	const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), Buffer.from('Exif\0\0', 'latin1'), tiff]);
	app1.writeUInt16BE(app1.length - 2, 2);
	return Buffer.concat([jpegBytes.subarray(0, 2), app1, jpegBytes.subarray(2)]);
}

/** A TIFF file's header and first directory (no pixels: enough for what reads its size). */
export function tiffHeader(byteOrder: 'II' | 'MM', entries: Array<{ tag: number; type: 3 | 4; value: number }>): Buffer {
	return tiffStructure(byteOrder, entries);
}

function tiffStructure(byteOrder: 'II' | 'MM', entries: Array<{ tag: number; type: number; value: number }>): Buffer {
	const little = byteOrder === 'II';
	const bytes = Buffer.alloc(8 + 2 + entries.length * 12 + 4);
	const u16 = (value: number, at: number) => (little ? bytes.writeUInt16LE(value, at) : bytes.writeUInt16BE(value, at));
	const u32 = (value: number, at: number) => (little ? bytes.writeUInt32LE(value, at) : bytes.writeUInt32BE(value, at));
	bytes.write(byteOrder, 0, 'latin1');
	u16(42, 2);
	u32(8, 4);
	u16(entries.length, 8);
	entries.forEach(({ tag, type, value }, index) => {
		const at = 10 + index * 12;
		u16(tag, at);
		u16(type, at + 2);
		u32(1, at + 4);
		// a SHORT sits in the first two bytes of the value field, in the file's byte order
		if (type === 3) u16(value, at + 8);
		else u32(value, at + 8);
	});
	return bytes;
}

/** The JPEG with `bytes` of APP2 segments before its frame (as a large Exif or ICC profile puts it there). */
export function withSegmentsBeforeFrame(jpegBytes: Buffer, bytes: number): Buffer {
	const segments: Buffer[] = [];
	for (let left = bytes; left > 0; ) {
		const payload = Math.min(left, 65_000);
		const segment = Buffer.alloc(4 + payload, 0x20);
		segment.writeUInt16BE(0xffe2, 0);
		segment.writeUInt16BE(payload + 2, 2);
		segments.push(segment);
		left -= segment.length;
	}
	return Buffer.concat([jpegBytes.subarray(0, 2), ...segments, jpegBytes.subarray(2)]);
}
