import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import { labelColor } from '../../nodes/ImageInference/picture/draw/palette';
import { ZONE_COLOR } from '../../nodes/ImageInference/picture/draw/palette';
import type { InputItem } from '../harness/execute';
import { withExifOrientation } from '../harness/images';
import { channelDistance as distance, framedIn, pixelsOf } from '../harness/pictureChecks';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { RED_BLOCK, TEXTURED_SCENE, detailIn } from '../harness/texturedScene';
import { sha256 } from '../reference-server/faults';
import { detectParameters, failureOf, useServer } from './setup';

const SCENE = TEXTURED_SCENE;
const redBlockDetail = (picture: { pixel(x: number, y: number): number[] }) => detailIn(picture);
const sceneItem = (bytes = SCENE, fileName = 'scene.png'): InputItem => ({ binary: { data: { bytes, fileName, mimeType: 'image/png' } } });
const GREY = [128, 128, 128];

type Box = { label: string; x: number; y: number; width: number; height: number };

describe('the annotated picture drawn by the node', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const drawnByNode = (options: Record<string, unknown> = {}) => detectParameters(server(), { options: { annotatedBy: 'node', ...options } });

	const pictureOf = (item: INodeExecutionData, bytes: (item: INodeExecutionData, field: string) => Buffer) => pixelsOf(bytes(item, 'data'));

	it('frames only the kept objects, each in its label’s colour, and asks the service for no picture', async () => {
		const answer = server().predict('detect', SCENE, {});
		const boxes = answer.detections as Box[];
		expect(boxes.map((box) => box.label).sort()).toEqual(['blue', 'blue', 'green', 'red']);
		const { items, bytes, hints } = await run(drawnByNode({ onlyLabels: 'blue' }), [sceneItem()]);
		expect((server().requests[0].body as { annotate?: boolean }).annotate).toBe(false);
		const file = items[0].binary?.data;
		expect(file).toMatchObject({ mimeType: 'image/jpeg', fileName: 'scene.annotated.jpg' });
		const picture = pictureOf(items[0], bytes);
		expect([picture.width, picture.height]).toEqual([480, 320]);
		const plain = pixelsOf(SCENE);
		for (const box of boxes) expect([box.label, framedIn(picture, plain, box, labelColor(box.label))]).toEqual([box.label, box.label === 'blue']);
		expect(items[0].json.warnings).toBeUndefined();
		expect(hints.map((hint) => hint.message)).toContain(
			'Only These Labels left out 2 of the 4 objects the service found (item 0). Counts, summary and the annotated image (drawn by the node) are of the objects kept.',
		);
	});

	it('keeps the picture within Max Side, at the JPEG quality asked', async () => {
		const small = await run(drawnByNode({ maxSide: 240, jpegQuality: 95 }), [sceneItem()]);
		const poor = await run(drawnByNode({ maxSide: 240, jpegQuality: 10 }), [sceneItem()]);
		const picture = pictureOf(small.items[0], small.bytes);
		expect([picture.width, picture.height]).toEqual([240, 160]);
		expect(poor.bytes(poor.items[0], 'data').length).toBeLessThan(small.bytes(small.items[0], 'data').length / 2);
	});

	it('outlines the zones in white when asked, and not otherwise', async () => {
		// a zone across the middle: its top edge at y = 160
		const zones = { zones: { zone: [{ name: 'middle', points: '0.1,0.5 0.9,0.5 0.9,0.9 0.1,0.9' }] } };
		const shown = await run(drawnByNode(zones), [sceneItem()]);
		const hidden = await run(drawnByNode({ ...zones, showZones: false }), [sceneItem()]);
		expect(distance(pictureOf(shown.items[0], shown.bytes).pixel(200, 160), ZONE_COLOR)).toBeLessThan(30);
		expect(distance(pictureOf(hidden.items[0], hidden.bytes).pixel(200, 160), GREY)).toBeLessThan(12);
	});

	it('refuses, before any request, to draw an image URL, and Max Side or JPEG Quality out of bounds, naming the item', async () => {
		const url = await failureOf(run(detectParameters(server(), { imageSource: 'url', imageUrl: `${server().url}/scene.png`, options: { annotatedBy: 'node' } }), [{ json: {} }]));
		expect(url.message).toBe('The node cannot draw the annotated picture of an image URL: it never has the image’s file');
		const side = await failureOf(run(drawnByNode({ maxSide: 63 }), [sceneItem()]));
		expect(side.message).toMatch(/^Max Side \(Pixels\) .*64.*10000/);
		const quality = await failureOf(run(drawnByNode({ jpegQuality: 0 }), [sceneItem()]));
		expect(quality.message).toMatch(/^JPEG Quality .*1.*100/);
		expect(server().requests).toHaveLength(0);
	});

	it('says why it cannot draw on a file, carrying no picture or the service’s, as chosen', async () => {
		const cmyk = readFileSync(join(__dirname, '..', 'fixtures', 'car-338x190-cmyk.jpg'));
		const item = sceneItem(cmyk, 'cmyk.jpg');
		const none = await run(drawnByNode(), [item]);
		// no annotated picture: the item's own file goes on in its field, as it came
		expect(none.items[0].binary?.data).toMatchObject({ fileName: 'cmyk.jpg' });
		expect(none.items[0].json.warnings).toEqual(['The node could not draw the annotated picture: it is a CMYK JPEG; the item carries no annotated image.']);
		expect((server().requests[0].body as { annotate?: boolean }).annotate).toBe(false);
		const service = await run(drawnByNode({ whenNodeCannotDraw: 'service' }), [item]);
		expect((server().requests[1].body as { annotate?: boolean }).annotate).toBe(true);
		expect(service.items[0].binary?.data).toMatchObject({ fileName: 'cmyk.annotated.jpg' });
		expect(service.bytes(service.items[0], 'data').equals(Buffer.from(server().predict('detect', cmyk, {}).image!, 'base64'))).toBe(true);
		expect(service.items[0].json.warnings).toEqual(['The node could not draw the annotated picture: it is a CMYK JPEG; the item carries the service’s picture.']);
		// the service's picture shows every box: the hint does not say the picture is of the objects kept
		const filtered = await run(drawnByNode({ whenNodeCannotDraw: 'service', minConfidenceByLabel: '*: 0.99' }), [item]);
		expect(filtered.hints.map((hint) => hint.message)).toContainEqual(expect.stringMatching(/the annotated image still shows every object the service drew\.$/));
	});

	it('drops a picture the service sends unasked (annotate false): none goes on in its place, blurred or not', async () => {
		const cmyk = readFileSync(join(__dirname, '..', 'fixtures', 'car-338x190-cmyk.jpg'));
		const answer = server().predict('detect', cmyk, { annotate: true } as never);
		expect(typeof answer.image).toBe('string');
		server().addFault({ match: { kind: 'detect', imageSha256: sha256(cmyk) }, action: { type: 'status', status: 200, body: answer } });
		for (const options of [{ annotatedImageField: 'annotated' }, { annotatedImageField: 'annotated', hideLabels: 'car' }]) {
			const { items } = await run(drawnByNode(options), [sceneItem(cmyk, 'cmyk.jpg')]);
			expect(items[0].binary?.annotated).toBeUndefined();
			expect(items[0].json.warnings).toContain('The node could not draw the annotated picture: it is a CMYK JPEG; the item carries no annotated image.');
		}
		expect(server().requests.map((request) => (request.body as { annotate?: boolean }).annotate)).toEqual([false, false]);
	});

	describe('Blur These Labels', () => {
		const sceneDetail = redBlockDetail(pixelsOf(SCENE));
		const withOriginal = (options: Record<string, unknown>) => drawnByNode({ outputImages: 'both', annotatedImageField: 'annotated', ...options });

		it('blurs the label’s boxes in the node’s picture and in the original, which goes on as a JPEG; the item’s own image is not passed on', async () => {
			// unblurred, the node's JPEG keeps most of the block's detail
			const plain = await run(withOriginal({}), [sceneItem()]);
			expect(redBlockDetail(pixelsOf(plain.bytes(plain.items[0], 'annotated')))).toBeGreaterThan(sceneDetail * 0.3);
			const { items, bytes } = await run(withOriginal({ hideLabels: 'red' }), [sceneItem()]);
			expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['annotated', 'original']);
			expect(items[0].binary?.original).toMatchObject({ fileName: 'scene.blurred.jpg', mimeType: 'image/jpeg' });
			for (const field of ['annotated', 'original']) {
				const picture = pixelsOf(bytes(items[0], field));
				// at least 90 % of the detail gone
				expect([field, redBlockDetail(picture) < sceneDetail * 0.1]).toEqual([field, true]);
			}
			// a blue block is not blurred: its corner keeps its colour in the original
			expect(distance(pixelsOf(bytes(items[0], 'original')).pixel(22, 22), [50, 90, 240])).toBeLessThan(15);
			expect(items[0].json.warnings).toBeUndefined();
		});

		it('passes the unblurred original on only when asked by name', async () => {
			const { items, bytes } = await run(withOriginal({ hideLabels: 'red', passUnblurredOriginal: true }), [sceneItem()]);
			expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['annotated', 'data', 'original']);
			expect(bytes(items[0], 'original').equals(SCENE)).toBe(true);
			expect(redBlockDetail(pixelsOf(bytes(items[0], 'annotated')))).toBeLessThan(sceneDetail * 0.1);
		});

		it('never falls back on the service’s picture, and says why a picture is missing', async () => {
			const cmyk = readFileSync(join(__dirname, '..', 'fixtures', 'car-338x190-cmyk.jpg'));
			const { items } = await run(withOriginal({ hideLabels: 'car', whenNodeCannotDraw: 'service' }), [sceneItem(cmyk, 'cmyk.jpg')]);
			expect((server().requests[0].body as { annotate?: boolean }).annotate).toBe(false);
			expect(items[0].binary).toBeUndefined();
			expect(items[0].json.warnings).toEqual([
				'The node could not draw the annotated picture: it is a CMYK JPEG; the item carries no annotated image.',
				'The node could not blur the original image: it is a CMYK JPEG; the item carries no original image.',
			]);
		});

		it('passes on no image file of the item unblurred, whatever type it says it is; a file of another kind goes on', async () => {
			const file = (bytes: Buffer, mimeType: string) => ({ bytes, fileName: 'file', mimeType });
			const item: InputItem = {
				binary: {
					data: file(SCENE, 'application/octet-stream'),
					upper: file(SCENE, 'Image/PNG'),
					untyped: file(SCENE, ''),
					notes: file(Buffer.from('%PDF-1.4 notes'), 'application/pdf'),
				},
			};
			const { items } = await run(drawnByNode({ hideLabels: 'red', annotatedImageField: 'annotated' }), [item]);
			expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['annotated', 'notes']);
		});

		it('a failed item under either Continue setting carries none of its pictures unblurred; a file of another kind goes on', async () => {
			const pdf = { bytes: Buffer.from('%PDF-1.4'), fileName: 'note.pdf', mimeType: 'application/pdf' };
			const item: InputItem = { json: { photo: 'scene' }, binary: { ...sceneItem().binary, note: pdf } };
			server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 400, body: { detail: 'bad image' } } });
			for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
				const blurred = await run(drawnByNode({ hideLabels: 'red', retries: 0 }), [item], { onError });
				const failed = onError === 'continueErrorOutput' ? blurred.errorItems[0] : blurred.items[0];
				expect([onError, failed.json.error !== undefined, Object.keys(failed.binary ?? {})]).toEqual([onError, true, ['note']]);
			}
			// without Blur These Labels, or with the unblurred original asked for by name, the photo that failed goes on
			const plain = await run(drawnByNode({ retries: 0 }), [item], { onError: 'continueRegularOutput' });
			expect(Object.keys(plain.items[0].binary ?? {}).sort()).toEqual(['data', 'note']);
			const asked = await run(drawnByNode({ hideLabels: 'red', passUnblurredOriginal: true, retries: 0 }), [item], { onError: 'continueRegularOutput' });
			expect(Object.keys(asked.items[0].binary ?? {}).sort()).toEqual(['data', 'note']);
		});

		it('matches the labels whatever their case and spaces, so none slips through unblurred', async () => {
			const { items, bytes } = await run(drawnByNode({ hideLabels: ' RED ' }), [sceneItem()]);
			expect(redBlockDetail(pixelsOf(bytes(items[0], 'data')))).toBeLessThan(sceneDetail * 0.1);
		});

		it('blurs the original with no annotated picture wanted, the service drawing none', async () => {
			const { items, bytes } = await run(detectParameters(server(), { options: { outputImages: 'original', hideLabels: 'red' } }), [sceneItem()]);
			expect((server().requests[0].body as { annotate?: boolean }).annotate).toBe(false);
			expect(Object.keys(items[0].binary ?? {})).toEqual(['original']);
			expect(redBlockDetail(pixelsOf(bytes(items[0], 'original')))).toBeLessThan(sceneDetail * 0.1);
		});

		it('says the blurred original of a damaged file is of as much of it as could be read', async () => {
			const jpeg = encodeImage(decodeImage(SCENE), 'jpeg');
			const cut = jpeg.subarray(0, Math.round(jpeg.length * 0.7));
			const red = { label: 'red', confidence: 0.9, x: 260, y: 30, width: 70, height: 60 };
			server().addFault({ match: { kind: 'detect', imageSha256: sha256(cut) }, action: { type: 'status', status: 200, body: { detections: [red], labelsCount: [{ label: 'red', total: 1 }], image: null } } });
			const { items } = await run(withOriginal({ hideLabels: 'red' }), [sceneItem(cut, 'cut.jpg')]);
			expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['annotated', 'original']);
			expect(items[0].json.warnings).toEqual([
				'The image’s file is damaged: the node drew on as much of it as could be decoded (the rest is grey).',
				'The image’s file is damaged: the blurred original is of as much of it as could be decoded (the rest is grey).',
			]);
		});

		it('an expression that gives no label turns blurring off, and each item says so', async () => {
			for (const hideLabels of ['={{ "" }}', '={{ $json.blurLabels }}']) {
				const { items, bytes } = await run(withOriginal({ hideLabels }), [{ ...sceneItem(), json: { blurLabels: '' } }]);
				expect([hideLabels, items[0].json.warnings]).toEqual([hideLabels, ['Blur These Labels’ expression gave no label: nothing is blurred in this item’s pictures.']]);
				// as without the option: the original as it came, the picture unblurred
				expect(bytes(items[0], 'original').equals(SCENE)).toBe(true);
				expect(redBlockDetail(pixelsOf(bytes(items[0], 'annotated')))).toBeGreaterThan(sceneDetail * 0.3);
			}
		});

		it('is refused before any request when empty, or with the service drawing', async () => {
			// an option added and left empty, or an expression that gives nothing, does not turn blurring off unsaid
			for (const hideLabels of [' , ', '', null, []]) {
				const empty = await failureOf(run(withOriginal({ hideLabels }), [sceneItem()]));
				expect([hideLabels, empty.message]).toEqual([hideLabels, 'Blur These Labels is empty']);
			}
			const byService = await failureOf(run(detectParameters(server(), { options: { hideLabels: 'person' } }), [sceneItem()]));
			expect(byService.message).toBe('Blur These Labels needs Annotated Image Drawn By: Node');
			expect(server().requests).toHaveLength(0);
		});
	});

	describe('Crop Each Object', () => {
		const perObject = (options: Record<string, unknown>) =>
			detectParameters(server(), { outputItems: 'object', options: { outputImages: 'none', cropObjects: true, ...options } });

		it('gives each object’s item its crop, the box grown by the padding, from the picture itself', async () => {
			const boxes = server().predict('detect', SCENE, {}).detections as Box[];
			const { items, bytes } = await run(perObject({}), [sceneItem()]);
			expect(items.map((item) => item.json.label)).toEqual(boxes.map((box) => box.label));
			const scene = pixelsOf(SCENE);
			for (const [index, item] of items.entries()) {
				const box = boxes[index];
				expect(item.binary?.crop).toMatchObject({ fileName: `scene.crop-${index + 1}.jpg`, mimeType: 'image/jpeg' });
				const crop = pixelsOf(bytes(item, 'crop'));
				// a tenth larger in all: 160 × 120 gives 176 × 132
				expect([crop.width, crop.height]).toEqual([Math.round(box.width * 1.1), Math.round(box.height * 1.1)]);
				// its middle is the box's middle
				const middle = crop.pixel(crop.width >> 1, crop.height >> 1);
				expect(distance(middle, scene.pixel(Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)))).toBeLessThan(20);
			}
			// beside the item's own file, passed on as Detect passes it on
			expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['crop', 'data']);
		});

		it('makes small boxes’ crops at least Crop Min Side, and takes the padding asked', async () => {
			const boxes = server().predict('detect', SCENE, {}).detections as Box[];
			const { items, bytes } = await run(perObject({ cropPadding: 0, cropMinSide: 100 }), [sceneItem()]);
			const sizes = items.map((item) => {
				const crop = pixelsOf(bytes(item, 'crop'));
				return [crop.width, crop.height];
			});
			expect(sizes).toEqual(boxes.map((box) => [Math.max(100, box.width), Math.max(100, box.height)]));
		});

		it('hides Blur These Labels’ boxes in the crops', async () => {
			const { items, bytes } = await run(perObject({ annotatedBy: 'node', hideLabels: 'red' }), [sceneItem()]);
			const red = items.find((item) => item.json.label === 'red')!;
			const crop = pixelsOf(bytes(red, 'crop'));
			// the red block's crop (77 × 66 around its middle, 295, 60) starts at (257, 27): the block from (3, 3)
			const inBlock = { pixel: (x: number, y: number) => crop.pixel(x - RED_BLOCK.left + 3, y - RED_BLOCK.top + 3) };
			expect(redBlockDetail(inBlock)).toBeLessThan(redBlockDetail(pixelsOf(SCENE)) * 0.1);
		});

		it('says on every object’s item why a file cannot be cropped', async () => {
			const cmyk = readFileSync(join(__dirname, '..', 'fixtures', 'car-338x190-cmyk.jpg'));
			const { items } = await run(perObject({}), [sceneItem(cmyk, 'cmyk.jpg')]);
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) {
				expect(item.binary?.crop).toBeUndefined();
				expect(item.json.warnings).toEqual(['The node could not crop the objects: it is a CMYK JPEG; the items carry no crops.']);
			}
		});

		it('is refused before any request for an image URL, with a padding outside 0–1, and into the annotated or original image’s field', async () => {
			const url = await failureOf(
				run(detectParameters(server(), { imageSource: 'url', imageUrl: `${server().url}/scene.png`, outputItems: 'object', options: { cropObjects: true } }), [{ json: {} }]),
			);
			expect(url.message).toBe('The node cannot crop the objects of an image URL: it never has the image’s file');
			const padding = await failureOf(run(perObject({ cropPadding: 1.5 }), [sceneItem()]));
			expect(padding.message).toMatch(/^Crop Padding /);
			const onAnnotated = await failureOf(run(perObject({ cropField: 'annotated', outputImages: 'annotated', annotatedImageField: 'annotated' }), [sceneItem()]));
			expect([onAnnotated.message, onAnnotated.description]).toEqual(['The crop and the annotated image cannot both go into field "annotated"', 'Give "Put Crop in Field" another name than "Put Annotated Image in Field".']);
			const onOriginal = await failureOf(run(perObject({ cropField: 'original', outputImages: 'original' }), [sceneItem()]));
			expect(onOriginal.message).toBe('The crop and the original image cannot both go into field "original"');
			expect(server().requests).toHaveLength(0);
		});
	});
});

