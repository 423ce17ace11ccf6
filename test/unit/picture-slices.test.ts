import { SLICE_MS, sliceTimer, yieldBySleeping } from '../../nodes/ImageInference/picture/slices';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('slicing the picture work', () => {
	it('lets the event loop run only once a slice has lasted its time, then starts a new slice', async () => {
		let yields = 0;
		const pause = sliceTimer(async () => {
			yields++;
		});
		// many pauses within a quarter of a slice: no yield
		const started = Date.now();
		let pauses = 0;
		while (Date.now() - started < SLICE_MS / 4) {
			await pause();
			pauses++;
		}
		expect(pauses).toBeGreaterThan(10);
		expect(yields).toBe(0);
		await wait(SLICE_MS + 5);
		await pause();
		expect(yields).toBe(1);
		await pause();
		expect(yields).toBe(1);
	});

	it('yields by letting the timers that are due run, as n8n’s webhooks and other executions wait on them', async () => {
		let timerRan = false;
		setTimeout(() => {
			timerRan = true;
		}, 0);
		await yieldBySleeping();
		expect(timerRan).toBe(true);
	});
});
