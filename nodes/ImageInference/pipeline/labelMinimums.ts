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
 * In a text, entries are separated by commas, semicolons or line breaks. Some labels hold a comma
 * (ImageNet's "tench, Tinca tinca"): an object or a list from an expression gives them, each list
 * item one entry, split no further.
 */
const ENTRY_SEPARATOR = /[,;\r\n]/;
/** The quotes a label or minimum may be written in, each opening one with its closing one. */
const QUOTE_PAIRS: Record<string, string> = { '"': '"', "'": "'", '`': '`', '“': '”', '‘': '’', '„': '“', '‚': '‘', '«': '»', '»': '«', '‹': '›', '「': '」', '『': '』' };
/** What a label cannot start or end with once its own quotes are off: a quote or a bracket left by JSON-like text. */
const STRAY_MARK = /^["'`“”‘’„‚«»‹›「」『』{}[\]]|["'`“”‘’„‚«»‹›「」『』{}[\]]$/;
/** A list's mark before a label, as a bulleted or numbered list or YAML writes one: "- person: 0.7", "1. person: 0.7". */
const LIST_MARK = /^(?:[-–—•*]|\d{1,3}[.)])\s/;
/** A label written as a pattern ("*car", "vehicle*"): labels are matched exactly, and * alone is every other label. */
const PATTERN = /^\*.|.\*$/;
/**
 * A label that holds a whole entry and the start of another: "person: 0.7 car" of "person: 0.7
 * car: 0.4", "person: 0.7car" of "person: 0.7car: 0.4", "person:0.7:car" of "person:0.7:car:0.4".
 * A number after a colon is taken to end an entry when more than digits, a dot or a colon follows
 * it, or a colon and more than those (a label "time: 12:00" stays one).
 */
const TWO_ENTRIES = /:\s*-?(\d+(\.\d*)?|\.\d+)(?=\s*[^\s\d.:]|\s*:\s*[^\s\d.:])/;
/** A minimum written with a decimal comma, "person: 0,7", which the commas between entries would split. */
const DECIMAL_COMMA = /:\s*["'`“‘„‚«»‹›「『]?(-?\d+,\d+)["'`”’“‘»«›‹」』]?\s*(?=$|[,;\r\n}])/;

/** A text without the one pair of quotes around it, if it has one. */
function unquoted(text: string): string {
	const closing = QUOTE_PAIRS[text.charAt(0)];
	return text.length >= 2 && closing !== undefined && text.endsWith(closing) ? text.slice(1, -1).trim() : text;
}

/** The entries as written: a text split into its entries (JSON-like text's braces taken off); a list or an object as it is. */
function writtenEntries(value: unknown, fail: (message: string) => never): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	const decimalComma = DECIMAL_COMMA.exec(text)?.[1];
	if (decimalComma !== undefined) fail(decimalCommaMessage(decimalComma));
	return (text.startsWith('{') && text.endsWith('}') ? text.slice(1, -1) : text).split(ENTRY_SEPARATOR);
}

const decimalCommaMessage = (minimum: string) =>
	`the minimum ${shownValue(minimum)} has a decimal comma: write it with a decimal point (${minimum.replace(',', '.')}); commas separate the entries`;

/**
 * Reads Minimum Confidence per Label of one item: text ("person: 0.7, car: 0.4, *: 0.3"; entries
 * may be separated by semicolons or lines too, and labels and minimums written in quotes, as in
 * JSON), or from an expression an object ({ person: 0.7 }) or a list of texts, one entry each
 * (["tench, Tinca tinca: 0.5"]). Blank: no minimums. A label no detection carries is no error (models differ); what cannot be meant is.
 */
export function readLabelMinimums(this: IExecuteFunctions, itemIndex: number, options: IDataObject): Pick<DetectionOptions, 'labelMinimums'> {
	const value = options.minConfidenceByLabel;
	if (value === undefined || value === null) return {};
	const fail = (message: string): never => {
		throw new NodeOperationError(this.getNode(), `${OPTION}: ${message}`, { itemIndex, description: FORMAT });
	};
	const minimums: LabelMinimums = { byLabel: [] };
	const seen = new Map<string, number>();
	const inText = typeof value === 'string';
	for (const [written, raw] of namedEntries(writtenEntries(value, fail), 'label: minimum', fail)) {
		const label = unquoted(written);
		if (label === '') fail(`an entry has no label before its colon`);
		// typed in the text without quotes: what a list or a pattern puts around a label; quoted, or a key or item from an expression, the label is exact
		const typed = inText && label === written;
		if (typed && LIST_MARK.test(label)) fail(`the label ${shownValue(label)} starts with a list’s mark: write each entry as label: minimum, on a line of its own or separated by commas (or the label in quotes if it is spelled so)`);
		if (typed && PATTERN.test(label)) fail(`the label ${shownValue(label)} is a pattern: labels are matched exactly as the service spells them, and ${OTHER_LABELS} alone sets every other label (write the label in quotes if it is spelled so)`);
		if (STRAY_MARK.test(label)) fail(`the label ${shownValue(label)} starts or ends with a quote or a bracket: write each label as the service spells it, e.g. person: 0.7`);
		if (TWO_ENTRIES.test(label)) fail(`${shownValue(`${label}: ${String(raw)}`)} holds more than one entry: separate the entries with commas, or give each its own item in a list`);
		const text = typeof raw === 'string' ? unquoted(raw) : raw;
		if (typeof text === 'string' && /^-?\d+,\d+$/.test(text)) fail(decimalCommaMessage(text));
		const minimum = numberFromText(text);
		if (typeof minimum !== 'number' || !(minimum >= 0 && minimum <= 1)) return fail(`the minimum for "${truncate(label, 40)}" must be a number from 0 to 1, got ${shownValue(raw)}`);
		const before = seen.get(label);
		if (before !== undefined && before !== minimum) fail(`"${truncate(label, 40)}" is given twice, with ${before} and ${minimum}`);
		if (before !== undefined) continue;
		seen.set(label, minimum);
		if (label === OTHER_LABELS) minimums.others = minimum;
		else minimums.byLabel.push([label, minimum]);
	}
	return seen.size > 0 ? { labelMinimums: minimums } : {};
}
