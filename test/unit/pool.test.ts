import { runStoppingAtFirstFailure } from '../../nodes/ImageInference/helpers/pool';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runStoppingAtFirstFailure', () => {
	it('never has more than the limit in flight and runs every task once', async () => {
		let inFlight = 0;
		let peak = 0;
		const done: number[] = [];
		await runStoppingAtFirstFailure([...Array(40).keys()], 7, undefined, async (task) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await tick((task * 7) % 5);
			inFlight--;
			done.push(task);
		});
		expect(peak).toBe(7);
		expect([...done].sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
	});

	it('stops starting tasks after a failure and throws the earliest failed task’s error', async () => {
		const started: number[] = [];
		const run = runStoppingAtFirstFailure([...Array(100).keys()], 4, undefined, async (task) => {
			started.push(task);
			await tick(task === 9 ? 1 : 5);
			if (task === 9 || task === 8) throw new Error(`task ${task}`);
		});
		await expect(run).rejects.toThrow('task 8');
		expect(started.length).toBeLessThan(20);
	});

	it('starts nothing new once cancelled', async () => {
		const controller = new AbortController();
		const started: number[] = [];
		await runStoppingAtFirstFailure([...Array(50).keys()], 2, controller.signal, async (task) => {
			started.push(task);
			if (task === 3) controller.abort();
			await tick(1);
		});
		expect(started.length).toBeLessThanOrEqual(5);
	});
});
