import { ascii, u32be } from './bytes';

/** Image formats recognised from their first bytes, with the extension a derived file name gets. */
const SIGNATURES: Array<{ mimeType: string; extension: string; matches: (b: Uint8Array) => boolean }> = [
	{ mimeType: 'image/jpeg', extension: 'jpg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
	{
		mimeType: 'image/png',
		extension: 'png',
		matches: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
	},
	{ mimeType: 'image/gif', extension: 'gif', matches: (b) => ascii(b, 0, 4) === 'GIF8' },
	{
		mimeType: 'image/webp',
		extension: 'webp',
		matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
	},
	{ mimeType: 'image/bmp', extension: 'bmp', matches: (b) => b[0] === 0x42 && b[1] === 0x4d },
	{
		mimeType: 'image/tiff',
		extension: 'tiff',
		matches: (b) => ascii(b, 0, 4) === 'II*\u0000' || ascii(b, 0, 4) === 'MM\u0000*',
	},
];

export interface ImageType {
	mimeType: string;
	extension: string;
}

export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
	if (bytes.length < 4) return undefined;
	const found = SIGNATURES.find((signature) => signature.matches(bytes));
	return found && { mimeType: found.mimeType, extension: found.extension };
}

export const SUPPORTED_IMAGE_FORMATS = 'JPEG, PNG, GIF, WebP, BMP or TIFF';

/**
 * Formats phones save photos in that the node recognises but does not send: HEIC (iPhones,
 * many Android phones) and AVIF. The service's contract lists no image formats, and the decoders
 * such services are built on (Pillow without a HEIF plugin, OpenCV) read neither; the node says
 * so before any upload instead of sending megabytes for an unclear 400.
 */
export type PhoneImageFormat = 'HEIC' | 'AVIF';

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1']);

/**
 * HEIC or AVIF from an ISO-BMFF file's first box, `ftyp`: its major brand and compatible brands
 * (ISO/IEC 23008-12 for HEIF/HEIC, the AV1 Image File Format for AVIF). An AVIF file also lists
 * the generic HEIF brands (mif1, msf1), so an AVIF brand anywhere decides AVIF.
 */
export function sniffPhoneImageFormat(bytes: Uint8Array): PhoneImageFormat | undefined {
	if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
	const boxSize = u32be(bytes, 0);
	const end = Math.min(boxSize >= 16 ? boxSize : 16, bytes.length, 4096);
	const brands = [ascii(bytes, 8, 12)];
	for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
	if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'AVIF';
	if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'HEIC';
	return undefined;
}

const PHONE_IMAGE_MIME_TYPES: Record<string, PhoneImageFormat> = {
	'image/heic': 'HEIC',
	'image/heif': 'HEIC',
	'image/heic-sequence': 'HEIC',
	'image/heif-sequence': 'HEIC',
	'image/avif': 'AVIF',
	'image/avif-sequence': 'AVIF',
};

/** HEIC or AVIF from a declared mime type. */
export function phoneImageFormatOfMimeType(mimeType: string | undefined): PhoneImageFormat | undefined {
	const type = baseMimeType(mimeType);
	return type ? PHONE_IMAGE_MIME_TYPES[type] : undefined;
}

/** What a file's declared mime type says: "unknown" when it is missing or says nothing (octet-stream). */
export function mimeTypeVerdict(mimeType: string | undefined): 'image' | 'not an image' | 'unknown' {
	const type = baseMimeType(mimeType);
	if (!type || type === 'application/octet-stream' || type === 'binary/octet-stream') return 'unknown';
	const known = type === 'image/jpg' ? 'image/jpeg' : type;
	return SIGNATURES.some((signature) => signature.mimeType === known) ? 'image' : 'not an image';
}

/** A declared mime type without its parameters, lower case ("Image/JPEG; q=1" → "image/jpeg"). */
function baseMimeType(mimeType: string | undefined): string | undefined {
	return mimeType?.split(';')[0].trim().toLowerCase();
}
