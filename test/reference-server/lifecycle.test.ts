import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { PNG } from 'pngjs';
import { request } from 'undici';

import { detectResultSchema } from '../../nodes/ImageInference/contract';
import type { ModelDescription, ReferenceServer } from '.';
import { MODEL_IDS, PROJECT_IDS, startReferenceServer } from '.';

const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const image = CAR.toString('base64');

// The server's mechanics (exit, concurrency, body limits, faults, copies) whatever the model: the
// synthetic one, so nothing waits on inference. The child process below loads the real detector.
let server: ReferenceServer;
beforeAll(async () => {
	server = await startReferenceServer({ defaultModels: 'synthetic' });
});
afterAll(async () => await server.close());
beforeEach(() => server.clearFaults());

const detectUrl = () => `${server.url}/predict/detect/${server.models.detect}/`;
const post = (body: string | Readable, url = detectUrl()) =>
	request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey }, body });

it('never keeps its process alive, even with an idle keep-alive connection open and no close()', async () => {
	// Right after the answer the server still holds the client's connection (its keep-alive lasts
	// 5 s): the child lists what keeps its event loop alive at that moment, then must end by itself.
	const script = `
		const { startReferenceServer } = require(${JSON.stringify(join(__dirname, 'index.ts'))});
		startReferenceServer().then(async (s) => {
			const r = await fetch(s.url + '/predict/detect/' + s.models.detect + '/', { method: 'POST', headers: { 'x-api-key': s.apiKey }, body: '{}' });
			await r.text();
			setImmediate(() => console.log('answered ' + r.status + ', held by ' + JSON.stringify(process.getActiveResourcesInfo())));
		});`;
	const stdout = await new Promise<string>((resolve, reject) => {
		execFile(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { cwd: join(__dirname, '..', '..'), timeout: 20_000 }, (error, out) =>
			error ? reject(error) : resolve(out),
		);
	});
	const [, status, held] = /answered (\d+), held by (.*)/.exec(stdout) ?? [];
	expect(status).toBe('400');
	expect((JSON.parse(held) as string[]).filter((resource) => /TCP|Timeout/.test(resource))).toEqual([]);
}, 30_000);

it('npm run reference-server: prints URL, key, every model with what it is, the demo projects and the storage, serves the real detector, stops on SIGTERM', async () => {
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, 'cli.ts'), '--api-key', 'cli-key'], {
		cwd: join(__dirname, '..', '..'),
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	try {
		let printed = '';
		type Info = { url: string; apiKey: string; models: Record<string, string>; catalogue: ModelDescription[]; projects: typeof PROJECT_IDS; storageUrl: string };
		const info = await new Promise<Info>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no start-up lines within 30 s:\n${printed}`)), 30_000);
			child.stdout.on('data', (chunk: Buffer) => {
				printed += chunk.toString();
				const line = printed.split('\n').find((text, index, lines) => text.startsWith('{') && index < lines.length - 1);
				if (line) {
					clearTimeout(timer);
					resolve(JSON.parse(line));
				}
			});
			child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${printed}`)));
		});
		expect(printed).toContain(`Base URL: ${info.url}`);
		expect(printed).toContain('API key:  cli-key');
		expect(info.catalogue.map((model) => model.id).sort()).toEqual(Object.values(MODEL_IDS).sort());
		for (const model of info.catalogue) expect(printed).toContain(`${model.id}  ${model.kind}`);
		for (const model of info.catalogue) expect(printed).toContain(model.description);
		expect(info.projects).toEqual(PROJECT_IDS);
		expect(printed).toContain(`${PROJECT_IDS.detection}  object_detection`);
		expect(printed).toContain(`${PROJECT_IDS.classification}  classification`);
		expect(printed).toContain(`storage at ${info.storageUrl}`);
		const project = await request(`${info.url}/projects/${PROJECT_IDS.classification}/`, { headers: { 'x-api-key': 'cli-key' } });
		expect(await project.body.json()).toMatchObject({ id: PROJECT_IDS.classification, projectType: 'classification' });
		const response = await request(`${info.url}/predict/detect/${info.models.detect}/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': 'cli-key' },
			body: JSON.stringify({ image, annotate: false }),
		});
		expect(detectResultSchema.strict().parse(await response.body.json()).detections.map((d) => d.label)).toContain('car');
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
	} finally {
		child.kill('SIGKILL');
	}
}, 60_000);

it('answers many concurrent requests over kept-alive connections', async () => {
	const answers = await Promise.all(
		Array.from({ length: 64 }, async (_, i) => {
			const response = await post(JSON.stringify({ image, annotate: i % 2 === 0 }));
			return { status: response.statusCode, body: detectResultSchema.strict().parse(await response.body.json()) };
		}),
	);
	expect(answers.every((answer) => answer.status === 200)).toBe(true);
	expect(new Set(answers.map((answer) => JSON.stringify(answer.body.detections))).size).toBe(1);
});

it('takes a 25 MB image (about 34 MB of JSON)', async () => {
	const side = Math.ceil(Math.sqrt((25 * 1024 * 1024) / 3));
	const png = new PNG({ width: side, height: side, colorType: 2, inputColorType: 2, inputHasAlpha: false });
	png.data = randomBytes(side * side * 3);
	const bytes = PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: 0, filterType: 0 });
	// about the body's size (the detector on a 25 MB image: server.test.ts)
	const response = await post(JSON.stringify({ image: bytes.toString('base64'), annotate: false }));
	expect(response.statusCode).toBe(200);
	expect(detectResultSchema.strict().parse(await response.body.json()).image).toBeNull();
}, 30_000);

it('answers 413 to a body above the limit, after reading it, without dropping the connection', async () => {
	async function* oversized() {
		const chunk = Buffer.alloc(1024 * 1024, 0x61);
		for (let i = 0; i < 201; i++) yield chunk;
	}
	const response = await post(Readable.from(oversized()));
	expect(response.statusCode).toBe(413);
	expect(await response.body.json()).toEqual({ detail: expect.any(String) });
}, 30_000);

it('a delay fault answers normally, only later', async () => {
	server.addFault({ times: 1, action: { type: 'delay', ms: 300 } });
	const started = Date.now();
	const response = await post(JSON.stringify({ image }));
	expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	expect(response.statusCode).toBe(200);
	detectResultSchema.strict().parse(await response.body.json());
	expect(server.faultsFired()).toEqual([1]);
});

it('status faults: 404 with an empty body, 429 without Retry-After, then normal again', async () => {
	server.addFault({ times: 1, action: { type: 'status', status: 404, body: '' } });
	server.addFault({ times: 1, action: { type: 'status', status: 429, body: { detail: 'Too Many Requests' } } });
	const notFound = await post(JSON.stringify({ image }));
	expect([notFound.statusCode, await notFound.body.text()]).toEqual([404, '']);
	const limited = await post(JSON.stringify({ image }));
	expect(limited.statusCode).toBe(429);
	expect(limited.headers['retry-after']).toBeUndefined();
	expect(await limited.body.json()).toEqual({ detail: 'Too Many Requests' });
	const normal = await post(JSON.stringify({ image }));
	expect(normal.statusCode).toBe(200);
	await normal.body.dump();
	expect(server.faultsFired()).toEqual([1, 1]);
});

it('predict() gives a copy: changing it does not change what the server answers', async () => {
	const mine = server.predict('detect', CAR, {});
	mine.detections.length = 0;
	const response = await post(JSON.stringify({ image }));
	const answered = detectResultSchema.parse(await response.body.json());
	expect(answered.detections.length).toBeGreaterThan(0);
	expect(server.predict('detect', CAR, {})).toEqual(answered);
});
