import type { InputItem } from '../harness/execute';
import { CAR, carItem, detectParameters, failureOf, fixture, useServer, failureIn } from './setup';

/** Real HEIC and AVIF files (test/fixtures/README.md says how they were made). */
const HEIC = fixture('car-64x36.heic');
const AVIF = fixture('car-64x36.avif');

const file = (bytes: Buffer, fileName: string, mimeType?: string) => ({ bytes, fileName, ...(mimeType ? { mimeType } : {}) });
const CONVERT = /Edit Image node before this one \(Operation: Resize, Width and Height 4096, Resize Option: Only if Larger, and under Options, Format: jpeg\)/;

describe('HEIC and AVIF photos are named as such, with how to convert them, before any request', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it.each([
		['HEIC, declared image/heic', HEIC, 'IMG_0001.HEIC', 'image/heic', 'HEIC', '"IMG_0001.HEIC" (image/heic) is a HEIC photo. '],
		['HEIC, no mime type (only its bytes say it)', HEIC, 'photo', undefined, 'HEIC', '"photo" (application/octet-stream) is a HEIC photo. '],
		['AVIF, declared application/octet-stream', AVIF, 'photo.avif', 'application/octet-stream', 'AVIF', '"photo.avif" (application/octet-stream) is an AVIF photo. '],
	])('a named field holding %s: an item error saying the format', async (_, bytes, fileName, mimeType, format, says) => {
		const items: InputItem[] = [carItem(), { binary: { data: file(bytes, fileName, mimeType) } }];
		const failure = await failureOf(run(detectParameters(server()), items));
		expect(failure.message).toBe(`The file in binary field "data" is ${format}, which the node does not send`);
		expect(failure.description?.slice(0, says.length)).toBe(says);
		expect(failure.description).toMatch(CONVERT);
		expect(failure.itemIndex).toBe(1);
		expect(server().requests).toHaveLength(0);
	});

	it("in n8n's database binary mode, a file declared image/heic is named HEIC without being read", async () => {
		const { items, reads } = await run(
			detectParameters(server()),
			[{ binary: { data: file(HEIC, 'IMG_0002.HEIC', 'image/heic') } }],
			{ binaryMode: 'database', continueOnFail: true },
		);
		expect(failureIn(items[0])?.message).toBe('The file in binary field "data" is HEIC, which the node does not send');
		expect(reads).toEqual({ whole: 0, streamedBytes: 0 });
		expect(server().requests).toHaveLength(0);
	});

	it('base64 of an AVIF photo: an item error saying AVIF', async () => {
		const failure = await failureOf(
			run(detectParameters(server(), { imageSource: 'base64', imageBase64: AVIF.toString('base64') }), [{ json: {} }]),
		);
		expect(failure.message).toBe('Base64 Image is AVIF, which the node does not send');
		expect(failure.description).toMatch(CONVERT);
		expect(server().requests).toHaveLength(0);
	});

	it('“All Images on the Item”: a HEIC next to a JPEG is skipped and the JPEG sent', async () => {
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [
			{ binary: { photo: file(HEIC, 'IMG_0003.HEIC', 'image/heic'), car: file(CAR, 'car.jpg', 'image/jpeg') } },
		]);
		expect(items).toHaveLength(1);
		expect(items[0].json.field).toBe('car');
		expect(items[0].json.skippedFiles).toEqual([{ field: 'photo', fileName: 'IMG_0003.HEIC', mimeType: 'image/heic' }]);
		expect(server().requests).toHaveLength(1);
	});

	it('“All Images on the Item” with only HEIC and AVIF photos: "No image" names each format and how to convert', async () => {
		const failure = await failureOf(
			run(detectParameters(server(), { imageSource: 'allImages' }), [
				{ binary: { a: file(HEIC, 'a.heic'), b: file(AVIF, 'b.avif', 'image/avif') } },
			]),
		);
		expect(failure.message).toBe('No image on this item');
		expect(failure.description).toContain('"a" (a.heic, application/octet-stream) is HEIC; "b" (b.avif, image/avif) is AVIF.');
		expect(failure.description).toMatch(CONVERT);
		expect(server().requests).toHaveLength(0);
	});
});

describe('a 0-byte file under “All Images on the Item” is reported as empty', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const empty = () => file(Buffer.alloc(0), 'empty.jpg', 'image/jpeg');

	it.each([['filesystem' as const], ['database' as const]])('%s binary mode: the only file, 0 bytes: "empty", naming its field', async (binaryMode) => {
		const failure = await failureOf(
			run(detectParameters(server(), { imageSource: 'allImages' }), [carItem(), { binary: { scan: empty() } }], { binaryMode }),
		);
		expect(failure.message).toBe('No image on this item');
		expect(failure.description).toBe('Of the item\'s binary fields, "scan" (empty.jpg, image/jpeg) is empty (0 bytes).');
		expect(failure.itemIndex).toBe(1);
		expect(server().requests).toHaveLength(0);
	});

	it('next to an image: the image is sent, the empty file listed as skipped', async () => {
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [
			{ binary: { scan: empty(), car: file(CAR, 'car.jpg', 'image/jpeg') } },
		], { binaryMode: 'database' });
		expect(items.map((item) => item.json.field)).toEqual(['car']);
		expect(items[0].json.skippedFiles).toEqual([{ field: 'scan', fileName: 'empty.jpg', mimeType: 'image/jpeg' }]);
		expect(server().requests).toHaveLength(1);
	});
});
