import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DetectionOptions, DetectionStep } from './types';

/** Only These Labels: labels are matched exactly as the service spells them (case counts). */
export const onlyTheseLabels: DetectionStep = {
	key: 'onlyLabels',
	name: 'Only These Labels',
	keep(detections, _image, { onlyLabels }) {
		if (!onlyLabels) return detections;
		const only = new Set(onlyLabels);
		return detections.filter((detection) => only.has(detection.label));
	},
};

export const ignoreTheseLabels: DetectionStep = {
	key: 'ignoreLabels',
	name: 'Ignore These Labels',
	keep(detections, _image, { ignoreLabels }) {
		if (!ignoreLabels) return detections;
		const ignore = new Set(ignoreLabels);
		return detections.filter((detection) => !ignore.has(detection.label));
	},
};

/** Only These Labels and Ignore These Labels of one item. */
export function readLabelFilters(this: IExecuteFunctions, itemIndex: number, options: IDataObject): Pick<DetectionOptions, 'onlyLabels' | 'ignoreLabels'> {
	const filters: Pick<DetectionOptions, 'onlyLabels' | 'ignoreLabels'> = {};
	const only = parseLabelList(options.onlyLabels);
	if (only !== undefined) {
		if (only.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Only These Labels is empty', {
				itemIndex,
				description: 'Enter the labels to keep, separated by commas (e.g. "person, dog"), or remove the option to keep all objects.',
			});
		}
		filters.onlyLabels = only;
	}
	const ignore = parseLabelList(options.ignoreLabels);
	if (ignore?.length) filters.ignoreLabels = ignore;
	return filters;
}

/** A label list from a comma-separated text or (from an expression) an array; blanks dropped. */
export function parseLabelList(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [String(value)];
	const labels = parts.map((label) => label.trim()).filter(Boolean);
	return [...new Set(labels)];
}
