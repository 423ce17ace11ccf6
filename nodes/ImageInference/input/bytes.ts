/** Reading numbers and four-letter codes out of a file's header bytes. */

export function ascii(bytes: Uint8Array, start: number, end: number): string {
	return String.fromCharCode(...bytes.subarray(start, end));
}

export const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
export const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
export const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
export const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
export const i32le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);
