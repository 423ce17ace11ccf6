import { sha256 } from '../reference-server';
import { decodeImage } from '../reference-server/image-codec';
import type { InputItem } from '../harness/execute';
import { FILE_HEAD_BYTES } from '../../nodes/ImageInference/input/imageInput';
import { SAMPLE_PDF, colourScene } from '../harness/images';
import type { ReferenceServer } from '../reference-server';
import { CAR, DOG, carItem, classifyParameters, dogItem, detectParameters, failureOf, pngOf, useServer, failureIn } from './setup';

type Detection = { label: string; confidence: number; x: number; y: number; width: number; height: number };

const PDF = SAMPLE_PDF;
const CAR_PNG = pngOf(CAR);

/** An e-mail-like item: a photo, a PDF and a PNG, as Gmail names attachments. */
/** Two blue blocks, a red and a green one (test/harness/images.ts): several objects of several labels to the colour model. */
const SCENE = colourScene();
const sceneItem = (): InputItem => ({ binary: { data: { bytes: SCENE, fileName: 'scene.png', mimeType: 'image/png' } } });
/** The server's answer for the scene, with what the filter tests rely on checked first. */
function sceneAnswer(server: ReferenceServer) {
	const answer = server.predict('detect', SCENE, {});
	const confidences = answer.detections.map((d) => d.confidence);
	expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
	expect(answer.labelsCount.length).toBeGreaterThanOrEqual(3);
	expect(answer.labelsCount.find(({ label }) => label === 'blue')?.total).toBe(2);
	// the most confident object is not blue: Max Objects after Only These Labels must pick among the blue ones
	expect(answer.detections[0].label).not.toBe('blue');
	return answer;
}

const mailItem = (): InputItem => ({
	json: { subject: 'Delivery' },
	binary: {
		attachment_0: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' },
		attachment_1: { bytes: PDF, fileName: 'invoice.pdf', mimeType: 'application/pdf' },
		attachment_2: { bytes: CAR_PNG, fileName: 'car.png', mimeType: 'image/png' },
	},
});

const sizeOf = (bytes: Buffer) => {
	const { width, height } = decodeImage(bytes);
	return { imageWidth: width, imageHeight: height };
};

type Answer = { detections: Detection[]; labelsCount: Array<{ label: string; total: number }> };
/** What the node reports of an answer no option filtered: the service's detections and its own counts. */
const asAnswered = ({ detections, labelsCount }: Answer) => ({
	detections,
	labelsCount,
	countsByLabel: Object.fromEntries(labelsCount.map(({ label, total }) => [label, total])),
	totalDetections: detections.length,
});

