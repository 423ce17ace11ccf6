/**
 * Upload to Project with the photo in each of n8n's binary data stores: the filesystem (2.x's
 * default; test/node/upload.test.ts), the database (queue mode's: a file is read whole) and memory
 * (1.x's default: base64 on the item, no id).
 */
import { sha256 } from '../reference-server';
import { CAR, useServer } from './setup';

describe('Upload to Project from each binary data store', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const projectId = '5e0c1b2a-3d4f-4a6b-8c9d-0e1f2a3b4c5d';
	beforeAll(() => server().addProject('object_detection', { id: projectId }));

	it.each(['database', 'default'] as const)('%s: the bytes stored are the photo’s, the box in its pixels', async (binaryMode) => {
		const before = server().projects(projectId)!.records.length;
		const { items } = await run(
			{
				operation: 'uploadToProject',
				project: { mode: 'url', value: `https://app.epigos.ai/projects/${projectId}` },
				imageSource: 'binary',
				binaryPropertyName: 'data',
				batchName: binaryMode,
				annotationSource: 'detections',
				detections: [{ label: 'car', x: 283, y: 183, width: 28, height: 22 }],
				options: {},
			},
			[{ json: {}, binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }],
			{ binaryMode },
		);
		const record = server().projects(projectId)!.records[before];
		expect(record).toMatchObject({ sha256: sha256(CAR), size: CAR.length, width: 676, height: 380 });
		expect(record.annotations[0].annotation).toMatchObject({ left: 283, top: 183, width: 28, height: 22 });
		expect(items[0].json.upload).toMatchObject({ recordId: record.id, batchName: binaryMode });
	});
});
