/**
 * One of benchmark 4's rows alone, against the reference server in a child process:
 * `node -r ts-node/register/transpile-only test/bench/memory-row.ts image 10` (one image size, in MB)
 * or `… soak 2000` (items in executions of 100), or `… watched-soak 20000` (the same with zones,
 * Compare With Previous Look and tracking). Prints the measurement's JSON line.
 */
import { startServerProcess } from './server-process';
import { memoryChild } from './memory-runner';

async function main() {
	const [mode, amount] = process.argv.slice(2);
	if (mode !== 'image' && mode !== 'soak' && mode !== 'watched-soak') throw new Error('usage: memory-row.ts image <MB> | soak <items> | watched-soak <items>');
	const server = await startServerProcess();
	try {
		console.log(JSON.stringify(await memoryChild(server, mode, Number(amount))));
	} finally {
		await server.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
