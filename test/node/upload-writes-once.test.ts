/**
 * Upload to Project never writes twice silently: a call that creates something is not sent again
 * when the service may have done it, the labels are settled before anything is created, an
 * execution that stops says what it added, an agent reads a success as one, and each photo is
 * read from n8n's store once.
 */
import type { IDataObject } from 'n8n-workflow';

import { FILE_HEAD_BYTES } from '../../nodes/ImageInference/input/imageInput';
import type { ParameterValue } from '../harness/execute';
import { withSegmentsBeforeFrame } from '../harness/images';
import { CAR, DOG, failureIn, failureOf, fixture, useServer } from './setup';

const CAR_BOX = { label: 'car', x: 283, y: 183, width: 28, height: 22 };
const photo = (bytes: Buffer, fileName: string, json: IDataObject = {}) => ({ json, binary: { data: { bytes, fileName, mimeType: 'image/jpeg' } } });
const sixPhotos = () => Array.from({ length: 6 }, (_, index) => photo(index % 2 ? DOG : CAR, `photo-${index}.jpg`));

describe('Upload to Project writes once', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const PROJECT = '0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a';
	beforeAll(() => server().addProject('object_detection', { id: PROJECT }));

	const parameters = (extra: Record<string, ParameterValue> = {}) => ({
		operation: 'uploadToProject',
		project: { mode: 'id', value: PROJECT },
		imageSource: 'binary',
		binaryPropertyName: 'data',
		batchName: 'once',
		annotationSource: 'detections',
		detections: [CAR_BOX],
		options: {},
		...extra,
	});
	const records = () => server().projects(PROJECT)!.records;
	const sent = (suffix: string) => server().requests.filter((request) => request.path.endsWith(suffix)).length;

	it('a record answered after the Timeout, though created, is not sent again under the default Retries: the item says it may exist and where to look', async () => {
		const before = records().length;
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'delay', ms: 700 } });
		const { items } = await run(parameters({ options: { timeout: 300 } }), [photo(CAR, 'car.jpg')], { continueOnFail: true });
		await new Promise((resolve) => setTimeout(resolve, 600));
		const created = records().slice(before);
		expect(created).toHaveLength(1);
		expect(sent('/datasets/records/')).toBe(1);
		const failure = failureIn(items[0])!;
		expect(failure.message).toMatch(/^The image was stored \(s3:\/\/\S+\) and its record may have been created in batch \S+, but its answer was lost: The service did not answer within 300 ms$/);
		expect(failure.description).toMatch(
			new RegExp(`^Look in batch ${created[0].batchId} of project ${PROJECT} in the dashboard for a record named "car\\.jpg" before running the item again: if it is there, running the item again makes a second one, so delete it first or leave this item out\\. The service may have done it`),
		);
	});

	it('a lost record answer, where another photo of the execution has the same name, names that photo’s record so only the extra one is deleted', async () => {
		const before = records().length;
		const unnamed = { json: {}, binary: { data: { bytes: CAR, mimeType: 'image/jpeg' } } };
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'delay', ms: 0 } });
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'status', status: 500 } });
		const { items } = await run(parameters({ options: { concurrency: 1 } }), [unnamed, unnamed], { continueOnFail: true });
		const [first] = records().slice(before);
		expect(records()).toHaveLength(before + 1);
		expect(items[0].json.upload).toMatchObject({ fileName: 'data.jpg', recordId: first.id });
		expect(failureIn(items[1])!.description).toMatch(
			new RegExp(
				`^Look in batch ${first.batchId} of project ${PROJECT} in the dashboard for a record named "data\\.jpg" before running the item again\\. ` +
					`Other images of this execution have that name too: record ${first.id} \\(item 0\\) \\(and any record another image’s output names\\)\\. ` +
					'A record of that name beyond those is this item’s: running the item again makes a second one, so delete it first or leave this item out\\. ',
			),
		);
	});

	it('annotations answered after the Timeout are stored once', async () => {
		const before = records().length;
		server().addFault({ match: { call: 'annotations' }, times: 1, action: { type: 'delay', ms: 700 } });
		const { items } = await run(parameters({ options: { timeout: 300 } }), [photo(CAR, 'car.jpg')], { continueOnFail: true });
		await new Promise((resolve) => setTimeout(resolve, 600));
		const [record] = records().slice(before);
		expect(record.annotations).toHaveLength(1);
		expect(failureIn(items[0])!.message).toBe(`Record ${record.id} was created in batch ${record.batchId}, and its 1 annotation may have been too, but the answer was lost: The service did not answer within 300 ms`);
	});

	it('a 503 on the record call (a gateway may send it after the record was made) is not sent again: the item says the record may exist', async () => {
		const before = records().length;
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'status', status: 503 } });
		const { items } = await run(parameters({ options: { retries: 1 } }), [photo(CAR, 'car.jpg')], { continueOnFail: true });
		expect(sent('/datasets/records/')).toBe(1);
		expect(records()).toHaveLength(before);
		expect(failureIn(items[0])!.message).toMatch(/^The image was stored \(s3:\/\/\S+\) and its record may have been created in batch \S+, but its answer was lost: /);
	});

	it('a 429 on the record call (a rate limit turns it away before any work) is sent again, and one record made', async () => {
		const before = records().length;
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'status', status: 429, headers: { 'retry-after': '0' } } });
		const { items } = await run(parameters({ options: { retries: 1 } }), [photo(CAR, 'car.jpg')]);
		expect(sent('/datasets/records/')).toBe(2);
		expect(records().slice(before).map((record) => record.id)).toEqual([(items[0].json.upload as IDataObject).recordId]);
	});

	it('one refused labels call fails every image before any record, file or batch exists', async () => {
		const before = server().projects(PROJECT)!;
		server().storage.requests.splice(0);
		server().addFault({ match: { call: 'labels' }, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'too many labels', details: [] } } });
		const { items } = await run(parameters({ options: { concurrency: 3 } }), sixPhotos(), { continueOnFail: true });
		server().clearFaults();
		expect(items.map((item) => failureIn(item)?.message)).toEqual(Array(6).fill('The labels could not be created: The service rejected the request (400 Bad Request): too many labels'));
		expect(sent('/annotations/labels/')).toBe(1);
		expect(server().projects(PROJECT)!.records).toHaveLength(before.records.length);
		expect(server().projects(PROJECT)!.batches).toHaveLength(before.batches.length);
		expect(server().storage.requests).toEqual([]);
	});

	describe('an image without boxes before one with boxes', () => {
		const plainThenBoxed = () => [photo(CAR, 'plain.jpg'), photo(CAR, 'boxed.jpg')];
		const boxesOfItem = (itemIndex: number) => (itemIndex === 0 ? [] : [CAR_BOX]);
		const callsOfProject = (from: number) =>
			server()
				.requests.slice(from)
				.map((request) => request.call)
				.filter((call) => call !== undefined);

		it('waits for the labels call: nothing is created in the project before it is answered', async () => {
			const from = server().requests.length;
			const { items } = await run(parameters({ detections: boxesOfItem, options: { concurrency: 1 } }), plainThenBoxed());
			expect(items.map((item) => (item.json.upload as IDataObject).annotationCount)).toEqual([0, 1]);
			expect(callsOfProject(from).slice(0, 3)).toEqual(['project', 'labels', 'batch']);
		});

		it('a refused labels call fails only the image that needed it: the image without boxes is uploaded whole', async () => {
			const before = records().length;
			server().addFault({ match: { call: 'labels' }, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'too many labels', details: [] } } });
			const { items } = await run(parameters({ detections: boxesOfItem, options: { concurrency: 1 } }), plainThenBoxed(), { continueOnFail: true });
			server().clearFaults();
			expect(failureIn(items[0])).toBeUndefined();
			expect(items[0].json.upload).toMatchObject({ fileName: 'plain.jpg', annotationCount: 0 });
			expect(failureIn(items[1])!.message).toBe('The labels could not be created: The service rejected the request (400 Bad Request): too many labels');
			expect(records().slice(before).map((record) => record.name)).toEqual(['plain.jpg']);
		});
	});

	it('the labels call carries only the names of items the project’s type takes: a label refused by the type is not created', async () => {
		const projectId = server().addProject('object_detection');
		const { items } = await run(
			parameters({
				project: { mode: 'id', value: projectId },
				annotationSource: (itemIndex: number) => (itemIndex === 1 ? 'classificationLabel' : 'detections'),
				classificationLabel: 'cat',
			}),
			[photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')],
			{ continueOnFail: true },
		);
		expect(failureIn(items[1])!.message).toBe(`Project ${projectId} is an object detection project: it takes boxes, not a label`);
		expect(server().projects(projectId)!.labels.map((label) => label.name)).toEqual(['car']);
	});

	it('On Error "Stop Workflow": a photo refused at its check after the labels call says the label names were sent', async () => {
		const projectId = server().addProject('object_detection');
		const webp = { json: {}, binary: { data: { bytes: fixture('car-120x80.webp'), fileName: 'car.webp', mimeType: 'image/webp' } } };
		const failure = await failureOf(run(parameters({ project: { mode: 'id', value: projectId }, options: { concurrency: 1 } }), [photo(CAR, 'car.jpg'), webp], { binaryMode: 'database' }));
		const [record] = server().projects(projectId)!.records;
		expect(failure).toMatchObject({ itemIndex: 1, message: 'The file in binary field "data" is WEBP: projects take JPEG and PNG' });
		expect(failure.description).toContain(
			`Before it stopped, this execution sent the label name "car" to project ${projectId} (added where the project lacked it), and added batch ${record.batchId} "once" in project ${projectId}: item 0 "car.jpg" → record ${record.id}. `,
		);
	});

	it('On Error "Stop Workflow": the third of six failing names the records the others made, by item', async () => {
		const before = records().length;
		// the first two record calls are answered as usual, the third fails
		server().addFault({ match: { call: 'record' }, times: 2, action: { type: 'delay', ms: 0 } });
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'quota', details: [] } } });
		const failure = await failureOf(run(parameters({ options: { concurrency: 1 } }), sixPhotos()));
		const [first, second] = records().slice(before);
		expect(records()).toHaveLength(before + 2);
		expect(failure.message).toMatch(/^The image was stored \(s3:\/\/\S+\) but its record was not created: The service rejected the request \(400 Bad Request\): quota$/);
		expect(failure.description).toContain(
			`Before it stopped, this execution sent the label name "car" to project ${PROJECT} (added where the project lacked it), and added batch ${first.batchId} "once" in project ${PROJECT}: item 0 "photo-0.jpg" → record ${first.id}, item 1 "photo-1.jpg" → record ${second.id}. ` +
				'Running the execution again uploads these again: delete them in the dashboard first, or run again only the items not listed.',
		);
	});

	it.each([
		['the record may exist', 'record', { type: 'status', status: 500 }, 'possibly a record (its answer was lost)'],
		['the annotations may exist', 'annotations', { type: 'status', status: 502 }, 'record R2, its annotations possibly'],
		['the record is without its annotations', 'annotations', { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'locked', details: [] } }, 'record R2 without its annotations'],
	] as const)('On Error "Stop Workflow": the failed item’s own state is listed too (%s)', async (_name, call, action, third) => {
		const before = records().length;
		server().addFault({ match: { call }, times: 2, action: { type: 'delay', ms: 0 } });
		server().addFault({ match: { call }, times: 1, action });
		const failure = await failureOf(run(parameters({ options: { concurrency: 1, retries: 1 } }), sixPhotos().slice(0, 4)));
		const made = records().slice(before);
		const listed = `item 0 "photo-0.jpg" → record ${made[0].id}, item 1 "photo-1.jpg" → record ${made[1].id}, item 2 "photo-2.jpg" → ${third.replace('R2', made[2]?.id ?? '')}.`;
		expect(failure.description).toContain(`this execution sent the label name "car" to project ${PROJECT} (added where the project lacked it), and added batch ${made[0].batchId} "once" in project ${PROJECT}: ${listed} Running the execution again`);
	});

	it('On Error "Stop Workflow": a refused batch call leaves nothing, and the error says so', async () => {
		server().addFault({ match: { call: 'batch' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'quota', details: [] } } });
		const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
		expect(failure.description).toBe(
			'Nothing was added to the project for this image but its label names, to the project’s labels where it lacked them; running the item again uploads it. Check the image and the options of this item. ' +
				`Before it stopped, this execution sent the label name "car" to project ${PROJECT} (added where the project lacked it), and added no image. Running it again adds no label twice: a name the project has keeps its id.`,
		);
	});

	it('without annotations no label names are sent, and a refused batch call says nothing was added', async () => {
		server().addFault({ match: { call: 'batch' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'quota', details: [] } } });
		const failure = await failureOf(run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg')]));
		expect(failure.description).toBe('Nothing was added to the project for this image; running the item again uploads it. Check the image and the options of this item. This execution added nothing to any project before it stopped.');
	});

	it('On Error "Stop Workflow": a batch whose answer was lost is listed as possibly made', async () => {
		server().addFault({ match: { call: 'batch' }, times: 1, action: { type: 'delay', ms: 700 } });
		const failure = await failureOf(run(parameters({ options: { timeout: 300 } }), [photo(CAR, 'car.jpg')]));
		await new Promise((resolve) => setTimeout(resolve, 600));
		expect(failure.message).toBe(`Batch "once" may have been created in project ${PROJECT}, but its answer was lost: The service did not answer within 300 ms`);
		expect(failure.description).toMatch(
			new RegExp(`^No image was put in it\\. Running the item again creates another batch: delete the empty one in the dashboard if it is there\\. .* Before it stopped, this execution sent the label name "car" to project ${PROJECT} \\(added where the project lacked it\\), and added possibly a batch "once" \\(its answer was lost\\) in project ${PROJECT}: empty\\. `),
		);
	});

	it.each([true, false])('with Retry On Fail on, every item is refused before any request (continue on fail: %s)', async (continueOnFail) => {
		server().requests.splice(0);
		server().storage.requests.splice(0);
		const result = run(parameters(), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { retryOnFail: true, continueOnFail });
		const refusal = {
			message: 'Upload to Project does not run with Retry On Fail on',
			description:
				'Turn off Retry On Fail in this node’s Settings: n8n would run the whole node again after a failure and upload every image of the execution again. The node’s own Options > Retries retries each call where that creates nothing twice.',
		};
		if (continueOnFail) {
			const { items } = await result;
			expect(items.map((item) => failureIn(item))).toEqual([expect.objectContaining(refusal), expect.objectContaining(refusal)]);
		} else {
			expect(await failureOf(result)).toMatchObject({ ...refusal, itemIndex: 0 });
		}
		expect(server().requests).toEqual([]);
		expect(server().storage.requests).toEqual([]);
	});

	it('with Retry On Fail off, the upload runs', async () => {
		const { items } = await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg')], { retryOnFail: false });
		expect(items[0].json.upload).toMatchObject({ fileName: 'car.jpg', annotationCount: 0 });
	});

	it('under Continue, a successful upload of an input item carrying an error field outputs it as inputError: only a failed item has an error', async () => {
		const cameraError = { message: 'the camera was offline' };
		const { items } = await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg', { camera: 'gate', error: cameraError })], { continueOnFail: true });
		expect(Object.keys(items[0].json)).toEqual(['camera', 'inputError', 'upload']);
		expect(items[0].json.inputError).toEqual(cameraError);
		expect(items[0].json.upload).toMatchObject({ fileName: 'car.jpg' });
	});

	it('an input item without an error field gets no inputError', async () => {
		const { items } = await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg', { camera: 'gate' })]);
		expect(Object.keys(items[0].json)).toEqual(['camera', 'upload']);
	});

	it('as an agent’s tool, an input item carrying an error field reads as the upload it is', async () => {
		const { items } = await run(parameters({ options: { allowAsTool: true } }), [photo(CAR, 'car.jpg', { error: { message: 'the camera was offline' } })], { asTool: true });
		expect(Object.keys(items[0].json)).toEqual(['upload']);
		expect(items[0].json.upload).toMatchObject({ fileName: 'car.jpg', annotationCount: 1 });
	});

	it.each(['filesystem', 'database', 'default'] as const)('reads each photo from the %s store whole once', async (binaryMode) => {
		const before = records().length;
		const { reads, events } = await run(parameters({ annotationSource: 'none', options: { concurrency: 1 } }), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { binaryMode });
		expect(reads.whole).toBe(2);
		expect(records()).toHaveLength(before + 2);
		// the database store's next photo is read while the first one's calls wait (databaseReadAhead.ts)
		if (binaryMode === 'database') expect(events.slice(0, 2)).toEqual(['read 0', 'read 1']);
		// without annotations, no labels call and no annotations call
		expect(server().requests.filter((request) => request.call === 'labels' || request.call === 'annotations')).toEqual([]);
	});

	it('a file whose header gives no size is refused before any request of the execution', async () => {
		const noSize = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(64)]);
		const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg'), photo(noSize, 'x.jpg')]));
		expect(failure).toMatchObject({ itemIndex: 1, message: 'The size of the image in binary field "data" cannot be read from its header' });
		expect(server().requests).toEqual([]);
	});

	it('a JPEG with 300 KB of segments before its size (extended XMP): its box is checked before any request of the execution', async () => {
		// 300 KB of APP2 segments between the JPEG's start and its frame header: the size lies past the first 256 KB
		const padded = withSegmentsBeforeFrame(CAR, 300 * 1024);
		expect(padded.indexOf(Buffer.from([0xff, 0xc0]))).toBeGreaterThan(FILE_HEAD_BYTES);
		server().storage.requests.splice(0);
		const outside = { label: 'car', x: 600, y: 300, width: 100, height: 50 };
		const failure = await failureOf(run(parameters({ detections: (itemIndex: number) => (itemIndex === 1 ? [outside] : [CAR_BOX]) }), [photo(CAR, 'car.jpg'), photo(padded, 'portrait.jpg')]));
		// CAR is 676 × 380: x 600 + 100 runs past 676
		expect(failure).toMatchObject({ itemIndex: 1, message: 'Detection 0’s box (x 600, y 300, 100 × 50) is outside the image (676 × 380 pixels)' });
		expect(server().requests).toEqual([]);
		expect(server().storage.requests).toEqual([]);
	});

	it('a JPEG with 300 KB of segments before its size is uploaded with its size, read whole once', async () => {
		const padded = withSegmentsBeforeFrame(CAR, 300 * 1024);
		const before = records().length;
		const { items, reads } = await run(parameters(), [photo(padded, 'portrait.jpg')]);
		expect(reads.whole).toBe(1);
		expect(records().slice(before).map((record) => [record.width, record.height, record.size])).toEqual([[676, 380, padded.length]]);
		expect(items[0].json.upload).toMatchObject({ width: 676, height: 380 });
	});

	it('a file in the database store that is not JPEG or PNG is refused before its upload, read once', async () => {
		server().storage.requests.splice(0);
		const webp = { json: {}, binary: { data: { bytes: fixture('car-120x80.webp'), fileName: 'car.webp', mimeType: 'image/webp' } } };
		const { items, reads } = await run(parameters({ annotationSource: 'none' }), [webp], { binaryMode: 'database', continueOnFail: true });
		expect(failureIn(items[0])!.message).toBe('The file in binary field "data" is WEBP: projects take JPEG and PNG');
		expect(reads.whole).toBe(1);
		expect(server().requests.map((request) => request.call)).toEqual([]);
		expect(server().storage.requests).toEqual([]);
	});
});