describe('several images per item', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const answered = (bytes: Buffer) => asAnswered(server().predict('detect', bytes, {}) as Answer);
	/** The summary the node gives the same image sent as an item of its own. */
	const summaryAlone = async (bytes: Buffer, fileName: string) =>
		(await run(detectParameters(server()), [{ binary: { data: { bytes, fileName, mimeType: 'image/jpeg' } } }])).items[0].json.summary;

	it('takes the field list as a list an expression gives (e.g. {{ ["attachment_2", "attachment_0"] }})', async () => {
		const { items } = await run(detectParameters(server(), { binaryPropertyName: ['attachment_2', ' attachment_0 '] }), [mailItem()]);
		expect(items.map((item) => item.json.field)).toEqual(['attachment_2', 'attachment_0']);
		expect(server().requests).toHaveLength(2);
	});

	it('takes a comma-separated field list: one item per image, in the list’s order, each paired with its item', async () => {
		const { items, bytes } = await run(detectParameters(server(), { binaryPropertyName: 'attachment_2, attachment_0' }), [mailItem()]);
		expect(items).toHaveLength(2);
		expect(items.map((item) => item.json.field)).toEqual(['attachment_2', 'attachment_0']);
		expect(items.map((item) => item.json.fileName)).toEqual(['car.png', 'dog.jpg']);
		expect(items[0].json).toMatchObject({ ...answered(CAR_PNG), ...sizeOf(CAR_PNG) });
		expect(items[1].json).toMatchObject({ ...answered(DOG), ...sizeOf(DOG) });
		expect(items[0].json.summary).not.toBe(items[1].json.summary);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		// each item carries its own annotated picture, not the e-mail's other files
		expect(Object.keys(items[0].binary ?? {})).toEqual(['data']);
		expect(items[0].binary?.data.fileName).toBe('car.annotated.png');
		expect(bytes(items[0], 'data').equals(Buffer.from(server().predict('detect', CAR_PNG, {}).image!, 'base64'))).toBe(true);
		expect(server().requests).toHaveLength(2);
		// each image's summary is the one it gets sent alone
		const summaries = [await summaryAlone(CAR_PNG, 'car.png'), await summaryAlone(DOG, 'dog.jpg')];
		expect(items.map((item) => item.json.summary)).toEqual(summaries);
	});

	it('“All Images on the Item” sends every image in field order and lists the skipped file', async () => {
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [mailItem(), carItem()]);
		expect(items.map((item) => [item.pairedItem, item.json.field])).toEqual([
			[{ item: 0 }, 'attachment_0'],
			[{ item: 0 }, 'attachment_2'],
			[{ item: 1 }, 'data'],
		]);
		const skipped = [{ field: 'attachment_1', fileName: 'invoice.pdf', mimeType: 'application/pdf' }];
		expect(items[0].json.skippedFiles).toEqual(skipped);
		expect(items[1].json.skippedFiles).toEqual(skipped);
		expect(items[2].json.skippedFiles).toEqual([]);
		expect(items[0].json).toMatchObject(answered(DOG));
		expect(items[1].json).toMatchObject(answered(CAR_PNG));
		expect(server().requests).toHaveLength(3);
	});

	it('classifies every image too, each item carrying its own image in its own field', async () => {
		const { items, bytes } = await run(classifyParameters(server(), { imageSource: 'allImages' }), [mailItem()]);
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ category: server().predict('classify', DOG, {}).category, field: 'attachment_0', ...sizeOf(DOG) });
		expect(items[1].json).toMatchObject({ category: server().predict('classify', CAR_PNG, {}).category, field: 'attachment_2' });
		expect(Object.keys(items[1].binary ?? {})).toEqual(['attachment_2']);
		expect(bytes(items[1], 'attachment_2').equals(CAR_PNG)).toBe(true);
	});

	it('runs the concurrency pool over images: ten images of one item are in flight together, and never more than Concurrency', async () => {
		const binary = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`attachment_${i}`, { bytes: CAR, fileName: `car${i}.jpg` }]));
		// counted by the service as each request arrives; answers are held until that many are open
		// (or 10 s pass), so a slow machine preparing the images cannot make the count come out short
		const mostInFlight = () => Math.max(...server().requests.map((request) => request.openOnArrival));
		server().holdAnswersUntilOpen(10, 10_000);
		await run(detectParameters(server(), { imageSource: 'allImages', options: { concurrency: 10 } }), [{ binary }]);
		expect(server().requests).toHaveLength(10);
		expect(mostInFlight()).toBe(10);
		server().requests.splice(0);
		server().holdAnswersUntilOpen(3, 10_000);
		server().setLatency(150);
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages', options: { concurrency: 3 } }), [{ binary }]);
		expect(items.map((item) => item.json.field)).toEqual(Object.keys(binary));
		expect(mostInFlight()).toBe(3);
	});

	it('with Continue On Fail, a failed image becomes an error item in its place', async () => {
		server().addFault({ match: { imageSha256: sha256(CAR_PNG) }, action: { type: 'status', status: 400, body: 'bad image' } });
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [mailItem(), carItem()], { continueOnFail: true });
		expect(items).toHaveLength(3);
		expect(items[0].json.field).toBe('attachment_0');
		expect(failureIn(items[1])?.message).toMatch(/400/);
		expect(items[2].json.field).toBe('data');
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }]);
	});
});

describe('checking files before any request', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it.each([
		['n8n 2.x (the file’s size on the binary)', false],
		['n8n 1.x (its size in the store’s metadata)', true],
	])(
		'%s: reads only the head of a large file from the binary store to check it, then streams it once into the request body',
		async (_, sizeInMetadataOnly) => {
			const large = pngOf(CAR, { uncompressed: true });
			expect(large.length).toBeGreaterThan(3 * FILE_HEAD_BYTES);
			const { items, reads } = await run(
				detectParameters(server(), { imageSource: 'allImages' }),
				[{ binary: { photo: { bytes: large, fileName: 'car.png', mimeType: 'image/png' }, notes: { bytes: PDF, fileName: 'notes.pdf', mimeType: 'application/pdf' } } }],
				{ sizeInMetadataOnly },
			);
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({ fileName: 'car.png', ...sizeOf(CAR), detections: server().predict('detect', large, {}).detections });
			expect(server().requests.at(-1)?.body).toEqual({ image: large.toString('base64') });
			expect(reads.whole).toBe(0);
			expect(reads.streamedBytes).toBeGreaterThanOrEqual(large.length);
			expect(reads.streamedBytes).toBeLessThanOrEqual(FILE_HEAD_BYTES + PDF.length + large.length);
		},
	);
});

