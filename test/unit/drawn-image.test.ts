import jpeg from 'jpeg-js';
import type { IBinaryData, IBinaryKeyData, IExecuteFunctions } from 'n8n-workflow';

import type { ImageInput } from '../../nodes/ImageInference/input/imageInput';
import type { HideRequest, NodeDrawing } from '../../nodes/ImageInference/output/drawnImage';
import { blurredFileName, drawnAnnotatedImage, hiddenLabel, hiddenOriginal, objectCrops, readBlurLabels, withoutImageFiles } from '../../nodes/ImageInference/output/drawnImage';
import type { DetectionResults } from '../../nodes/ImageInference/pipeline/steps';
import type { PlacedDetection, ZoneAndSizeOptions } from '../../nodes/ImageInference/pipeline/types';

/** n8n's part for these functions: a file made of bytes (n8n's prepareBinaryData names and types it so), or the failure given. */
function context(failure?: unknown): IExecuteFunctions {
	const prepareBinaryData = async (bytes: Buffer, fileName: string, mimeType: string): Promise<IBinaryData> => {
		if (failure !== undefined) throw failure;
		return { data: bytes.toString('base64'), fileName, mimeType };
	};
	return { helpers: { prepareBinaryData }, getNode: () => ({ name: 'Detect', type: 'n8n-nodes-image-inference.imageInference' }) } as unknown as IExecuteFunctions;
}

/** A JPEG of `width` × `height`: its left half red, its right half blue. */
function photo(width: number, height: number): Buffer {
	const data = Buffer.alloc(width * height * 4);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(x < width / 2 ? [220, 30, 30, 255] : [30, 30, 220, 255], (y * width + x) * 4);
	return jpeg.encode({ width, height, data }, 95).data;
}

const asBase64 = (bytes: Buffer, fileName: string, orientation?: number): ImageInput => ({
	source: 'base64',
	data: bytes.toString('base64'),
	fileName,
	size: { width: 0, height: 0, ...(orientation ? { orientation } : {}) },
});
const URL_IMAGE: ImageInput = { source: 'url', url: 'https://images.example/street.jpg', fileName: 'street.jpg' };

const decoded = (file: IBinaryData | undefined) => jpeg.decode(Buffer.from(file!.data, 'base64'));

const detection = (label: string, relativeBox: PlacedDetection['relativeBox']): PlacedDetection => ({ label, confidence: 0.9, x: 0, y: 0, width: 0, height: 0, relativeBox });
const results = (detections: PlacedDetection[]): DetectionResults => ({ detections, labelsCount: [], countsByLabel: {}, totalDetections: detections.length, summary: '' });
const NO_ZONES: ZoneAndSizeOptions = { zones: [], units: 'relative', anchor: 'center', onlyInZones: false };
const DRAWING: NodeDrawing = { showConfidence: true, showZones: true, quality: 90, serviceFallback: false };
const SERVICE_PICTURE: IBinaryData = { data: 'AAAA', mimeType: 'image/jpeg', fileName: 'street.annotated.jpg' };
const marksOf = (detections: PlacedDetection[], zonesAndSizes = NO_ZONES, size?: { width: number; height: number }) => ({ results: results(detections), zonesAndSizes, size });

describe('which of an item’s files go on with Blur These Labels', () => {
	const file = (mimeType?: string): IBinaryData => ({ data: '', mimeType: mimeType as string });
	const binary: IBinaryKeyData = {
		data: file('image/jpeg'),
		shouty: file(' Image/PNG '),
		raw: file('application/octet-stream'),
		stream: file('binary/octet-stream'),
		untyped: file(undefined),
		blank: file(' '),
		invoice: file('application/pdf'),
		notes: file('text/plain'),
	};

	it('passes on only the files whose type names something other than a picture', () => {
		expect(Object.keys(withoutImageFiles(binary))).toEqual(['invoice', 'notes']);
	});

	it('keeps back the file the image was read from, whatever its type says', () => {
		const image: ImageInput = { source: 'binary', field: 'invoice', fileName: 'scan.pdf' };
		expect(Object.keys(withoutImageFiles(binary, image))).toEqual(['notes']);
		expect(Object.keys(withoutImageFiles(binary, { source: 'base64', data: '', fileName: 'invoice' }))).toEqual(['invoice', 'notes']);
	});
});

