import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Benchmark 3 reads the node's CPU per item, with the reference server in a child process on the
 * same machine. Left to the scheduler, the two share both cores: the server's work lands on the
 * node's core between items and empties its caches, which spreads one run from the next by more
 * than the ratios measured (two runs of the same settings differed by up to 8 %). The real service
 * runs on another machine; here, while `benchmark` runs, the node (all its threads) gets core 0
 * and the server core 1, with Linux's taskset. Where there is no taskset or one core, nothing is
 * pinned; `benchmark` is told which, for its row.
 */
export async function onSeparateCores(serverPid: number, benchmark: (cores: string) => Promise<void>): Promise<void> {
	const cores = availableParallelism();
	const taskset = (core: string, pid: number) => execFileSync('taskset', ['-a', '-cp', core, String(pid)], { stdio: 'ignore' });
	let pinned = cores >= 2;
	try {
		if (pinned) {
			taskset('0', process.pid);
			taskset('1', serverPid);
		}
	} catch {
		// no taskset, or the server not pinned: the node goes back to every core too
		pinned = false;
		try {
			taskset(`0-${cores - 1}`, process.pid);
		} catch {
			// no taskset: nothing was pinned
		}
	}
	try {
		await benchmark(pinned ? 'node and service each on a core of its own' : 'node and service not pinned to cores');
	} finally {
		if (pinned) {
			taskset(`0-${cores - 1}`, process.pid);
			taskset(`0-${cores - 1}`, serverPid);
		}
	}
}
