/**
 * When the trigger looks. n8n's pollers cannot run more often than once a minute, so the trigger
 * registers one cron tick (each second for an interval in seconds, each minute for one in minutes)
 * and starts a look only on a tick when one is due: an exact interval (7 s stays 7 s, unlike a
 * cron's `*\/7`), never two looks at once, and a back-off after failures without a second timer.
 */
export const LOOK_EVERY_BOUNDS = { min: 1, max: 1440 };
export type LookUnit = 'seconds' | 'minutes';
export const LOOK_UNITS: readonly LookUnit[] = ['seconds', 'minutes'];
/** The longest back-off between failed looks, unless the interval is longer. */
export const MAX_BACKOFF_MS = 60_000;

export const intervalMs = (every: number, unit: LookUnit): number => every * (unit === 'minutes' ? 60_000 : 1000);

/** The cron expression of the tick (six fields, seconds first). */
export const tickExpression = (unit: LookUnit): '0 * * * * *' | '* * * * * *' => (unit === 'minutes' ? '0 * * * * *' : '* * * * * *');

/** How long to wait after a look: the interval, or after `failures` failed looks in a row, the interval × 2ⁿ up to a minute. */
export function waitAfter(interval: number, failures: number): number {
	if (failures === 0) return interval;
	return Math.max(interval, Math.min(interval * 2 ** failures, MAX_BACKOFF_MS));
}

/**
 * Whether a tick at `now` starts a look: the next look is due, or further off than the longest
 * wait (the clock was set back: the trigger looks rather than stay silent until the clock catches up).
 * A tick comes up to a second early or late, so a look due within half a tick counts as due.
 */
export function isDue(now: number, nextLookAt: number, interval: number, unit: LookUnit): boolean {
	const halfTick = unit === 'minutes' ? 30_000 : 500;
	const longestWait = Math.max(interval, MAX_BACKOFF_MS);
	return nextLookAt - now <= halfTick || nextLookAt - now > longestWait;
}