describe("n8n 1.x's default binary mode: files held in memory, with no id to stream by", () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const sentImages = () => server().requests.map((request) => (request.body as { image: string }).image);

	it('sends each image’s exact bytes, skips what is no image, and gives the annotated picture back the same way', async () => {
		const { items, bytes } = await run(
			detectParameters(server(), { imageSource: 'allImages', options: { annotatedImageField: 'annotated' } }),
			[mailItem(), carItem()],
			{ binaryMode: 'default' },
		);
		expect(sentImages()).toEqual([DOG, CAR_PNG, CAR].map((image) => image.toString('base64')));
		expect(items.map((item) => [item.json.field, item.pairedItem])).toEqual([
			['attachment_0', { item: 0 }],
			['attachment_2', { item: 0 }],
			['data', { item: 1 }],
		]);
		expect(items[0].json.skippedFiles).toEqual([{ field: 'attachment_1', fileName: 'invoice.pdf', mimeType: 'application/pdf' }]);
		const annotated = server().predict('detect', CAR, {}).image!;
		expect(items[2].binary?.annotated.id).toBeUndefined();
		expect(bytes(items[2], 'annotated').equals(Buffer.from(annotated, 'base64'))).toBe(true);
	});

	it('a file whose bytes are no image, though its mime type says so, fails in its own slot before its request', async () => {
		const disguised: InputItem = { binary: { data: { bytes: PDF, fileName: 'scan.jpg', mimeType: 'image/jpeg' } } };
		const { items } = await run(detectParameters(server()), [disguised, carItem()], { binaryMode: 'default', continueOnFail: true });
		expect(failureIn(items[0])?.message).toBe('The file in binary field "data" is not an image');
		expect(items[1].json.totalDetections).toBeGreaterThan(0);
		expect(sentImages()).toEqual([CAR.toString('base64')]);
	});
});

