import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { request } from 'undici';

import { detectResultSchema } from '../../nodes/ImageInference/contract';
import type { ReferenceServer } from '.';
import { sha256, startReferenceServer } from '.';
import { decodeImage } from './image-codec';

const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const DOG = readFileSync(join(__dirname, '..', 'fixtures', 'dog.jpg'));

let server: ReferenceServer;
beforeAll(async () => {
	server = await startReferenceServer({ apiKey: 'server-test-key' });
});
afterAll(async () => await server.close());
beforeEach(() => server.clearFaults());

async function post(path: string, body: unknown, auth: 'header' | 'query' | 'none' | 'wrong' = 'header') {
	const url = new URL(path, server.url);
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (auth === 'header') headers['X-API-Key'] = server.apiKey;
	if (auth === 'wrong') headers['x-api-key'] = 'nope';
	if (auth === 'query') url.searchParams.set('api-key', server.apiKey);
	const response = await request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
	const text = await response.body.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.statusCode, headers: response.headers, text, json: json as Record<string, unknown> };
}

const detectPath = () => `/predict/detect/${server.models.detect}/`;
const classifyPath = () => `/predict/classify/${server.models.classify}/`;
const image = CAR.toString('base64');

describe('authentication', () => {
	it.each(['header', 'query'] as const)('accepts the key as %s', async (auth) => {
		expect((await post(detectPath(), { image }, auth)).status).toBe(200);
	});

	it.each(['none', 'wrong'] as const)('answers 401 with the documented body (%s key), before looking at the body', async (auth) => {
		const response = await post(detectPath(), '{not json', auth);
		expect(response.status).toBe(401);
		expect(response.json).toEqual({ type: 'error', code: 'unauthorized', status: 401, message: 'Invalid or missing credentials', details: [] });
	});
});

describe('400: every malformed request, with details', () => {
	const cases: Array<[string, unknown, Array<{ location: string; type?: string; pointer: string }>]> = [
		['missing image', {}, [{ location: 'body', type: 'value_error.missing', pointer: '/image' }]],
		['empty body', '', [{ location: 'body', type: 'value_error.missing', pointer: '/image' }]],
		['not JSON', '{"image":', [{ location: 'body', pointer: '/' }]],
		['image not a string', { image: 42 }, [{ location: 'body', pointer: '/image' }]],
		['confidence above 1', { image, confidence: 1.5 }, [{ location: 'body', type: 'value_error.number.not_le', pointer: '/confidence' }]],
		['confidence below 0', { image, confidence: -0.1 }, [{ location: 'body', type: 'value_error.number.not_ge', pointer: '/confidence' }]],
		['confidence null', { image, confidence: null }, [{ location: 'body', pointer: '/confidence' }]],
		['stroke width 9', { image, stroke_width: 9 }, [{ location: 'body', pointer: '/stroke_width' }]],
		['annotate as text', { image, annotate: 'yes' }, [{ location: 'body', type: 'type_error.boolean', pointer: '/annotate' }]],
		['camelCase options', { image, showProb: false }, [{ location: 'body', type: 'value_error.extra', pointer: '/showProb' }]],
		['invalid base64', { image: 'not base64 at all!' }, [{ location: 'body', pointer: '/image' }]],
		['not an image', { image: Buffer.from('hello world, no image').toString('base64') }, [{ location: 'body', pointer: '/image' }]],
		['a URL outside this machine', { image: 'https://example.com/car.jpg' }, [{ location: 'body', pointer: '/image' }]],
	];

	it.each(cases)('%s', async (_, body, details) => {
		const response = await post(detectPath(), body);
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ type: 'error', code: 'bad_request', status: 400, message: expect.any(String), details });
	});

	it('a detection model id that is not a UUID is a path error', async () => {
		const response = await post('/predict/detect/my-model/', { image });
		expect(response.status).toBe(400);
		expect(response.json.details).toEqual([expect.objectContaining({ location: 'path', pointer: 'model_id' })]);
	});

	it('classification accepts confidence and fields it does not know', async () => {
		expect((await post(classifyPath(), { image, confidence: 0.2, top_k: 3 })).status).toBe(200);
	});
});

describe('404', () => {
	it('for an unknown model, a model of the other kind, and a path without its trailing slash', async () => {
		expect((await post('/predict/detect/00000000-0000-0000-0000-000000000000/', { image })).status).toBe(404);
		expect((await post(`/predict/detect/${server.models.classify}/`, { image })).status).toBe(404);
		expect((await post(`/predict/detect/${server.models.detect}`, { image })).status).toBe(404);
	});
});

