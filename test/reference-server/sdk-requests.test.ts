/**
 * The requests the official SDKs send, as they send them (bodies and headers, read from their
 * request code, not the SDK code run): epigos-ts 1.1.0 (src/epigos.ts, src/core/*.ts,
 * src/constants.ts) and epigos-python 2.1.0 (epigos/client.py, epigos/core/*.py). And the server's
 * sparse answers, in the shapes the SDKs' tests and the docs show.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { request } from 'undici';

import type { ReferenceServer } from '.';
import { startReferenceServer } from '.';

const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const image = CAR.toString('base64');

let server: ReferenceServer;
beforeAll(async () => {
	server = await startReferenceServer({ apiKey: 'sdk-test-key' });
});
afterAll(async () => await server.close());
beforeEach(() => server.setAnswerShape('full'));

const sdkHeaders = (sdk: 'Node; Version: 1.1.0' | 'Python; Version: 2.1.0') => ({
	'Content-Type': 'application/json',
	'X-Api-Key': server.apiKey,
	'X-Client-Sdk': `Epigos-SDK/${sdk}`,
});

async function send(path: string, headers: Record<string, string>, body: object) {
	const response = await request(new URL(path, server.url), { method: 'POST', headers, body: JSON.stringify(body) });
	return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
}

const detectPath = () => `/predict/detect/${server.models.detect}/`;
const classifyPath = () => `/predict/classify/${server.models.classify}/`;

describe('the TypeScript SDK (camelCase drawing options, sent on every detect call by default)', () => {
	const headers = () => sdkHeaders('Node; Version: 1.1.0');

	it('detect with its default options { annotate: true, showProb: true, strokeWidth: null } is answered', async () => {
		const answer = await send(detectPath(), headers(), { image, annotate: true, showProb: true, strokeWidth: null });
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual(server.predict('detect', CAR, { annotate: true, show_prob: true, stroke_width: null }));
	});

	it('detect with its options set: showProb and strokeWidth are honoured as show_prob and stroke_width', async () => {
		const answer = await send(detectPath(), headers(), { image, annotate: true, showProb: false, strokeWidth: 4, confidence: 0.4 });
		expect(answer.status).toBe(200);
		const asSnakeCase = server.predict('detect', CAR, { annotate: true, show_prob: false, stroke_width: 4, confidence: 0.4 });
		expect(answer.json).toEqual(asSnakeCase);
		expect(answer.json.image).not.toEqual(server.predict('detect', CAR, { annotate: true, confidence: 0.4 }).image);
	});

	it('classify sends only the image (confidence when set)', async () => {
		const answer = await send(classifyPath(), headers(), { image, confidence: 0.3 });
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual(server.predict('classify', CAR, { confidence: 0.3 }));
	});
});

describe('the Python SDK (snake_case, every field sent, stroke_width null)', () => {
	const headers = () => sdkHeaders('Python; Version: 2.1.0');

	it('detect { image, confidence: 0.7, annotate: true, stroke_width: null, show_prob: true } is answered', async () => {
		const body = { image, confidence: 0.7, annotate: true, stroke_width: null, show_prob: true };
		const answer = await send(detectPath(), headers(), body);
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual(server.predict('detect', CAR, { confidence: 0.7, annotate: true, stroke_width: null, show_prob: true }));
	});

	it('classify { image, confidence: 0.7 } is answered', async () => {
		const answer = await send(classifyPath(), headers(), { image, confidence: 0.7 });
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual(server.predict('classify', CAR, { confidence: 0.7 }));
	});

	it('both SDKs’ header is recorded as sent', async () => {
		await send(classifyPath(), headers(), { image });
		expect(server.requests.at(-1)!.headers['x-client-sdk']).toBe('Epigos-SDK/Python; Version: 2.1.0');
	});
});

describe('sparse answers', () => {
	it('detect: no labelsCount, and no image key when nothing was drawn; the image when it was', async () => {
		server.setAnswerShape('sparse');
		const full = server.predict('detect', CAR, { annotate: true });
		expect((await send(detectPath(), sdkHeaders('Node; Version: 1.1.0'), { image, annotate: false })).json).toEqual({
			detections: server.predict('detect', CAR, { annotate: false }).detections,
		});
		expect((await send(detectPath(), sdkHeaders('Node; Version: 1.1.0'), { image, annotate: true })).json).toEqual({
			detections: full.detections,
			image: full.image,
		});
	});

	it('classify: category and confidence only', async () => {
		server.setAnswerShape('sparse');
		const full = server.predict('classify', CAR, {});
		expect((await send(classifyPath(), sdkHeaders('Python; Version: 2.1.0'), { image })).json).toEqual({
			category: full.category,
			confidence: full.confidence,
		});
	});
});
