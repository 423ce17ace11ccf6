/**
 * A detection answer for a crowded street photo: more objects than the reference server's colour
 * model ever finds (it stops at 20), for the tests that need a big result. Deterministic, checked
 * against the contract, with counts per label that agree with its detections.
 */
import type { DetectResult } from '../../nodes/ImageInference/contract';
import { detectResultSchema } from '../../nodes/ImageInference/contract';

const MIX: Array<[label: string, share: number]> = [
	['person', 0.4],
	['car', 0.3],
	['bicycle', 0.16],
	['dog', 0.08],
	['traffic light', 0.06],
];

/** `count` detections (default 50) spread over a 1920×1080 frame, with an annotated image if given. */
export function crowdedScene(count = 50, annotatedImage: string | null = null): DetectResult {
	const labels: string[] = [];
	for (const [label, share] of MIX) labels.push(...Array<string>(Math.round(count * share)).fill(label));
	while (labels.length < count) labels.push(MIX[0][0]);
	labels.length = count;

	const columns = Math.ceil(Math.sqrt(count * 16 / 9));
	const detections = labels.map((label, index) => {
		const column = index % columns;
		const row = Math.floor(index / columns);
		return {
			label,
			// like a real model: long floats, confidences spread between 0.97 and 0.31
			confidence: 0.9713257 - (0.66 * index) / Math.max(1, count - 1) + (index % 3) * 0.0001234,
			x: 12.345678 + column * (1900 / columns),
			y: 8.765432 + row * 96.54321,
			width: 61.2345 + (index % 4) * 7.5,
			height: 88.6543 + (index % 5) * 6.25,
		};
	});
	const labelsCount = MIX.map(([label]) => ({ label, total: labels.filter((name) => name === label).length })).filter(
		(entry) => entry.total > 0,
	);
	return detectResultSchema.strict().parse({ detections, image: annotatedImage, labelsCount });
}
