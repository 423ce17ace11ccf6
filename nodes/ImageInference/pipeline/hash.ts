/** FNV-1a, 32 bits, over a text's code points or a file's bytes: short, quick fingerprints, not for secrets. */
export function fnv1a(input: string | Uint8Array): number {
	let hash = 0x811c9dc5;
	const step = (value: number) => {
		hash ^= value;
		hash = Math.imul(hash, 0x01000193) >>> 0;
	};
	if (typeof input === 'string') for (const char of input) step(char.codePointAt(0)!);
	else for (let index = 0; index < input.length; index++) step(input[index]);
	return hash;
}
