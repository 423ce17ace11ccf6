import { startCamera } from '../watch/camera';
import { CAR, DOG, carItem, detectParameters, failureOf, useServer, asServiceSent } from './setup';

describe('Detect Objects', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('returns the server’s detections, counts and the annotated image as an n8n file', async () => {
		const { items, bytes } = await run(detectParameters(server()), [carItem()]);
		const expected = server().predict('detect', CAR, {}) as {
			detections: unknown[];
			labelsCount: Array<{ label: string; total: number }>;
			image: string;
		};
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(asServiceSent(item.json.detections)).toEqual(expected.detections);
		expect(item.json.labelsCount).toEqual(expected.labelsCount);
		expect(expected.detections.length).toBeGreaterThan(0);
		expect(item.json.totalDetections).toBe(expected.detections.length);
		expect(item.json.countsByLabel).toEqual(
			Object.fromEntries(expected.labelsCount.map(({ label, total }) => [label, total])),
		);
		expect(JSON.stringify(item.json)).not.toContain(expected.image.slice(0, 40));
		expect(item.binary?.data.fileName).toBe('car.annotated.jpg');
		expect(item.binary?.data.mimeType).toBe('image/jpeg');
		expect(bytes(item, 'data').equals(Buffer.from(expected.image, 'base64'))).toBe(true);
		expect(bytes(item, 'data').equals(CAR)).toBe(false);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('sends only the image when no option is set', async () => {
		await run(detectParameters(server()), [carItem()]);
		const [received] = server().requests;
		expect(received.path).toBe(`/predict/detect/${server().models.detect}/`);
		// the contract: "Requests carry the header Content-Type: application/json" (the body goes as bytes,
		// which an HTTP client would otherwise label application/octet-stream)
		expect(received.headers['content-type']).toBe('application/json');
		expect(Object.keys(received.body as object)).toEqual(['image']);
		expect((received.body as { image: string }).image).toBe(CAR.toString('base64'));
	});

	it('sends every option by its snake_case name, keeping 0 and false', async () => {
		const { items } = await run(
			detectParameters(server(), {
				options: { confidence: 0, annotate: false, showConfidence: false, strokeWidth: 5 },
			}),
			[carItem()],
		);
		expect(server().requests[0].body).toEqual({
			image: CAR.toString('base64'),
			confidence: 0,
			annotate: false,
			show_prob: false,
			stroke_width: 5,
		});
		// annotate=false: the service returns image null, so no annotated file and no error
		expect(items[0].json.totalDetections).toBe(
			(server().predict('detect', CAR, { confidence: 0, annotate: false }) as { detections: unknown[] }).detections.length,
		);
		expect(items[0].binary?.data.fileName).toBe('car.jpg');
	});

	it('leaves the confidence threshold to the service: sends it, and lists exactly what came back', async () => {
		const { items } = await run(detectParameters(server(), { options: { confidence: 0.9 } }), [carItem()]);
		expect(server().requests[0].body).toMatchObject({ confidence: 0.9 });
		const answered = server().predict('detect', CAR, { confidence: 0.9 }) as { detections: unknown[] };
		expect(asServiceSent(items[0].json.detections)).toEqual(answered.detections);
		expect(items[0].json.totalDetections).toBe(answered.detections.length);
	});

	it('puts the annotated image in the chosen field and passes the other binaries through', async () => {
		const { items, bytes } = await run(detectParameters(server(), { options: { annotatedImageField: 'annotated' } }), [
			{ binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' }, extra: { bytes: Buffer.from('%PDF-1.4'), fileName: 'a.pdf' } } },
		]);
		const [item] = items;
		expect(Object.keys(item.binary ?? {}).sort()).toEqual(['annotated', 'data', 'extra']);
		expect(bytes(item, 'data').equals(CAR)).toBe(true);
		expect(item.binary?.annotated.fileName).toBe('car.annotated.jpg');
		expect(item.binary?.annotated.mimeType).toBe('image/jpeg');
	});

	it('takes the image by URL: the address is sent, the downloaded picture’s detections come back', async () => {
		const url = server().hostImage(CAR, 'image/jpeg');
		const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url }), [{ json: {} }]);
		expect((server().requests[0].body as { image: string }).image).toBe(url);
		expect(asServiceSent(items[0].json.detections)).toEqual((server().predict('detect', CAR, {}) as { detections: unknown[] }).detections);
	});

	it.each([
		['a file name written with %20', 'photos/front%20door.jpg', 'front door.annotated.jpg'],
		['an address ending in a slash', 'cameras/porch/', 'porch.annotated.jpg'],
		['a name whose % escape is broken, kept as written', 'snap%E0%A4%A.jpg', 'snap%E0%A4%A.annotated.jpg'],
	])('by URL, %s: the annotated picture is named after the last part of the address', async (_, path, fileName) => {
		const url = server().hostImage(CAR, 'image/jpeg', path);
		const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url }), [{ json: {} }]);
		expect(items[0].binary?.data.fileName).toBe(fileName);
	});

	it('by URL, an address with no path at all (a camera serving its snapshot at its root): the picture is named "image"', async () => {
		const camera = await startCamera(['carInZone'], { path: '/' });
		try {
			const url = new URL(camera.snapshotUrl).origin;
			const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: url }), [{ json: {} }]);
			expect(items[0].json.totalDetections).toBeGreaterThan(0);
			expect(items[0].binary?.data.fileName).toBe('image.annotated.jpg');
		} finally {
			await camera.close();
		}
	});

	it('by URL: the address is sent without the spaces around it, and the item’s own files stay on it', async () => {
		const url = server().hostImage(CAR, 'image/jpeg', 'car.jpg');
		const { items } = await run(detectParameters(server(), { imageSource: 'url', imageUrl: `  ${url}\n` }), [
			{ json: {}, binary: { scan: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } },
		]);
		expect((server().requests[0].body as { image: string }).image).toBe(url);
		expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['data', 'scan']);
		expect(items[0].binary?.scan.fileName).toBe('dog.jpg');
		expect(items[0].binary?.data.fileName).toBe('car.annotated.jpg');
	});

	it('takes the image as base64, dropping white space, a data: prefix and line breaks', async () => {
		const base64 = CAR.toString('base64');
		// as pasted: a line break before the prefix, the text wrapped at 76 characters
		const wrapped = `\n  data:image/jpeg;base64,${base64.replace(/(.{76})/g, '$1\n')}\n`;
		const { items } = await run(detectParameters(server(), { imageSource: 'base64', imageBase64: wrapped }), [{ json: {} }]);
		expect((server().requests[0].body as { image: string }).image).toBe(base64);
		expect(items[0].binary?.data.fileName).toBe('image.annotated.jpg');
	});

	it('names the annotated picture after the file, or "image" when the name is only an extension', async () => {
		const named = async (fileName: string) =>
			(await run(detectParameters(server()), [{ binary: { data: { bytes: CAR, fileName, mimeType: 'image/jpeg' } } }])).items[0].binary?.data.fileName;
		expect(await named('driveway.cam-2.jpeg')).toBe('driveway.cam-2.annotated.jpg');
		expect(await named('.jpg')).toBe('image.annotated.jpg');
	});

	it('refuses an operation it does not have, naming it', async () => {
		const failure = await failureOf(run(detectParameters(server(), { operation: 'segment' }), [carItem()]));
		expect(failure.message).toBe('The operation "segment" is not supported');
		expect(server().requests).toHaveLength(0);
	});

	it('finds the model ID inside a pasted dashboard link', async () => {
		const link = `https://app.epigos.ai/workspace/models/${server().models.detect.toUpperCase()}/details`;
		const { items } = await run(detectParameters(server(), { modelId: link }), [carItem()]);
		expect(server().requests[0].path).toBe(`/predict/detect/${server().models.detect}/`);
		expect(items[0].json.totalDetections).toBeGreaterThan(0);
	});

	it('yields one item per input, in order, each paired with its input', async () => {
		const inputs = Array.from({ length: 12 }, (_, index) => ({ ...carItem(), json: { index } }));
		const { items } = await run(detectParameters(server(), { options: { concurrency: 4 } }), inputs);
		expect(items.map((item) => item.pairedItem)).toEqual(inputs.map((_, item) => ({ item })));
		expect(server().requests).toHaveLength(12);
	});

	it('tolerates a field the service adds later', async () => {
		server().addFault({ action: { type: 'extra-field' } });
		const { items } = await run(detectParameters(server()), [carItem()]);
		expect(items[0].json.totalDetections).toBeGreaterThan(0);
		expect(Object.keys(items[0].json).sort()).toEqual(
			['countsByLabel', 'detections', 'field', 'fileName', 'imageHeight', 'imageWidth', 'labelsCount', 'summary', 'totalDetections'],
		);
	});
});
