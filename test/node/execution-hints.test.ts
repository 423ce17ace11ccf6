import { flatPng, pngClaimingSize, SAMPLE_PDF } from '../harness/images';
import type { InputItem } from '../harness/execute';
import { sha256 } from '../reference-server';
import { CAR, DOG, carItem, classifyParameters, detectParameters, useServer } from './setup';

const grayItem = (width = 64, height = 48): InputItem => ({
	binary: { data: { bytes: flatPng(width, height), fileName: 'gray.png', mimeType: 'image/png' } },
});

const API_KEY = 'ref-hint-check-Zq8vK2mW';

describe('execution hints in the output panel', () => {
	// the colour models: car.jpg is 4 blue and 3 cyan regions at the default threshold
	const { server, run } = useServer({ apiKey: API_KEY, defaultModels: 'synthetic' });

	const serviceLabels = () => (server().predict('detect', CAR, {}) as { detections: Array<{ label: string }> }).detections.map((d) => d.label).sort();

	it('gives no hint on a plain successful run', async () => {
		const { items, hints } = await run(detectParameters(server()), [carItem()]);
		expect(items[0].json.totalDetections).toBe(7);
		expect(hints).toEqual([]);
	});

	it('says nothing was detected, at which Confidence Threshold, and that lowering it may help', async () => {
		const options = { confidence: (itemIndex: number) => (itemIndex === 0 ? 0.99 : undefined) };
		const { items, hints } = await run(detectParameters(server(), { options }), [carItem(), grayItem(), carItem()]);
		expect(items.map((item) => item.json.summary)).toEqual(['nothing detected', 'nothing detected', '4 blue, 3 cyan']);
		expect(hints).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message:
					"Nothing was detected in 2 images (items 0 and 1) at Confidence Threshold 0.99 for item 0 and the model's default Confidence Threshold (the option is not set) for item 1. A lower Confidence Threshold (Options) may find what the model is less sure of.",
			},
		]);
	});

	it('names the first 8 items of a long run and counts the rest', async () => {
		const { hints } = await run(detectParameters(server()), Array.from({ length: 11 }, () => grayItem()));
		expect(hints.map((hint) => hint.message)).toEqual([
			"Nothing was detected in 11 images (items 0, 1, 2, 3, 4, 5, 6, 7 and 3 more) at the model's default Confidence Threshold (the option is not set). A lower Confidence Threshold (Options) may find what the model is less sure of.",
		]);
	});

	it('says so when a classification has no category above the threshold', async () => {
		const { hints } = await run(classifyParameters(server(), { options: { confidence: 0.99 } }), [carItem()]);
		expect(hints.map((hint) => hint.message)).toEqual([
			'Nothing was detected in 1 image (item 0) at Confidence Threshold 0.99. A lower Confidence Threshold (Options) may find what the model is less sure of.',
		]);
	});

	it('counts the objects the label filters and Max Objects left out, once for all items', async () => {
		expect(serviceLabels()).toEqual(['blue', 'blue', 'blue', 'blue', 'cyan', 'cyan', 'cyan']);
		const options = { onlyLabels: (itemIndex: number) => (itemIndex === 0 ? 'blue' : undefined), maxObjects: (itemIndex: number) => (itemIndex === 1 ? 2 : undefined), ignoreLabels: (itemIndex: number) => (itemIndex === 3 ? 'cyan' : undefined) };
		const { items, hints } = await run(detectParameters(server(), { options }), [carItem(), carItem(), carItem(), carItem()]);
		expect(items.map((item) => item.json.totalDetections)).toEqual([4, 2, 7, 4]);
		expect(hints.map((hint) => hint.message)).toEqual([
			'Only These Labels, Ignore These Labels and Max Objects left out 11 of the 21 objects the service found (items 0, 1 and 3): Only These Labels 3, Ignore These Labels 3, Max Objects 5. Counts and summary are of the objects kept; the annotated image still shows every object the service drew.',
		]);
	});

	it('names the one filter that left objects out', async () => {
		const { hints } = await run(detectParameters(server(), { options: { maxObjects: 3 } }), [carItem()]);
		expect(hints.map((hint) => hint.message)).toEqual([
			'Max Objects left out 4 of the 7 objects the service found (item 0). Counts and summary are of the objects kept; the annotated image still shows every object the service drew.',
		]);
	});

	it('counts the objects the zone and size options left out', async () => {
		const { items, hints } = await run(detectParameters(server(), { options: { minObjectSize: 0.99 } }), [carItem()]);
		expect(items[0].json.totalDetections).toBe(0);
		expect(hints.map((hint) => hint.message)).toEqual([
			'The zone and size options left out 7 of the 7 objects the service found (item 0). Counts and summary are of the objects kept; the annotated image still shows every object the service drew.',
		]);
	});

	it('lists the files All Images on the Item skipped, with their fields and items', async () => {
		const mail = (index: number): InputItem => ({
			binary: {
				photo: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' },
				attachment_1: { bytes: SAMPLE_PDF, fileName: `invoice-${index}.pdf`, mimeType: 'application/pdf' },
			},
		});
		const { items, hints } = await run(detectParameters(server(), { imageSource: 'allImages' }), [mail(1), carItem(), mail(2)]);
		expect(items).toHaveLength(3);
		expect(hints.map((hint) => hint.message)).toEqual([
			'All Images on the Item skipped 2 files that are not an image: invoice-1.pdf (field attachment_1, item 0), invoice-2.pdf (field attachment_1, item 2). Each output item of those items lists them in skippedFiles.',
		]);
	});

	it('calls a skipped file that has no name "a file", and lists it with its field and item', async () => {
		const item: InputItem = {
			binary: { photo: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' }, notes: { bytes: Buffer.from('call the garage'), mimeType: 'text/plain' } },
		};
		const { items, hints } = await run(detectParameters(server(), { imageSource: 'allImages' }), [carItem(), item]);
		expect(items[1].json.skippedFiles).toEqual([expect.objectContaining({ field: 'notes', fileName: null })]);
		expect(hints.map((hint) => hint.message)).toEqual([
			'All Images on the Item skipped 1 file that is not an image: a file (field notes, item 1). Each output item of those items lists them in skippedFiles.',
		]);
	});

	it('lists the skipped files in item order, whichever image the service answers first', async () => {
		server().addFault({ match: { imageSha256: sha256(DOG) }, action: { type: 'delay', ms: 300 } });
		const mail = (photo: Buffer, index: number): InputItem => ({
			binary: {
				photo: { bytes: photo, fileName: 'photo.jpg', mimeType: 'image/jpeg' },
				attachment_1: { bytes: SAMPLE_PDF, fileName: `invoice-${index}.pdf`, mimeType: 'application/pdf' },
			},
		});
		const { hints } = await run(detectParameters(server(), { imageSource: 'allImages' }), [mail(DOG, 0), mail(CAR, 1)]);
		expect(hints.map((hint) => hint.message).filter((message) => message.startsWith('All Images'))).toEqual([
			'All Images on the Item skipped 2 files that are not an image: invoice-0.pdf (field attachment_1, item 0), invoice-1.pdf (field attachment_1, item 1). Each output item of those items lists them in skippedFiles.',
		]);
	});

	it('lists 8 skipped files and counts the rest', async () => {
		const pdfs = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`pdf_${index}`, { bytes: SAMPLE_PDF, fileName: `${index}.pdf`, mimeType: 'application/pdf' }]));
		const listed = Array.from({ length: 8 }, (_, index) => `${index}.pdf (field pdf_${index}, item 0)`).join(', ');
		const skippedHint = async (count: number) => {
			const { hints } = await run(detectParameters(server(), { imageSource: 'allImages' }), [{ binary: { ...carItem().binary, ...pdfs(count) } }]);
			return hints.map((hint) => hint.message).find((message) => message.startsWith('All Images'));
		};
		expect(await skippedHint(1)).toBe('All Images on the Item skipped 1 file that is not an image: 0.pdf (field pdf_0, item 0). Each output item of those items lists them in skippedFiles.');
		expect(await skippedHint(8)).toBe(`All Images on the Item skipped 8 files that are not an image: ${listed}. Each output item of those items lists them in skippedFiles.`);
		expect(await skippedHint(9)).toBe(`All Images on the Item skipped 9 files that are not an image: ${listed} and 1 more. Each output item of those items lists them in skippedFiles.`);
	});

	it('suggests resizing a photo over 10 megapixels with Edit Image, naming its size', async () => {
		// The node reads the pixel size from the header; the service's answer is given, so no 10-megapixel image is decoded.
		const large = pngClaimingSize(4000, 2600);
		server().addFault({
			match: { kind: 'detect' },
			times: 1,
			action: { type: 'status', status: 200, body: { detections: [], labelsCount: [], image: null } },
		});
		const { items, hints } = await run(detectParameters(server(), { options: { outputImages: 'none', confidence: 0.2 } }), [
			{ binary: { data: { bytes: large, fileName: 'phone.png', mimeType: 'image/png' } } },
			carItem(),
		]);
		expect(items.map((item) => [item.json.imageWidth, item.json.imageHeight])).toEqual([
			[4000, 2600],
			[676, 380],
		]);
		expect(hints.map((hint) => hint.message)).toContainEqual(
			"One image is over 10 megapixels (phone.png in item 0, 4000 × 2600), which makes the service call slow: the whole file is uploaded (and an annotated picture as large comes back). Resize first with n8n's Edit Image node (Operation Resize, Width and Height 1920, Resize Option Only if Larger).",
		);
	});

	it('lists 8 large photos and counts the rest, with the items nothing was found in', async () => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 200, body: { detections: [], labelsCount: [], image: null } } });
		const photos = (count: number) =>
			Array.from({ length: count }, (_, index): InputItem => ({ binary: { data: { bytes: pngClaimingSize(4000, 3000), fileName: `${index}.png`, mimeType: 'image/png' } } }));
		const messages = async (count: number) => (await run(detectParameters(server(), { options: { outputImages: 'none' } }), photos(count))).hints.map((hint) => hint.message);
		const listed = Array.from({ length: 8 }, (_, index) => `${index}.png in item ${index}, 4000 × 3000`).join('; ');
		const resize = "which makes the service call slow: the whole file is uploaded (and an annotated picture as large comes back). Resize first with n8n's Edit Image node (Operation Resize, Width and Height 1920, Resize Option Only if Larger).";

		const eight = await messages(8);
		expect(eight).toContain(`8 images are over 10 megapixels (${listed}), ${resize}`);
		expect(eight).toContainEqual(expect.stringMatching(/^Nothing was detected in 8 images \(items 0, 1, 2, 3, 4, 5, 6 and 7\) at /));
		expect(await messages(9)).toContain(`9 images are over 10 megapixels (${listed} and 1 more), ${resize}`);
	});

	it('a photo of exactly 10 megapixels gets no hint to resize it', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 200, body: { detections: [], labelsCount: [], image: null } } });
		const { items, hints } = await run(detectParameters(server(), { options: { outputImages: 'none' } }), [
			{ binary: { data: { bytes: pngClaimingSize(4000, 2500), fileName: 'photo.png', mimeType: 'image/png' } } },
		]);
		expect(items[0].json).toMatchObject({ imageWidth: 4000, imageHeight: 2500 });
		expect(hints.map((hint) => hint.message)).not.toContainEqual(expect.stringMatching(/megapixels/));
	});

	it('names both filters when each leaves out as many objects as the other', async () => {
		// car.jpg is 4 blue and 3 cyan objects: Only These Labels leaves out the 3 cyan, Max Objects 3 of the 4 blue
		const { items, hints } = await run(detectParameters(server(), { options: { onlyLabels: 'blue', maxObjects: 1 } }), [carItem()]);
		expect(items[0].json.summary).toBe('1 blue');
		expect(hints.map((hint) => hint.message)).toEqual([
			'Only These Labels and Max Objects left out 6 of the 7 objects the service found (item 0): Only These Labels 3, Max Objects 3. Counts and summary are of the objects kept; the annotated image still shows every object the service drew.',
		]);
	});

	it('names both label filters when Only These Labels and Ignore These Labels each leave out one object', async () => {
		const detections = [
			{ label: 'cat', confidence: 0.9, x: 0, y: 0, width: 50, height: 50 },
			{ label: 'dog', confidence: 0.8, x: 50, y: 0, width: 40, height: 40 },
			{ label: 'bird', confidence: 0.7, x: 0, y: 50, width: 40, height: 40 },
		];
		const answer = { detections, labelsCount: [{ label: 'cat', total: 1 }, { label: 'dog', total: 1 }, { label: 'bird', total: 1 }], image: null };
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 200, body: answer } });
		const options = { outputImages: 'none', onlyLabels: 'cat, dog', ignoreLabels: 'dog' };
		const { items, hints } = await run(detectParameters(server(), { options }), [grayItem(100, 100)]);
		expect(items[0].json.summary).toBe('1 cat');
		expect(hints.map((hint) => hint.message)).toEqual([
			'Only These Labels and Ignore These Labels left out 2 of the 3 objects the service found (item 0): Only These Labels 1, Ignore These Labels 1. Counts and summary are of the objects kept; the annotated image still shows every object the service drew.',
		]);
	});

	it('names the label and size filters when each leaves out one object', async () => {
		const detections = [
			{ label: 'cat', confidence: 0.9, x: 0, y: 0, width: 50, height: 50 },
			{ label: 'dog', confidence: 0.8, x: 50, y: 0, width: 5, height: 5 },
			{ label: 'dog', confidence: 0.7, x: 0, y: 50, width: 40, height: 40 },
		];
		const answer = { detections, labelsCount: [{ label: 'cat', total: 1 }, { label: 'dog', total: 2 }], image: null };
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 200, body: answer } });
		const options = { outputImages: 'none', onlyLabels: 'dog', minObjectSize: 0.01 };
		const { items, hints } = await run(detectParameters(server(), { options }), [grayItem(100, 100)]);
		expect(items[0].json.summary).toBe('1 dog');
		expect(hints.map((hint) => hint.message)).toEqual([
			'Only These Labels and the zone and size options left out 2 of the 3 objects the service found (item 0): Only These Labels 1, the zone and size options 1. Counts and summary are of the objects kept; the annotated image still shows every object the service drew.',
		]);
	});

	it('a context without addExecutionHints or getExecutionCancelSignal gets its items all the same', async () => {
		const contextWithout = ['addExecutionHints', 'getExecutionCancelSignal'] as const;
		const { items, hints } = await run(detectParameters(server(), { options: { confidence: 0.99 } }), [carItem(), grayItem()], { contextWithout: [...contextWithout] });
		expect(items.map((item) => item.json.summary)).toEqual(['nothing detected', 'nothing detected']);
		expect(hints).toEqual([]);
	});

	it('warns that a key sent as a query parameter may end up in proxy logs, without the key', async () => {
		const { items, hints, sent } = await run(detectParameters(server()), [carItem()], { credentials: { sendAs: 'query' } });
		expect(sent[0].url).toContain(API_KEY);
		expect(items[0].json.totalDetections).toBe(7);
		expect(hints).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'The credential sends the API key as a query parameter (Send API Key As), so the key is part of every request URL and may end up in proxy and server logs. Prefer the header unless your network strips it.',
			},
		]);
	});

	it('never puts the key in a hint, whichever hints a run gives', async () => {
		const items: InputItem[] = [
			{ json: { apiKey: API_KEY }, binary: { ...carItem().binary, note: { bytes: SAMPLE_PDF, fileName: 'note.pdf', mimeType: 'application/pdf' } } },
			grayItem(),
		];
		const { hints } = await run(detectParameters(server(), { imageSource: 'allImages', options: { maxObjects: 1 } }), items, {
			credentials: { sendAs: 'query' },
		});
		expect(hints).toHaveLength(4);
		expect(JSON.stringify(hints)).not.toContain(API_KEY);
		expect(JSON.stringify(hints)).not.toContain(API_KEY.slice(-8));
	});
});
