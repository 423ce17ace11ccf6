import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { PNG } from 'pngjs';
import { request } from 'undici';

import { classifyResultSchema, detectResultSchema } from '../../nodes/ImageInference/contract';
import type { ReferenceServer } from '.';
import { sha256, startReferenceServer } from '.';
import type { Candidate } from './detector';
import { fileModelHandler, intersectionOverUnion, loadDetector, nonMaxSuppression, resizeBilinear } from './detector';
import { decodeImage } from './image-codec';

const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const DOG = readFileSync(join(__dirname, '..', 'fixtures', 'dog.jpg'));

let server: ReferenceServer;
beforeAll(async () => {
	// the detector loads here, with the network cut off: its model is read from disk
	const realFetch = globalThis.fetch;
	globalThis.fetch = () => Promise.reject(new Error('no network while the detector loads'));
	try {
		server = await startReferenceServer({ apiKey: 'server-test-key' });
	} finally {
		globalThis.fetch = realFetch;
	}
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
		['an unknown field', { image, show_probability: false }, [{ location: 'body', type: 'value_error.extra', pointer: '/show_probability' }]],
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

	it.each([
		['missing image', { confidence: 0.2 }, [{ location: 'body', type: 'value_error.missing', pointer: '/image' }]],
		['an empty image', { image: '' }, [{ location: 'body', pointer: '/image' }]],
		['confidence above 1', { image, confidence: 1.5 }, [{ location: 'body', type: 'value_error.number.not_le', pointer: '/confidence' }]],
		['confidence as text', { image, confidence: '0.5' }, [{ location: 'body', pointer: '/confidence' }]],
	])('classification: %s', async (_, body, details) => {
		const response = await post(classifyPath(), body);
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ type: 'error', code: 'bad_request', status: 400, details });
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

type Truth = { label: string; x: number; y: number; width: number; height: number };
const TRUTH = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'annotations.json'), 'utf8')) as Record<string, Truth[]>;

/**
 * The detector against the hand-drawn ground truth (test/fixtures/annotations.json): exact floats
 * can differ between machines (WebAssembly with or without SIMD), so the criterion is the usual
 * one for detection: the right label, and a box overlapping the true one by IoU ≥ 0.5.
 */
