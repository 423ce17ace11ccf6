import type { DetectedObject, LabelCount } from '../contract';

/** What the node keeps of the service's detections; the service itself has no such filters. */
export interface DetectionFilter {
	/** Labels to keep, exactly as the service spells them; undefined keeps all. */
	onlyLabels?: string[];
	ignoreLabels?: string[];
	/** Keep the most confident this many, most confident first. */
	maxObjects?: number;
	/** A further test each object must pass before Max Objects (zones, object size). */
	keep?: (detection: DetectedObject) => boolean;
}

/** How many of the service's objects each filter left out (the label filters, then zones and sizes, then Max Objects). */
export interface RemovedCounts {
	onlyLabels: number;
	ignoreLabels: number;
	/** Only Objects in Zones, Min and Max Object Size. */
	zonesAndSizes: number;
	maxObjects: number;
}

/** The objects the filters keep, and how many each filter left out. */
export function filterDetections(
	detections: DetectedObject[],
	filter: DetectionFilter,
): { kept: DetectedObject[]; removed: RemovedCounts } {
	const only = filter.onlyLabels && new Set(filter.onlyLabels);
	const ignore = new Set(filter.ignoreLabels ?? []);
	const listed = only ? detections.filter((detection) => only.has(detection.label)) : detections;
	const labelled = listed.filter((detection) => !ignore.has(detection.label));
	const placed = filter.keep ? labelled.filter(filter.keep) : labelled;
	const kept = filter.maxObjects === undefined ? placed : [...placed].sort((a, b) => b.confidence - a.confidence).slice(0, filter.maxObjects);
	return {
		kept,
		removed: {
			onlyLabels: detections.length - listed.length,
			ignoreLabels: listed.length - labelled.length,
			zonesAndSizes: labelled.length - placed.length,
			maxObjects: placed.length - kept.length,
		},
	};
}

/**
 * Counts per label of the detections kept, in the order the service listed its labels (labels it
 * did not list follow in order of first appearance).
 */
export function countLabels(detections: DetectedObject[], serviceCounts: LabelCount[]): LabelCount[] {
	const totals = new Map<string, number>();
	for (const { label } of serviceCounts) totals.set(label, 0);
	for (const { label } of detections) totals.set(label, (totals.get(label) ?? 0) + 1);
	return [...totals].filter(([, total]) => total > 0).map(([label, total]) => ({ label, total }));
}

/** The counts as `{ label: total }`, for expressions such as `$json.countsByLabel.car`. */
export function countsByLabel(labelsCount: LabelCount[]): Record<string, number> {
	return Object.fromEntries(labelsCount.map(({ label, total }) => [label, total]));
}

/** "2 car, 1 person", or "nothing detected": ready for a message. */
export function summarizeCounts(labelsCount: LabelCount[]): string {
	return labelsCount.length ? labelsCount.map(({ label, total }) => `${total} ${label}`).join(', ') : 'nothing detected';
}

/** A label list from a comma-separated text or (from an expression) an array; blanks dropped. */
export function parseLabelList(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [String(value)];
	const labels = parts.map((label) => label.trim()).filter(Boolean);
	return [...new Set(labels)];
}