describe('the files the node makes of an image', () => {
	it('names them after the input file without its extension', () => {
		expect(blurredFileName('street.png')).toBe('street.blurred.jpg');
		expect(blurredFileName('my.photo.jpeg')).toBe('my.photo.blurred.jpg');
		expect(blurredFileName('v1.2 final')).toBe('v1.2 final.blurred.jpg');
		expect(blurredFileName('.png')).toBe('image.blurred.jpg');
	});

	it('reads Blur These Labels from a text or a list of texts, each split at its commas', () => {
		const read = (value: unknown) => readBlurLabels.call(context(), 3, value);
		expect(read(' person, license-plate ,,person ')).toEqual(['person', 'license-plate']);
		expect(read(['person', 'face, license-plate', ' '])).toEqual(['person', 'face', 'license-plate']);
		expect([read(undefined), read(null), read(''), read([])]).toEqual([[], [], [], []]);
	});

	it('refuses Blur These Labels of any other kind, naming the item, for read loosely it would blur nothing', () => {
		const refusal = (value: unknown) => {
			try {
				readBlurLabels.call(context(), 3, value);
			} catch (error) {
				const { message, description, context: at } = error as { message: string; description: string; context: { itemIndex: number } };
				return { message, description, itemIndex: at.itemIndex };
			}
			throw new Error('expected a refusal');
		};
		expect(refusal({ labels: 'person' })).toEqual({
			message: 'Blur These Labels must be text or a list of texts, not an object',
			description: 'Give the labels as text separated by commas (e.g. "person, license-plate"), or an expression that gives such a text or a list of labels.',
			itemIndex: 3,
		});
		expect(refusal(5).message).toBe('Blur These Labels must be text or a list of texts, not a number');
		expect(refusal(true).message).toBe('Blur These Labels must be text or a list of texts, not a boolean');
		expect(refusal([['person']]).message).toBe('Blur These Labels must be text or a list of texts, not a list of other things');
		expect(refusal(['person', 7]).message).toBe('Blur These Labels must be text or a list of texts, not a list of other things');
	});

	it('blurs a label whatever its case and the spaces around it', () => {
		const isHidden = hiddenLabel([' Person ']);
		expect([isHidden('person'), isHidden('PERSON '), isHidden('persons')]).toEqual([true, true, false]);
	});
});

