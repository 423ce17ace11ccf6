/**
 * Runs `work` over `tasks`, started in order, with at most `limit` in flight. The first failure
 * stops new work from starting; once in-flight work settles, the failure of the earliest task is
 * thrown. A cancelled execution likewise starts nothing new.
 */
export async function runStoppingAtFirstFailure<T>(
	tasks: T[],
	limit: number,
	signal: AbortSignal | undefined,
	work: (task: T) => Promise<void>,
): Promise<void> {
	let next = 0;
	const failures: Array<{ index: number; error: unknown }> = [];
	const worker = async () => {
		while (next < tasks.length && failures.length === 0 && !signal?.aborted) {
			const index = next++;
			try {
				await work(tasks[index]);
			} catch (error) {
				failures.push({ index, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
	if (failures.length) {
		throw failures.reduce((first, failure) => (failure.index < first.index ? failure : first)).error;
	}
}
