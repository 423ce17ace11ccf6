/**
 * Detect Objects, then Upload to Project, on a phone photo stored sideways (Exif orientation 6):
 * the boxes go into the project in the stored pixels of the uploaded image, whichever pixels the
 * service detected on.
 */
import type { IDataObject } from 'n8n-workflow';

import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { colourScene, flatPng, withExifOrientation } from '../harness/images';
import type { InputItem } from '../harness/execute';
import { detectParameters, useServer } from './setup';

describe('Detect Objects → Upload to Project on a photo stored sideways', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const PROJECT = '5b2c8e1f-3a4d-4f6e-9b7c-0d1e2f3a4b5c';
	beforeAll(() => server().addProject('object_detection', { id: PROJECT }));
	// 480 × 320 stored, shown turned a quarter clockwise: 320 × 480 as people see it
	const sideways = withExifOrientation(encodeImage(decodeImage(colourScene()), 'jpeg'), 6);
	const photo: InputItem = { json: {}, binary: { data: { bytes: sideways, fileName: 'IMG_0002.JPG', mimeType: 'image/jpeg' } } };

	const detectThenUpload = async () => {
		const detected = await run(detectParameters(server()), [photo]);
		const json = detected.items[0].json as IDataObject & { detections: IDataObject[] };
		const uploaded = await run(
			{ operation: 'uploadToProject', project: { mode: 'id', value: PROJECT }, imageSource: 'binary', binaryPropertyName: 'data', annotationSource: 'detections', detections: json.detections, options: {} },
			[photo],
		);
		const recordId = (uploaded.items[0].json.upload as IDataObject).recordId;
		const record = server().projects(PROJECT)!.records.find((stored) => stored.id === recordId)!;
		return { json, record };
	};

	it('the service turned the photo before detecting (its annotated picture came back upright, 320 × 480): the upright box goes in turned back', async () => {
		server().addFault({
			match: { kind: 'detect' },
			action: {
				type: 'status',
				status: 200,
				body: { detections: [{ label: 'red', confidence: 0.9, x: 20, y: 30, width: 60, height: 40 }], labelsCount: [{ label: 'red', total: 1 }], image: flatPng(320, 480).toString('base64') },
			},
		});
		const { json, record } = await detectThenUpload();
		expect([json.imageWidth, json.imageHeight]).toEqual([320, 480]);
		expect(json.detections[0]).toMatchObject({ x: 20, y: 30, width: 60, height: 40, relativeBox: { x: 0.0625, y: 0.0625, width: 0.1875, height: 0.0833 } });
		expect([record.width, record.height]).toEqual([480, 320]);
		// upright x 20, y 30, 60 × 40; turned back: left = 30, top = 320 − (20 + 60) = 240, 40 × 60
		expect(record.annotations.map((annotation) => annotation.annotation)).toEqual([
			{ category: 'bounding_box', left: 30, top: 240, width: 40, height: 60, metadata: { image: { width: 480, height: 320 } } },
		]);
	});

	it('the service detected on the stored pixels (as the reference server does): the box goes in as the service gave it', async () => {
		const { json, record } = await detectThenUpload();
		const labelOf = (id: string) => server().projects(PROJECT)!.labels.find((label) => label.id === id)!.name;
		// colourScene's red block: x 260–330, y 30–90 of the stored 480 × 320; seen turned, x 230–290, y 260–330 of 320 × 480
		expect(json.detections.find((detection) => detection.label === 'red')).toMatchObject({ x: 260, y: 30, width: 70, height: 60 });
		const red = record.annotations.find((annotation) => labelOf(annotation.label_id) === 'red')!;
		expect(red.annotation).toEqual({ category: 'bounding_box', left: 260, top: 30, width: 70, height: 60, metadata: { image: { width: 480, height: 320 } } });
	});

	it('a box padded after Detect Objects with its relativeBox kept fails the item before any request, naming both boxes', async () => {
		const detected = await run(detectParameters(server()), [photo]);
		const detections = (detected.items[0].json.detections as IDataObject[]).map((detection) =>
			detection.label === 'red' ? { ...detection, x: 250, y: 20, width: 90, height: 80 } : detection,
		);
		const index = detections.findIndex((detection) => detection.label === 'red');
		server().requests.splice(0);
		const uploaded = await run(
			{ operation: 'uploadToProject', project: { mode: 'id', value: PROJECT }, imageSource: 'binary', binaryPropertyName: 'data', annotationSource: 'detections', detections, options: {} },
			[photo],
			{ onError: 'continueRegularOutput' },
		);
		// the red block's relativeBox: 230/320, 260/480, 60/320, 70/480 to 4 places; of 320 × 480, x 230, y 260, 60 × 70 to a tenth of a pixel
		expect((uploaded.items[0].json.error as IDataObject).message).toBe(
			`Detection ${index}’s x, y, width, height (x 250, y 20, 90 × 80) and its relativeBox (x 0.7188, y 0.5417, 0.1875 × 0.1458: x 230, y 260, 60 × 70 of the 320 × 480 picture) are not the same box`,
		);
		expect(server().requests).toHaveLength(0);
	});

	it('pixels without their relativeBox (a Set node that picked label, x, y, width, height) fail the item before any request: they may be in either picture', async () => {
		const detected = await run(detectParameters(server()), [photo]);
		const detections = (detected.items[0].json.detections as IDataObject[]).map(({ label, x, y, width, height }) => ({ label, x, y, width, height }));
		server().requests.splice(0);
		const uploaded = await run(
			{ operation: 'uploadToProject', project: { mode: 'id', value: PROJECT }, imageSource: 'binary', binaryPropertyName: 'data', annotationSource: 'detections', detections, options: {} },
			[photo],
			{ onError: 'continueRegularOutput' },
		);
		const error = uploaded.items[0].json.error as IDataObject;
		const { x, y, width, height } = detections[0] as { x: number; y: number; width: number; height: number };
		expect(error.message).toBe(
			`Detection 0’s box (x ${x}, y ${y}, ${width} × ${height}) comes without a relativeBox of four fractions, and the photo is stored turned a quarter (EXIF orientation 6: 480 × 320 pixels stored, 320 × 480 as people see it)`,
		);
		expect(error.description).toMatch(/Keep relativeBox beside them, as Detect Objects gives it/);
		expect(server().requests).toHaveLength(0);
	});
});
