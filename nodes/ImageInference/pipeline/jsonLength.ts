/**
 * `JSON.stringify(value).length`, counted without writing the JSON: the static data's bound
 * measures a key's look at every look, and writing numbers is most of JSON.stringify's time (a look
 * of 50 tracks holds 400 of them). Numbers an integer or of at most four decimals, as the looks
 * keep them, are counted from their digits; any other value is measured by JSON.stringify.
 */
export function jsonLength(value: unknown): number {
	if (typeof value === 'number') return numberLength(value);
	if (typeof value === 'string') return textLength(value);
	if (typeof value === 'boolean') return value ? 4 : 5;
	if (value === null) return 4;
	if (Array.isArray(value)) {
		let length = 2 + Math.max(value.length - 1, 0);
		// as JSON.stringify writes what has no JSON in a list: null
		for (const entry of value) length += isWritten(entry) ? jsonLength(entry) : 4;
		return length;
	}
	if (isPlainRecord(value)) {
		let length = 2;
		let fields = 0;
		for (const key in value) {
			const field = value[key];
			if (!isWritten(field)) continue;
			length += textLength(key) + 1 + jsonLength(field);
			fields++;
		}
		return length + Math.max(fields - 1, 0);
	}
	return JSON.stringify(value)?.length ?? 0;
}

/** An object JSON.stringify writes field by field: no toJSON of its own, no class of its own (a Date is written by its toJSON). */
const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** Whether JSON.stringify writes the value as a field: it leaves out undefined, functions and symbols. */
const isWritten = (value: unknown) => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/** What JSON.stringify writes for each character below a space: a short escape or \u00XX. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/**
 * A text's JSON length, counted from its characters as JSON.stringify escapes them: a quote or a
 * backslash takes two, a character below a space two or six (\n, \u0001), a lone half of a
 * surrogate pair six (\ud800); every other UTF-16 unit one.
 */
export function textLength(text: string): number {
	let length = text.length + 2;
	for (let index = 0; index < text.length; index++) {
		const unit = text.charCodeAt(index);
		if (unit === 0x22 || unit === 0x5c) length += 1;
		else if (unit < 0x20) length += SHORT_ESCAPES.has(unit) ? 1 : 5;
		else if (unit >= 0xd800 && unit <= 0xdfff) {
			const pairsWithNext = unit <= 0xdbff && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1));
			if (pairsWithNext) index++;
			else length += 5;
		}
	}
	return length;
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Below 1e21 JavaScript writes an integer in full; the four-decimal count is exact well past the values kept (times, counts, boxes). */
const FULL_INTEGER_BELOW = 1e21;
const FOUR_DECIMALS_BELOW = 1e9;

export function numberLength(value: number): number {
	if (!Number.isFinite(value)) return 4;
	const magnitude = Math.abs(value);
	const sign = value < 0 ? 1 : 0;
	if (Number.isInteger(value) && magnitude < FULL_INTEGER_BELOW) return sign + digitCount(magnitude);
	const tenThousandths = Math.round(magnitude * 10_000);
	// a number of at most four decimals is written as them, its trailing zeros left out
	if (magnitude < FOUR_DECIMALS_BELOW && tenThousandths / 10_000 === magnitude) {
		let decimals = 4;
		for (let fraction = tenThousandths % 10_000; fraction % 10 === 0; fraction /= 10) decimals--;
		return sign + digitCount(Math.floor(tenThousandths / 10_000)) + 1 + decimals;
	}
	return JSON.stringify(value).length;
}

const POWERS_OF_TEN = Array.from({ length: 21 }, (_, power) => 10 ** power);

function digitCount(integer: number): number {
	let digits = 1;
	while (digits < POWERS_OF_TEN.length && integer >= POWERS_OF_TEN[digits]) digits++;
	return digits;
}
