import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from '../harness/execute';
import { startServerProcess } from './server-process';
import { SYNTHETIC_DETECT_MODEL } from './models';
const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const WATCH = JSON.parse(process.argv[2] ?? '{}');
(async () => {
	const server = await startServerProcess();
	const credentials = { baseUrl: server.url, apiKey: server.apiKey, sendAs: 'header' as const };
	const items = (n: number) => Array.from({ length: n }, () => ({ binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }));
	for (let round = 0; round < 6; round++) {
		const usage = process.cpuUsage();
		await runNode({ parameters: { operation: 'detect', modelId: SYNTHETIC_DETECT_MODEL, imageSource: 'binary', binaryPropertyName: 'data', options: { concurrency: 10, ...WATCH } }, items: items(1000), credentials, recordRequests: false, staticData: {} });
		const u = process.cpuUsage(usage);
		console.log('round', round, ((u.user + u.system) / 1000 / 1000).toFixed(3), 'ms/item');
	}
	await server.close();
})();
