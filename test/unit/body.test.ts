import { randomBytes } from 'node:crypto';

import { jsonBody, jsonBodyFromStream } from '../../nodes/ImageInference/transport/body';

async function* chunksOf(bytes: Buffer, size: number) {
	for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

describe('request body', () => {
	const fields = { confidence: 0.4, annotate: false };

	it.each([0, 1, 2, 3, 100_000, 100_001, 100_002, 250_000])('a %i-byte file: the JSON the contract asks for', (length) => {
		const image = randomBytes(length);
		expect(JSON.parse(jsonBody(image, fields).toString())).toEqual({ image: image.toString('base64'), ...fields });
		expect(JSON.parse(jsonBody(image, {}).toString())).toEqual({ image: image.toString('base64') });
	});

	it.each([1, 2, 4, 7, 49_152, 65_536, 1_000_000])('streamed in chunks of %i bytes, the same bytes as from the whole file', async (chunk) => {
		for (const length of [1, 2, 3, 200_000, 200_001, 200_002]) {
			const image = randomBytes(length);
			const streamed = await jsonBodyFromStream(chunksOf(image, chunk), length, fields);
			expect(streamed?.equals(jsonBody(image, fields))).toBe(true);
		}
	});

	it('gives up (undefined) when the stream is shorter or longer than the size it was given', async () => {
		const image = randomBytes(1000);
		expect(await jsonBodyFromStream(chunksOf(image, 64), 1001, fields)).toBeUndefined();
		expect(await jsonBodyFromStream(chunksOf(image, 64), 999, fields)).toBeUndefined();
	});

	it('stops reading at the first chunk past the size it was given: a file larger than its stored size is not read to its end', async () => {
		const image = randomBytes(1024 * 1024);
		let chunksRead = 0;
		async function* counted() {
			for await (const chunk of chunksOf(image, 64 * 1024)) {
				chunksRead++;
				yield chunk;
			}
		}
		expect(await jsonBodyFromStream(counted(), 100_000, fields)).toBeUndefined();
		expect(chunksRead).toBe(2);
	});
});
