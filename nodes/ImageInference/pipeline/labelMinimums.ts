import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ClassifyResult } from '../contract';
import { namedEntries, numberFromText, shownValue, truncate } from '../parameters/readers';
import { madeOncePer } from './madeOnce';
import type { DetectionOptions, DetectionStep, LabelMinimums } from './types';

const OPTION = 'Minimum Confidence per Label';
/** The entry that sets the minimum of every label not named. */
export const OTHER_LABELS = '*';
const FORMAT = `Write each entry as label: minimum (a number from 0 to 1), separated by commas, with ${OTHER_LABELS} for every other label, e.g. "person: 0.7, car: 0.4, ${OTHER_LABELS}: 0.3".`;

/** Minimum Confidence per Label: labels matched exactly as the service spells them (case counts), like the label filters. */
export const labelMinimums: DetectionStep = {
	key: 'labelMinimums',
	name: OPTION,
	keep(detections, _image, { labelMinimums: minimums }) {
		if (!minimums) return detections;
		const meetsMinimum = meetsLabelMinimum(minimums);
		return detections.filter((detection) => meetsMinimum(detection.label, detection.confidence));
	},
};

/** Each minimums' test, made once: the items of a run share their options (readDetectionOptions). */
const meetsLabelMinimum = madeOncePer((minimums: LabelMinimums): ((label: string, confidence: number) => boolean) => {
	const byLabel = new Map(minimums.byLabel);
	return (label, confidence) => confidence >= (byLabel.get(label) ?? minimums.others ?? 0);
});

/** A classification whose category no prediction meeting its minimum supports. */
export interface UnsureClassification {
	category: null;
	confidence: null;
	predictions: ClassifyResult['predictions'];
}

/**
 * Classify's Minimum Confidence per Label: the predictions under their category's minimum are
 * left out. The category stays the service's when it meets its own minimum; otherwise it is the
 * most confident prediction kept (the first of equals, as the service's order of predictions is
 * not specified), and null with its confidence when none is kept.
 */
export function classificationAboveMinimums(result: ClassifyResult, minimums: LabelMinimums | undefined): ClassifyResult | UnsureClassification {
	if (!minimums) return result;
	const meetsMinimum = meetsLabelMinimum(minimums);
	const predictions = result.predictions.filter((prediction) => meetsMinimum(prediction.category, prediction.confidence));
	if (meetsMinimum(result.category, result.confidence)) return { ...result, predictions };
	const best = predictions.reduce<(typeof predictions)[number] | undefined>((most, prediction) => (most && most.confidence >= prediction.confidence ? most : prediction), undefined);
	return best ? { category: best.category, confidence: best.confidence, predictions } : { category: null, confidence: null, predictions };
}

/**
 * Reads Minimum Confidence per Label of one item: text ("person: 0.7, car: 0.4, *: 0.3"), or from
 * an expression an object ({ person: 0.7 }) or a list of such texts. Blank: no minimums.
 */
export function readLabelMinimums(this: IExecuteFunctions, itemIndex: number, options: IDataObject): Pick<DetectionOptions, 'labelMinimums'> {
	const value = options.minConfidenceByLabel;
	if (value === undefined || value === null) return {};
	const fail = (message: string): never => {
		throw new NodeOperationError(this.getNode(), `${OPTION}: ${message}`, { itemIndex, description: FORMAT });
	};
	const entries = namedEntries(value, 'label: minimum', fail);
	const minimums: LabelMinimums = { byLabel: [] };
	const seen = new Set<string>();
	for (const [label, raw] of entries) {
		if (label === '') fail(`an entry has no label before its colon`);
		if (seen.has(label)) fail(`"${truncate(label, 40)}" is given twice`);
		seen.add(label);
		const minimum = numberFromText(raw);
		if (typeof minimum !== 'number' || !(minimum >= 0 && minimum <= 1)) return fail(`the minimum for "${truncate(label, 40)}" must be a number from 0 to 1, got ${shownValue(raw)}`);
		if (label === OTHER_LABELS) minimums.others = minimum;
		else minimums.byLabel.push([label, minimum]);
	}
	return seen.size > 0 ? { labelMinimums: minimums } : {};
}