describe("n8n's database binary mode: each file read once", () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const detected = (bytes: Buffer) => ({ detections: server().predict('detect', bytes, {}).detections, ...sizeOf(bytes) });

	it('reads each image whole once, for its request; a file its mime type calls no image is not read at all', async () => {
		const { items, reads } = await run(
			detectParameters(server(), { imageSource: 'allImages' }),
			[mailItem(), carItem(), { binary: { data: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } }],
			{ binaryMode: 'database' },
		);
		expect(items.map((item) => [item.json.field, item.pairedItem])).toEqual([
			['attachment_0', { item: 0 }],
			['attachment_2', { item: 0 }],
			['data', { item: 1 }],
			['data', { item: 2 }],
		]);
		expect(items.map((item) => item.json)).toMatchObject([detected(DOG), detected(CAR_PNG), detected(CAR), detected(DOG)]);
		expect(items[0].json.skippedFiles).toEqual([{ field: 'attachment_1', fileName: 'invoice.pdf', mimeType: 'application/pdf' }]);
		expect(server().requests).toHaveLength(4);
		expect(reads).toEqual({ whole: 4, streamedBytes: 0 });
	});

	it('takes the image’s size from that one read when no annotated picture comes back (Classify, Output Images None)', async () => {
		const classified = await run(classifyParameters(server()), [dogItem()], { binaryMode: 'database' });
		const detectedOnly = await run(detectParameters(server(), { options: { outputImages: 'none' } }), [carItem()], { binaryMode: 'database' });
		expect(classified.items[0].json).toMatchObject(sizeOf(DOG));
		expect(detectedOnly.items[0].json).toMatchObject(sizeOf(CAR));
		expect(classified.reads.whole + detectedOnly.reads.whole).toBe(2);
	});

	it('reads the next file while the service works on the current one, one file ahead at most', async () => {
		const one = await run(detectParameters(server(), { options: { concurrency: 1 } }), [carItem(), dogItem(), carItem()], { binaryMode: 'database' });
		// without the read-ahead: read 0, answer, read 1, answer, read 2, answer
		expect(one.events).toEqual(['read 0', 'read 1', 'answer', 'read 2', 'answer', 'answer']);
		expect(one.items.map((item) => item.json)).toMatchObject([detected(CAR), detected(DOG), detected(CAR)]);

		const items = [carItem(), dogItem(), carItem(), dogItem(), carItem()];
		const two = await run(detectParameters(server(), { options: { concurrency: 2 } }), items, { binaryMode: 'database' });
		// the two in flight and one ahead before the first answer; each file read once
		expect(two.events.slice(0, two.events.indexOf('answer'))).toEqual(['read 0', 'read 1', 'read 2']);
		expect(two.reads.whole).toBe(items.length);
		expect(two.items.map((item) => item.json)).toMatchObject(items.map((_, index) => detected(index % 2 ? DOG : CAR)));
	});

	it('reads ahead past a file held in memory (a Code node\'s) to the next file in the store', async () => {
		const inMemory: InputItem = { binary: { data: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg', inMemory: true } } };
		const parameters = detectParameters(server(), { options: { concurrency: 1 } });
		const { events, items } = await run(parameters, [carItem(), inMemory, carItem(), dogItem()], { binaryMode: 'database' });
		// file 1 is checked before any request by its head, decoded from the base64 it holds, and read
		// whole for its own request; file 2 is read while the service works on file 0, file 3 while it works on file 2
		expect(events).toEqual(['read 0', 'read 2', 'answer', 'read 1', 'answer', 'read 3', 'answer', 'answer']);
		expect(items.map((item) => item.json)).toMatchObject([detected(CAR), detected(DOG), detected(CAR), detected(DOG)]);
	});

	it('a file whose bytes are no image, though its mime type says so, fails at its own turn, before its request', async () => {
		const disguised: InputItem = { binary: { data: { bytes: PDF, fileName: 'scan.jpg', mimeType: 'image/jpeg' } } };
		const { items } = await run(detectParameters(server()), [carItem(), disguised, carItem()], { binaryMode: 'database', continueOnFail: true });
		expect(items.map((item) => failureIn(item)?.message ?? item.json.totalDetections)).toEqual([
			detected(CAR).detections.length,
			'The file in binary field "data" is not an image',
			detected(CAR).detections.length,
		]);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(server().requests).toHaveLength(2);
	});

	it('a named file whose mime type is no image is refused before any request', async () => {
		const pdf: InputItem = { binary: { data: { bytes: PDF, fileName: 'invoice.pdf', mimeType: 'application/pdf' } } };
		const error = await failureOf(run(detectParameters(server()), [carItem(), pdf], { binaryMode: 'database' }));
		expect(error).toMatchObject({ message: 'The file in binary field "data" is not an image', itemIndex: 1 });
		expect(server().requests).toHaveLength(0);
	});
});

describe('one item per object', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const carDetections = () => server().predict('detect', CAR, {}).detections as Detection[];

	it('yields each object with its box, index, count and image facts, carrying the original image', async () => {
		const result = await run(detectParameters(server(), { outputItems: 'object', options: { outputImages: 'original' } }), [carItem()]);
		const expected = carDetections();
		expect(expected.length).toBeGreaterThan(0);
		expect(result.items.map((item) => item.json)).toEqual(
			expected.map((detection, objectIndex) => ({
				...detection,
				relativeBox: expect.objectContaining({ x: expect.any(Number) }),
				objectIndex,
				objectCount: expected.length,
				field: 'data',
				fileName: 'car.jpg',
				...sizeOf(CAR),
			})),
		);
		for (const item of result.items) {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(result.bytes(item, 'original').equals(CAR)).toBe(true);
		}
		// no annotated picture is wanted, so the service is not asked to draw one
		expect(server().requests.at(-1)!.body).toEqual({ image: CAR.toString('base64'), annotate: false });
	});

	it('an image whose objects are all filtered out yields nothing, or one item with objectCount 0 when asked', async () => {
		const params = (include?: boolean) =>
			detectParameters(server(), {
				outputItems: 'object',
				options: { onlyLabels: 'no-such-label', ...(include === undefined ? {} : { includeImagesWithoutObjects: include }) },
			});
		const none = await run(params(), [carItem(), carItem()]);
		expect(none.items).toHaveLength(0);
		const kept = await run(params(true), [carItem(), carItem()]);
		expect(kept.items.map((item) => [item.json.objectCount, item.json.field, item.pairedItem])).toEqual([
			[0, 'data', { item: 0 }],
			[0, 'data', { item: 1 }],
		]);
		expect(kept.items[0].binary?.data.fileName).toBe('car.annotated.jpg');
	});

	it('keeps the most confident Max Objects, after the label filter (several objects of several labels)', async () => {
		const answer = sceneAnswer(server());
		const blues = answer.detections.filter((d) => d.label === 'blue');
		const { items } = await run(
			detectParameters(server(), { outputItems: 'object', options: { onlyLabels: 'blue', maxObjects: 1 } }),
			[sceneItem()],
		);
		// the server lists the most confident first (checked in sceneAnswer): the first blue block is the one kept, though a red one is more confident
		expect(items.map(({ json: { label, confidence, x, y, width, height } }) => ({ label, confidence, x, y, width, height }))).toEqual([blues[0]]);
		expect(items[0].json.objectCount).toBe(1);
	});
});

