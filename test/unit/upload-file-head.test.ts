/**
 * How much of a file is read to check it before any request: FILE_HEAD_BYTES, or on to a JPEG's
 * size however far it lies, from a stream or from base64 held in memory.
 */
import { Readable } from 'node:stream';

import type { IExecuteFunctions } from 'n8n-workflow';

import { FILE_HEAD_BYTES, readFileHeadWhole } from '../../nodes/ImageInference/input/imageInput';
import { withSegmentsBeforeFrame } from '../harness/images';
import { CAR } from '../node/setup';

const KB = 1024;

/** A context holding one file as n8n's stores do: `stream` by id in chunks of the size asked, or `memory` as base64 without an id. */
function holding(bytes: Buffer, store: 'stream' | 'memory' | 'memory without data') {
	const taken = { bytes: 0, whole: 0, stream: undefined as Readable | undefined };
	const binary = store === 'stream' ? { id: 'filesystem-v2:x', mimeType: 'image/jpeg' } : { mimeType: 'image/jpeg', ...(store === 'memory' ? { data: bytes.toString('base64') } : {}) };
	const context = {
		getInputData: () => [{ json: {}, binary: { data: binary } }],
		helpers: {
			getBinaryStream: async (_id: string, chunkSize: number) => {
				const stream = Readable.from(
					(function* () {
						for (let start = 0; start < bytes.length; start += chunkSize) {
							taken.bytes += Math.min(chunkSize, bytes.length - start);
							yield bytes.subarray(start, start + chunkSize);
						}
					})(),
				);
				taken.stream = stream;
				return stream;
			},
			getBinaryDataBuffer: async () => {
				taken.whole++;
				return bytes;
			},
		},
	} as unknown as IExecuteFunctions;
	return { read: async () => await readFileHeadWhole.call(context, 0, 'data'), taken };
}

describe('a file’s head', () => {
	it.each(['stream', 'memory'] as const)('%s: a file larger than the head whose size is in it: the first 256 KB, not whole', async (store) => {
		const big = Buffer.concat([CAR, Buffer.alloc(600 * KB)]);
		const { read, taken } = holding(big, store);
		const head = await read();
		expect(head.whole).toBe(false);
		expect(head.bytes.equals(big.subarray(0, 256 * KB))).toBe(true);
		if (store === 'stream') expect(taken.bytes).toBe(256 * KB);
		expect(taken.whole).toBe(0);
	});

	it.each(['stream', 'memory'] as const)('%s: a small file is read whole', async (store) => {
		const { read } = holding(CAR, store);
		const head = await read();
		expect(head.whole).toBe(true);
		expect(head.bytes.equals(CAR)).toBe(true);
	});

	it.each(['stream', 'memory'] as const)('%s: a JPEG with 300 KB before its size is read on to it, in doubling steps, not to its end', async (store) => {
		// 300 KB of segments, then CAR's own; behind it 2 MB more: read 256 KB, then to 512 KB (2 × 256), where the size is
		const padded = Buffer.concat([withSegmentsBeforeFrame(CAR, 300 * KB), Buffer.alloc(2048 * KB)]);
		const { read, taken } = holding(padded, store);
		const head = await read();
		expect(head.whole).toBe(false);
		expect(head.bytes.equals(padded.subarray(0, 512 * KB))).toBe(true);
		if (store === 'stream') expect(taken.bytes).toBe(512 * KB);
	});

	it('a JPEG whose size is never found is read to its end, and is whole', async () => {
		const noFrame = withSegmentsBeforeFrame(Buffer.from([0xff, 0xd8]), 700 * KB);
		const { read } = holding(noFrame, 'stream');
		const head = await read();
		expect(head.whole).toBe(true);
		expect(head.bytes.equals(noFrame)).toBe(true);
	});

	it('a PNG is not read past the head', async () => {
		const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(700 * KB)]);
		const { read, taken } = holding(png, 'stream');
		expect((await read()).bytes).toHaveLength(FILE_HEAD_BYTES);
		expect(taken.bytes).toBe(256 * KB);
	});

	it('a file that starts as a JPEG marker does but is none is not read past the head', async () => {
		const notJpeg = Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.alloc(700 * KB)]);
		const { read, taken } = holding(notJpeg, 'stream');
		expect((await read()).bytes).toHaveLength(FILE_HEAD_BYTES);
		expect(taken.bytes).toBe(256 * KB);
	});

	it('the stream is closed once the head is read', async () => {
		const { read, taken } = holding(Buffer.concat([CAR, Buffer.alloc(600 * KB)]), 'stream');
		await read();
		expect(taken.stream!.destroyed).toBe(true);
	});

	it('a file in memory without base64 data is read whole through n8n', async () => {
		const { read, taken } = holding(CAR, 'memory without data');
		const head = await read();
		expect(head.whole).toBe(true);
		expect(head.bytes.equals(CAR)).toBe(true);
		expect(taken.whole).toBe(1);
	});
});
