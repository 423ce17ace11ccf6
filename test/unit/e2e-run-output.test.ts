/**
 * The end-to-end harness reads what a finished command printed (n8n's `execute --rawOutput` prints
 * the whole run, images included, then calls process.exit()). All of it must arrive, however large
 * and however soon the command exits after printing.
 */
import { run } from '../e2e/lib/process';

const printThenExit = (bytes: number) =>
	`process.stdout.write('<' + 'x'.repeat(${bytes - 2}) + '>'); process.stderr.write('done'); process.exit(0);`;

it('keeps every byte a command printed just before it exited, 8 MB of it', async () => {
	const bytes = 8 * 1024 * 1024;
	const result = await run(process.execPath, ['-e', printThenExit(bytes)], { timeoutMs: 60_000 });
	expect(result.code).toBe(0);
	expect(result.stdout.length).toBe(bytes);
	expect(result.stdout.endsWith('x>')).toBe(true);
	expect(result.stderr).toBe('done');
});
