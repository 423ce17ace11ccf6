/**
 * Upload to Project's Blur These Labels: the Detections' boxes of those labels hidden in the image
 * the project gets, before anything is sent for it; never the unblurred image in its place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { InputItem } from '../harness/execute';
import { flatPng, withExifOrientation } from '../harness/images';
import { pixelsOf } from '../harness/pictureChecks';
import { RED_BLOCK, TEXTURED_SCENE, detailIn } from '../harness/texturedScene';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { detectParameters, useServer } from './setup';

const PROJECT = '7c3d9e2f-4b5a-4c6d-8e7f-1a2b3c4d5e6f';
const sceneItem = (bytes: Buffer, fileName: string, mimeType = 'image/png'): InputItem => ({ json: {}, binary: { data: { bytes, fileName, mimeType } } });

describe('Upload to Project with Blur These Labels', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	beforeAll(() => server().addProject('object_detection', { id: PROJECT }));

	const uploadParameters = (detections: unknown, options: IDataObject, annotationSource = 'detections') => ({
		operation: 'uploadToProject',
		project: { mode: 'id', value: PROJECT },
		imageSource: 'binary',
		binaryPropertyName: 'data',
		annotationSource,
		detections,
		options,
	});
	const detectThenUpload = async (item: InputItem, options: IDataObject) => {
		const detected = await run(detectParameters(server()), [item]);
		const detections = detected.items[0].json.detections as IDataObject[];
		const uploaded = await run(uploadParameters(detections, options), [item], { onError: 'continueRegularOutput' });
		const upload = uploaded.items[0].json.upload as IDataObject & { recordId: string };
		const record = server().projects(PROJECT)!.records.find((stored) => stored.id === upload?.recordId);
		const stored = record && server().storage.upload(record.source)?.stored;
		return { detections, upload, record, stored, json: uploaded.items[0].json, binary: uploaded.items[0].binary };
	};
	const labelOf = (id: string) => server().projects(PROJECT)!.labels.find((label) => label.id === id)!.name;

	it('the red block goes up blurred (its detail at least 90 % gone), the rest as it was, with every annotation', async () => {
		const { detections, upload, record, stored, binary } = await detectThenUpload(sceneItem(TEXTURED_SCENE, 'scene.png'), { hideLabels: 'Red ' });
		// the labels matched whatever their case; the item's own picture does not go on unblurred
		expect(binary).toBeUndefined();
		expect(upload).toMatchObject({ fileName: 'scene.blurred.jpg', contentType: 'image/jpeg', width: 480, height: 320, blurredBoxes: 1, annotationCount: detections.length });
		expect(stored!.contentType).toBe('image/jpeg');
		expect(stored!.bytes.length).toBe(upload.size);
		const sent = pixelsOf(stored!.bytes);
		const original = pixelsOf(TEXTURED_SCENE);
		expect(detailIn(original)).toBeGreaterThan(200);
		expect(detailIn(sent)).toBeLessThan(detailIn(original) * 0.1);
		// a blue block, away from the red one, is as it was (within a JPEG's error)
		const blue = detections.find((detection) => detection.label === 'blue')! as { x: number; y: number; width: number; height: number };
		const middle = [Math.round(blue.x + blue.width / 2), Math.round(blue.y + blue.height / 2)] as const;
		expect(Math.max(...sent.pixel(...middle).map((value, channel) => Math.abs(value - original.pixel(...middle)[channel])))).toBeLessThan(12);
		expect(record!.annotations.map((annotation) => labelOf(annotation.label_id)).sort()).toEqual(detections.map((detection) => detection.label).sort());
		const red = record!.annotations.find((annotation) => labelOf(annotation.label_id) === 'red')!;
		expect(red.annotation).toMatchObject({ left: RED_BLOCK.left, top: RED_BLOCK.top, width: RED_BLOCK.right - RED_BLOCK.left, height: RED_BLOCK.bottom - RED_BLOCK.top });
	});

	it('Pixelate hides the block too', async () => {
		const { stored, upload } = await detectThenUpload(sceneItem(TEXTURED_SCENE, 'scene.png'), { hideLabels: 'red', hideWith: 'pixelate' });
		expect(upload.blurredBoxes).toBe(1);
		expect(detailIn(pixelsOf(stored!.bytes))).toBeLessThan(detailIn(pixelsOf(TEXTURED_SCENE)) * 0.1);
	});

	it('a photo stored sideways goes up upright, its boxes turned with it, the block blurred where people see it', async () => {
		// stored 480 × 320, shown turned a quarter clockwise (EXIF 6): 320 × 480 as people see it
		const sideways = withExifOrientation(encodeImage(decodeImage(TEXTURED_SCENE), 'jpeg'), 6);
		const { upload, record, stored } = await detectThenUpload(sceneItem(sideways, 'IMG_0002.JPG', 'image/jpeg'), { hideLabels: 'red' });
		expect(upload).toMatchObject({ fileName: 'IMG_0002.blurred.jpg', width: 320, height: 480 });
		const sent = pixelsOf(stored!.bytes);
		expect([sent.width, sent.height]).toEqual([320, 480]);
		// turned a quarter clockwise, stored (x, y) is seen at (319 − y, x): the block at x 230–290, y 260–330
		const seenBlock = { left: 320 - RED_BLOCK.bottom, top: RED_BLOCK.left, right: 320 - RED_BLOCK.top, bottom: RED_BLOCK.right };
		const red = record!.annotations.find((annotation) => labelOf(annotation.label_id) === 'red')!;
		expect(red.annotation).toEqual({ category: 'bounding_box', left: seenBlock.left, top: seenBlock.top, width: 60, height: 70, metadata: { image: { width: 320, height: 480 } } });
		const unblurred = pixelsOf(encodeImage(decodeImage(TEXTURED_SCENE), 'jpeg'));
		const seenUnblurred = { pixel: (x: number, y: number) => unblurred.pixel(y, 319 - x) };
		expect(detailIn(seenUnblurred, seenBlock)).toBeGreaterThan(200);
		expect(detailIn(sent, seenBlock)).toBeLessThan(detailIn(seenUnblurred, seenBlock) * 0.1);
	});

	it('no box of those labels: the file goes up as it is', async () => {
		const { upload, stored, binary } = await detectThenUpload(sceneItem(TEXTURED_SCENE, 'scene.png'), { hideLabels: 'person, face' });
		expect(binary).toBeUndefined();
		expect(upload).toMatchObject({ fileName: 'scene.png', contentType: 'image/png', blurredBoxes: 0 });
		expect(stored!.bytes.equals(TEXTURED_SCENE)).toBe(true);
	});

	it('a file the node cannot read fails the item before anything is sent for it: it never goes up unblurred', async () => {
		const cmyk = readFileSync(join(__dirname, '../fixtures/car-338x190-cmyk.jpg'));
		const before = { service: server().requests.length, storage: server().storage.requests.length };
		const uploaded = await run(uploadParameters([{ label: 'car', x: 10, y: 10, width: 50, height: 40 }], { hideLabels: 'car' }), [sceneItem(cmyk, 'car.jpg', 'image/jpeg')], {
			onError: 'continueRegularOutput',
		});
		const error = uploaded.items[0].json.error as IDataObject;
		expect(error.message).toBe('The image cannot be blurred for the upload: it is a CMYK JPEG');
		expect(error.description).toMatch(/^Nothing was sent for this image: it does not go up unblurred\./);
		expect(server().requests.length).toBe(before.service);
		expect(server().storage.requests.length).toBe(before.storage);
	});

	it('an empty label list, or Annotations other than From Detections, fails before any request, saying what to fix', async () => {
		const before = server().requests.length;
		const item = sceneItem(flatPng(64, 48), 'plain.png');
		for (const hideLabels of [' , ', '', null]) {
			const empty = await run(uploadParameters([], { hideLabels }), [item], { onError: 'continueRegularOutput' });
			expect(empty.items[0].json.error).toMatchObject({ message: 'Blur These Labels is empty', description: expect.stringMatching(/^Enter the labels whose boxes are blurred/) });
		}
		const none = await run(uploadParameters([], { hideLabels: 'person' }, 'none'), [item], { onError: 'continueRegularOutput' });
		expect(none.items[0].json.error).toMatchObject({
			message: 'Blur These Labels needs Annotations: From Detections',
			description: 'The boxes to blur are the Detections’ boxes of those labels. Set Annotations to From Detections, or remove Blur These Labels.',
		});
		expect(server().requests.length).toBe(before);
	});
});
