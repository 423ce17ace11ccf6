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

/** Labels, zones and keys come back look after look: their JSON lengths are kept, up to a bound. */
const textLengths = new Map<string, number>();
const MAX_KEPT_TEXTS = 1_000;

export function textLength(text: string): number {
	let length = textLengths.get(text);
	if (length === undefined) {
		length = JSON.stringify(text).length;
		if (textLengths.size >= MAX_KEPT_TEXTS) textLengths.clear();
		textLengths.set(text, length);
	}
	return length;
}

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
