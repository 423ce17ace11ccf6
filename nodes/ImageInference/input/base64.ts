const DATA_URL_PREFIX = /^data:[^,]*?;base64,/i;

/**
 * Decodes base64, or returns undefined when the text is not base64. A data: URL prefix and line
 * breaks are allowed. Node's decoder skips characters outside the alphabet, so a text is valid
 * exactly when it decodes to the full length its size implies: no regular expression over a
 * multi-megabyte image, no second copy.
 */
export function decodeBase64(text: string): Buffer | undefined {
	const strict = decodeStrict(text);
	if (strict) return strict;
	const cleaned = normalizeBase64(text);
	return cleaned === text ? undefined : decodeStrict(cleaned);
}

/** The base64 text without its data: prefix and white space (the form the service expects). */
export function normalizeBase64(text: string): string {
	return text.trim().replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
}

function decodeStrict(text: string): Buffer | undefined {
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	const symbols = text.length - padding;
	if (symbols === 0 || symbols % 4 === 1 || (padding > 0 && text.length % 4 !== 0)) return undefined;
	const bytes = Buffer.from(text, 'base64');
	return bytes.length === Math.floor((symbols * 3) / 4) ? bytes : undefined;
}
