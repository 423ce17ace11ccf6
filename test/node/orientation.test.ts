import type { IDataObject } from 'n8n-workflow';

import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { colourScene, tiffHeader, withExifOrientation, withSegmentsBeforeFrame } from '../harness/images';
import { FILE_HEAD_BYTES } from '../../nodes/ImageInference/input/imageInput';
import type { InputItem } from '../harness/execute';
import { detectParameters, useServer } from './setup';

/**
 * A phone photo stored sideways with an Exif orientation: the reference server, like a decoder
 * that does not apply orientation (Pillow's Image.open), detects on the stored pixels; the node
 * gives the size, relative boxes and zones of the picture as people see it.
 */
describe('a photo stored sideways (Exif orientation 6: shown turned a quarter clockwise)', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	// colourScene's red block is at x 260–330, y 30–90 of 480 × 320 stored pixels; seen turned a
	// quarter clockwise, the picture is 320 × 480 and the block at x 230–290, y 260–330
	const stored = encodeImage(decodeImage(colourScene()), 'jpeg');
	const photo = (bytes: Buffer): InputItem => ({ json: {}, binary: { data: { bytes, fileName: 'IMG_0001.JPG', mimeType: 'image/jpeg' } } });
	const redBlockAsSeen = { x: 230 / 320, y: 260 / 480, width: 60 / 320, height: 70 / 480 };
	const zones = { zones: { zone: [{ name: 'around the red block as seen', points: '0.68,0.5 0.95,0.5 0.95,0.72 0.68,0.72' }] }, outputImages: 'none' };

	const detect = async (bytes: Buffer) => {
		const { items } = await run(detectParameters(server(), { options: zones }), [photo(bytes)]);
		const json = items[0].json as IDataObject & { detections: Array<IDataObject & { relativeBox: IDataObject; zones: string[] }> };
		return { json, red: json.detections.find((detection) => detection.label === 'red')! };
	};

	it('the size, the relative box and the zone are the picture’s as seen; the pixel box is the service’s', async () => {
		const { json, red } = await detect(withExifOrientation(stored, 6));
		expect([json.imageWidth, json.imageHeight]).toEqual([320, 480]);
		for (const key of ['x', 'y', 'width', 'height'] as const) expect(red.relativeBox[key]).toBeCloseTo(redBlockAsSeen[key], 1);
		expect(red.zones).toEqual(['around the red block as seen']);
		expect(json.countsByZone).toEqual({ 'around the red block as seen': { red: 1 } });
		const answer = server().predict('detect', withExifOrientation(stored, 6), {}) as { detections: IDataObject[] };
		expect({ x: red.x, y: red.y, width: red.width, height: red.height }).toEqual(
			(({ x, y, width, height }) => ({ x, y, width, height }))(answer.detections.find((detection) => detection.label === 'red')!),
		);
	});

	it('the same pixels without the orientation are the stored picture: the red block is elsewhere, outside the zone', async () => {
		const { json, red } = await detect(stored);
		expect([json.imageWidth, json.imageHeight]).toEqual([480, 320]);
		expect(red.relativeBox.x).toBeCloseTo(260 / 480, 1);
		expect(red.zones).toEqual([]);
	});
});

/**
 * Relative zones and object sizes need the image's size: a file whose first bytes do not give it
 * is read whole for it before the request, and one whose size stays unknown is not sent.
 */
describe('an image whose size its first bytes do not give', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const relativeZone = { zones: { zone: [{ name: 'left half', points: '0,0 0.5,0 0.5,1 0,1' }] }, outputImages: 'none' };
	const file = (bytes: Buffer, fileName: string, mimeType: string): InputItem => ({ json: {}, binary: { data: { bytes, fileName, mimeType } } });

	it('a JPEG whose frame lies past the first 256 KB: its size is read from the whole file, and the request is sent', async () => {
		const scene = encodeImage(decodeImage(colourScene()), 'jpeg');
		const padded = withSegmentsBeforeFrame(scene, FILE_HEAD_BYTES + 10_000);
		const { items } = await run(detectParameters(server(), { options: relativeZone }), [file(padded, 'big-exif.jpg', 'image/jpeg')]);
		expect(items[0].json).toMatchObject({ imageWidth: 480, imageHeight: 320 });
		expect(items[0].json.error).toBeUndefined();
		expect(server().requests).toHaveLength(1);
	});

	it('a TIFF whose header gives no size: refused before any request, saying why and what to do', async () => {
		const tiff = Buffer.concat([tiffHeader('II', [{ tag: 0x0103, type: 3, value: 1 }]), Buffer.alloc(64)]);
		const { items } = await run(detectParameters(server(), { options: relativeZone }), [file(tiff, 'scan.tif', 'image/tiff')], { onError: 'continueRegularOutput' });
		expect(items[0].json.error).toMatchObject({
			message: 'Zones in relative coordinates need the image’s size, and the node could not read it from this file, so it was not sent',
			description: expect.stringContaining('Edit Image'),
		});
		expect(server().requests).toHaveLength(0);
	});
});
