/** 48 KiB of input at a time: a multiple of 3 (no padding inside), small enough for short-lived strings. */
export const BODY_CHUNK_BYTES = 48 * 1024;

/** What follows the image's value: the other fields and the closing brace. */
function afterImage(fields: object): string {
	const rest = JSON.stringify(fields);
	return rest === '{}' ? '}' : `,${rest.slice(1)}`;
}

/** The bytes around the image's base64: `{"image":"`, and `"` with what follows. */
function bodyEnds(fields: object): { head: Buffer; tail: Buffer } {
	return { head: Buffer.from('{"image":"'), tail: Buffer.from(`"${afterImage(fields)}`) };
}

/** Writes the base64 of `bytes` (a multiple of 3 long, except at the end) into `body` at `offset`. */
function writeBase64(body: Buffer, offset: number, bytes: Buffer): number {
	let written = 0;
	for (let start = 0; start < bytes.length; start += BODY_CHUNK_BYTES) {
		written += body.write(bytes.subarray(start, start + BODY_CHUNK_BYTES).toString('base64'), offset + written, 'latin1');
	}
	return written;
}

/**
 * The request body as JSON bytes: `{"image":"<base64>", ...fields}`. A file is base64-encoded
 * straight into the body buffer in chunks, so a large image is never also held as one big
 * string (or serialized a second time by the HTTP client).
 */
export function jsonBody(image: Buffer | string, fields: object): Buffer {
	if (typeof image === 'string') return Buffer.from(`{"image":${JSON.stringify(image)}${afterImage(fields)}`);
	const { head, tail } = bodyEnds(fields);
	const body = Buffer.allocUnsafe(head.length + Math.ceil(image.length / 3) * 4 + tail.length);
	let offset = head.copy(body, 0);
	offset += writeBase64(body, offset, image);
	tail.copy(body, offset);
	return body;
}

/**
 * The same body, with the image read from a stream of `size` bytes (a file in n8n's binary data
 * store), so the file is never held whole beside its body. Undefined when the stream does not
 * carry exactly `size` bytes: the caller then reads the file whole.
 */
export async function jsonBodyFromStream(stream: AsyncIterable<Buffer>, size: number, fields: object): Promise<Buffer | undefined> {
	const { head, tail } = bodyEnds(fields);
	const body = Buffer.allocUnsafe(head.length + Math.ceil(size / 3) * 4 + tail.length);
	let offset = head.copy(body, 0);
	let carry = Buffer.alloc(0);
	let read = 0;
	for await (const chunk of stream) {
		read += chunk.length;
		if (read > size) return undefined;
		const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
		const whole = bytes.length - (bytes.length % 3);
		offset += writeBase64(body, offset, bytes.subarray(0, whole));
		carry = Buffer.from(bytes.subarray(whole));
	}
	if (read !== size) return undefined;
	offset += writeBase64(body, offset, carry);
	tail.copy(body, offset);
	return body;
}
