import { DatabaseFileReadAhead } from '../../nodes/ImageInference/input/databaseReadAhead';

/** Files 0…count-1, each read when asked and answered when the test says so; every read is logged. */
function files(count: number, options: { readsWhole?: (position: number) => boolean } = {}) {
	const reads: number[] = [];
	const pending = new Map<number, { resolve: (bytes: Buffer) => void; reject: (error: Error) => void }>();
	let stopped = false;
	const readAhead = new DatabaseFileReadAhead(
		count,
		options.readsWhole ?? (() => true),
		async (position) => {
			reads.push(position);
			return await new Promise<Buffer>((resolve, reject) => pending.set(position, { resolve, reject }));
		},
		() => stopped,
	);
	const settle = async () => await new Promise((resolve) => setImmediate(resolve));
	return {
		reads,
		/** Asks for file `position` and lets the read start if it may; gives the pending answer (wrapped, so it is not awaited here). */
		async ask(position: number) {
			const bytes = readAhead.read(position);
			bytes.catch(() => undefined);
			await settle();
			return { bytes };
		},
		stop: () => (stopped = true),
		/** Lets file `position`'s read finish (or fail), then lets the promises that wait on it run. */
		async finish(position: number, error?: Error) {
			const read = pending.get(position);
			if (!read) throw new Error(`file ${position} is not being read`);
			pending.delete(position);
			if (error) read.reject(error);
			else read.resolve(Buffer.from(`file ${position}`));
			await settle();
		},
	};
}

describe('reading whole files one at a time, one image ahead', () => {
	it('once an image’s file is in, the next one is read; its request then takes it without a second read', async () => {
		const { ask, reads, finish } = files(3);
		const first = await ask(0);
		expect(reads).toEqual([0]);
		await finish(0);
		await expect(first.bytes).resolves.toEqual(Buffer.from('file 0'));
		expect(reads).toEqual([0, 1]);

		const second = await ask(1);
		await finish(1);
		await expect(second.bytes).resolves.toEqual(Buffer.from('file 1'));
		expect(reads).toEqual([0, 1, 2]);
	});

	it('reads one file at a time, in the order asked, the one ahead after those asked before it', async () => {
		const { ask, reads, finish } = files(4);
		const first = await ask(0);
		const second = await ask(1);
		expect(reads).toEqual([0]);
		await finish(0);
		await first.bytes;
		expect(reads).toEqual([0, 1]);
		await finish(1);
		await second.bytes;
		expect(reads).toEqual([0, 1, 2]);
	});

	it('holds one file ahead at most, and a retry reads its file again', async () => {
		const { ask, reads, finish } = files(4);
		const first = await ask(0);
		await finish(0);
		await first.bytes;
		const retry = await ask(0);
		// file 1, read ahead, comes first; then the retry's own read
		await finish(1);
		await finish(0);
		await expect(retry.bytes).resolves.toEqual(Buffer.from('file 0'));
		// file 1 is still the one ahead: nothing more is read
		expect(reads).toEqual([0, 1, 0]);
	});

	it('a file read ahead that fails is reported by its own image, not before; the reads after it go on', async () => {
		const { ask, reads, finish } = files(3);
		const first = await ask(0);
		await finish(0);
		await finish(1, new Error('the database is gone'));
		await expect(first.bytes).resolves.toEqual(Buffer.from('file 0'));
		const second = await ask(1);
		await expect(second.bytes).rejects.toThrow('the database is gone');
		const third = await ask(2);
		await finish(2);
		await expect(third.bytes).resolves.toEqual(Buffer.from('file 2'));
		expect(reads).toEqual([0, 1, 2]);
	});

	it('skips images whose files are not in a store that reads whole', async () => {
		const { ask, reads, finish } = files(4, { readsWhole: (position) => position !== 1 });
		const first = await ask(0);
		await finish(0);
		await first.bytes;
		expect(reads).toEqual([0, 2]);
	});

	it('reads nothing ahead once the execution stops starting requests, nor past the last image', async () => {
		const stopping = files(3);
		const first = await stopping.ask(0);
		stopping.stop();
		await stopping.finish(0);
		await first.bytes;
		expect(stopping.reads).toEqual([0]);

		const last = files(1);
		const only = await last.ask(0);
		await last.finish(0);
		await only.bytes;
		expect(last.reads).toEqual([0]);
	});
});
