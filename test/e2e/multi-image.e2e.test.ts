/**
 * Real automations in real n8n, against the reference server:
 *   - a Form Trigger with three files in one field (two photos and a text file), posted over HTTP to
 *     the published form: "All Images on the Item" detects on both photos and lists the text file;
 *   - an e-mail-like item built by a Code node (attachment_0 JPEG, attachment_1 PDF, attachment_2
 *     PNG) through "All Images on the Item", one item per object and a label filter;
 *   - examples/crop-and-classify-objects.json: Detect (one item per object, each with its crop:
 *     Crop Each Object) → Classify each crop → Aggregate → a notification-shaped message;
 *   - an iPhone's HEIC photo: refused by Detect before any request with how to convert it, and
 *     converted that way (Edit Image, GraphicsMagick) then detected.
 * Every expected value comes from the reference server's own predictions.
 */
import * as fs from 'fs';
import * as path from 'path';

import { asServiceSent } from '../harness/detections';
import { pngOf, SAMPLE_PDF } from '../harness/images';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { decodeImage } from '../reference-server/image-codec';
import {
	code,
	createN8nHome,
	e2eVersions,
	feedTriggerWithFile,
	fixture,
	imageInference,
	imageInferenceCredential,
	loadExample,
	manualTrigger,
	node,
	nodeItems,
	readBinary,
	readFile,
	useCredentialAndModels,
	workflow,
	type ExecuteResult,
	type N8nHome,
} from './lib';

const CAR = fs.readFileSync(fixture('car.jpg'));
const DOG = fs.readFileSync(fixture('dog.jpg'));
const CAR_PNG = pngOf(CAR);
const CREDENTIAL = 'credMultiImage01';
const FORM_PATH = 'multi-photo-upload';

type Detection = { label: string; confidence: number; x: number; y: number; width: number; height: number };

const sizeOf = (bytes: Buffer) => {
	const { width, height } = decodeImage(bytes);
	return { imageWidth: width, imageHeight: height };
};

