import type { INodeProperties } from 'n8n-workflow';

import { MAX_TOOL_DETECTIONS, MAX_TOOL_LABELS, MAX_TOOL_PREDICTIONS, MAX_TOOL_STAYS } from '../output/toolResult';

const THE_IMAGE =
	'The image is the one this tool is set up to read: a photo sent in the conversation, or an http(s) URL or base64 text where the tool asks for one. ';
const ON_FAILURE =
	'On failure: {error, description, status} saying what went wrong and what to check (for example an unknown model ID; status is the HTTP status when the service answered). No image is returned.';

/** What the agent reads about the tool by default: the operation the node is set to, what it reads, what comes back. */
const DETECT_TOOL_DESCRIPTION =
	'Finds objects in one image with the user’s own deployed object-detection model: each with a label and a bounding box, and a count per label. ' +
	THE_IMAGE +
	`Returns compact JSON: {totalDetections, countsByLabel: {label: count}, detections: up to ${MAX_TOOL_DETECTIONS} of {label, confidence 0-1, x, y, width, height}, most confident first, detectionsNotListed; past ${MAX_TOOL_LABELS} labels, the rest summed in otherLabels: {labels, detections}; with zones set, countsByZone: {zone: {label: count}}; with tracking on, overstays: up to ${MAX_TOOL_STAYS} of {trackId, label, zone, minutes, new} and departed: {trackId, label, minutes}}. ` +
	ON_FAILURE;
const CLASSIFY_TOOL_DESCRIPTION =
	'Classifies one image with the user’s own deployed image-classification model: the category it belongs to. ' +
	THE_IMAGE +
	`Returns compact JSON: {category, confidence, predictions: up to ${MAX_TOOL_PREDICTIONS} of {category, confidence}, predictionsNotListed}; category and confidence are null when no prediction is sure enough. ` +
	ON_FAILURE;
export const TOOL_DESCRIPTIONS = { detect: DETECT_TOOL_DESCRIPTION, classify: CLASSIFY_TOOL_DESCRIPTION } as const;

/**
 * The text the agent reads about this tool, in the tool's panel only (`@tool`), one default per
 * operation. Because the node declares it, n8n uses it instead of its generated one-line text.
 */
function toolDescriptionFor(operation: keyof typeof TOOL_DESCRIPTIONS, text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 6 },
		displayOptions: { show: { '@tool': [true], operation: [operation] } },
		description:
			'What the AI Agent reads about this tool: what it does, what to pass and what comes back. Edit it to tell the agent about your model (its labels, what they mean).',
	};
}

export const toolDescriptionProperties: INodeProperties[] = [
	toolDescriptionFor('detect', DETECT_TOOL_DESCRIPTION),
	toolDescriptionFor('classify', CLASSIFY_TOOL_DESCRIPTION),
];
