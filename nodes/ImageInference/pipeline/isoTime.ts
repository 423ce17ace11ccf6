/** The latest time Date can hold, in milliseconds either side of 1970. */
const DATE_LIMIT_MS = 8.64e15;
const MINUTE_MS = 60_000;

/** A time as the static data may hold it, in milliseconds: one Date can hold, so that a look can write it as text again. */
export const isStoredTime = (value: unknown): value is number => typeof value === 'number' && Math.abs(value) <= DATE_LIMIT_MS;

/** The minute last written: its first millisecond, and its ISO text up to the seconds. */
let minute: { start: number; text: string } | undefined;

/**
 * A time as ISO text, exactly as Date's toISOString writes it (`2026-11-28T11:40:29.021Z`). Every
 * look writes its time; Date makes that text in one of the costliest calls of a look, so the text
 * up to the minute is made once a minute and the seconds and milliseconds are added to it.
 */
export function isoTime(ms: number): string {
	if (!Number.isInteger(ms) || Math.abs(ms) > DATE_LIMIT_MS) return new Date(ms).toISOString();
	const intoMinute = ((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS;
	const start = ms - intoMinute;
	if (start !== minute?.start) minute = { start, text: new Date(start).toISOString().slice(0, -'00.000Z'.length) };
	const seconds = Math.floor(intoMinute / 1000);
	const millis = intoMinute - seconds * 1000;
	return `${minute.text}${seconds < 10 ? '0' : ''}${seconds}.${millis < 100 ? (millis < 10 ? '00' : '0') : ''}${millis}Z`;
}