describe('Blur These Labels on a photo stored turned, drawn by the node', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	// stored 480 × 320, shown turned a quarter clockwise (EXIF 6): 320 × 480 as people see it
	const sideways = withExifOrientation(encodeImage(decodeImage(SCENE), 'jpeg'), 6);
	const item: InputItem = { binary: { data: { bytes: sideways, fileName: 'IMG_1.JPG', mimeType: 'image/jpeg' } } };
	const seenBlock = { left: 320 - RED_BLOCK.bottom, top: RED_BLOCK.left, right: 320 - RED_BLOCK.top, bottom: RED_BLOCK.right };
	const unblurred = pixelsOf(encodeImage(decodeImage(SCENE), 'jpeg'));
	const seenDetail = detailIn({ pixel: (x: number, y: number) => unblurred.pixel(y, 319 - x) }, seenBlock);
	const parameters = () => detectParameters(server(), { options: { annotatedBy: 'node', outputImages: 'both', annotatedImageField: 'annotated', hideLabels: 'red' } });

	// the service is asked for no picture, the one thing that would tell which way round it read the photo
	it.each([
		['on the stored pixels (the reference server, as Pillow reads a file)', undefined],
		['on the photo turned upright', { x: seenBlock.left, y: seenBlock.top, width: 60, height: 70 }],
	])('hides the label where people see it, whether the service detected %s, and says so', async (_how, uprightBox) => {
		if (uprightBox) {
			const answer = { detections: [{ label: 'red', confidence: 0.95, ...uprightBox }], labelsCount: [{ label: 'red', total: 1 }], image: null };
			server().addFault({ match: { kind: 'detect', imageSha256: sha256(sideways) }, action: { type: 'status', status: 200, body: answer } });
		}
		const { items, bytes } = await run(parameters(), [item]);
		expect((server().requests[0].body as { annotate?: boolean }).annotate).toBe(false);
		for (const field of ['annotated', 'original']) {
			const picture = pixelsOf(bytes(items[0], field));
			expect([field, picture.width, picture.height]).toEqual([field, 320, 480]);
			expect([field, detailIn(picture, seenBlock) < seenDetail * 0.1]).toEqual([field, true]);
		}
		expect(items[0].json.warnings).toEqual([expect.stringMatching(/EXIF orientation 6\b.*each box of Blur These Labels is hidden where it is either way/)]);
	});

	it.each([
		['the input sent back as it came', sideways],
		['a picture of the stored size, untagged', encodeImage(decodeImage(SCENE), 'jpeg')],
	])('is not misled by a picture sent unasked (%s) while the boxes are upright', async (_what, unasked) => {
		const answer = {
			detections: [{ label: 'red', confidence: 0.95, x: seenBlock.left, y: seenBlock.top, width: 60, height: 70 }],
			labelsCount: [{ label: 'red', total: 1 }],
			image: unasked.toString('base64'),
		};
		server().addFault({ match: { kind: 'detect', imageSha256: sha256(sideways) }, action: { type: 'status', status: 200, body: answer } });
		const { items, bytes } = await run(parameters(), [item]);
		for (const field of ['annotated', 'original']) expect([field, detailIn(pixelsOf(bytes(items[0], field)), seenBlock) < seenDetail * 0.1]).toEqual([field, true]);
		expect(items[0].json.warnings).toEqual([expect.stringMatching(/EXIF orientation 6\b/)]);
	});

	it('says nothing of hiding when the item carries no picture the node blurred (Output Images: None, or the unblurred original asked for)', async () => {
		for (const options of [{ outputImages: 'none' }, { outputImages: 'original', annotatedBy: 'node', passUnblurredOriginal: true }]) {
			const { items, bytes } = await run(detectParameters(server(), { options: { hideLabels: 'red', ...options } }), [item]);
			expect([options, items[0].json.warnings]).toEqual([options, undefined]);
			if (options.outputImages === 'original') expect(bytes(items[0], 'original').equals(sideways)).toBe(true);
			else expect(items[0].binary).toBeUndefined();
		}
	});

	it('says so with only crops blurred (One Item per Object, Output Images: None)', async () => {
		const { items } = await run(detectParameters(server(), { outputItems: 'object', options: { hideLabels: 'red', outputImages: 'none', cropObjects: true } }), [item]);
		expect(items.length).toBeGreaterThan(0);
		for (const object of items) expect(object.json.warnings).toEqual([expect.stringMatching(/EXIF orientation 6\b/)]);
	});
});
