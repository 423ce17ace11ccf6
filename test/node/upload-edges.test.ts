/**
 * Upload to Project at its edges: the Project as an expression gives it, what each refusal tells
 * the user to do, answers missing what the SDK reads, what the calls carry, and a shared failure
 * told on each item with its status.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ParameterValue } from '../harness/execute';
import { CAR, DOG, failureIn, failureOf, pngOf, useServer } from './setup';

const CAR_BOX = { label: 'car', x: 283, y: 183, width: 28, height: 22 };
const photo = (bytes: Buffer, fileName: string) => ({ json: {}, binary: { data: { bytes, fileName, mimeType: 'image/jpeg' } } });

describe('Upload to Project at its edges', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const DETECTION = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
	const CLASSIFICATION = 'c3b2a190-8f7e-4d6c-b5a4-9382716f5e4d';
	beforeAll(() => {
		server().addProject('object_detection', { id: DETECTION });
		server().addProject('classification', { id: CLASSIFICATION });
	});
	beforeEach(() => server().storage.requests.splice(0));

	const parameters = (extra: Record<string, ParameterValue> = {}) => ({
		operation: 'uploadToProject',
		project: { mode: 'id', value: DETECTION },
		imageSource: 'binary',
		binaryPropertyName: 'data',
		batchName: 'edges',
		annotationSource: 'detections',
		detections: [CAR_BOX],
		options: {},
		...extra,
	});
	const calls = () => server().requests.map((request) => `${request.method} ${request.path}`);
	const records = (id = DETECTION) => server().projects(id)!.records;

	describe('the Project as an expression or a locator gives it', () => {
		it('a plain ID text, spaces around it left out', async () => {
			await run(parameters({ project: `  ${DETECTION} ` }), [photo(CAR, 'car.jpg')]);
			expect(calls()[0]).toBe(`GET /projects/${DETECTION}/`);
		});

		it('an ID that only contains the placeholder’s words is an ID', async () => {
			const failure = await failureOf(run(parameters({ project: 'my-REPLACE_WITH-project' }), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toBe('Project my-REPLACE_WITH-project was not found (404 Not Found)');
		});

		it.each([
			['nothing', null, 'Project is empty', 'Paste the project’s ID (letters, digits and dashes, the part after “projects/” in its link in the dashboard), or choose By URL and paste the link.'],
			['a text that is no ID', 'my project', 'Project ID "my project" is not an ID', 'Paste the project’s ID (letters'],
			['a link without a project', { mode: 'url', value: 'https://app.epigos.ai/models/x' }, 'The link "https://app.epigos.ai/models/x" does not name a project', 'Paste the project’s link from the dashboard: it names the project after “projects/”'],
			['the placeholder', { mode: 'id', value: 'REPLACE_WITH_YOUR_PROJECT_ID' }, 'Project is still the example’s placeholder "REPLACE_WITH_YOUR_PROJECT_ID"', 'Paste your project’s ID (the part after “projects/” in its link in the dashboard), or choose By URL and paste the link.'],
		])('%s: refused, saying what to paste', async (_, project, message, description) => {
			const failure = await failureOf(run(parameters({ project }), [photo(CAR, 'car.jpg')]));
			expect(failure).toMatchObject({ message, itemIndex: 0 });
			expect(failure.description.startsWith(description)).toBe(true);
			expect(server().requests).toEqual([]);
		});
	});

	describe('each refusal says what to change', () => {
		it.each([
			['an agent’s call', { options: {} }, { asTool: true }, 'To allow it, turn on Options > Allow as Agent Tool in this tool’s settings.'],
			['a URL', { imageSource: 'url', imageUrl: 'https://example.com/a.jpg' }, {}, 'Set Image Source to Binary File, All Images on the Item or Binary From Expression'],
			['an empty batch name', { batchName: ' ' }, {}, 'Enter the name of the batch the images are filed under in the project, for example "From n8n".'],
			['a batch name that is not text', { batchName: 5 }, {}, 'Enter the name of the batch'],
			['boxes for two images', { binaryPropertyName: 'data, other' }, {}, 'An item’s detections belong to one image. Upload right after Detect Objects'],
			['an item without detections', { detections: null }, {}, 'Annotations From Detections reads the item’s detections, as a Detect Objects node before this one leaves them.'],
			['a Classification Label that is not text', { annotationSource: 'classificationLabel', classificationLabel: ['dog'] }, {}, 'Enter the class the image shows, exactly as the project names it'],
			['Annotations an expression made up', { annotationSource: 'boxes' }, {}, 'Choose one in the list, or make the expression that sets "Annotations" give one of them.'],
			['Allow as Agent Tool that is not a boolean', { options: { allowAsTool: 'yes' } }, { asTool: true }, 'Turn "Allow as Agent Tool" on or off'],
		])('%s', async (_, extra, runOptions, description) => {
			const items = [{ json: {}, binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' }, other: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } }];
			const { items: out } = await run(parameters(extra), items, { ...runOptions, continueOnFail: true });
			// an agent gets its compact failure: { error, description }
			const failure = typeof out[0].json.error === 'object' ? failureIn(out[0])! : (out[0].json as { description: string });
			expect(failure.description).toContain(description);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(server().requests).toEqual([]);
		});

		it('a file whose size cannot be read, and the type refusal, say how to re-encode it', async () => {
			const noSize = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(64)]);
			const { items } = await run(parameters(), [photo(noSize, 'x.jpg'), { json: {}, binary: { data: { bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), fileName: 'y.gif', mimeType: 'image/gif' } } }], { continueOnFail: true });
			expect(failureIn(items[0])).toMatchObject({ description: 'The record needs the image’s width and height. Re-encode it with an Edit Image node before this one.', code: 'invalid_image' });
			expect(failureIn(items[1])).toMatchObject({ message: 'The file in binary field "data" is GIF: projects take JPEG and PNG', code: 'invalid_image' });
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		it('the wrong kind of project, and a project of an unknown type, name the item', async () => {
			server().addFault({ match: { call: 'project' }, times: 1, action: { type: 'status', status: 200, body: { projectType: 'segmentation' } } });
			const unknown = await run(parameters(), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { continueOnFail: true });
			expect(failureIn(unknown.items[1])).toMatchObject({ description: 'Nothing was added to any project for this image. Upload to Project takes object detection and classification projects.', code: 'invalid_parameter' });
			expect(unknown.items[1].pairedItem).toEqual({ item: 1 });
			const wrong = await run(parameters({ project: { mode: 'id', value: CLASSIFICATION } }), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { continueOnFail: true });
			expect(failureIn(wrong.items[1])).toMatchObject({
				description: 'Set Annotations to Classification Label (the class the image shows) or None, or choose an object detection project.',
				code: 'invalid_parameter',
			});
			expect(wrong.items[1].pairedItem).toEqual({ item: 1 });
		});
	});

	describe('what a parameter or an expression gives, read as the user meant it or refused by name', () => {
		const without = (name: string, extra: Record<string, ParameterValue> = {}) => {
			const all: Record<string, ParameterValue> = parameters(extra);
			delete all[name];
			return all;
		};

		it.each([
			['no Project at all', without('project'), 'Project is empty'],
			['a blank Batch Name', parameters({ batchName: ' \t ' }), 'Batch Name is empty'],
			// a workflow without Batch Name runs with its default (n8n adds it): only an expression leaves it empty
			['a Batch Name an expression left null', parameters({ batchName: () => null }), 'Batch Name is empty'],
			['a Batch Name that is a number', parameters({ batchName: 5 }), 'Batch Name must be text, got 5'],
			['no Classification Label at all', without('classificationLabel', { annotationSource: 'classificationLabel' }), 'Classification Label is empty'],
			['a Classification Label that is a list', parameters({ annotationSource: 'classificationLabel', classificationLabel: ['dog'] }), 'Classification Label must be text, got ["dog"]'],
			['an Annotations choice an expression made up', parameters({ annotationSource: 'boxes' }), 'Annotations must be one of none, detections, classificationLabel, got "boxes"'],
			['no Detections at all', without('detections'), 'This item has no detections to annotate with'],
			['empty Detections text', parameters({ detections: '' }), 'This item has no detections to annotate with'],
			['an entry that is null', parameters({ detections: [null] }), 'Detection 0 is not an object: got null'],
			['an entry that is a list', parameters({ detections: [[1, 2, 3, 4]] }), 'Detection 0 is not an object: got [1,2,3,4]'],
			['a label that is a number', parameters({ detections: [{ ...CAR_BOX, label: 5 }] }), 'Detection 0 has no label: got 5'],
			['a label of spaces', parameters({ detections: [{ ...CAR_BOX, label: '  ' }] }), 'Detection 0 has no label: got "  "'],
			['a box of one number', parameters({ detections: [{ label: 'car', x: 1 }] }), 'Detection 0’s box is not four numbers (x, y, width and height above 0): got [1,null,null,null]'],
			['a box with NaN', parameters({ detections: [{ ...CAR_BOX, x: Number.NaN }] }), 'Detection 0’s box is not four numbers (x, y, width and height above 0): got [null,183,28,22]'],
			['a label and nothing else', parameters({ detections: [{ label: 'car' }] }), 'Detection 0 has no box: neither x, y, width, height nor relativeBox'],
			['a relativeBox starting left of the picture', parameters({ detections: [{ label: 'car', relativeBox: { x: -0.1, y: 0, width: 0.5, height: 0.5 } }] }), 'Detection 0’s relativeBox is not four fractions from 0 to 1 (width and height above 0): got {"x":-0.1,"y":0,"width":0.5,"height":0.…'],
			['a relativeBox that is text', parameters({ detections: [{ label: 'car', relativeBox: '0.1 0.1 0.2 0.2' }] }), 'Detection 0’s relativeBox is not four fractions from 0 to 1 (width and height above 0): got "0.1 0.1 0.2 0.2"'],
		])('%s', async (_, given, message) => {
			const failure = await failureOf(run(given, [photo(CAR, 'car.jpg')]));
			expect(failure).toMatchObject({ message, itemIndex: 0 });
			expect(server().requests).toEqual([]);
		});

		it('says what to do with too many boxes', async () => {
			const failure = await failureOf(run(parameters({ detections: Array.from({ length: 1001 }, () => CAR_BOX) }), [photo(CAR, 'car.jpg')]));
			expect(failure.description).toBe('Filter the list first, for example with Max Objects in Detect Objects.');
		});

		it('takes the whole picture as a relativeBox, and a relativeBox beside empty pixel fields', async () => {
			const { items } = await run(
				parameters({
					detections: [
						{ label: 'car', relativeBox: { x: 0, y: 0, width: 1, height: 1 } },
						{ label: 'car', x: null, y: null, width: null, height: null, relativeBox: { x: 0.5, y: 0.5, width: 0.5, height: 0.5 } },
					],
				}),
				[photo(CAR, 'car.jpg')],
			);
			expect(items[0].json.upload).toMatchObject({ annotationCount: 2 });
			expect(records().at(-1)!.annotations.map(({ annotation }) => annotation)).toMatchObject([
				{ left: 0, top: 0, width: 676, height: 380 },
				{ left: 338, top: 190, width: 338, height: 190 },
			]);
		});
	});

	describe('answers that miss what the SDK reads are not used', () => {
		it.each([
			['project', { name: 'no type' }, 200, 'projectType: Required'],
			['batch', { name: 'no id' }, 201, 'id: Invalid input'],
			['labels', [{ name: 'car' }], 201, '[0].id: Invalid input'],
		])('a %s answer without it', async (call, body, status, issue) => {
			server().addFault({ match: { call: call as 'project' }, times: 1, action: { type: 'status', status, body } });
			const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toContain(`it does not match the documented result (${issue})`);
		});
	});

	describe('what the calls carry', () => {
		it('the API calls ask for JSON and send JSON; the storage gets the file’s type alone', async () => {
			await run(parameters(), [photo(CAR, 'car.jpg')], { credentials: { sendAs: 'header' } });
			const byCall = new Map(server().requests.map((request) => [request.call, request]));
			expect(byCall.get('project')!.headers).toMatchObject({ accept: 'application/json' });
			expect(byCall.get('project')!.headers['content-type']).toBeUndefined();
			for (const call of ['batch', 'upload', 'record', 'labels', 'annotations'] as const) {
				expect(byCall.get(call)!.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json' });
			}
			const [put] = server().storage.requests;
			expect(put.headers['content-type']).toBe('image/jpeg');
			expect(put.headers.accept).toBeUndefined();
			expect(put.bodyBytes).toBe(CAR.length);
		});

		it('no labels or annotations call for an image without annotations, or with an empty list', async () => {
			await run(parameters({ annotationSource: 'none' }), [photo(CAR, 'car.jpg')]);
			await run(parameters({ detections: [] }), [photo(DOG, 'dog.jpg')]);
			expect(calls().filter((call) => call.includes('/annotations/'))).toEqual([]);
			expect(records().slice(-2).map((record) => record.annotations)).toEqual([[], []]);
		});

		it('a Batch Name with spaces around it names the batch without them', async () => {
			await run(parameters({ batchName: '  morning  ' }), [photo(CAR, 'car.jpg')]);
			expect(server().projects(DETECTION)!.batches.at(-1)!.name).toBe('morning');
		});

		it('a PNG file and a JPEG without an extension keep their type’s extension', async () => {
			const { items } = await run(parameters({ annotationSource: 'none', options: { concurrency: 1 } }), [
				{ json: {}, binary: { data: { bytes: pngOf(DOG), fileName: 'scan.PNG', mimeType: 'image/png' } } },
				photo(CAR, 'snapshot'),
			]);
			expect(items.map((item) => (item.json.upload as IDataObject).fileName)).toEqual(['scan.PNG', 'snapshot.jpg']);
		});
	});

	describe('failures of the later calls', () => {
		it('a failed labels call fails the item before anything is created for it', async () => {
			const before = records().length;
			server().addFault({ match: { call: 'labels' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'name too long', details: [] } } });
			const { items } = await run(parameters(), [photo(CAR, 'car.jpg')], { continueOnFail: true });
			expect(failureIn(items[0])).toMatchObject({
				message: 'The labels could not be created: The service rejected the request (400 Bad Request): name too long',
				status: 400,
			});
			expect(failureIn(items[0])!.description).toMatch(/^Nothing was added to the project for this image \(a label the call made, if any, keeps its id when the item runs again\); running the item again uploads it\. /);
			expect(records()).toHaveLength(before);
			expect(server().storage.requests).toEqual([]);
		});

		it('a label the labels answer leaves out fails its item with what to do', async () => {
			server().addFault({ match: { call: 'labels' }, times: 1, action: { type: 'status', status: 201, body: [] } });
			const before = records().length;
			const { items } = await run(parameters(), [photo(CAR, 'car.jpg')], { continueOnFail: true });
			expect(failureIn(items[0])).toMatchObject({
				message: 'The service did not return an id for the label "car"',
				description: 'Nothing was added to the project for this image (a label the call made, if any, keeps its id when the item runs again); running the item again uploads it.',
			});
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(records()).toHaveLength(before);
		});

		it('a project gone between calls: the record call’s 404 names the project', async () => {
			server().addFault({ match: { call: 'record' }, times: 1, action: { type: 'status', status: 404, body: { detail: 'Not Found' } } });
			const failure = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(failure.message).toMatch(new RegExp(`^The image was stored \\(s3://\\S+\\) but its record was not created: Project ${DETECTION} was not found \\(404 Not Found\\)$`));
			expect(failure.description).toContain('Check the Project: its ID is in the project’s link in the dashboard (…/projects/<ID>)');
		});

		it('a storage that fails or lost the URL says so as the storage', async () => {
			server().addFault({ match: { call: 'storage' }, times: 1, action: { type: 'status', status: 404, body: '<Error><Code>NoSuchKey</Code></Error>' } });
			const lost = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(lost.message).toBe('The image could not be put into the project’s storage: The storage URL the service handed out was not found (404 Not Found)');
			expect(lost.description).toContain('Try again. The storage said: <Error><Code>NoSuchKey</Code></Error>');
			server().addFault({ match: { call: 'storage' }, times: 1, action: { type: 'status', status: 500 } });
			const failed = await failureOf(run(parameters(), [photo(CAR, 'car.jpg')]));
			expect(failed.message).toBe('The image could not be put into the project’s storage: The storage failed (500 Internal Server Error)');
			expect(failed.description).toContain('The storage gave no reason.');
		});

		it('a shared call that failed fails every item with its own index, status and HTTP code', async () => {
			server().addFault({ match: { call: 'batch' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'batch quota reached', details: [] } } });
			const { items } = await run(parameters({ options: { concurrency: 1 } }), [photo(CAR, 'car.jpg'), photo(DOG, 'dog.jpg')], { continueOnFail: true });
			for (const [index, item] of items.entries()) {
				expect(item.pairedItem).toEqual({ item: index });
				expect(failureIn(item)).toMatchObject({
					message: 'The service rejected the request (400 Bad Request): batch quota reached',
					status: 400,
					httpCode: '400',
					code: 'bad_request',
					description:
						'Nothing was added to the project for this image but its label names, to the project’s labels where it lacked them; running the item again uploads it. Check the image and the options of this item.',
				});
			}
			expect(calls().filter((call) => call.endsWith('/batches/'))).toHaveLength(1);
		});
	});
});
