import { mimeTypeVerdict, phoneImageFormatOfMimeType, sniffImageType, sniffPhoneImageFormat } from '../../nodes/ImageInference/input/imageType';

/** An ISO-BMFF `ftyp` box: size, "ftyp", major brand, minor version, compatible brands. */
function ftyp(major: string, compatible: string[]): Buffer {
	const size = 16 + 4 * compatible.length;
	const box = Buffer.alloc(size + 8);
	box.writeUInt32BE(size, 0);
	box.write(`ftyp${major}`, 4, 'latin1');
	box.write(compatible.join(''), 16, 'latin1');
	box.write('\u0000\u0000\u0000\u0008meta', size, 'latin1');
	return box;
}

describe('HEIC and AVIF recognised by their ftyp box', () => {
	it.each([
		['heic', ['mif1', 'heic'], 'HEIC'],
		['heix', ['mif1', 'heix'], 'HEIC'],
		['hevc', ['msf1', 'hevc'], 'HEIC'],
		// each HEIF brand alone, the file's only word that it is one (ISO/IEC 23008-12)
		...['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs'].map((brand) => [brand, ['isom'], 'HEIC'] as [string, string[], string]),
		['mif1', ['heic'], 'HEIC'],
		['msf1', [], 'HEIC'],
		['avif', ['mif1', 'miaf'], 'AVIF'],
		['avis', ['msf1', 'avif'], 'AVIF'],
		// an AVIF image sequence that lists only the generic HEIF brand besides its own
		['avis', ['msf1'], 'AVIF'],
		['mif1', ['avif', 'miaf'], 'AVIF'],
	])('major brand %s, compatible %j: %s', (major, compatible, format) => {
		const bytes = ftyp(major, compatible);
		expect(sniffPhoneImageFormat(bytes)).toBe(format);
		expect(sniffImageType(bytes)).toBeUndefined();
	});

	it.each([
		['an MP4 video', ftyp('isom', ['isom', 'avc1', 'mp41'])],
		['a QuickTime movie', ftyp('qt  ', ['qt  '])],
		['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1])],
		['too short for a box', Buffer.from('\u0000\u0000\u0000\u0018ftypheic', 'latin1')],
	])('%s is neither', (_, bytes) => {
		expect(sniffPhoneImageFormat(bytes)).toBeUndefined();
	});

	it('reads the brands up to the end of the box the size gives, and no further', () => {
		const box = (size: number, brands: string) => {
			const bytes = Buffer.alloc(Math.max(16, 8 + brands.length), 0);
			bytes.writeUInt32BE(size, 0);
			bytes.write(`ftyp${brands}`, 4, 'latin1');
			return bytes;
		};
		expect(sniffPhoneImageFormat(box(16, 'heic\u0000\u0000\u0000\u0000'))).toBe('HEIC');
		expect(sniffPhoneImageFormat(box(16, 'heic\u0000\u0000\u0000\u0000').subarray(0, 15))).toBeUndefined();
		// "avif" as the last compatible brand inside a 24-byte box, then as the first one after it
		expect(sniffPhoneImageFormat(box(24, 'isom\u0000\u0000\u0000\u0000mif1avif'))).toBe('AVIF');
		expect(sniffPhoneImageFormat(box(20, 'isom\u0000\u0000\u0000\u0000mif1avif'))).toBe('HEIC');
		expect(sniffPhoneImageFormat(box(16, 'isom\u0000\u0000\u0000\u0000mif1avif'))).toBeUndefined();
		// a size under 16 is no size: the box is read to its 16 bytes
		expect(sniffPhoneImageFormat(box(8, 'isom\u0000\u0000\u0000\u0000mif1avif'))).toBeUndefined();
		expect(sniffPhoneImageFormat(box(16, 'heix').fill(0x71, 4, 8))).toBeUndefined();
	});
});

describe('what a declared mime type says', () => {
	it.each([
		[undefined, 'unknown'],
		['', 'unknown'],
		['application/octet-stream', 'unknown'],
		['binary/octet-stream', 'unknown'],
		[' Application/Octet-Stream; name="photo"', 'unknown'],
		['image/jpeg', 'image'],
		['image/jpg', 'image'],
		[' IMAGE/PNG ; q=1', 'image'],
		['image/webp', 'image'],
		['image/heic', 'not an image'],
		['application/pdf', 'not an image'],
		['text/plain', 'not an image'],
	])('%j: %s', (mimeType, verdict) => {
		expect(mimeTypeVerdict(mimeType)).toBe(verdict);
	});
});

describe('the image formats the node sends, recognised by their first bytes', () => {
	// name, mime type, extension, the first bytes, the places of the bytes the format is told by
	const signatures: Array<[string, string, string, Buffer, number[]]> = [
		['JPEG', 'image/jpeg', 'jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), [0, 1, 2]],
		['PNG', 'image/png', 'png', Buffer.from('\u0089PNG\r\n\u001a\n', 'latin1'), [0, 1, 2, 3]],
		['GIF', 'image/gif', 'gif', Buffer.from('GIF89a', 'latin1'), [0, 1, 2, 3]],
		['WebP', 'image/webp', 'webp', Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'), [0, 1, 2, 3, 8, 9, 10, 11]],
		['BMP', 'image/bmp', 'bmp', Buffer.from('BM\u0000\u0000', 'latin1'), [0, 1]],
		['TIFF, little-endian', 'image/tiff', 'tiff', Buffer.from('II*\u0000', 'latin1'), [0, 1, 2, 3]],
		['TIFF, big-endian', 'image/tiff', 'tiff', Buffer.from('MM\u0000*', 'latin1'), [0, 1, 2, 3]],
	];

	it.each(signatures)('%s', (_, mimeType, extension, bytes) => {
		expect(sniffImageType(bytes)).toEqual({ mimeType, extension });
	});

	it.each(signatures)('%s with any one of the bytes it is told by changed is not recognised', (_, __, ___, bytes, checked) => {
		for (const at of checked) {
			const changed = Buffer.from(bytes);
			changed[at] ^= 0x01;
			expect([at, sniffImageType(changed)]).toEqual([at, undefined]);
		}
	});

	it('needs 4 bytes', () => {
		expect(sniffImageType(Buffer.from('GIF8', 'latin1'))).toEqual({ mimeType: 'image/gif', extension: 'gif' });
		expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff]))).toBeUndefined();
	});
});

describe('HEIC and AVIF by their declared mime type (the IANA image types of each)', () => {
	it.each([
		['image/heic', 'HEIC'],
		['image/heif', 'HEIC'],
		['image/heic-sequence', 'HEIC'],
		['Image/HEIF-Sequence; codecs="hvc1"', 'HEIC'],
		['image/avif', 'AVIF'],
		['image/avif-sequence', 'AVIF'],
		['image/jpeg', undefined],
		['video/mp4', undefined],
		[undefined, undefined],
	])('%j: %s', (mimeType, format) => {
		expect(phoneImageFormatOfMimeType(mimeType)).toBe(format);
	});
});
