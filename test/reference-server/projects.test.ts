/**
 * The project upload calls, replayed as the official Python SDK makes them for one image
 * (epigos-python epigos/core/uploader.py, epigos/client.py: the key in `X-Api-Key` on every API
 * call, the PUT to the storage a plain request without it), and each check that refuses a call.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ReferenceServer } from '.';
import { PROJECT_IDS, sha256, startReferenceServer } from '.';
import { decodeImage, encodeImage } from './image-codec';

const CAR = readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg'));
const DOG = readFileSync(join(__dirname, '..', 'fixtures', 'dog.jpg'));
const CAR_SIZE = { width: 676, height: 380 };
const DOG_SIZE = { width: 347, height: 500 };

let server: ReferenceServer;
beforeAll(async () => {
	server = await startReferenceServer({ defaultModels: 'synthetic' });
});
afterAll(async () => await server.close());
beforeEach(() => server.clearFaults());

const sdkHeaders = (apiKey = server.apiKey) => ({
	'Content-Type': 'application/json',
	'X-Api-Key': apiKey,
	'X-Client-Sdk': 'Epigos-SDK/Python; Version: 2.1.0',
});

interface Answer {
	status: number;
	json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
	text: string;
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = sdkHeaders()): Promise<Answer> {
	const response = await fetch(new URL(path, server.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, json, text };
}

const put = async (url: string, bytes: Buffer, contentType: string | undefined, method = 'PUT') => {
	const response = await fetch(url, { method, body: new Uint8Array(bytes), headers: contentType === undefined ? {} : { 'Content-Type': contentType } });
	return { status: response.status, text: await response.text() };
};

/** Steps 2–5 of the SDK: a batch, where to put the file, the PUT, the dataset record. */
async function uploadImage(projectId: string, file: { name: string; bytes: Buffer; contentType: string; width: number; height: number }) {
	const batch = await call('POST', `/projects/${projectId}/batches/`, { name: 'sdk-upload' });
	expect(batch.status).toBe(201);
	const presigned = await call('POST', '/upload/', { name: file.name, content_type: file.contentType });
	expect(presigned.status).toBe(201);
	const stored = await put(presigned.json.uploadUrl, file.bytes, file.contentType);
	expect(stored.status).toBe(200);
	const recordBody = {
		name: file.name,
		batchId: batch.json.id,
		height: file.height,
		width: file.width,
		contentType: file.contentType,
		size: file.bytes.length,
		source: presigned.json.uri,
	};
	const record = await call('POST', `/projects/${projectId}/datasets/records/`, recordBody);
	return { batchId: batch.json.id as string, presigned: presigned.json as { uploadUrl: string; uri: string }, recordBody, record };
}

const car = { name: 'car.jpg', bytes: CAR, contentType: 'image/jpeg', ...CAR_SIZE };
const dog = { name: 'dog.jpg', bytes: DOG, contentType: 'image/jpeg', ...DOG_SIZE };
const metadata = (size: { width: number; height: number }) => ({ image: { width: size.width, height: size.height } });
const box = (labelId: string, left: number, top: number, width: number, height: number, size = CAR_SIZE) => ({
	annotation: { category: 'bounding_box', left, top, width, height, metadata: metadata(size) },
	label_id: labelId,
});

/** A detection project with car.jpg as a record, and the labels car and person. */
async function carRecord() {
	const projectId = server.addProject('object_detection');
	const { record } = await uploadImage(projectId, car);
	expect(record.status).toBe(201);
	const labels = await call('POST', `/projects/${projectId}/annotations/labels/`, [{ name: 'car' }, { name: 'person' }]);
	const [carLabel, personLabel] = (labels.json as Array<{ id: string }>).map((label) => label.id);
	return { projectId, recordId: record.json.id as string, carLabel, personLabel };
}