describe.each(e2eVersions())('several images, object items and crops in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let tmp: string;
	let label: string;
	const ids: Record<'mail' | 'crop' | 'form' | 'heic', string> = { mail: '', crop: '', form: '', heic: '' };

	const execute = async (id: string): Promise<ExecuteResult> => {
		const res = await home.execute(id);
		if (!res.ok) throw new Error(`workflow failed in n8n: ${res.error}\n${res.stdout.slice(-2000)}`);
		return res;
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		home = await createN8nHome({ version });
		// the file nodes may read the home's own files folder
		tmp = home.filesDir;
		fs.writeFileSync(path.join(tmp, 'car.png'), CAR_PNG);
		fs.writeFileSync(path.join(tmp, 'invoice.pdf'), SAMPLE_PDF);
		await home.importCredentials(imageInferenceCredential(CREDENTIAL, { baseUrl: server.url, apiKey: server.apiKey }));
		// a label the server reports for the car photo: the filter then keeps some objects and drops others
		label = server.predict('detect', CAR, {}).detections[0].label;

		const mail = workflow('e-mail attachments → objects', [
			manualTrigger(),
			readFile('Read photo', fixture('dog.jpg')),
			readFile('Read invoice', path.join(tmp, 'invoice.pdf')),
			readFile('Read screenshot', path.join(tmp, 'car.png')),
			code(
				'E-mail',
				`return [{
  json: { subject: 'Delivery', from: 'driver@example.com' },
  binary: {
    attachment_0: $('Read photo').first().binary.data,
    attachment_1: $('Read invoice').first().binary.data,
    attachment_2: $('Read screenshot').first().binary.data,
  },
}];`,
			),
			imageInference(
				'Detect',
				{ operation: 'detect', modelId: server.models.detect, imageSource: 'allImages', outputItems: 'object', options: { onlyLabels: label } },
				CREDENTIAL,
			),
		]);

		const crop = feedTriggerWithFile(
			useCredentialAndModels(loadExample('crop-and-classify-objects.json'), {
				credentialId: CREDENTIAL,
				detect: server.models.detect,
				classify: server.models.classify,
			}),
			'Upload a photo',
			fixture('car.jpg'),
			'Photo',
		);

		const form = workflow('form with several photos', [
			node(
				'Upload photos',
				'n8n-nodes-base.formTrigger',
				{
					path: FORM_PATH,
					formTitle: 'Photos of the delivery',
					formFields: { values: [{ fieldLabel: 'Photos', fieldType: 'file', multipleFiles: true, requiredField: true }] },
					responseMode: 'responseNode',
					options: {},
				},
				{ typeVersion: 2.1, webhookId: '0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e' },
			),
			imageInference('Detect', { operation: 'detect', modelId: server.models.detect, imageSource: 'allImages', options: {} }, CREDENTIAL),
			node('Answer', 'n8n-nodes-base.respondToWebhook', { respondWith: 'allIncomingItems', options: {} }, { typeVersion: 1.1 }),
		]);
		// the node's advice for a HEIC photo, as its error says it: Edit Image, Resize, Only if Larger, Format jpeg
		const detectOn = (name: string) =>
			imageInference(name, { operation: 'detect', modelId: server.models.detect, imageSource: 'binary', options: {} }, CREDENTIAL, { onError: 'continueRegularOutput' });
		const heic = workflow(
			'an iPhone photo',
			[
				manualTrigger(),
				readFile('Read iPhone photo', fixture('car-64x36.heic')),
				detectOn('Detect as sent'),
				node('Convert to JPEG', 'n8n-nodes-base.editImage', { operation: 'resize', width: 4096, height: 4096, resizeOption: 'onlyIfLarger', options: { format: 'jpeg' } }, { typeVersion: 1.1 }),
				detectOn('Detect converted'),
			],
			[
				['Start', 'Read iPhone photo'],
				['Read iPhone photo', 'Detect as sent'],
				['Read iPhone photo', 'Convert to JPEG'],
				['Convert to JPEG', 'Detect converted'],
			],
		);
		[ids.mail, ids.crop, ids.form, ids.heic] = await home.importWorkflows([mail, crop, form, heic]);
	});

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	it('an e-mail’s attachments: every image, one item per object, only the chosen label, the PDF listed as skipped', async () => {
		const { run } = await execute(ids.mail);
		const items = nodeItems(run!, 'Detect');
		const expected = [
			{ field: 'attachment_0', fileName: 'dog.jpg', bytes: DOG },
			{ field: 'attachment_2', fileName: 'car.png', bytes: CAR_PNG },
		].flatMap(({ field, fileName, bytes }) => {
			const kept = (server.predict('detect', bytes, {}).detections as Detection[]).filter((d) => d.label === label);
			return kept.map((detection, objectIndex) => ({
				...detection,
				relativeBox: expect.objectContaining({ x: expect.any(Number) }),
				objectIndex,
				objectCount: kept.length,
				field,
				fileName,
				...sizeOf(bytes),
				skippedFiles: [{ field: 'attachment_1', fileName: 'invoice.pdf', mimeType: 'application/pdf' }],
			}));
		});
		expect(expected.length).toBeGreaterThan(0);
		expect(items.map((item) => item.json)).toEqual(expected);
		// each object item carries its image's annotated picture
		for (const item of items) expect(item.binary?.data?.fileName).toMatch(/\.annotated\.(jpg|png)$/);
	});

	it('crop and classify (examples/crop-and-classify-objects.json): each crop is its box, classified as the server says', async () => {
		const { run } = await execute(ids.crop);
		const boxes = nodeItems(run!, 'Detect objects').map((item) => item.json as unknown as Detection & { objectIndex: number });
		const expectedBoxes = (server.predict('detect', CAR, {}).detections as Detection[])
			.slice()
			.sort((a, b) => b.confidence - a.confidence)
			.slice(0, 10);
		expect(boxes.map(({ label: l, confidence, x, y, width, height }) => ({ label: l, confidence, x, y, width, height }))).toEqual(expectedBoxes);

		const photo = decodeImage(CAR);
		const photoPixel = (x: number, y: number) => [...photo.data.subarray((y * photo.width + x) * 4, (y * photo.width + x) * 4 + 3)];
		const objects = nodeItems(run!, 'Detect objects');
		const classified = nodeItems(run!, 'Classify crop');
		expect(classified).toHaveLength(expectedBoxes.length);
		const expectedCategories = objects.map((object, index) => {
			const box = expectedBoxes[index];
			expect(object.binary!.image).toMatchObject({ fileName: `car.crop-${index + 1}.jpg`, mimeType: 'image/jpeg' });
			const bytes = readBinary(home, object.binary!.image);
			const crop = decodeImage(bytes);
			// its size: the box grown by a tenth, at least 32 pixels, at most the photo
			const side = (boxSide: number, photoSide: number) => [Math.min(photoSide, Math.max(32, Math.floor(boxSide * 1.1))), Math.min(photoSide, Math.max(32, Math.ceil(boxSide * 1.1)))];
			const [minWidth, maxWidth] = side(box.width, photo.width);
			const [minHeight, maxHeight] = side(box.height, photo.height);
			expect(crop.width).toBeGreaterThanOrEqual(minWidth);
			expect(crop.width).toBeLessThanOrEqual(maxWidth);
			expect(crop.height).toBeGreaterThanOrEqual(minHeight);
			expect(crop.height).toBeLessThanOrEqual(maxHeight);
			// its place: away from the photo's edges (where a crop is moved inside), its middle shows the photo at the box's middle
			// (x, y: the top-left corner, as the reference server measures it)
			const centreX = box.x + box.width / 2;
			const centreY = box.y + box.height / 2;
			const awayFromEdges = centreX - crop.width / 2 >= 1 && centreX + crop.width / 2 <= photo.width - 1 && centreY - crop.height / 2 >= 1 && centreY + crop.height / 2 <= photo.height - 1;
			if (!awayFromEdges) return server.predict('classify', bytes, {}).category;
			const middle = [...crop.data.subarray(((crop.height >> 1) * crop.width + (crop.width >> 1)) * 4, ((crop.height >> 1) * crop.width + (crop.width >> 1)) * 4 + 3)];
			const boxMiddle = photoPixel(Math.round(centreX), Math.round(centreY));
			expect(Math.max(...middle.map((value, channel) => Math.abs(value - boxMiddle[channel])))).toBeLessThan(40);
			return server.predict('classify', bytes, {}).category;
		});
		expect(classified.map((item) => item.json.category)).toEqual(expectedCategories);

		const [message] = nodeItems(run!, 'Compose notification');
		expect(message.json.subject).toBe(`${expectedBoxes.length} object(s) in car.jpg`);
		const lines = classified.map((item, index) => {
			const percent = Math.round((item.json.confidence as number) * 100);
			return `${expectedBoxes[index].label}: ${expectedCategories[index]} (${percent}%)`;
		});
		expect(message.json.text).toBe(lines.join('\n'));
		expect(message.json.crops).toHaveLength(expectedBoxes.length);
	});

	it('a form with three files in one field, posted over HTTP: two image items and the text file listed', async () => {
		const published = await home.cli(['publish:workflow', `--id=${ids.form}`], { allowFailure: true });
		if (published.code !== 0) await home.cli(['update:workflow', `--id=${ids.form}`, '--active=true']);
		const main = await home.start();
		const formUrl = `${main.url}/form/${FORM_PATH}`;
		// n8n activates published workflows in the background after it reports ready
		for (let attempt = 0; (await fetch(formUrl)).status !== 200; attempt++) {
			if (attempt === 60) throw new Error(`the form at ${formUrl} was never registered`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		const body = new FormData();
		body.append('field-0', new Blob([CAR], { type: 'image/jpeg' }), 'car.jpg');
		body.append('field-0', new Blob(['Gate 4, ring twice.'], { type: 'text/plain' }), 'notes.txt');
		body.append('field-0', new Blob([DOG], { type: 'image/jpeg' }), 'dog.jpg');
		const response = await fetch(formUrl, { method: 'POST', body });
		const text = await response.text();
		expect({ status: response.status, text: response.status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
		const items = JSON.parse(text) as Array<Record<string, unknown>>;
		// n8n names the field's three files Photos_0…2; which file gets which number is n8n's own
		// doing and differs between versions, so each item is checked against its own file
		expect(items.map((item) => item.fileName).sort()).toEqual(['car.jpg', 'dog.jpg']);
		const fields = items.map((item) => String(item.field));
		expect([...fields].sort()).toEqual(fields); // the item's field order
		const skippedFiles = items[0].skippedFiles as Array<Record<string, unknown>>;
		expect(skippedFiles).toEqual([
			{ field: expect.stringMatching(/^Photos_[0-2]$/), fileName: 'notes.txt', mimeType: expect.stringMatching(/^text\/plain/) },
		]);
		expect(new Set([...fields, skippedFiles[0].field])).toEqual(new Set(['Photos_0', 'Photos_1', 'Photos_2']));
		for (const item of items) {
			const bytes = item.fileName === 'car.jpg' ? CAR : DOG;
			const predicted = server.predict('detect', bytes, {});
			expect(item).toEqual(
				expect.objectContaining({
					...sizeOf(bytes),
					totalDetections: predicted.detections.length,
					skippedFiles,
				}),
			);
			expect(asServiceSent(item.detections)).toEqual(predicted.detections);
		}
	});

	it('a HEIC photo: refused before any request with how to convert it; converted as advised (Edit Image, GraphicsMagick), it is detected', async () => {
		const before = server.requests.length;
		const run = (await execute(ids.heic)).run!;
		const requests = server.requests.slice(before);
		const [refused] = nodeItems(run, 'Detect as sent').map((item) => item.json);
		expect(refused.error).toMatchObject({ code: 'invalid_image', message: 'The file in binary field "data" is HEIC, which the node does not send' });
		expect((refused.error as { description: string }).description).toContain('Operation: Resize, Width and Height 4096, Resize Option: Only if Larger, and under Options, Format: jpeg');

		const [detected] = nodeItems(run, 'Detect converted').map((item) => item.json);
		expect(detected.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		const sent = Buffer.from((requests[0].body as { image: string }).image, 'base64');
		expect(decodeImage(sent)).toMatchObject({ format: 'jpeg', width: 64, height: 36 });
		expect(detected).toMatchObject({ fileName: 'car-64x36.jpeg', imageWidth: 64, imageHeight: 36, totalDetections: server.predict('detect', sent, {}).detections.length });
	});
});
