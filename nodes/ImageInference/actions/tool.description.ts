import type { INodeProperties } from 'n8n-workflow';

import { MAX_TOOL_DETECTIONS, MAX_TOOL_LABELS, MAX_TOOL_PREDICTIONS } from '../output/toolResult';

export const TOOL_DESCRIPTION =
	'Runs the user’s own deployed computer-vision model on one image. Two operations, as this tool is set up: ' +
	'Detect Objects (finds objects, with a bounding box and a count per label) or Classify Image (the image’s category). ' +
	'Pass the model ID (a UUID) and the image as an http(s) URL or as base64 text. ' +
	`Returns compact JSON. Detect Objects: {totalDetections, countsByLabel: {label: count}, detections: up to ${MAX_TOOL_DETECTIONS} of {label, confidence 0-1, x, y, width, height}, most confident first, detectionsNotListed; past ${MAX_TOOL_LABELS} labels, the rest summed in otherLabels: {labels, detections}; with zones set, countsByZone: {zone: {label: count}}}. ` +
	`Classify Image: {category, confidence, predictions: up to ${MAX_TOOL_PREDICTIONS} of {category, confidence}, predictionsNotListed}. ` +
	'On failure: {error, description, status} saying what went wrong and what to check (for example an unknown model ID; status is the HTTP status when the service answered). No image is returned.';

/**
 * The text the agent reads about this tool, in the tool's panel only (`@tool`). Because the node
 * declares it, n8n uses it instead of its generated one-line "Detect objects in an image" text.
 */
export const toolDescriptionProperty: INodeProperties = {
	displayName: 'Tool Description',
	name: 'toolDescription',
	type: 'string',
	default: TOOL_DESCRIPTION,
	typeOptions: { rows: 6 },
	displayOptions: { show: { '@tool': [true] } },
	description:
		'What the AI Agent reads about this tool: what it does, what to pass and what comes back. Edit it to tell the agent about your model (its labels, what they mean).',
};
