/**
 * Upload to Project never writes twice silently: a call that creates something is not sent again
 * when the service may have done it, the labels are settled before anything is created, an
 * execution that stops says what it added, an agent reads a success as one, and each photo is
 * read from n8n's store once.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ParameterValue } from '../harness/execute';
import { CAR, DOG, failureIn, failureOf, useServer } from './setup';

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

	it('annotations answered after the Timeout are stored once', async () => {
		const before = records().length;
		server().addFault({ match: { call: 'annotations' }, times: 1, action: { type: 'delay', ms: 700 } });
		const { items } = await run(parameters({ options: { timeout: 300 } }), [photo(CAR, 'car.jpg')], { continueOnFail: true });
		await new Promise((resolve) => setTimeout(resolve, 600));
		const [record] = records().slice(before);
		expect(record.annotations).toHaveLength(1);
		expect(failureIn(items[0])!.message).toBe(`Record ${record.id} was created in batch ${record.batchId}, and its 1 annotation may have been too, but the answer was lost: The service did not answer within 300 ms`);
	});

	it('a 503 (the service took nothing) on the record call is sent again, and one record made', async () => {
		const before = records().length;
		server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'status', status: 503 } });
		const { items } = await run(parameters({ options: { retries: 1 } }), [photo(CAR, 'car.jpg')]);
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
			`Before it stopped, this execution added batch ${first.batchId} "once" in project ${PROJECT}: item 0 "photo-0.jpg" → record ${first.id}, item 1 "photo-1.jpg" → record ${second.id}. ` +
				'Running the execution again uploads these again: delete them in the dashboard first, or run again only the items not listed.',
		);
	});

	it('as an agent’s tool, an input item carrying an error field reads as the upload it is', async () => {
		const { items } = await run(parameters({ options: { allowAsTool: true } }), [photo(CAR, 'car.jpg', { error: { message: 'the camera was offline' } })], { asTool: true });
		expect(Object.keys(items[0].json)).toEqual(['upload']);
		expect(items[0].json.upload).toMatchObject({ fileName: 'car.jpg', annotationCount: 1 });
	});

	it.each(['filesystem', 'database'] as const)('reads each photo from the %s store whole once', async (binaryMode) => {
		const before = records().length;
		const { reads } = await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { binaryMode });
		expect(reads.whole).toBe(2);
		expect(records()).toHaveLength(before + 2);
	});
});