describe('label filters, output images, size and summary (one item per image)', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const carDetections = () => server().predict('detect', CAR, {}).detections as Detection[];

	describe('on a picture the model reads as several objects of several labels', () => {

		it.each([
			['Only These Labels as text', { onlyLabels: ' blue ' }],
			['Only These Labels as a list', { onlyLabels: ['blue'] }],
		])('%s: only the blue objects are kept, counted and summed up', async (_, options) => {
			const answer = sceneAnswer(server());
			const { items } = await run(detectParameters(server(), { options }), [sceneItem()]);
			expect(items[0].json).toMatchObject({
				detections: answer.detections.filter((d) => d.label === 'blue'),
				labelsCount: [{ label: 'blue', total: 2 }],
				countsByLabel: { blue: 2 },
				totalDetections: 2,
				summary: '2 blue',
			});
		});

		it('Ignore These Labels: every label but blue is kept, with the server’s counts', async () => {
			const answer = sceneAnswer(server());
			const { items } = await run(detectParameters(server(), { options: { ignoreLabels: 'blue,nothing-like-it' } }), [sceneItem()]);
			const others = answer.labelsCount.filter(({ label }) => label !== 'blue');
			expect(items[0].json).toMatchObject({
				detections: answer.detections.filter((d) => d.label !== 'blue'),
				labelsCount: others,
				totalDetections: answer.detections.length - 2,
			});
		});

		it('Max Objects 2: the two most confident, whatever their label', async () => {
			const answer = sceneAnswer(server());
			const { items } = await run(detectParameters(server(), { options: { maxObjects: 2 } }), [sceneItem()]);
			expect(items[0].json).toMatchObject({ detections: answer.detections.slice(0, 2), totalDetections: 2 });
		});
	});

	it('a filter that removes everything is zero objects, not an error', async () => {
		const labels = [...new Set(carDetections().map((d) => d.label))].join(',');
		const { items } = await run(detectParameters(server(), { options: { ignoreLabels: labels } }), [carItem()]);
		expect(items[0].json).toMatchObject({ detections: [], labelsCount: [], countsByLabel: {}, totalDetections: 0, summary: 'nothing detected' });
	});

	it('Output Images “Both” puts each picture in its named field; “None” adds none and asks for no drawing', async () => {
		const both = await run(
			detectParameters(server(), { imageSource: 'allImages', options: { outputImages: 'both', annotatedImageField: 'boxes', originalImageField: 'photo' } }),
			[carItem()],
		);
		expect(Object.keys(both.items[0].binary ?? {}).sort()).toEqual(['boxes', 'photo']);
		expect(both.bytes(both.items[0], 'photo').equals(CAR)).toBe(true);
		expect(both.bytes(both.items[0], 'boxes').equals(Buffer.from(server().predict('detect', CAR, {}).image!, 'base64'))).toBe(true);

		const none = await run(detectParameters(server(), { imageSource: 'allImages', options: { outputImages: 'none' } }), [carItem()]);
		expect(none.items[0].binary).toBeUndefined();
		expect(none.items[0].json.totalDetections).toBe(carDetections().length);
		expect((server().requests.at(-1)!.body as { annotate?: boolean }).annotate).toBe(false);
	});

	it('Annotate Image on with Output Images “Original” or “None”: the service draws, but the picture is not output', async () => {
		const original = await run(detectParameters(server(), { imageSource: 'allImages', options: { outputImages: 'original', annotate: true } }), [carItem()]);
		expect((server().requests.at(-1)!.body as { annotate?: boolean }).annotate).toBe(true);
		expect(Object.keys(original.items[0].binary ?? {})).toEqual(['original']);
		expect(original.items[0].json.warnings).toBeUndefined();

		const url = server().hostImage(CAR, 'image/jpeg');
		const none = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url, options: { outputImages: 'none', annotate: true } }), [{ json: {} }]);
		expect(none.items[0].binary).toBeUndefined();
	});

	it('Original from base64 is the decoded image', async () => {
		const { items, bytes } = await run(
			detectParameters(server(), { imageSource: 'base64', imageBase64: CAR.toString('base64'), options: { outputImages: 'original' } }),
			[{ json: {} }],
		);
		expect(bytes(items[0], 'original').equals(CAR)).toBe(true);
		expect(items[0].binary?.original.mimeType).toBe('image/jpeg');
		expect(items[0].binary?.original.fileName).toBe('image.jpg');
		expect(items[0].json).toMatchObject(sizeOf(CAR));
	});

	it('for an image URL, the size comes from the returned annotated picture', async () => {
		const url = server().hostImage(CAR, 'image/jpeg');
		const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url }), [{ json: {} }]);
		expect(items[0].json).toMatchObject(sizeOf(Buffer.from(server().predict('detect', CAR, {}).image!, 'base64')));
	});
});

