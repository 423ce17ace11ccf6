import type { LabelCount } from '../contract';
import { countOneMore, ownField, setOwnField } from './records';
import type { ImageFacts, PlacedDetection } from './types';

/** What the kept detections add up to, in the order an output item lists it. */
export interface DetectionCounts {
	labelsCount: LabelCount[];
	/** `{ label: total }`, for expressions such as `$json.countsByLabel.car`. */
	countsByLabel: Record<string, number>;
	/** `{ zone: { label: count } }`, with zones set. */
	countsByZone?: Record<string, Record<string, number>>;
	totalDetections: number;
	/** "2 car, 1 person", or "nothing detected": ready for a message. */
	summary: string;
}

export function countDetections(kept: PlacedDetection[], serviceCounts: LabelCount[], image: ImageFacts): DetectionCounts {
	const labelsCount = countLabels(kept, serviceCounts);
	return {
		labelsCount,
		countsByLabel: Object.fromEntries(labelsCount.map(({ label, total }) => [label, total])),
		...(image.zones.length ? { countsByZone: countsByZone(image, kept) } : {}),
		totalDetections: kept.length,
		summary: labelsCount.length ? labelsCount.map(({ label, total }) => `${total} ${label}`).join(', ') : 'nothing detected',
	};
}

/**
 * Counts per label of the detections kept, in the order the service listed its labels (labels it
 * did not list follow in order of first appearance).
 */
export function countLabels(detections: PlacedDetection[], serviceCounts: LabelCount[]): LabelCount[] {
	const totals = new Map<string, number>();
	for (const { label } of serviceCounts) totals.set(label, 0);
	for (const { label } of detections) totals.set(label, (totals.get(label) ?? 0) + 1);
	return [...totals].filter(([, total]) => total > 0).map(([label, total]) => ({ label, total }));
}

/** `{ zone: { label: count } }` for every zone, in the order the zones are set (an empty zone is `{}`). */
function countsByZone(image: ImageFacts, detections: PlacedDetection[]): Record<string, Record<string, number>> {
	const counts: Record<string, Record<string, number>> = {};
	for (const { name } of image.zones) setOwnField(counts, name, {});
	for (const detection of detections) {
		for (const zone of detection.zones ?? []) countOneMore(ownField(counts, zone)!, detection.label);
	}
	return counts;
}
