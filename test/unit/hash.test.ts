import { fnv1a } from '../../nodes/ImageInference/pipeline/hash';

describe('FNV-1a, 32 bits', () => {
	// the reference test vectors of FNV-1a 32 (Fowler, Noll, Vo: the FNV test suite)
	const VECTORS: Array<[string, number]> = [
		['', 0x811c9dc5],
		['a', 0xe40c292c],
		['foobar', 0xbf9cf968],
	];

	it('gives the reference values for a text, over its code points', () => {
		for (const [text, hash] of VECTORS) expect(fnv1a(text)).toBe(hash);
	});

	it('gives the same values for the text’s bytes, every byte read once', () => {
		for (const [text, hash] of VECTORS) expect(fnv1a(new TextEncoder().encode(text))).toBe(hash);
		expect(fnv1a(new Uint8Array([0x66, 0x6f, 0x6f, 0x62, 0x61, 0x72]).subarray(0, 1))).toBe(fnv1a('f'));
	});
});
