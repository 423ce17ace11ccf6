/** 48 KiB of input at a time: a multiple of 3 (no padding inside), small enough for short-lived strings. */
const CHUNK = 48 * 1024;

/**
 * The request body as JSON bytes: `{"image":"<base64>", ...fields}`. A file is base64-encoded
 * straight into the body buffer in chunks, so a large image is never also held as one big
 * string (or serialized a second time by the HTTP client).
 */
export function jsonBody(image: Buffer | string, fields: object): Buffer {
	const rest = JSON.stringify(fields);
	const tail = Buffer.from(rest === '{}' ? '}' : `,${rest.slice(1)}`);
	if (typeof image === 'string') {
		return Buffer.concat([Buffer.from(`{"image":${JSON.stringify(image)}`), tail]);
	}
	const head = Buffer.from('{"image":"');
	const encodedLength = Math.ceil(image.length / 3) * 4;
	const body = Buffer.allocUnsafe(head.length + encodedLength + 1 + tail.length);
	let offset = head.copy(body, 0);
	for (let start = 0; start < image.length; start += CHUNK) {
		offset += body.write(image.subarray(start, start + CHUNK).toString('base64'), offset, 'latin1');
	}
	offset += body.write('"', offset, 'latin1');
	tail.copy(body, offset);
	return body;
}
