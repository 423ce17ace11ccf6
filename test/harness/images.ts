import { PNG } from 'pngjs';

import { decodeImage } from '../reference-server/image-codec';

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
