import { runStoppingAtFirstFailure } from '../../nodes/ImageInference/transport/pool';

/**
 * Tasks that finish when the test says so, never by the clock: each started task waits on its own
 * promise, and the test settles them in the order it chooses.
 */
function controlledTasks(count: number) {
	const started: number[] = [];
	const inFlight = new Set<number>();
	let peak = 0;
	const settle = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
	const work = (task: number) => {
		started.push(task);
		inFlight.add(task);
		peak = Math.max(peak, inFlight.size);
		return new Promise<void>((resolve, reject) => settle.set(task, { resolve, reject })).finally(() => inFlight.delete(task));
	};
	/** Lets pending starts happen: resolves once nothing new starts on this turn. */
	const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
	return {
		tasks: [...Array(count).keys()],
		work,
		started,
		inFlight: () => [...inFlight].sort((a, b) => a - b),
		peak: () => peak,
		flush,
		finish: async (task: number) => {
			settle.get(task)!.resolve();
			await flush();
		},
		fail: async (task: number) => {
			settle.get(task)!.reject(new Error(`task ${task} failed`));
			await flush();
		},
	};
}

describe('runStoppingAtFirstFailure', () => {
	it('starts in order, never more than the limit at once, refills each freed slot, runs every task once', async () => {
		const t = controlledTasks(12);
		const run = runStoppingAtFirstFailure(t.tasks, 4, undefined, t.work);
		await t.flush();
		expect(t.inFlight()).toEqual([0, 1, 2, 3]);
		// finish out of order: the freed slot goes to the next task in line
		await t.finish(2);
		expect(t.inFlight()).toEqual([0, 1, 3, 4]);
		for (const task of [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11]) await t.finish(task);
		await run;
		expect(t.started).toEqual(t.tasks);
		expect(t.peak()).toBe(4);
	});

	it('a limit above the number of tasks starts them all; a limit under 1 still runs one at a time', async () => {
		const all = controlledTasks(3);
		const runAll = runStoppingAtFirstFailure(all.tasks, 10, undefined, all.work);
		await all.flush();
		expect(all.inFlight()).toEqual([0, 1, 2]);
		for (const task of all.tasks) await all.finish(task);
		await runAll;

		const single = controlledTasks(3);
		const runSingle = runStoppingAtFirstFailure(single.tasks, 0, undefined, single.work);
		await single.flush();
		expect(single.inFlight()).toEqual([0]);
		for (const task of single.tasks) await single.finish(task);
		await runSingle;
		expect(single.peak()).toBe(1);
	});

	it('after a failure starts nothing new, lets the tasks in flight finish, then throws the earliest failed task’s error', async () => {
		const t = controlledTasks(100);
		const run = runStoppingAtFirstFailure(t.tasks, 4, undefined, t.work);
		let settled = false;
		void run.catch(() => undefined).finally(() => (settled = true));
		await t.flush();
		await t.fail(3);
		expect(t.started).toEqual([0, 1, 2, 3]);
		await t.fail(1);
		await t.finish(0);
		expect(settled).toBe(false);
		await t.fail(2);
		// the earliest in the list, not the first or the last to fail
		await expect(run).rejects.toThrow('task 1 failed');
		expect(t.started).toEqual([0, 1, 2, 3]);
	});

	it('once cancelled starts nothing new, and ends without an error when what was in flight is done', async () => {
		const controller = new AbortController();
		const t = controlledTasks(50);
		const run = runStoppingAtFirstFailure(t.tasks, 2, controller.signal, t.work);
		await t.flush();
		await t.finish(0);
		controller.abort();
		await t.finish(1);
		await t.finish(2);
		await expect(run).resolves.toBeUndefined();
		expect(t.started).toEqual([0, 1, 2]);
	});

	it('an empty list finishes at once', async () => {
		const t = controlledTasks(0);
		await expect(runStoppingAtFirstFailure(t.tasks, 4, undefined, t.work)).resolves.toBeUndefined();
		expect(t.started).toEqual([]);
	});
});