describe('the returned annotated picture, read tolerantly', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('accepts a data:image/…;base64, prefix', async () => {
		const result = server().predict('detect', CAR, {});
		server().addFault({ action: { type: 'status', status: 200, body: { ...result, image: `data:image/jpeg;base64,${result.image}` } } });
		const { items, bytes } = await run(detectParameters(server()), [carItem()]);
		expect(bytes(items[0], 'data').equals(Buffer.from(result.image!, 'base64'))).toBe(true);
		expect(items[0].json.warnings).toBeUndefined();
	});

	it('keeps detections and counts when the picture cannot be read, and says why', async () => {
		server().addFault({ action: { type: 'bad-annotated-image' } });
		const { items, bytes } = await run(detectParameters(server()), [carItem()]);
		const expected = server().predict('detect', CAR, {});
		expect(items[0].json).toMatchObject(asAnswered(expected as Answer));
		expect(items[0].json.warnings).toEqual([expect.stringMatching(/annotated image that is not valid base64; the item has no annotated image/)]);
		// no annotated file: the input's own file is still there, untouched
		expect(bytes(items[0], 'data').equals(CAR)).toBe(true);
	});

	it('an empty annotated picture is no picture, and no warning', async () => {
		const result = server().predict('detect', CAR, {});
		server().addFault({ action: { type: 'status', status: 200, body: { ...result, image: '' } } });
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [carItem()]);
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.warnings).toBeUndefined();
		expect(items[0].json.totalDetections).toBe(result.detections.length);
	});

	it('a returned file that is not an image is a warning too', async () => {
		const result = server().predict('detect', CAR, {});
		server().addFault({ action: { type: 'status', status: 200, body: { ...result, image: Buffer.from('hello, not a picture').toString('base64') } } });
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [carItem()]);
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.warnings).toEqual([expect.stringMatching(/not a recognisable image file/)]);
		expect(items[0].json.totalDetections).toBe(result.detections.length);
	});
});