describe('the node’s annotated picture of an item', () => {
	const car = detection('car', { x: 0.25, y: 0.25, width: 0.5, height: 0.5 });

	it('is a JPEG named after the input, upright as the file says it is stored', async () => {
		const drawn = await drawnAnnotatedImage.call(context(), 0, asBase64(photo(64, 32), 'street.png', 6), DRAWING, marksOf([car]), undefined);
		expect(drawn).toEqual({ binary: expect.objectContaining({ fileName: 'street.annotated.jpg', mimeType: 'image/jpeg' }), byNode: true });
		expect([decoded(drawn.binary).width, decoded(drawn.binary).height]).toEqual([32, 64]);
	});

	it('carries the service’s picture, or none, when the image is a URL, and says why', async () => {
		const warning = 'The node could not draw the annotated picture: an image URL gives the node no file to draw on; the item carries ';
		expect(await drawnAnnotatedImage.call(context(), 0, URL_IMAGE, DRAWING, marksOf([car]), SERVICE_PICTURE)).toEqual({ binary: SERVICE_PICTURE, warning: `${warning}the service’s picture.` });
		expect(await drawnAnnotatedImage.call(context(), 0, URL_IMAGE, DRAWING, marksOf([car]), undefined)).toEqual({ warning: `${warning}no annotated image.` });
	});

	it('says why a file it cannot read or store gets no picture', async () => {
		const text = asBase64(Buffer.from('not a picture at all'), 'notes.txt');
		expect((await drawnAnnotatedImage.call(context(), 0, text, DRAWING, marksOf([car]), undefined)).warning).toMatch(/^The node could not draw the annotated picture: .+; the item carries no annotated image\.$/);
		const image = asBase64(photo(32, 32), 'street.jpg');
		expect((await drawnAnnotatedImage.call(context(new Error('the disk is full')), 0, image, DRAWING, marksOf([car]), undefined)).warning).toBe(
			'The node could not draw the annotated picture: the disk is full; the item carries no annotated image.',
		);
		expect((await drawnAnnotatedImage.call(context('no room'), 0, image, DRAWING, marksOf([car]), undefined)).warning).toBe('The node could not draw the annotated picture: no room; the item carries no annotated image.');
	});

	it('draws on what it can decode of a damaged file, and says so', async () => {
		const whole = photo(256, 256);
		const drawn = await drawnAnnotatedImage.call(context(), 0, asBase64(whole.subarray(0, Math.floor(whole.length * 0.6)), 'street.jpg'), DRAWING, marksOf([car]), undefined);
		expect(drawn.byNode).toBe(true);
		expect(drawn.warning).toBe('The image’s file is damaged: the node drew on as much of it as could be decoded (the rest is grey).');
	});

	it('draws zones in pixels only where the image’s size is known, zones in fractions always', async () => {
		// a zone outlined and named in white on a 64 × 64 photo of red and blue: white anywhere is the zone's
		const whiteIn = (file: IBinaryData | undefined) => {
			const { data } = decoded(file);
			for (let at = 0; at < data.length; at += 4) if (data[at] > 200 && data[at + 1] > 200 && data[at + 2] > 200) return true;
			return false;
		};
		const image = asBase64(photo(64, 64), 'street.jpg');
		const inPixels: ZoneAndSizeOptions = { ...NO_ZONES, units: 'pixels', zones: [{ name: 'road', points: [[0, 32], [64, 32], [64, 60], [0, 60]] }] };
		const inFractions: ZoneAndSizeOptions = { ...NO_ZONES, zones: [{ name: 'road', points: [[0, 0.5], [1, 0.5], [1, 0.94], [0, 0.94]] }] };
		expect(whiteIn((await drawnAnnotatedImage.call(context(), 0, image, DRAWING, marksOf([], inPixels, { width: 64, height: 64 }), undefined)).binary)).toBe(true);
		expect(whiteIn((await drawnAnnotatedImage.call(context(), 0, image, DRAWING, marksOf([], inPixels), undefined)).binary)).toBe(false);
		expect(whiteIn((await drawnAnnotatedImage.call(context(), 0, image, DRAWING, marksOf([], inFractions), undefined)).binary)).toBe(true);
	});

	it('draws nothing but says why when a box to blur cannot be placed', async () => {
		const hide: HideRequest = { labels: ['person'], effect: 'blur', placed: [detection('person', null)] };
		expect(await drawnAnnotatedImage.call(context(), 0, asBase64(photo(32, 32), 'street.jpg'), { ...DRAWING, hide }, marksOf([]), SERVICE_PICTURE)).toEqual({
			binary: SERVICE_PICTURE,
			warning: 'The node could not draw the annotated picture: the image’s size is unknown, so the boxes to blur cannot be placed; the item carries the service’s picture.',
		});
	});
});