describe('the Python SDK uploading one image with its annotations', () => {
	it('detection: project, batch, upload URL, PUT without the key, record, labels, two boxes', async () => {
		const projectId = server.addProject('object_detection', { name: 'Street' });
		const before = server.requests.length;
		const storageBefore = server.storage.requests.length;

		const project = await call('GET', `/projects/${projectId}/`);
		expect(project.status).toBe(200);
		expect(project.json).toEqual({ id: projectId, name: 'Street', workspaceId: expect.any(String), projectType: 'object_detection' });

		const { batchId, presigned, recordBody, record } = await uploadImage(projectId, car);
		expect(presigned.uploadUrl.startsWith(`${server.storage.url}/reference-bucket/`)).toBe(true);
		expect(new URL(presigned.uploadUrl).searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
		expect(presigned.uri).toMatch(/^s3:\/\/reference-bucket\/[0-9a-f-]{36}\/car\.jpg$/);
		expect(record.status).toBe(201);
		expect(record.json).toEqual({ id: expect.any(String), ...recordBody, annotations: [] });

		const labels = await call('POST', `/projects/${projectId}/annotations/labels/`, [{ name: 'car' }, { name: 'person' }]);
		expect(labels.status).toBe(201);
		expect(labels.json).toEqual([
			{ id: expect.any(String), name: 'car' },
			{ id: expect.any(String), name: 'person' },
		]);
		const [carLabel, personLabel] = (labels.json as Array<{ id: string }>).map((label) => label.id);
		const boxes = [box(carLabel, 318.5, 214, 28, 23), box(personLabel, 0, 0, 676, 380)];
		const annotations = await call('POST', `/projects/${projectId}/annotations/`, { dataset_record_id: record.json.id, annotations: boxes });
		expect(annotations.status).toBe(201);
		expect(annotations.json).toEqual([{ id: expect.any(String) }, { id: expect.any(String) }]);

		expect(server.projects(projectId)).toEqual({
			id: projectId,
			name: 'Street',
			workspaceId: project.json.workspaceId,
			projectType: 'object_detection',
			batches: [{ id: batchId, name: 'sdk-upload' }],
			labels: [
				{ id: carLabel, name: 'car' },
				{ id: personLabel, name: 'person' },
			],
			records: [{ ...record.json, sha256: sha256(CAR), annotations: boxes }],
		});

		const calls = server.requests.slice(before);
		expect(calls.map((request) => [request.method, request.call, request.status])).toEqual([
			['GET', 'project', 200],
			['POST', 'batch', 201],
			['POST', 'upload', 201],
			['POST', 'record', 201],
			['POST', 'labels', 201],
			['POST', 'annotations', 201],
		]);
		expect(calls.every((request) => request.headers['x-api-key'] === server.apiKey)).toBe(true);
		const [upload] = server.storage.requests.slice(storageBefore);
		expect(server.storage.requests.length - storageBefore).toBe(1);
		expect(upload).toMatchObject({ method: 'PUT', status: 200, bodyBytes: CAR.length, headers: expect.objectContaining({ 'content-type': 'image/jpeg' }) });
		expect(`${upload.path}?${new URLSearchParams(upload.query)}`).toBe(presigned.uploadUrl.slice(server.storage.url.length));
		expect(Object.keys(upload.headers).filter((name) => name.includes('key'))).toEqual([]);
		expect(Object.values(upload.headers).some((value) => value.includes(server.apiKey))).toBe(false);
	});

	it('classification: the class name is the one label; labels keep their ids, names are exact', async () => {
		const projectId = server.addProject('classification');
		expect((await call('GET', `/projects/${projectId}/`)).json.projectType).toBe('classification');
		const { record } = await uploadImage(projectId, dog);
		expect(record.status).toBe(201);
		const labels = await call('POST', `/projects/${projectId}/annotations/labels/`, [{ name: 'dog' }]);
		expect(labels.status).toBe(201);
		const [{ id: dogLabel }] = labels.json as Array<{ id: string }>;
		const category = { annotation: { category: 'category', metadata: metadata(DOG_SIZE) }, label_id: dogLabel };
		const annotations = await call('POST', `/projects/${projectId}/annotations/`, { dataset_record_id: record.json.id, annotations: [category] });
		expect(annotations.status).toBe(201);
		expect(annotations.json).toEqual([{ id: expect.any(String) }]);
		expect(server.projects(projectId)?.records).toEqual([{ ...record.json, sha256: sha256(DOG), annotations: [category] }]);

		const again = await call('POST', `/projects/${projectId}/annotations/labels/`, [{ name: 'Dog' }, { name: 'dog' }]);
		expect(again.json).toEqual([
			{ id: expect.not.stringMatching(dogLabel), name: 'Dog' },
			{ id: dogLabel, name: 'dog' },
		]);
		expect(server.projects(projectId)?.labels.map((label) => label.name)).toEqual(['dog', 'Dog']);
	});

	it('a PNG, and a name that needs encoding in the upload URL', async () => {
		const projectId = server.addProject('object_detection');
		const png = encodeImage(decodeImage(CAR), 'png');
		const { presigned, record } = await uploadImage(projectId, { name: 'front door #1.png', bytes: png, contentType: 'image/png', ...CAR_SIZE });
		expect(record.status).toBe(201);
		expect(presigned.uploadUrl).toContain('/front%20door%20%231.png?');
		expect(presigned.uri.endsWith('/front door #1.png')).toBe(true);
		expect(server.projects(projectId)?.records[0]).toMatchObject({ contentType: 'image/png', size: png.length, sha256: sha256(png) });
	});

	it('the demo projects have fixed UUIDs', () => {
		expect(Object.values(PROJECT_IDS).every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
		expect(server.addProject('object_detection')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
	});
});

describe('refusals', () => {
	it('a wrong key: 401 on every call, as on predictions; the key is also taken from the api-key query', async () => {
		const projectId = server.addProject('object_detection');
		const predictionRefused = await call('POST', `/predict/detect/${server.models.detect}/`, { image: 'x' }, sdkHeaders('wrong'));
		expect(predictionRefused.status).toBe(401);
		for (const [method, path, body] of [
			['GET', `/projects/${projectId}/`],
			['POST', `/projects/${projectId}/batches/`, { name: 'b' }],
			['POST', '/upload/', { name: 'car.jpg', content_type: 'image/jpeg' }],
			['POST', `/projects/${projectId}/datasets/records/`, {}],
			['POST', `/projects/${projectId}/annotations/labels/`, [{ name: 'car' }]],
			['POST', `/projects/${projectId}/annotations/`, {}],
		] as const) {
			const refused = await call(method, path, body, sdkHeaders('wrong'));
			expect([path, refused.status, refused.json]).toEqual([path, 401, predictionRefused.json]);
		}
		expect(server.projects(projectId)?.batches).toEqual([]);
		const byQuery = await call('GET', `/projects/${projectId}/?api-key=${server.apiKey}`, undefined, { 'content-type': 'application/json' });
		expect(byQuery.status).toBe(200);
	});

	it('an unknown project: 404 { detail: "Not Found" }; an unknown path stays 404', async () => {
		const unknown = '00000000-0000-4000-8000-000000000000';
		expect(await call('GET', `/projects/${unknown}/`)).toMatchObject({ status: 404, json: { detail: 'Not Found' } });
		expect(await call('POST', `/projects/${unknown}/batches/`, { name: 'b' })).toMatchObject({ status: 404, json: { detail: 'Not Found' } });
		expect((await call('GET', '/projects/')).status).toBe(404);
		expect((await call('GET', '/upload/')).status).toBe(404);
	});

	it('upload: only image/jpeg and image/png; batch: a name', async () => {
		const gif = await call('POST', '/upload/', { name: 'car.gif', content_type: 'image/gif' });
		expect(gif.status).toBe(400);
		expect(gif.json).toMatchObject({ type: 'error', code: 'bad_request', status: 400, details: [expect.objectContaining({ pointer: '/content_type' })] });
		const projectId = server.addProject('classification');
		const batch = await call('POST', `/projects/${projectId}/batches/`, { name: '' });
		expect([batch.status, batch.json.details[0].pointer]).toEqual([400, '/name']);
	});

	it('storage: a PUT with another content type than asked for is 403 SignatureDoesNotMatch, and nothing is stored', async () => {
		const projectId = server.addProject('object_detection');
		const batch = await call('POST', `/projects/${projectId}/batches/`, { name: 'sdk-upload' });
		const presigned = await call('POST', '/upload/', { name: 'car.jpg', content_type: 'image/jpeg' });
		const { uploadUrl, uri } = presigned.json as { uploadUrl: string; uri: string };

		const wrongType = await put(uploadUrl, CAR, 'image/png');
		expect(wrongType.status).toBe(403);
		expect(wrongType.text).toMatch(/^<\?xml[^>]*>\s*<Error><Code>SignatureDoesNotMatch<\/Code><Message>[^<]*image\/png[^<]*<\/Message>/);
		expect((await put(uploadUrl, CAR, undefined)).status).toBe(403);
		const forged = new URL(uploadUrl);
		forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
		expect((await put(forged.href, CAR, 'image/jpeg')).status).toBe(403);
		expect((await put(`${server.storage.url}/reference-bucket/elsewhere/car.jpg${forged.search}`, CAR, 'image/jpeg')).status).toBe(403);
		expect((await put(uploadUrl, CAR, 'image/jpeg', 'POST')).status).toBe(405);

		const record = await call('POST', `/projects/${projectId}/datasets/records/`, {
			name: 'car.jpg',
			batchId: batch.json.id,
			...CAR_SIZE,
			contentType: 'image/jpeg',
			size: CAR.length,
			source: uri,
		});
		expect(record.status).toBe(400);
		expect(record.json.message).toMatch(/^source: nothing was PUT/);
		expect(server.projects(projectId)?.records).toEqual([]);
	});

	it('record: the size, content type, width and height of what was uploaded; a batch of this project; a uri handed out', async () => {
		const projectId = server.addProject('object_detection');
		const { recordBody } = await uploadImage(projectId, car);
		const refusal = async (change: Record<string, unknown>) => {
			const answer = await call('POST', `/projects/${projectId}/datasets/records/`, { ...recordBody, ...change });
			expect(answer.status).toBe(400);
			expect(answer.json).toMatchObject({ type: 'error', code: 'bad_request', status: 400 });
			return answer.json.message as string;
		};
		expect(await refusal({ size: CAR.length + 1 })).toBe(`size: size ${CAR.length + 1} is not the ${CAR.length} bytes uploaded`);
		expect(await refusal({ width: 380, height: 676 })).toMatch(/^width: width 380 is not the uploaded image's 676 px/);
		expect(await refusal({ height: 381 })).toMatch(/^height: /);
		expect(await refusal({ contentType: 'image/png' })).toMatch(/^contentType: /);
		expect(await refusal({ source: 's3://reference-bucket/elsewhere/car.jpg' })).toMatch(/^source: .* not a uri handed out/);
		const otherProject = server.addProject('object_detection');
		const otherBatch = await call('POST', `/projects/${otherProject}/batches/`, { name: 'other' });
		expect(await refusal({ batchId: otherBatch.json.id })).toMatch(/^batchId: /);
		expect(await refusal({ width: '676' })).toMatch(/^width: /);
		expect(server.projects(projectId)?.records.length).toBe(1);
	});

	it('annotations: a box outside the image, named by its index; nothing of the call is stored', async () => {
		const { projectId, recordId, carLabel } = await carRecord();
		const send = (annotations: unknown[]) => call('POST', `/projects/${projectId}/annotations/`, { dataset_record_id: recordId, annotations });
		for (const outside of [box(carLabel, 650, 10, 27, 10), box(carLabel, -1, 10, 10, 10), box(carLabel, 10, 300, 10, 81)]) {
			const answer = await send([box(carLabel, 0, 0, 10, 10), outside]);
			expect(answer.status).toBe(400);
			expect(answer.json.message).toMatch(/^annotations\/1\/annotation: the box \(.*\) is not inside the 676 × 380 image$/);
		}
		expect((await send([box(carLabel, -0.5, -0.5, 676.5, 380.5)])).status).toBe(201);
		expect(server.projects(projectId)?.records[0].annotations).toEqual([box(carLabel, -0.5, -0.5, 676.5, 380.5)]);

		const wrongMetadata = await send([box(carLabel, 0, 0, 10, 10, DOG_SIZE)]);
		expect(wrongMetadata.json.message).toMatch(/^annotations\/0\/annotation\/metadata\/image: /);
		const zeroWidth = await send([box(carLabel, 0, 0, 0, 10)]);
		expect(zeroWidth.json.details[0].pointer).toBe('/annotations/0/annotation/width');
		const extra = await send([{ ...box(carLabel, 0, 0, 10, 10), confidence: 0.9 }]);
		expect(extra.json.details[0].pointer).toBe('/annotations/0/confidence');
	});

	it('annotations: a classification annotation on a detection project, and a box on a classification project', async () => {
		const { projectId, recordId, carLabel } = await carRecord();
		const category = { annotation: { category: 'category', metadata: metadata(CAR_SIZE) }, label_id: carLabel };
		const refused = await call('POST', `/projects/${projectId}/annotations/`, { dataset_record_id: recordId, annotations: [category] });
		expect(refused.status).toBe(400);
		expect(refused.json.message).toBe(`annotations/0/annotation/category: project ${projectId} (object_detection) takes only bounding_box annotations, not "category"`);

		const classification = server.addProject('classification');
		const { record } = await uploadImage(classification, car);
		const [label] = (await call('POST', `/projects/${classification}/annotations/labels/`, [{ name: 'car' }])).json as Array<{ id: string }>;
		const boxed = await call('POST', `/projects/${classification}/annotations/`, { dataset_record_id: record.json.id, annotations: [box(label.id, 0, 0, 10, 10)] });
		expect(boxed.json.message).toMatch(/^annotations\/0\/annotation\/category: .* takes only category annotations, not "bounding_box"$/);
		expect(server.projects(projectId)?.records[0].annotations).toEqual([]);
	});

	it("annotations: a label id that is not this project's, a record that is not this project's", async () => {
		const { projectId, recordId, carLabel } = await carRecord();
		const other = await carRecord();
		const unknownLabel = await call('POST', `/projects/${projectId}/annotations/`, { dataset_record_id: recordId, annotations: [box(other.carLabel, 0, 0, 10, 10)] });
		expect(unknownLabel.status).toBe(400);
		expect(unknownLabel.json.message).toBe(`annotations/0/label_id: label ${other.carLabel} is not a label of project ${projectId}`);
		const unknownRecord = await call('POST', `/projects/${projectId}/annotations/`, { dataset_record_id: other.recordId, annotations: [box(carLabel, 0, 0, 10, 10)] });
		expect(unknownRecord.json.message).toMatch(/^dataset_record_id: /);
	});
});

describe('faults on the upload calls', () => {
	it('a status fault on a call answers instead of it; a fault without call touches predictions only', async () => {
		const projectId = server.addProject('object_detection');
		server.addFault({ action: { type: 'status', status: 500, body: '' } });
		server.addFault({ match: { call: 'batch' }, times: 1, action: { type: 'status', status: 503, body: { message: 'busy' }, headers: { 'retry-after': '2' } } });
		const response = await fetch(new URL(`/projects/${projectId}/batches/`, server.url), { method: 'POST', headers: sdkHeaders(), body: '{"name":"b"}' });
		expect([response.status, response.headers.get('retry-after'), await response.json()]).toEqual([503, '2', { message: 'busy' }]);
		expect(server.projects(projectId)?.batches).toEqual([]);
		expect((await call('POST', `/projects/${projectId}/batches/`, { name: 'b' })).status).toBe(201);
		expect((await call('GET', `/projects/${projectId}/`)).status).toBe(200);
		expect(server.faultsFired()).toEqual([0, 1]);
	});

	it('a fault on the storage PUT: nothing stored, so the record is refused; reset and hang', async () => {
		const projectId = server.addProject('object_detection');
		server.addFault({ match: { call: 'storage' }, times: 1, action: { type: 'status', status: 500, body: '<Error><Code>InternalError</Code></Error>' } });
		const batch = await call('POST', `/projects/${projectId}/batches/`, { name: 'b' });
		const presigned = await call('POST', '/upload/', { name: 'car.jpg', content_type: 'image/jpeg' });
		expect((await put(presigned.json.uploadUrl, CAR, 'image/jpeg')).status).toBe(500);
		const recordBody = { name: 'car.jpg', batchId: batch.json.id, ...CAR_SIZE, contentType: 'image/jpeg', size: CAR.length, source: presigned.json.uri };
		expect((await call('POST', `/projects/${projectId}/datasets/records/`, recordBody)).status).toBe(400);

		server.addFault({ match: { call: 'storage' }, times: 1, action: { type: 'reset' } });
		await expect(put(presigned.json.uploadUrl, CAR, 'image/jpeg')).rejects.toThrow();
		server.addFault({ match: { call: 'storage' }, times: 1, action: { type: 'hang' } });
		await expect(fetch(presigned.json.uploadUrl, { method: 'PUT', body: new Uint8Array(CAR), signal: AbortSignal.timeout(300) })).rejects.toThrow();
		expect(server.storage.requests.slice(-2).map((request) => request.status)).toEqual([-1, -2]);

		expect((await put(presigned.json.uploadUrl, CAR, 'image/jpeg')).status).toBe(200);
		expect((await call('POST', `/projects/${projectId}/datasets/records/`, recordBody)).status).toBe(201);
	});

	it('prediction-only faults cannot be put on a call', () => {
		expect(() => server.addFault({ match: { call: 'upload' }, action: { type: 'trickle', intervalMs: 10, forMs: 100 } })).toThrow(/predictions only/);
	});
});