describe('the default detection model finds what is in the photo', () => {
	it.each([
		['car.jpg', CAR],
		['dog.jpg', DOG],
	])('%s: the labelled object, where it is, at the default threshold', async (file, bytes) => {
		const result = detectResultSchema.strict().parse((await post(detectPath(), { image: bytes.toString('base64'), annotate: false })).json);
		for (const truth of TRUTH[file]) {
			const match = result.detections.find((detection) => detection.label === truth.label && intersectionOverUnion(detection, truth) >= 0.5);
			expect(match).toEqual(expect.objectContaining({ label: truth.label, confidence: expect.any(Number) }));
		}
		expect(result.detections[0].label).toBe(TRUTH[file][0].label);
		expect(result.labelsCount).toEqual([{ label: TRUTH[file][0].label, total: result.detections.length }]);
	});

	it('boxes inside the image, per-label counts adding up, valid against the strict contract', async () => {
		const result = detectResultSchema.strict().parse((await post(detectPath(), { image, confidence: 0 })).json);
		const { width, height } = decodeImage(CAR);
		expect(result.detections.length).toBeGreaterThan(1);
		for (const box of result.detections) {
			expect(box.x).toBeGreaterThanOrEqual(0);
			expect(box.x + box.width).toBeLessThanOrEqual(width);
			expect(box.y + box.height).toBeLessThanOrEqual(height);
			expect(box.confidence).toBeGreaterThan(0);
			expect(box.confidence).toBeLessThanOrEqual(1);
		}
		expect(result.detections.map((d) => d.confidence)).toEqual([...result.detections.map((d) => d.confidence)].sort((a, b) => b - a));
		const totals = result.labelsCount.reduce((sum, { total }) => sum + total, 0);
		expect(totals).toBe(result.detections.length);
	});

	it('draws each box around its object, leaving the object visible and the rest of the photo as it was', async () => {
		const result = detectResultSchema.parse((await post(detectPath(), { image, stroke_width: 3 })).json);
		const before = decodeImage(CAR);
		const after = decodeImage(Buffer.from(result.image!, 'base64'));
		expect([after.width, after.height]).toEqual([before.width, before.height]);
		const [car] = result.detections;
		const at = (img: typeof before, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
		const change = (x: number, y: number) => at(before, x, y).reduce((sum, value, index) => sum + Math.abs(value - at(after, x, y)[index]), 0);
		const middleY = car.y + Math.floor(car.height / 2);
		expect(change(car.x - 2, middleY)).toBeGreaterThan(100); // the left side of the box, just outside the car
		expect(change(car.x + car.width + 1, middleY)).toBeGreaterThan(100);
		expect(change(car.x + Math.floor(car.width / 2), middleY)).toBeLessThan(40); // the car itself: only JPEG noise
		expect(change(before.width - 20, before.height - 20)).toBeLessThan(40); // far from any box or label
	});

	it('show_prob false labels the box without its confidence; annotate false returns no image; the threshold filters', async () => {
		const withProb = detectResultSchema.parse((await post(detectPath(), { image })).json);
		const withoutProb = detectResultSchema.parse((await post(detectPath(), { image, show_prob: false })).json);
		expect(withoutProb.detections).toEqual(withProb.detections);
		expect(withoutProb.image).not.toBe(withProb.image);
		const loose = detectResultSchema.parse((await post(detectPath(), { image, confidence: 0, annotate: false })).json);
		const strict = detectResultSchema.parse((await post(detectPath(), { image, confidence: 0.5, annotate: false })).json);
		expect(loose.image).toBeNull();
		expect(strict.detections.length).toBeLessThan(loose.detections.length);
		expect(strict.detections.every((d) => d.confidence >= 0.5)).toBe(true);
	});

	it('classification names the dominant object: the label of the most confident detection, at its confidence', async () => {
		for (const [file, bytes] of [['dog.jpg', DOG], ['car.jpg', CAR]] as const) {
			const result = (await post(classifyPath(), { image: bytes.toString('base64') })).json as { category: string; confidence: number; predictions: Array<{ category: string; confidence: number }> };
			const [best] = server.predict('detect', bytes, { confidence: 0, annotate: false }).detections;
			expect(result.category).toBe(TRUTH[file][0].label);
			expect([result.category, result.confidence]).toEqual([best.label, best.confidence]);
			expect(result.predictions[0]).toEqual({ category: result.category, confidence: result.confidence });
			expect(new Set(result.predictions.map((p) => p.category)).size).toBe(result.predictions.length);
			expect(result.predictions.map((p) => p.confidence)).toEqual([...result.predictions.map((p) => p.confidence)].sort((a, b) => b - a));
		}
	});

	it('fetches a loopback image URL, and a data: URL prefix is accepted', async () => {
		const url = server.hostImage(DOG, 'image/jpeg');
		const byUrl = await post(classifyPath(), { image: url });
		const byData = await post(classifyPath(), { image: `data:image/jpeg;base64,${DOG.toString('base64')}` });
		expect(byUrl.status).toBe(200);
		expect(byUrl.json).toEqual(byData.json);
	});
});

describe('the synthetic models, under their own ids', () => {
	it('lists every model with its kind and what it is; the defaults are the detector’s', () => {
		expect(server.catalogue.map((model) => [model.id, model.kind])).toEqual([
			[server.models.centernetDetect, 'detect'],
			[server.models.centernetClassify, 'classify'],
			[server.models.syntheticDetect, 'detect'],
			[server.models.syntheticClassify, 'classify'],
		]);
		expect([server.models.detect, server.models.classify]).toEqual([server.models.centernetDetect, server.models.centernetClassify]);
		for (const model of server.catalogue) expect(model.description.length).toBeGreaterThan(40);
	});

	it('colour regions: colour labels with boxes; colour families: predictions summing to 1', async () => {
		const regions = detectResultSchema.strict().parse((await post(`/predict/detect/${server.models.syntheticDetect}/`, { image, confidence: 0 })).json);
		expect(regions.detections.length).toBeGreaterThan(0);
		for (const detection of regions.detections) expect(['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'magenta']).toContain(detection.label);
		expect(regions).toEqual(server.predict('detect', CAR, { confidence: 0 }, server.models.syntheticDetect));
		const families = (await post(`/predict/classify/${server.models.syntheticClassify}/`, { image: DOG.toString('base64') })).json as { predictions: Array<{ confidence: number }> };
		expect(families.predictions.reduce((total, p) => total + p.confidence, 0)).toBeCloseTo(1, 2);
	});
});

/** Whatever arrives as an image: the contract's 400 with a detail at /image, or real predictions; never a crash or a hang. */
describe('bad images', () => {
	const onePixel = () => {
		const png = new PNG({ width: 1, height: 1 });
		png.data.fill(200);
		return PNG.sync.write(png);
	};
	const largePng = () => {
		const side = Math.ceil(Math.sqrt((25 * 1024 * 1024) / 3));
		const png = new PNG({ width: side, height: side, colorType: 2, inputColorType: 2, inputHasAlpha: false });
		png.data = randomBytes(side * side * 3);
		return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: 0, filterType: 0 });
	};
	// The 25 MB case asks for no annotated image: re-encoding 25 MB of PNG costs about a second
	// normally but tens of seconds inside jest; the memory benchmark draws on images that large.
	const cases: Array<[string, () => Buffer, 'refused' | 'predicted', { annotate?: boolean }?]> = [
		['a truncated JPEG (first half of car.jpg)', () => CAR.subarray(0, CAR.length >> 1), 'refused'],
		['a JPEG cut after its header', () => CAR.subarray(0, 600), 'refused'],
		['a truncated PNG', () => onePixel().subarray(0, 40), 'refused'],
		['a non-image (text)', () => Buffer.from('just some text, no picture'), 'refused'],
		['a 1×1 PNG', onePixel, 'predicted'],
		['a 25 MB PNG', largePng, 'predicted', { annotate: false }],
	];

	it.each(cases)('%s', async (_, bytes, outcome, options = {}) => {
		const image = bytes().toString('base64');
		for (const kind of ['detect', 'classify'] as const) {
			const response = await request(new URL(`/predict/${kind}/${server.models[kind]}/`, server.url), {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
				body: JSON.stringify(kind === 'detect' ? { image, ...options } : { image }),
				signal: AbortSignal.timeout(30_000),
			});
			const json = (await response.body.json()) as Record<string, unknown>;
			if (outcome === 'refused') {
				expect(response.statusCode).toBe(400);
				expect(json).toMatchObject({ code: 'bad_request', details: [expect.objectContaining({ location: 'body', pointer: '/image' })] });
			} else {
				expect(response.statusCode).toBe(200);
				(kind === 'detect' ? detectResultSchema : classifyResultSchema).strict().parse(json);
			}
		}
		// and the server still answers normally
		expect((await post(detectPath(), { image: CAR.toString('base64'), annotate: false })).status).toBe(200);
	}, 60_000);
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

	it('holds answers until that many requests are open, then answers them all; past its bound, answers those it has', async () => {
		server.holdAnswersUntilOpen(3, 60_000);
		const answered: number[] = [];
		const send = (index: number) => post(detectPath(), { image }).then(({ status }) => (answered.push(index), status));
		const twoArrived = server.whenRequests(2);
		const firstTwo = [send(0), send(1)];
		await twoArrived;
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(answered).toEqual([]);
		expect(await Promise.all([...firstTwo, send(2)])).toEqual([200, 200, 200]);
		expect(Math.max(...server.requests.slice(-3).map((request) => request.openOnArrival))).toBe(3);

		server.holdAnswersUntilOpen(5, 300);
		const started = Date.now();
		expect(await send(3)).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		server.stopHoldingAnswers();
	});
});

describe('the object detector', () => {
	it('loaded with the network cut off (see beforeAll), answers the same run after run', async () => {
		const detector = await loadDetector();
		const car = decodeImage(CAR);
		const first = detector.candidates(car);
		expect(first.length).toBeGreaterThan(0);
		expect(detector.candidates(car)).toEqual(first);
		expect(first.map((c) => c.score)).toEqual([...first.map((c) => c.score)].sort((a, b) => b - a));
	});

	it('reads model.json and every weight shard from disk', async () => {
		const modelJson = join(dirname(require.resolve('@vladmandic/human')), '..', 'models', 'centernet.json');
		const artifacts = await fileModelHandler(modelJson).load!();
		expect(artifacts.modelTopology).toBeDefined();
		expect((artifacts.weightData as ArrayBuffer).byteLength).toBe(statSync(join(dirname(modelJson), 'centernet.bin')).size);
	});
});

describe('resizeBilinear', () => {
	it('samples as tf.image.resizeBilinear does (no align-corners, no half-pixel centres), RGB only', () => {
		// 2×1 pixels, black then white (alpha ignored), to 4×4: x maps to x/2 in the source
		const image = { width: 2, height: 1, data: Buffer.from([0, 0, 0, 7, 255, 255, 255, 9]) };
		const out = resizeBilinear(image, 4);
		const row = Array.from({ length: 4 }, (_, x) => out[x * 3]);
		expect(row).toEqual([0, 127.5, 255, 255]);
		for (let y = 1; y < 4; y++) expect(Array.from(out.subarray(y * 12, y * 12 + 12))).toEqual(Array.from(out.subarray(0, 12)));
		expect([out[3], out[4], out[5]]).toEqual([127.5, 127.5, 127.5]);
	});
});

describe('nonMaxSuppression', () => {
	const candidate = (label: string, score: number, x: number, y = 0, size = 10): Candidate => ({ label, score, box: { x, y, width: size, height: size } });

	it('keeps the best of overlapping boxes whatever their labels, and every box that stands apart', () => {
		const car = candidate('car', 0.6, 0);
		const truckOnTheCar = candidate('truck', 0.4, 1);
		const carElsewhere = candidate('car', 0.2, 50);
		const touching = candidate('bus', 0.3, 7); // IoU 3×10 / (200 − 30) ≈ 0.18: a different object
		expect(nonMaxSuppression([truckOnTheCar, carElsewhere, touching, car], 0.4)).toEqual([car, touching, carElsewhere]);
	});
});
