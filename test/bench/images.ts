import { randomFillSync } from 'node:crypto';

/**
 * An incompressible PNG of about `megabytes` MB: random RGB pixels, stored without compression.
 * Written straight into one buffer (stored deflate blocks, checksums computed in place), so making
 * it leaves no garbage behind that a memory measurement would see being freed.
 */
export function noisePng(megabytes: number): Buffer {
	const side = Math.ceil(Math.sqrt((megabytes * 1024 * 1024) / 3));
	const rowBytes = 1 + side * 3;
	const rawBytes = rowBytes * side;
	const blocks = Math.ceil(rawBytes / STORED_BLOCK);
	const zlibBytes = 2 + blocks * 5 + rawBytes + 4;
	const png = Buffer.alloc(8 + (12 + 13) + (12 + zlibBytes) + 12);
	let at = 0;
	at += png.write('\x89PNG\r\n\x1a\n', at, 'latin1');
	const header = Buffer.alloc(13);
	header.writeUInt32BE(side, 0);
	header.writeUInt32BE(side, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // RGB
	at = writeChunk(png, at, 'IHDR', header.length, (data) => header.copy(data));
	at = writeChunk(png, at, 'IDAT', zlibBytes, (data) => {
		let out = 0;
		data[out++] = 0x78;
		data[out++] = 0x01;
		let a = 1;
		let b = 0;
		for (let block = 0, raw = 0; block < blocks; block++) {
			const length = Math.min(STORED_BLOCK, rawBytes - raw);
			data[out++] = block === blocks - 1 ? 1 : 0;
			data.writeUInt16LE(length, out);
			data.writeUInt16LE(~length & 0xffff, out + 2);
			out += 4;
			for (let index = 0; index < length; index++, raw++, out++) {
				// filter byte 0 (none) at the start of each row, random pixels elsewhere
				if (raw % rowBytes === 0) data[out] = 0;
				else if (raw % rowBytes === 1) randomFillSync(data, out, Math.min(rowBytes - 1, length - index));
				a = (a + data[out]) % 65521;
				b = (b + a) % 65521;
			}
		}
		data.writeUInt32BE(((b << 16) | a) >>> 0, out);
	});
	writeChunk(png, at, 'IEND', 0, () => undefined);
	return png;
}

const STORED_BLOCK = 65535;

function writeChunk(png: Buffer, at: number, type: string, length: number, fill: (data: Buffer) => void): number {
	png.writeUInt32BE(length, at);
	png.write(type, at + 4, 'latin1');
	fill(png.subarray(at + 8, at + 8 + length));
	png.writeUInt32BE(crc32(png, at + 4, at + 8 + length), at + 8 + length);
	return at + 12 + length;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(bytes: Buffer, from: number, to: number): number {
	let crc = 0xffffffff;
	for (let index = from; index < to; index++) crc = CRC_TABLE[(crc ^ bytes[index]) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}
