/**
 * Upload to Project's guidance: what a refused list of detections and a box outside the image tell
 * the user to do, and Annotations read as From Detections when a workflow leaves it unset (the
 * parameter's default in the editor).
 */
import { CAR, failureOf, useServer } from './setup';

describe('Upload to Project: what it tells the user to do', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const projectId = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
	beforeAll(() => server().addProject('object_detection', { id: projectId }));

	const parameters = (detections: unknown) => ({
		operation: 'uploadToProject',
		project: { mode: 'id', value: projectId },
		imageSource: 'binary',
		binaryPropertyName: 'data',
		batchName: 'guidance',
		detections,
		options: {},
	});
	const carPhoto = [{ json: {}, binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }];

	it('a list it cannot read says what each entry needs', async () => {
		const failure = await failureOf(run(parameters([{ label: 'car' }]), carPhoto));
		expect(failure.description).toBe(
			'Each entry needs a label and a box: x, y, width, height in the image’s pixels (as Detect Objects gives them), or a relativeBox of four fractions of the picture.',
		);
	});

	it('a box outside the image says the boxes must be in the uploaded image’s pixels', async () => {
		const failure = await failureOf(run(parameters([{ label: 'car', x: 600, y: 0, width: 100, height: 10 }]), carPhoto));
		expect(failure.description).toBe(
			'Boxes are taken in the uploaded image’s pixels. If the image was resized or cropped after Detect Objects, upload the image Detect Objects saw, or give each box as relativeBox (fractions of the picture).',
		);
	});

	it('Annotations left unset reads the detections, as the editor’s default does', async () => {
		const { items } = await run(parameters([{ label: 'car', x: 283, y: 183, width: 28, height: 22 }]), carPhoto);
		expect(items[0].json.upload).toMatchObject({ annotationCount: 1 });
	});
});
