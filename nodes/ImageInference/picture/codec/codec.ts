import type { Pause } from '../slices';
import { sliceTimer } from '../slices';
import { CODEC_WASM_BASE64 } from './codecWasm';

/** A decoded picture: 3 bytes a pixel (red, green, blue), rows top to bottom, as stored in the file. */
export interface RgbPicture {
	width: number;
	height: number;
	pixels: Uint8Array;
}

/** What the codec reads, as the docs and the warnings name it. */
export const DECODABLE_FORMATS = 'JPEG (baseline or progressive, colour or greyscale) and PNG';

/**
 * The most pixels a file's header may declare: past it the picture is not decoded (a
 * decompression bomb declares 30,000 × 30,000 in a few kilobytes). A JPEG is decoded scaled down
 * when a smaller picture is wanted, a PNG always in full (4 bytes a pixel while it is decoded).
 */
export const MAX_JPEG_PIXELS = 120_000_000;
export const MAX_PNG_PIXELS = 16_000_000;
/** The most pixels a JPEG is decoded to (at full size for crops and blurred images; scaled down, far fewer): 3 bytes each, twice over while decoded. */
export const MAX_DECODED_PIXELS = 50_000_000;

const ROWS_PER_CALL = 8;

/** The codec's results of its last call, at its `facts()` pointer (scripts/codec/codec.c). */
const Fact = { width: 0, height: 1, components: 2, colorSpace: 3, progressive: 4, damage: 5, length: 6, count: 7 } as const;

interface CodecExports {
	memory: WebAssembly.Memory;
	_initialize(): void;
	buffer_alloc(size: number): number;
	facts(): number;
	jpeg_read_header(bytes: number, length: number): void;
	jpeg_start(scaleEighths: number): number;
	jpeg_read_rows(rows: number): number;
	png_decode(bytes: number, length: number): number;
	jpeg_encode_start(width: number, height: number, quality: number): void;
	jpeg_encode_rows(rgb: number, rows: number): number;
	jpeg_encode_finish(): number;
}

/** A libjpeg error (its message code in jerror.h), or -1 for a progressive JPEG with too many scans. */
class CodecFailure extends Error {
	constructor(readonly code: number) {
		super(`picture codec error ${code}`);
	}
}

/** What a libjpeg error means for the user, by its message code (jerror.h of libjpeg-turbo 2.1.5). */
const LIBJPEG_REASONS: Record<number, string> = {
	[-1]: 'it is a progressive JPEG of more than 1,000 scans',
	1: 'it is an arithmetic-coded JPEG',
	15: 'it is a 12-bit JPEG',
	27: 'it is a CMYK JPEG',
	48: 'it is an arithmetic-coded JPEG',
	// both found for a file cut short, or damaged, before its image data starts
	51: 'its header is damaged or cut short',
	54: 'it needs more memory to decode than the node allows',
	59: 'its header is damaged or cut short',
	60: 'it is a lossless or hierarchical JPEG',
};

let compiled: Promise<WebAssembly.Module> | undefined;

/** A new instance of the codec for one picture: its memory goes with it. */
async function codecInstance(): Promise<CodecExports> {
	compiled ??= WebAssembly.compile(Buffer.from(CODEC_WASM_BASE64, 'base64'));
	const module = await compiled;
	const BADF = 8;
	const instance: WebAssembly.Instance = new WebAssembly.Instance(module, {
		host: {
			fail: (code) => {
				throw new CodecFailure(code);
			},
		},
		// libjpeg asks for its environment (JPEGMEM) and has stdio linked in; it gets none of either
		wasi_snapshot_preview1: {
			environ_sizes_get: (countAt, sizeAt) => {
				// called once the instance exists: libjpeg asks when it starts a picture
				const view = new DataView((instance.exports as unknown as CodecExports).memory.buffer);
				view.setUint32(countAt, 0, true);
				view.setUint32(sizeAt, 0, true);
				return 0;
			},
			environ_get: () => 0,
			fd_close: () => BADF,
			fd_seek: () => BADF,
			fd_write: () => BADF,
			proc_exit: (code) => {
				throw new CodecFailure(code);
			},
		},
	});
	const codec = instance.exports as unknown as CodecExports;
	codec._initialize();
	return codec;
}

function facts(codec: CodecExports): Int32Array {
	return new Int32Array(codec.memory.buffer, codec.facts(), Fact.count);
}

function copyIn(codec: CodecExports, bytes: Uint8Array): number {
	const at = codec.buffer_alloc(bytes.length);
	new Uint8Array(codec.memory.buffer, at, bytes.length).set(bytes);
	return at;
}

/**
 * How much smaller than `longSide` a JPEG may be decoded rather than decoded larger and shrunk to
 * it: shrinking costs more than decoding (a 12-megapixel photo for Max Side 1920 is decoded at 3/8,
 * 1,500 pixels, rather than at 4/8 and shrunk).
 */
export const SMALLER_SCALE_FLOOR = 0.75;

/**
 * The libjpeg scale (1/8 to 8/8) to decode at for a picture whose longer side is to be at most
 * `longSide`: the largest whose picture fits, when that is at least SMALLER_SCALE_FLOOR of it;
 * else the smallest still at least `longSide` (to be shrunk to it).
 */
export function jpegScale(width: number, height: number, longSide: number | undefined): number {
	const longest = Math.max(width, height);
	if (longSide === undefined || longest <= longSide) return 8;
	const sideAt = (eighths: number) => Math.ceil((longest * eighths) / 8);
	for (let eighths = 7; eighths >= 1; eighths--) {
		if (sideAt(eighths) <= longSide) {
			if (sideAt(eighths) >= SMALLER_SCALE_FLOOR * longSide) return eighths;
			break;
		}
	}
	for (let eighths = 1; eighths < 8; eighths++) if (sideAt(eighths) >= longSide) return eighths;
	return 8;
}

