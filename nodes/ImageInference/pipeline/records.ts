/**
 * Counts and times kept per label or zone name in plain objects (the output's `countsByZone`, the
 * static data's looks and tracks), read and written as own fields only: a model's label or a zone
 * may be called "constructor" or "__proto__", which `record[name]` reads from Object.prototype
 * (or, for "__proto__", writes to the object's prototype).
 */

const hasOwn = Object.prototype.hasOwnProperty;

export function ownField<T>(record: Record<string, T>, name: string): T | undefined {
	return hasOwn.call(record, name) ? record[name] : undefined;
}

export function hasOwnField(record: object, name: string): boolean {
	return hasOwn.call(record, name);
}

export function setOwnField<T>(record: Record<string, T>, name: string, value: T): void {
	if (name === '__proto__') Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
	else record[name] = value;
}

/** One more of `name` in `counts`. */
export function countOneMore(counts: Record<string, number>, name: string): void {
	setOwnField(counts, name, (ownField(counts, name) ?? 0) + 1);
}

/** A JSON object (not a list, not null), as the static data may hold one where a record is expected. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