describe('the blurred original of an item', () => {
	const hide: HideRequest = { labels: ['person'], effect: 'pixelate', placed: [detection('person', { x: 0, y: 0, width: 0.5, height: 1 }), detection('car', null)] };

	it('is the whole picture, upright, named after the input', async () => {
		const blurred = await hiddenOriginal.call(context(), 0, asBase64(photo(64, 32), 'street.png', 8), hide);
		expect(blurred).toEqual({ binary: expect.objectContaining({ fileName: 'street.blurred.jpg', mimeType: 'image/jpeg' }) });
		expect([decoded(blurred.binary).width, decoded(blurred.binary).height]).toEqual([32, 64]);
	});

	it('is none, with the reason, for a URL, a box it cannot place, a file it cannot read or store, or part of a damaged file', async () => {
		const says = (reason: string) => ({ warning: `The node could not blur the original image: ${reason}; the item carries no original image.` });
		expect(await hiddenOriginal.call(context(), 0, URL_IMAGE, hide)).toEqual(says('an image URL gives the node no file'));
		expect(await hiddenOriginal.call(context(), 0, asBase64(photo(32, 32), 'a.jpg'), { ...hide, labels: ['car'] })).toEqual(says('the image’s size is unknown, so the boxes to blur cannot be placed'));
		expect((await hiddenOriginal.call(context(), 0, asBase64(Buffer.from('text'), 'a.txt'), hide)).warning).toMatch(/^The node could not blur the original image: .+; the item carries no original image\.$/);
		expect(await hiddenOriginal.call(context(new Error('the disk is full')), 0, asBase64(photo(32, 32), 'a.jpg'), hide)).toEqual(says('the disk is full'));
		const whole = photo(256, 256);
		const damaged = await hiddenOriginal.call(context(), 0, asBase64(whole.subarray(0, Math.floor(whole.length * 0.6)), 'a.jpg'), hide);
		expect(damaged.warning).toBe('The image’s file is damaged: the blurred original is of as much of it as could be decoded (the rest is grey).');
		expect(damaged.binary).toBeDefined();
	});
});

describe('each object’s crop', () => {
	const settings = { padding: 0, minSide: 8, field: 'crop' };

	it('is a JPEG per object named by its place in the order, upright, none for an object whose box is not known', async () => {
		const objects = [detection('car', { x: 0, y: 0, width: 0.5, height: 0.5 }), detection('car', null), detection('dog', { x: 0.5, y: 0.5, width: 0.5, height: 0.25 })];
		const { crops, warnings } = await objectCrops.call(context(), 0, asBase64(photo(64, 32), 'street.png', 6), objects, settings, undefined);
		expect(crops.map((crop) => crop?.fileName)).toEqual(['street.crop-1.jpg', undefined, 'street.crop-3.jpg']);
		// upright, the photo is 32 × 64: the first object is its top-left quarter
		expect([decoded(crops[0]).width, decoded(crops[0]).height]).toEqual([16, 32]);
		expect(warnings).toEqual(['The image’s size is unknown: objects without a relativeBox carry no crop.']);
	});

	it('is none at all, with the reason, for a URL, a box to blur it cannot place, a file it cannot read or store; of what it can decode of a damaged file', async () => {
		const objects = [detection('car', { x: 0, y: 0, width: 0.5, height: 0.5 })];
		const says = (reason: string) => ({ crops: [], warnings: [`The node could not crop the objects: ${reason}; the items carry no crops.`] });
		expect(await objectCrops.call(context(), 0, URL_IMAGE, objects, settings, undefined)).toEqual(says('an image URL gives the node no file'));
		const unplaced: HideRequest = { labels: ['person'], effect: 'blur', placed: [detection('person', null)] };
		expect(await objectCrops.call(context(), 0, asBase64(photo(32, 32), 'a.jpg'), objects, settings, unplaced)).toEqual(says('the image’s size is unknown, so the boxes to blur cannot be placed'));
		expect((await objectCrops.call(context(), 0, asBase64(Buffer.from('text'), 'a.txt'), objects, settings, undefined)).warnings[0]).toMatch(/^The node could not crop the objects: .+; the items carry no crops\.$/);
		expect(await objectCrops.call(context(new Error('the disk is full')), 0, asBase64(photo(32, 32), 'a.jpg'), objects, settings, undefined)).toEqual(says('the disk is full'));
		const whole = photo(256, 256);
		const damaged = await objectCrops.call(context(), 0, asBase64(whole.subarray(0, Math.floor(whole.length * 0.6)), 'a.jpg'), objects, settings, undefined);
		expect(damaged.crops).toHaveLength(1);
		expect(damaged.warnings).toEqual(['The image’s file is damaged: the crops are of as much of it as could be decoded (the rest is grey).']);
	});
});