describe('predictions from the real image', () => {
	it('detects regions with boxes inside the image and counts per label, valid against the strict contract', async () => {
		const response = await post(detectPath(), { image, confidence: 0 });
		const result = detectResultSchema.strict().parse(response.json);
		const { width, height } = decodeImage(CAR);
		expect(result.detections.length).toBeGreaterThan(1);
		for (const box of result.detections) {
			expect(box.x).toBeGreaterThanOrEqual(0);
			expect(box.x + box.width).toBeLessThanOrEqual(width);
			expect(box.y + box.height).toBeLessThanOrEqual(height);
			expect(box.confidence).toBeGreaterThan(0);
			expect(box.confidence).toBeLessThanOrEqual(1);
		}
		const totals = result.labelsCount.reduce((sum, { total }) => sum + total, 0);
		expect(totals).toBe(result.detections.length);
	});

	it('draws the boxes: the annotated image differs from the input on a box border and nowhere far from boxes', async () => {
		const result = detectResultSchema.parse((await post(detectPath(), { image, stroke_width: 3, show_prob: false })).json);
		const before = decodeImage(CAR);
		const after = decodeImage(Buffer.from(result.image!, 'base64'));
		expect([after.width, after.height]).toEqual([before.width, before.height]);
		const box = result.detections[0];
		const at = (img: typeof before, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
		const borderX = box.x + 1;
		const borderY = box.y + Math.floor(box.height / 2);
		const distance = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + Math.abs(value - b[index]), 0);
		expect(distance(at(before, borderX, borderY), at(after, borderX, borderY))).toBeGreaterThan(60);
	});

	it('annotate false returns no image; the threshold filters', async () => {
		const loose = detectResultSchema.parse((await post(detectPath(), { image, confidence: 0, annotate: false })).json);
		const strict = detectResultSchema.parse((await post(detectPath(), { image, confidence: 0.8, annotate: false })).json);
		expect(loose.image).toBeNull();
		expect(strict.detections.length).toBeLessThan(loose.detections.length);
		expect(strict.detections.every((d) => d.confidence >= 0.8)).toBe(true);
	});

	it('classifies the dog and the car differently, predictions summing to 1 in descending order', async () => {
		const dog = (await post(classifyPath(), { image: DOG.toString('base64') })).json as { category: string; predictions: Array<{ confidence: number }> };
		const car = (await post(classifyPath(), { image })).json as { category: string };
		expect(dog.category).not.toBe(car.category);
		const sum = dog.predictions.reduce((total, p) => total + p.confidence, 0);
		expect(sum).toBeCloseTo(1, 2);
		expect(dog.predictions.map((p) => p.confidence)).toEqual([...dog.predictions.map((p) => p.confidence)].sort((a, b) => b - a));
	});

	it('fetches a loopback image URL, and a data: URL prefix is accepted', async () => {
		const url = server.hostImage(DOG, 'image/jpeg');
		const byUrl = await post(classifyPath(), { image: url });
		const byData = await post(classifyPath(), { image: `data:image/jpeg;base64,${DOG.toString('base64')}` });
		expect(byUrl.status).toBe(200);
		expect(byUrl.json).toEqual(byData.json);
	});
});

describe('faults', () => {
	it('status faults apply to matching requests only, as many times as asked', async () => {
		const modelId = server.registerModel('detect');
		server.addFault({ match: { modelId }, times: 2, action: { type: 'status', status: 503, headers: { 'retry-after': '1' } } });
		const first = await post(`/predict/detect/${modelId}/`, { image });
		expect(first.status).toBe(503);
		expect(first.headers['retry-after']).toBe('1');
		expect((await post(detectPath(), { image })).status).toBe(200);
		expect((await post(`/predict/detect/${modelId}/`, { image })).status).toBe(503);
		expect((await post(`/predict/detect/${modelId}/`, { image })).status).toBe(200);
		expect(server.faultsFired()).toEqual([2]);
	});

	it('match by image', async () => {
		server.addFault({ match: { imageSha256: sha256(DOG) }, action: { type: 'status', status: 500, body: '' } });
		expect((await post(classifyPath(), { image: DOG.toString('base64') })).status).toBe(500);
		expect((await post(classifyPath(), { image })).status).toBe(200);
	});

	it('html, malformed JSON, schema break, bad annotated image, extra field', async () => {
		server.addFault({ times: 1, action: { type: 'html', status: 502 } });
		const html = await post(detectPath(), { image });
		expect([html.status, html.headers['content-type']]).toEqual([502, 'text/html']);
		server.addFault({ times: 1, action: { type: 'malformed-json' } });
		expect((await post(detectPath(), { image })).json).toBeUndefined();
		server.addFault({ times: 1, action: { type: 'schema-break' } });
		expect(detectResultSchema.safeParse((await post(detectPath(), { image })).json).success).toBe(false);
		server.addFault({ times: 1, action: { type: 'bad-annotated-image' } });
		expect((await post(detectPath(), { image })).json.image).toMatch(/not base64/);
		server.addFault({ times: 1, action: { type: 'extra-field' } });
		const extra = (await post(detectPath(), { image })).json;
		expect(detectResultSchema.strict().safeParse(extra).success).toBe(false);
		expect(detectResultSchema.safeParse(extra).success).toBe(true);
	});

	it('reset drops the connection mid-response; hang never answers', async () => {
		server.addFault({ times: 1, action: { type: 'reset' } });
		await expect(post(detectPath(), { image })).rejects.toThrow();
		server.addFault({ times: 1, action: { type: 'hang' } });
		const started = Date.now();
		await expect(request(new URL(detectPath(), server.url), {
			method: 'POST',
			headers: { 'x-api-key': server.apiKey },
			body: JSON.stringify({ image }),
			signal: AbortSignal.timeout(300),
		})).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('latency delays every answer', async () => {
		server.setLatency(150);
		const started = Date.now();
		await post(detectPath(), { image });
		server.setLatency(0);
		expect(Date.now() - started).toBeGreaterThanOrEqual(145);
	});
});
