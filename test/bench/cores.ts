import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Benchmark 3 reads the node's CPU per item, with the reference server in a child process on the
 * same machine. Left to the scheduler, the two share both cores: the server's work lands on the
 * node's core between items and empties its caches, which spreads one run from the next by more
 * than the ratios measured (two runs of the same settings differed by up to 8 %). The real service
 * runs on another machine; here the node (all its threads) gets core 0 and the server core 1, with
 * Linux's taskset. Where there is no taskset or one core, nothing is pinned, and the row says so.
 */
export function pinToSeparateCores(serverPid: number): { pinned: boolean; release: () => void } {
	const cores = availableParallelism();
	const taskset = (core: string, pid: number) => execFileSync('taskset', ['-a', '-cp', core, String(pid)], { stdio: 'ignore' });
	if (cores < 2) return { pinned: false, release: () => {} };
	try {
		taskset('0', process.pid);
		taskset('1', serverPid);
	} catch {
		return { pinned: false, release: () => {} };
	}
	const every = `0-${cores - 1}`;
	return {
		pinned: true,
		release: () => {
			taskset(every, process.pid);
			taskset(every, serverPid);
		},
	};
}