describe('a box to hide whose frame is a guess (a photo stored turned, the service’s answer not saying which way it read it)', () => {
	/** A JPEG of `width` × `height` in black and white squares of 2 pixels: fine detail everywhere. */
	function checkered(width: number, height: number): Buffer {
		const data = Buffer.alloc(width * height * 4);
		for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set((x >> 1) % 2 === (y >> 1) % 2 ? [250, 250, 250, 255] : [5, 5, 5, 255], (y * width + x) * 4);
		return jpeg.encode({ width, height, data }, 95).data;
	}
	/** The mean difference between neighbouring pixels' red in the area: about 120 on the squares, 0 where pixelated. */
	function detailIn(file: IBinaryData | undefined, area: { left: number; top: number; right: number; bottom: number }): number {
		const { width, data } = decoded(file);
		let sum = 0;
		let count = 0;
		for (let y = area.top; y < area.bottom; y++) {
			for (let x = area.left; x < area.right - 1; x++) {
				sum += Math.abs(data[(y * width + x) * 4] - data[(y * width + x + 1) * 4]);
				count++;
			}
		}
		return sum / count;
	}
	// stored 64 × 32, shown turned a quarter clockwise (6): 32 × 64 upright; the service's box at 0,0 16 × 16
	const person: PlacedDetection = { label: 'person', confidence: 0.9, x: 0, y: 0, width: 16, height: 16, relativeBox: { x: 0.5, y: 0, width: 0.5, height: 0.25 } };
	const asStored = { left: 20, top: 2, right: 30, bottom: 12 };
	const asIfUpright = { left: 2, top: 2, right: 12, bottom: 12 };
	const image = asBase64(checkered(64, 32), 'IMG_1.jpg', 6);

	it('is hidden where the stored pixels put it, and only there when no other picture is given', async () => {
		const blurred = await hiddenOriginal.call(context(), 0, image, { labels: ['person'], effect: 'pixelate', placed: [person] });
		expect(detailIn(blurred.binary, asStored)).toBeLessThan(10);
		expect(detailIn(blurred.binary, asIfUpright)).toBeGreaterThan(60);
	});

	it('is hidden also where it would be were the box in the other picture it may be in (here the upright one)', async () => {
		const blurred = await hiddenOriginal.call(context(), 0, image, { labels: ['person'], effect: 'pixelate', placed: [person], otherPicture: { width: 32, height: 64 } });
		expect(detailIn(blurred.binary, asStored)).toBeLessThan(10);
		expect(detailIn(blurred.binary, asIfUpright)).toBeLessThan(10);
	});

	it('is hidden also where the stored pixels put it when it was placed as upright (a square photo’s picture can mislead)', async () => {
		const placedUpright = { ...person, relativeBox: { x: 0, y: 0, width: 0.5, height: 0.25 } };
		const blurred = await hiddenOriginal.call(context(), 0, image, { labels: ['person'], effect: 'pixelate', placed: [placedUpright], otherPicture: { width: 64, height: 32, orientation: 6 } });
		expect(detailIn(blurred.binary, asIfUpright)).toBeLessThan(10);
		expect(detailIn(blurred.binary, asStored)).toBeLessThan(10);
	});

	it('hides nothing of a label not to hide, in either place', async () => {
		const car = { ...person, label: 'car' };
		const blurred = await hiddenOriginal.call(context(), 0, image, { labels: ['person'], effect: 'pixelate', placed: [car], otherPicture: { width: 32, height: 64 } });
		expect(detailIn(blurred.binary, asStored)).toBeGreaterThan(60);
		expect(detailIn(blurred.binary, asIfUpright)).toBeGreaterThan(60);
	});
});
