import { SLICE_MS, sliceTimer, yieldBySleeping } from '../../nodes/ImageInference/picture/slices';

describe('slicing the picture work', () => {
	it('lets the event loop run only once a slice has lasted its time, then starts a new slice', async () => {
		// the clock held still, then moved on by hand (jest's fake timers set Date.now)
		jest.useFakeTimers({ now: Date.parse('2026-11-30T12:00:00Z') });
		try {
			let yields = 0;
			const pause = sliceTimer(async () => {
				yields++;
			});
			for (let call = 0; call < 100; call++) await pause();
			expect(yields).toBe(0);
			jest.advanceTimersByTime(SLICE_MS - 1);
			await pause();
			expect(yields).toBe(0);
			jest.advanceTimersByTime(1);
			await pause();
			expect(yields).toBe(1);
			await pause();
			expect(yields).toBe(1);
			jest.advanceTimersByTime(SLICE_MS);
			await pause();
			expect(yields).toBe(2);
		} finally {
			jest.useRealTimers();
		}
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
