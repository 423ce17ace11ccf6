/** Run-time limits and defaults, shared by the node's parameter descriptions and by the code that reads them. */

export const DEFAULT_CONCURRENCY = 5;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const MAX_CONCURRENCY = 50;
export const MAX_RETRIES = 10;
export const MAX_TIMEOUT_MS = 3_600_000;
export const MAX_OBJECTS_BOUNDS = { min: 1, max: 10_000, integer: true } as const;
