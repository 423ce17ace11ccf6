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

function ascii(bytes: Uint8Array, start: number, end: number): string {
	return String.fromCharCode(...bytes.subarray(start, end));
}

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

/** What a file's declared mime type says: "unknown" when it is missing or says nothing (octet-stream). */
export function mimeTypeVerdict(mimeType: string | undefined): 'image' | 'not an image' | 'unknown' {
	const type = mimeType?.split(';')[0].trim().toLowerCase();
	if (!type || type === 'application/octet-stream' || type === 'binary/octet-stream') return 'unknown';
	const known = type === 'image/jpg' ? 'image/jpeg' : type;
	return SIGNATURES.some((signature) => signature.mimeType === known) ? 'image' : 'not an image';
}
