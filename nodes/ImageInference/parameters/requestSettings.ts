import type { IExecuteFunctions } from 'n8n-workflow';

import type { RequestSettings } from '../transport';
import { readOptionalNumber, readOptions } from './readers';

export const DEFAULT_CONCURRENCY = 5;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const CONCURRENCY_BOUNDS = { min: 1, max: 50, integer: true } as const;
export const RETRIES_BOUNDS = { min: 0, max: 10, integer: true } as const;
export const TIMEOUT_BOUNDS = { min: 1, max: 3_600_000 } as const;

/** How one item's requests are sent (Concurrency is checked here; the router runs the batch at one value). */
export function readRequestSettings(this: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = readOptions.call(this, itemIndex);
	return {
		concurrency: readOptionalNumber.call(this, itemIndex, options, 'concurrency', 'Concurrency', CONCURRENCY_BOUNDS) ?? DEFAULT_CONCURRENCY,
		retries: readOptionalNumber.call(this, itemIndex, options, 'retries', 'Retries', RETRIES_BOUNDS) ?? DEFAULT_RETRIES,
		timeoutMs: readOptionalNumber.call(this, itemIndex, options, 'timeout', 'Timeout', TIMEOUT_BOUNDS) ?? DEFAULT_TIMEOUT_MS,
	};
}