describe('bad input for several images and the new options, refused before any request', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it.each([
		['a field list naming a missing field', { binaryPropertyName: 'attachment_0, attachment_9' }, /No binary field "attachment_9" on this item/, /"attachment_0", "attachment_1", "attachment_2"/],
		['an empty field list', { binaryPropertyName: ' , ' }, /Input Binary Field is empty/, undefined],
		['a named field holding a PDF', { binaryPropertyName: 'attachment_0,attachment_1' }, /binary field "attachment_1" is not an image/, /All Images on the Item/],
		['Max Objects -1 by expression', { options: { maxObjects: -1 } }, /Max Objects must be a whole number from 1 to 10000, got -1/, undefined],
		['Max Objects 2.5 by expression', { options: { maxObjects: 2.5 } }, /Max Objects must be a whole number from 1 to 10000, got 2.5/, undefined],
		['an empty Only These Labels', { options: { onlyLabels: ' , ' } }, /Only These Labels is empty/, /remove the option/],
		['the same field for both pictures', { options: { outputImages: 'both', originalImageField: 'data' } }, /cannot both go into field "data"/, /^Give "Put Annotated Image in Field" and "Put Original Image in Field" different names\.$/],
		['an empty field for the original', { options: { outputImages: 'both', originalImageField: ' ' } }, /^Put Original Image in Field is empty$/, undefined],
		['an unknown Output Images', { options: { outputImages: 'thumbnail' } }, /^Output Images must be one of annotated, original, both, none, got "thumbnail"$/, /^Choose one in the list, or make the expression that sets "Output Images" give one of them\.$/],
		// Output Items takes no expression (noDataExpression): only a hand-edited workflow sets it so, for every item
		['Output Items a hand-edited workflow made a list', { outputItems: ['object'] }, /^Output Items must be one of image, object, got \["object"\]$/, /"Output Items"/, 0],
	] as const)('%s', async (_, bad, message, description, itemIndex: number = 1) => {
		const defaults: Record<string, unknown> = detectParameters(server(), { binaryPropertyName: 'attachment_0' });
		const overrides = bad as Record<string, unknown>;
		// for item 1 only, each by an expression, as n8n sets a parameter or an option per item
		const forItem1 = (value: unknown, otherwise: unknown) => (index: number) => (index === 1 ? value : otherwise);
		const parameters = Object.fromEntries(
			Object.entries({ ...defaults, ...overrides }).map(([key, value]) => {
				if (!(key in overrides)) return [key, value];
				if (key === 'options') return [key, Object.fromEntries(Object.entries(value as object).map(([name, option]) => [name, forItem1(option, undefined)]))];
				return [key, itemIndex === 1 ? forItem1(value, defaults[key]) : value];
			}),
		);
		const failure = await failureOf(run(parameters, [mailItem(), mailItem()]));
		expect(failure.message).toMatch(message);
		if (description) expect(failure.description).toMatch(description);
		expect(failure.itemIndex).toBe(itemIndex);
		expect(server().requests).toHaveLength(0);
	});

	it('Original for an image URL', async () => {
		const parameters = detectParameters(server(), {
			imageSource: 'url',
			imageUrl: 'https://example.com/a.jpg',
			options: { outputImages: (index: number) => (index === 1 ? 'original' : undefined) },
		});
		const failure = await failureOf(run(parameters, [{}, {}]));
		expect(failure.message).toMatch(/an image URL does not give it/);
		expect(failure.description).toMatch(/HTTP Request/);
		expect(failure.itemIndex).toBe(1);
		expect(server().requests).toHaveLength(0);
	});

	it("in n8n's database binary mode, a file with no name declared as text: named by its field and type, and not read", async () => {
		const item: InputItem = { binary: { notes: { bytes: Buffer.from('call the garage'), mimeType: 'text/plain' } } };
		const { items, reads } = await run(detectParameters(server(), { imageSource: 'allImages' }), [item], { continueOnFail: true, binaryMode: 'database' });
		expect(failureIn(items[0])?.message).toBe('No image on this item');
		expect(failureIn(items[0])?.description).toBe('Of the item\'s binary fields, "notes" (text/plain) is not JPEG, PNG, GIF, WebP, BMP or TIFF.');
		expect(reads).toEqual({ whole: 0, streamedBytes: 0 });
	});

	it('an item with no image at all names the files it does have', async () => {
		const item: InputItem = { binary: { attachment_0: { bytes: PDF, fileName: 'invoice.pdf', mimeType: 'application/pdf' } } };
		const failure = await failureOf(run(detectParameters(server(), { imageSource: 'allImages' }), [carItem(), item]));
		expect(failure).toMatchObject({ message: 'No image on this item', itemIndex: 1 });
		expect(failure.description).toMatch(/"attachment_0" \(invoice\.pdf, application\/pdf\)/);
		expect(server().requests).toHaveLength(0);

		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [{ json: {} }, carItem()], { continueOnFail: true });
		expect(failureIn(items[0])?.message).toBe('No image on this item');
		expect(failureIn(items[0])?.description).toMatch(/no binary data/);
		expect(items[1].json.totalDetections).toBeGreaterThan(0);
	});
});