export type DecodedPicture = { picture: RgbPicture; damaged: boolean; unreadable?: undefined } | { unreadable: string };

export interface DecodeOptions {
	/** The longer side the picture will be shown at, at most: a JPEG is decoded at the scale jpegScale picks. */
	longSide?: number;
	/** Called between slices of the work (slices.ts): by default a sliceTimer of its own. */
	pause?: Pause;
}

/**
 * A JPEG or PNG file's pixels, or why they cannot be read. A JPEG is decoded a few rows at a
 * time, letting the event loop run every SLICE_MS; a JPEG whose data is damaged part way is
 * decoded as far as it goes (the rest grey) and said to be damaged.
 */
export async function decodePicture(bytes: Uint8Array, options: DecodeOptions = {}): Promise<DecodedPicture> {
	const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
	const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
	if (!isJpeg && !isPng) return { unreadable: `the node draws on ${DECODABLE_FORMATS} only` };
	const codec = await codecInstance();
	try {
		const pause = options.pause ?? sliceTimer();
		return isJpeg ? await decodeJpeg(codec, bytes, options.longSide, pause) : await decodePng(codec, bytes, pause);
	} catch (error) {
		// past libjpeg's own errors: the WebAssembly memory could not grow (a picture too large for the machine)
		if (!(error instanceof CodecFailure)) return { unreadable: `it could not be decoded (${error instanceof Error ? error.message : String(error)})` };
		return { unreadable: LIBJPEG_REASONS[error.code] ?? `it is damaged or a kind of JPEG the node cannot read (libjpeg error ${error.code})` };
	}
}

async function decodeJpeg(codec: CodecExports, bytes: Uint8Array, longSide: number | undefined, pause: Pause): Promise<DecodedPicture> {
	codec.jpeg_read_header(copyIn(codec, bytes), bytes.length);
	const header = facts(codec);
	if (header[Fact.width] * header[Fact.height] > MAX_JPEG_PIXELS) return { unreadable: tooManyPixels(header[Fact.width], header[Fact.height], MAX_JPEG_PIXELS) };
	const scaleEighths = jpegScale(header[Fact.width], header[Fact.height], longSide);
	const decodedPixels = Math.ceil((header[Fact.width] * scaleEighths) / 8) * Math.ceil((header[Fact.height] * scaleEighths) / 8);
	if (decodedPixels > MAX_DECODED_PIXELS) return { unreadable: tooManyToDecode(header[Fact.width], header[Fact.height]) };
	const at = codec.jpeg_start(scaleEighths);
	const { [Fact.width]: width, [Fact.height]: height } = facts(codec);
	while (!codec.jpeg_read_rows(ROWS_PER_CALL)) await pause();
	const pixels = new Uint8Array(codec.memory.buffer, at, width * height * 3).slice();
	return { picture: { width, height, pixels }, damaged: facts(codec)[Fact.damage] > 0 };
}

async function decodePng(codec: CodecExports, bytes: Uint8Array, pause: Pause): Promise<DecodedPicture> {
	// the IHDR chunk, the first, holds the width and height
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const declared = bytes.length >= 24 ? [view.getUint32(16), view.getUint32(20)] : [0, 0];
	if (declared[0] * declared[1] > MAX_PNG_PIXELS) return { unreadable: tooManyPixels(declared[0], declared[1], MAX_PNG_PIXELS) };
	const at = codec.png_decode(copyIn(codec, bytes), bytes.length);
	if (at === 0) return { unreadable: 'it is not a PNG the node can read (damaged or cut short)' };
	const { [Fact.width]: width, [Fact.height]: height } = facts(codec);
	const rgba = new Uint8Array(codec.memory.buffer, at, width * height * 4);
	return { picture: { width, height, pixels: await onWhite(rgba, width, height, pause) }, damaged: false };
}

/** Transparent pixels shown on white, as mail and chat apps show a transparent PNG on a light background. */
async function onWhite(rgba: Uint8Array, width: number, height: number, pause: Pause): Promise<Uint8Array> {
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let pixel = y * width; pixel < (y + 1) * width; pixel++) {
			const alpha = rgba[pixel * 4 + 3];
			for (let channel = 0; channel < 3; channel++) {
				rgb[pixel * 3 + channel] = Math.round((rgba[pixel * 4 + channel] * alpha + 255 * (255 - alpha)) / 255);
			}
		}
		await pause();
	}
	return rgb;
}

function tooManyPixels(width: number, height: number, most: number): string {
	return `its header declares ${width} × ${height} pixels, more than the ${most / 1_000_000} million the node decodes`;
}

function tooManyToDecode(width: number, height: number): string {
	return `its header declares ${width} × ${height} pixels, more than the ${MAX_DECODED_PIXELS / 1_000_000} million the node decodes at full size (for crops and blurred images)`;
}

/** The picture as a JPEG of `quality` (1–100), encoded a few rows at a time. */
export async function encodeJpeg(picture: RgbPicture, quality: number, pause: Pause = sliceTimer()): Promise<Buffer> {
	const codec = await codecInstance();
	const at = copyIn(codec, picture.pixels);
	codec.jpeg_encode_start(picture.width, picture.height, quality);
	while (!codec.jpeg_encode_rows(at, ROWS_PER_CALL)) await pause();
	const encodedAt = codec.jpeg_encode_finish();
	return Buffer.from(new Uint8Array(codec.memory.buffer, encodedAt, facts(codec)[Fact.length]));
}
