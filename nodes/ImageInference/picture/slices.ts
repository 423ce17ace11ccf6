import { sleep } from 'n8n-workflow';

/** Lets n8n's event loop run (webhooks, other executions); the tests count the calls. */
export type YieldToEventLoop = () => Promise<void>;

/** Called between slices of work: lets the event loop run when a slice has lasted SLICE_MS. */
export type Pause = () => Promise<void>;

/** How long picture work runs before it lets n8n's event loop run. */
export const SLICE_MS = 20;

export const yieldBySleeping: YieldToEventLoop = async () => await sleep(0);

/** A pause for one piece of work: it yields once SLICE_MS have passed since the work started or last yielded. */
export function sliceTimer(yieldToEventLoop: YieldToEventLoop = yieldBySleeping): Pause {
	let sliceStarted = Date.now();
	return async () => {
		if (Date.now() - sliceStarted < SLICE_MS) return;
		await yieldToEventLoop();
		sliceStarted = Date.now();
	};
}
