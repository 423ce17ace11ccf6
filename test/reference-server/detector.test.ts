import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { Candidate } from './detector';
import { fileModelHandler, loadDetector, nonMaxSuppression, resizeBilinear } from './detector';
import { decodeImage } from './image-codec';

const CAR = decodeImage(readFileSync(join(__dirname, '..', 'fixtures', 'car.jpg')));

describe('the object detector', () => {
	it('loads from the installed package’s files with the network cut off, and answers the same run after run', async () => {
		const realFetch = globalThis.fetch;
		globalThis.fetch = () => Promise.reject(new Error('no network in this test'));
		try {
			const detector = await loadDetector();
			const first = detector.candidates(CAR);
			const second = detector.candidates(CAR);
			expect(first.length).toBeGreaterThan(0);
			expect(second).toEqual(first);
			expect(first.map((c) => c.score)).toEqual([...first.map((c) => c.score)].sort((a, b) => b - a));
		} finally {
			globalThis.fetch = realFetch;
		}
	});

	it('reads model.json and every weight shard from disk', async () => {
		const modelJson = join(dirname(require.resolve('@vladmandic/human')), '..', 'models', 'centernet.json');
		const artifacts = await fileModelHandler(modelJson).load!();
		expect(artifacts.modelTopology).toBeDefined();
		expect((artifacts.weightData as ArrayBuffer).byteLength).toBe(statSync(join(dirname(modelJson), 'centernet.bin')).size);
	});
});

describe('resizeBilinear', () => {
	it('samples as tf.image.resizeBilinear does (no align-corners, no half-pixel centres), RGB only', () => {
		// 2×1 pixels, black then white (alpha ignored), to 4×4: x maps to x/2 in the source
		const image = { width: 2, height: 1, data: Buffer.from([0, 0, 0, 7, 255, 255, 255, 9]) };
		const out = resizeBilinear(image, 4);
		const row = Array.from({ length: 4 }, (_, x) => out[x * 3]);
		expect(row).toEqual([0, 127.5, 255, 255]);
		for (let y = 1; y < 4; y++) expect(Array.from(out.subarray(y * 12, y * 12 + 12))).toEqual(Array.from(out.subarray(0, 12)));
		expect([out[3], out[4], out[5]]).toEqual([127.5, 127.5, 127.5]);
	});
});

describe('nonMaxSuppression', () => {
	const candidate = (label: string, score: number, x: number, y = 0, size = 10): Candidate => ({ label, score, box: { x, y, width: size, height: size } });

	it('keeps the best of overlapping boxes whatever their labels, and every box that stands apart', () => {
		const car = candidate('car', 0.6, 0);
		const truckOnTheCar = candidate('truck', 0.4, 1);
		const carElsewhere = candidate('car', 0.2, 50);
		const touching = candidate('bus', 0.3, 7); // IoU 3×10 / (200 − 30) ≈ 0.18: a different object
		expect(nonMaxSuppression([truckOnTheCar, carElsewhere, touching, car], 0.4)).toEqual([car, touching, carElsewhere]);
	});
});
