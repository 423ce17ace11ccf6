/**
 * Upload to Project against the reference server's project calls (the Python SDK's, in its order)
 * and its storage stand-in on a port of its own, which records every header and query string.
 */
import type { IDataObject } from 'n8n-workflow';

import { sha256 } from '../reference-server';
import type { InputItem, ParameterValue } from '../harness/execute';
import { CAR, DOG, failureIn, failureOf, fixture, pngOf, useServer } from './setup';

const CAR_SIZE = { width: 676, height: 380 };
const DOG_SIZE = { width: 347, height: 500 };

const carBoxes = [
	{ label: 'car', confidence: 0.59, x: 283, y: 183, width: 28, height: 22 },
	{ label: 'person', confidence: 0.41, x: 10, y: 20, width: 30, height: 60 },
];

const photo = (bytes: Buffer, fileName: string, json: IDataObject = {}) => ({ json, binary: { data: { bytes, fileName, mimeType: 'image/jpeg' } } });

describe('Upload to Project', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const PROJECT_IDS = { detection: '1c9e5f2a-7b3d-4e6f-8a1b-2c3d4e5f6a7b', classification: 'e7d6c5b4-a392-4181-9f0e-1d2c3b4a5968' };
	beforeAll(() => {
		server().addProject('object_detection', { id: PROJECT_IDS.detection });
		server().addProject('classification', { id: PROJECT_IDS.classification });
	});
	beforeEach(() => server().storage.requests.splice(0));

	const parameters = (extra: Record<string, ParameterValue> = {}) => ({
		operation: 'uploadToProject',
		project: { mode: 'id', value: PROJECT_IDS.detection },
		imageSource: 'binary',
		binaryPropertyName: 'data',
		batchName: 'unsure from n8n',
		annotationSource: 'detections',
		detections: (itemIndex: number) => [carBoxes, [{ label: 'dog', x: 40, y: 50, width: 200, height: 300 }]][itemIndex],
		options: {},
		...extra,
	});
	const calls = () => server().requests.map((request) => `${request.method} ${request.path}`);
	const project = (id: string = PROJECT_IDS.detection) => server().projects(id)!;

	it('makes the SDK’s calls: the project and the batch once, each image stored and recorded, the labels once, each image’s boxes', async () => {
		const before = project().records.length;
		const { items } = await run(parameters(), [photo(CAR, 'car.jpg', { camera: 'gate' }), photo(DOG, 'dog.jpg')]);
		const id = PROJECT_IDS.detection;
		expect(calls().filter((call) => call === `GET /projects/${id}/`)).toHaveLength(1);
		expect(calls().filter((call) => call === `POST /projects/${id}/batches/`)).toHaveLength(1);
		expect(calls().filter((call) => call === `POST /projects/${id}/annotations/labels/`)).toHaveLength(1);
		expect(calls().filter((call) => call === 'POST /upload/')).toHaveLength(2);
		expect(calls().filter((call) => call === `POST /projects/${id}/datasets/records/`)).toHaveLength(2);
		expect(calls().filter((call) => call === `POST /projects/${id}/annotations/`)).toHaveLength(2);
		const labelsCall = server().requests.find((request) => request.path.endsWith('/annotations/labels/'))!;
		expect(labelsCall.body).toEqual([{ name: 'car' }, { name: 'person' }, { name: 'dog' }]);

		const records = project().records.slice(before);
		const car = records.find((record) => record.name === 'car.jpg')!;
		const dog = records.find((record) => record.name === 'dog.jpg')!;
		expect(car).toMatchObject({ ...CAR_SIZE, contentType: 'image/jpeg', size: CAR.length, sha256: sha256(CAR) });
		expect(dog).toMatchObject({ ...DOG_SIZE, size: DOG.length, sha256: sha256(DOG), batchId: car.batchId });
		const labelOf = (labelId: string) => project().labels.find((label) => label.id === labelId)!.name;
		expect(car.annotations.map((annotation) => ({ label: labelOf(annotation.label_id), ...annotation.annotation }))).toEqual([
			{ label: 'car', category: 'bounding_box', left: 283, top: 183, width: 28, height: 22, metadata: { image: CAR_SIZE } },
			{ label: 'person', category: 'bounding_box', left: 10, top: 20, width: 30, height: 60, metadata: { image: CAR_SIZE } },
		]);
		expect(dog.annotations.map((annotation) => labelOf(annotation.label_id))).toEqual(['dog']);
		expect(project().batches.find((batch) => batch.id === car.batchId)!.name).toBe('unsure from n8n');

		expect(items).toHaveLength(2);
		expect(items[0].json).toEqual({
			camera: 'gate',
			upload: {
				projectId: id,
				projectType: 'object_detection',
				batchId: car.batchId,
				batchName: 'unsure from n8n',
				recordId: car.id,
				fileName: 'car.jpg',
				...CAR_SIZE,
				size: CAR.length,
				contentType: 'image/jpeg',
				annotationCount: 2,
			},
		});
		expect(items[1].json.upload).toMatchObject({ recordId: dog.id, annotationCount: 1 });
		expect(items[0].binary?.data).toBeDefined();
	});

	it('files a second execution under a batch of its own, and items with another Batch Name under theirs', async () => {
		const batches = () => project().batches.length;
		const start = batches();
		await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')]);
		expect(batches()).toBe(start + 1);
		await run(parameters({ annotationSource: 'none', batchName: (itemIndex: number) => ['morning', 'evening', 'morning'][itemIndex] }), [
			photo(CAR, 'a.jpg'),
			photo(DOG, 'b.jpg'),
			photo(CAR, 'c.jpg'),
		]);
		expect(project().batches.slice(start + 1).map((batch) => batch.name)).toEqual(expect.arrayContaining(['morning', 'evening']));
		expect(batches()).toBe(start + 3);
	});

	it.each(['header', 'query'] as const)('never sends the API key to the storage, with the key in the %s, on a retry of the PUT included', async (sendAs) => {
		server().addFault({ match: { call: 'storage' }, times: 1, action: { type: 'status', status: 503, body: '<Error><Code>SlowDown</Code></Error>' } });
		const { items } = await run(parameters(), [photo(CAR, 'car.jpg')], { credentials: { sendAs } });
		expect(items[0].json.upload).toBeDefined();
		const puts = server().storage.requests;
		expect(puts.map((request) => request.method)).toEqual(['PUT', 'PUT']);
		for (const request of puts) {
			expect(JSON.stringify(request)).not.toContain(server().apiKey);
			expect(Object.keys(request.headers)).not.toContain('x-api-key');
			expect(Object.keys(request.query)).not.toContain('api-key');
			expect(request.headers['content-type']).toBe('image/jpeg');
		}
		// the API calls carried it, where the credential says
		const apiCall = server().requests.find((request) => request.path === '/upload/')!;
		expect(sendAs === 'header' ? apiCall.headers['x-api-key'] : apiCall.query['api-key']).toBe(server().apiKey);
	});

	it('uploads a PNG as image/png, and takes a relativeBox where the pixel box is absent', async () => {
		const png = pngOf(CAR);
		const before = project().records.length;
		await run(parameters({ detections: [{ label: 'car', relativeBox: { x: 0.25, y: 0.5, width: 0.5, height: 0.25 } }] }), [
			{ binary: { data: { bytes: png, fileName: 'car', mimeType: 'image/png' } } },
		]);
		const record = project().records[before];
		expect(record).toMatchObject({ name: 'car.png', contentType: 'image/png', size: png.length, ...CAR_SIZE });
		expect(record.annotations[0].annotation).toMatchObject({ left: 169, top: 190, width: 338, height: 95 });
	});

	it('records a classification project’s label, with one labels call for every label of the execution', async () => {
		const id = PROJECT_IDS.classification;
		const before = project(id).records.length;
		const { items } = await run(
			parameters({ project: { mode: 'url', value: `https://app.epigos.ai/workspaces/w1/projects/${id}/dataset` }, annotationSource: 'classificationLabel', classificationLabel: (itemIndex: number) => ['dog', 'cat\n', ' dog'][itemIndex] }),
			[photo(DOG, 'dog.jpg'), photo(CAR, 'car.jpg'), photo(DOG, 'dog2.jpg')],
		);
		const labelCalls = server().requests.filter((request) => request.path.endsWith('/annotations/labels/'));
		expect(labelCalls.map((request) => request.body)).toEqual([[{ name: 'dog' }, { name: 'cat' }]]);
		const records = project(id).records.slice(before);
		const labelOf = (labelId: string) => project(id).labels.find((label) => label.id === labelId)!.name;
		expect(records.map((record) => record.annotations.map((annotation) => [labelOf(annotation.label_id), annotation.annotation.category]))).toEqual([
			[['dog', 'category']],
			[['cat', 'category']],
			[['dog', 'category']],
		]);
		expect(items.map((item) => (item.json.upload as IDataObject).projectType)).toEqual(['classification', 'classification', 'classification']);
	});

	describe('refuses what the project’s type does not take, before that item’s upload', () => {
		it('a label for an object detection project', async () => {
			const failure = await failureOf(run(parameters({ annotationSource: 'classificationLabel', classificationLabel: 'car' }), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toBe(`Project ${PROJECT_IDS.detection} is an object detection project: it takes boxes, not a label`);
			expect(failure.description).toContain('Set Annotations to From Detections');
			expect(calls()).toEqual([`GET /projects/${PROJECT_IDS.detection}/`]);
		});

		it('boxes for a classification project', async () => {
			const failure = await failureOf(run(parameters({ project: { mode: 'id', value: PROJECT_IDS.classification } }), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toBe(`Project ${PROJECT_IDS.classification} is a classification project: it takes a label, not boxes`);
			expect(server().storage.requests).toEqual([]);
			expect(calls().some((call) => call === 'POST /upload/')).toBe(false);
		});
	});

	describe('refuses bad input before any request, naming the item and what to fix', () => {
		const refused = async (extra: Record<string, ParameterValue>, items: InputItem[] = [photo(CAR, 'car.jpg'), photo(CAR, 'car2.jpg')]) => {
			const failure = await failureOf(run(parameters(extra), items));
			expect(server().requests).toEqual([]);
			expect(server().storage.requests).toEqual([]);
			return failure;
		};

		it.each([
			['no project ID', { project: (i: number) => ({ mode: 'id', value: i === 1 ? '' : PROJECT_IDS.detection }) }, 'Project is empty'],
			['the example’s placeholder', { project: (i: number) => ({ mode: 'id', value: i === 1 ? 'REPLACE_WITH_YOUR_PROJECT_ID' : PROJECT_IDS.detection }) }, 'Project is still the example’s placeholder "REPLACE_WITH_YOUR_PROJECT_ID"'],
			['a link that names no project', { project: { mode: 'url', value: 'https://app.epigos.ai/workspaces/w1/models/abc' } }, 'does not name a project'],
			['an item without detections', { detections: (i: number) => (i === 1 ? undefined : carBoxes) }, 'This item has no detections to annotate with'],
			['a box that is not four numbers', { detections: (i: number) => (i === 1 ? [{ label: 'car', x: 1, y: 2, width: '3', height: 4 }] : carBoxes) }, 'Detection 0’s box is not four numbers'],
			['a box without a label', { detections: (i: number) => (i === 1 ? [{ x: 1, y: 2, width: 3, height: 4 }] : carBoxes) }, 'Detection 0 has no label'],
			['detections that are not JSON', { detections: (i: number) => (i === 1 ? '[{"label": "car"' : carBoxes) }, 'Detections is not a list: got the text "[{\\"label\\": \\"car\\"'],
			['detections that are not a list', { detections: (i: number) => (i === 1 ? { label: 'car' } : carBoxes) }, 'Detections is not a list: got {"label":"car"}'],
			['an entry that is not an object', { detections: (i: number) => (i === 1 ? ['car'] : carBoxes) }, 'Detection 0 is not an object: got "car"'],
			['a box with no size', { detections: (i: number) => (i === 1 ? [{ label: 'car', x: 1, y: 2, width: 0, height: 4 }] : carBoxes) }, 'Detection 0’s box is not four numbers'],
			['neither box', { detections: (i: number) => (i === 1 ? [{ label: 'car', relativeBox: null }] : carBoxes) }, 'Detection 0 has no box: neither x, y, width, height nor relativeBox'],
			['a relativeBox past 1', { detections: (i: number) => (i === 1 ? [{ label: 'car', relativeBox: { x: 0.5, y: 0.5, width: 1.2, height: 0.1 } }] : carBoxes) }, 'Detection 0’s relativeBox is not four fractions from 0 to 1'],
			['a relativeBox with no size', { detections: (i: number) => (i === 1 ? [{ label: 'car', relativeBox: { x: 0.5, y: 0.5, width: 0.1, height: 0 } }] : carBoxes) }, 'Detection 0’s relativeBox is not four fractions'],
			['more boxes than an image takes', { detections: (i: number) => (i === 1 ? Array.from({ length: 1001 }, () => carBoxes[0]) : carBoxes) }, 'Detections has 1001 entries: at most 1000 boxes go with one image'],
			['an empty label', { annotationSource: 'classificationLabel', classificationLabel: (i: number) => (i === 1 ? ' ' : 'dog') }, 'Classification Label is empty'],
			['an empty batch name', { batchName: (i: number) => (i === 1 ? '' : 'b') }, 'Batch Name is empty'],
			['a box outside the image', { detections: (i: number) => (i === 1 ? [{ label: 'car', x: 600, y: 300, width: 100, height: 50 }] : carBoxes) }, 'Detection 0’s box (x 600, y 300, 100 × 50) is outside the image (676 × 380 pixels)'],
		])('%s', async (_, extra, message) => {
			const failure = await refused(extra);
			expect(failure.message).toContain(message);
			expect(failure.itemIndex).toBe(message === 'does not name a project' ? 0 : 1);
		});

		it('boxes for an item that gives several images', async () => {
			const twoPhotos = { json: {}, binary: { front: { bytes: CAR, fileName: 'front.jpg', mimeType: 'image/jpeg' }, back: { bytes: DOG, fileName: 'back.jpg', mimeType: 'image/jpeg' } } };
			const failure = await refused({ binaryPropertyName: 'front, back', detections: carBoxes }, [twoPhotos]);
			expect(failure).toMatchObject({ itemIndex: 0, message: 'Annotations From Detections takes one image per item: this item gives 2' });
			const labelled = await run(parameters({ imageSource: 'allImages', annotationSource: 'classificationLabel', classificationLabel: 'car', project: { mode: 'id', value: PROJECT_IDS.classification } }), [twoPhotos]);
			expect(labelled.items.map((item) => (item.json.upload as IDataObject).fileName)).toEqual(['front.jpg', 'back.jpg']);
		});

		it('a file that is not JPEG or PNG, saying how to convert it', async () => {
			const webp = fixture('car-120x80.webp');
			const failure = await refused({}, [photo(CAR, 'car.jpg'), { json: {}, binary: { data: { bytes: webp, fileName: 'car.webp', mimeType: 'image/webp' } } }]);
			expect(failure).toMatchObject({ itemIndex: 1, message: 'The file in binary field "data" is WEBP: projects take JPEG and PNG' });
			expect(failure.description).toContain('Edit Image');
		});

		it('a box just past the edge by rounding is taken, clipped to the image', async () => {
			const before = project().records.length;
			await run(parameters({ detections: [{ label: 'car', x: -0.4, y: 300, width: 676.2, height: 80.3 }] }), [photo(CAR, 'car.jpg')]);
			const box = project().records[before].annotations[0].annotation as unknown as Record<string, number>;
			expect([box.left, box.top, box.width, box.height].map((value) => Math.round(value * 10) / 10)).toEqual([0, 300, 675.8, 80]);
		});
	});

	describe('a failure halfway says what exists', () => {
		it('the file stored but no record: nothing was added, a rerun uploads it again', async () => {
			server().addFault({ match: { call: 'record' }, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'batch is closed', details: [] } } });
			const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toMatch(/^The image was stored \(s3:\/\/.+\) but its record was not created: The service rejected the request \(400 Bad Request\): batch is closed$/);
			expect(failure.description).toMatch(/^Nothing was added to the project for this image \(batch \S+ exists/);
		});

		it('the record created but not its annotations: the record and batch are named, and a rerun would duplicate it', async () => {
			server().addFault({ match: { call: 'annotations' }, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'record is locked', details: [] } } });
			const before = project().records.length;
			const { items } = await run(parameters(), [photo(CAR, 'car.jpg')], { continueOnFail: true });
			const record = project().records[before];
			const failure = failureIn(items[0])!;
			expect(failure.message).toBe(`Record ${record.id} was created in batch ${record.batchId} without its 2 annotations: the annotations call failed: The service rejected the request (400 Bad Request): record is locked`);
			expect(failure.description).toContain(`delete record ${record.id} there before running the item again: a rerun creates a second record`);
			expect(record.annotations).toEqual([]);
		});

		it('a 500 from the annotations call may have stored them: not sent again, and the item says to look', async () => {
			server().addFault({ match: { call: 'annotations' }, times: 1, action: { type: 'status', status: 500, body: 'boom' } });
			const before = project().records.length;
			const { items } = await run(parameters(), [photo(CAR, 'car.jpg')], { continueOnFail: true });
			const record = project().records[before];
			const failure = failureIn(items[0])!;
			expect(failure.message).toBe(`Record ${record.id} was created in batch ${record.batchId}, and its 2 annotations may have been too, but the answer was lost: The service failed (500 Internal Server Error)`);
			expect(failure.description).toBe(
				`Open record ${record.id} in the dashboard: if its annotations are there, nothing is left to do; if not, add them there, or delete the record before running the item again (a rerun creates a second record). ` +
					'The service may have done it before the answer was lost, so it was not sent again (a second call would make a second one). The service said: boom',
			);
			expect(calls().filter((call) => call.endsWith('/annotations/'))).toHaveLength(1);
		});

		it('retries a 503 on a call that creates nothing as Retries says, and gives up when it is 0', async () => {
			server().addFault({ match: { call: 'upload' }, times: 1, action: { type: 'status', status: 503 } });
			const { items } = await run(parameters(), [photo(CAR, 'car.jpg')]);
			expect(items[0].json.upload).toBeDefined();
			server().addFault({ match: { call: 'project' }, times: 1, action: { type: 'status', status: 503 } });
			const failure = await failureOf(run(parameters({ options: { retries: 0 } }), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toBe('The service failed (503 Service Unavailable)');
		});

		it.each([
			['continueErrorOutput', 'the error output'],
			['continueRegularOutput', 'the regular output'],
		] as const)('On Error %s: the failed item goes to %s with its photo, the good one is uploaded', async (onError, _output) => {
			server().addFault({ match: { call: 'upload' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'name too long', details: [] } } });
			const { items, errorItems } = await run(parameters({ annotationSource: 'none', options: { concurrency: 1 } }), [photo(CAR, 'car.jpg', { n: 1 }), photo(DOG, 'dog.jpg', { n: 2 })], { onError });
			const all = [...items, ...errorItems];
			const failed = all.filter((item) => failureIn(item));
			expect(failed).toHaveLength(1);
			expect(failed[0]).toMatchObject({ json: { n: 1 }, pairedItem: { item: 0 }, binary: { data: expect.objectContaining({ fileName: 'car.jpg' }) } });
			expect(failureIn(failed[0])!.message).toBe('The service rejected the request (400 Bad Request): name too long');
			expect(all.find((item) => !failureIn(item))?.json).toMatchObject({ n: 2, upload: { fileName: 'dog.jpg' } });
			expect(onError === 'continueErrorOutput' ? errorItems : items).toContain(failed[0]);
		});

		it('an unknown project fails each item as its own, with one call for all', async () => {
			const { items } = await run(parameters({ project: { mode: 'id', value: 'no-such-project' } }), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { continueOnFail: true });
			expect(items.map((item) => failureIn(item)?.message)).toEqual(['Project no-such-project was not found (404 Not Found)', 'Project no-such-project was not found (404 Not Found)']);
			expect(calls()).toEqual(['GET /projects/no-such-project/']);
		});
	});

	describe('reads the service’s answers as leniently as the SDK, and says what it cannot use', () => {
		const answer = (call: string, body: unknown, status = 201) =>
			server().addFault({ match: { call: call as 'batch' }, times: 1, action: { type: 'status', status, body: body as object } });

		it('an id given as a number', async () => {
			answer('batch', { id: 42 });
			const { items } = await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg')], { continueOnFail: true });
			// the scripted batch does not exist on the server: the record is refused, naming it
			expect(failureIn(items[0])!.description).toContain('(batch 42 exists');
		});

		it('an upload answer without a usable storage URL', async () => {
			answer('upload', { uploadUrl: 'not a link', uri: 's3://b/k' });
			const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toBe("The service's answer could not be read: it does not match the documented result (uploadUrl: Invalid url)");
			expect(server().storage.requests).toEqual([]);
		});

		it('a project of a type the node does not upload to, for each item as its own', async () => {
			answer('project', { id: PROJECT_IDS.detection, projectType: 'segmentation' }, 200);
			const { items } = await run(parameters(), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { continueOnFail: true });
			expect(items.map((item) => failureIn(item)?.message)).toEqual([
				`Project ${PROJECT_IDS.detection} is of type "segmentation", which the node does not upload to`,
				`Project ${PROJECT_IDS.detection} is of type "segmentation", which the node does not upload to`,
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(calls()).toEqual([`GET /projects/${PROJECT_IDS.detection}/`]);
		});

		it('a storage that refuses the file: nothing was added', async () => {
			server().addFault({ match: { call: 'storage' }, action: { type: 'status', status: 403, body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>' } });
			const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toBe('The image could not be put into the project’s storage: The storage refused the file (403 Forbidden)');
			expect(failure.description).toMatch(
				/^Nothing was added to the project for this image \(batch \S+ exists, empty unless other images went into it\) but its label names, to the project’s labels where it lacked them; running the item again uploads it\. The storage URL the service handed out was not accepted \(it may have expired\)\. Run the item again; the credential is not the cause, as the file goes to storage without it\. The storage said: <Error>/,
			);
			expect(calls().some((call) => call.endsWith('/datasets/records/'))).toBe(false);
		});
	});

	it('takes detections as JSON text, up to 1,000 boxes', async () => {
		const { items } = await run(parameters({ detections: JSON.stringify(Array.from({ length: 1000 }, () => carBoxes[0])) }), [photo(CAR, 'car.jpg')]);
		expect(items[0].json.upload).toMatchObject({ annotationCount: 1000 });
	});

	it('names the upload after the file, with its type’s extension when it has none of it', async () => {
		const before = project().records.length;
		const named = (fileName: string, bytes: Buffer = CAR) => ({ json: {}, binary: { data: { bytes, fileName, mimeType: 'application/octet-stream' } } });
		await run(parameters({ annotationSource: 'none', options: { concurrency: 1 } }), [named('a.JPEG'), named('b.jpg'), named('c.png'), named('d'), named('e.jpg', pngOf(DOG))]);
		expect(project().records.slice(before).map((record) => [record.name, record.contentType])).toEqual([
			['a.JPEG', 'image/jpeg'],
			['b.jpg', 'image/jpeg'],
			['c.png.jpg', 'image/jpeg'],
			['d.jpg', 'image/jpeg'],
			['e.jpg.png', 'image/png'],
		]);
	});

	it('refuses a URL or base64 image source, a file that is not an image, and one whose size its header does not give', async () => {
		const url = await failureOf(run(parameters({ imageSource: 'url', imageUrl: 'https://example.com/a.jpg' }), [{ json: {} }]));
		expect(url.message).toBe('Upload to Project takes image files, not a URL');
		const base64 = await failureOf(run(parameters({ imageSource: 'base64', imageBase64: CAR.toString('base64') }), [{ json: {} }]));
		expect(base64.message).toBe('Upload to Project takes image files, not base64 text');
		const text = await failureOf(run(parameters({ imageSource: 'binaryExpression', imageBinary: () => ({ data: Buffer.from('hello').toString('base64'), mimeType: 'image/jpeg', fileName: 'a.jpg' }) }), [{ json: {} }]));
		expect(text.message).toMatch(/^The file in binary field "[^"]+" is not an image$/);
		const noSize = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(64)]);
		const headerless = await failureOf(run(parameters({ annotationSource: 'none' }), [{ json: {}, binary: { data: { bytes: noSize, fileName: 'x.jpg', mimeType: 'image/jpeg' } } }]));
		expect(headerless.message).toBe('The size of the image in binary field "data" cannot be read from its header');
		expect(server().requests).toEqual([]);
	});

	it('does not run as an agent’s tool unless allowed', async () => {
		const refusedRun = await run(parameters(), [photo(CAR, 'car.jpg')], { asTool: true, continueOnFail: true });
		expect(JSON.stringify(refusedRun.items[0].json)).toContain('Upload to Project does not run as an agent’s tool unless allowed');
		expect(server().requests).toEqual([]);
		const allowed = await run(parameters({ options: { allowAsTool: true } }), [photo(CAR, 'car.jpg', { detections: carBoxes as unknown as IDataObject[] })], { asTool: true });
		expect(Object.keys(allowed.items[0].json)).toEqual(['upload']);
		expect(allowed.items[0].json.upload).toMatchObject({ projectType: 'object_detection', annotationCount: 2 });
	});
});
