import type { INodeProperties } from 'n8n-workflow';

import { CONFIDENCE_BOUNDS, MODEL_ID_REGEX, MODEL_URL_REGEX } from '../contract';
import { DEFAULT_BINARY_FIELD, DEFAULT_IMAGE_SOURCE } from '../input/imageInput';
import { OTHER_LABELS } from '../pipeline/labelMinimums';
import { CONCURRENCY_BOUNDS, DEFAULT_CONCURRENCY, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, RETRIES_BOUNDS, TIMEOUT_BOUNDS } from '../parameters/requestSettings';

const MODEL_ID_EXAMPLE = '4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f';

/**
 * The model, in two shapes by node version: version 1 keeps the plain text field its saved
 * workflows hold (an ID, an expression or a pasted link); from 1.1 a resource locator checks the
 * ID or link in the editor before any run. There is no From List mode: the service has no
 * endpoint that lists models.
 */
export const modelIdFields: INodeProperties[] = [
	{
		displayName: 'Model ID',
		name: 'modelId',
		type: 'string',
		required: true,
		default: '',
		placeholder: `e.g. ${MODEL_ID_EXAMPLE}`,
		description:
			'UUID of the deployed model, shown in its model details in the dashboard. Pasting a dashboard link that contains the ID works too.',
		displayOptions: { show: { '@version': [1] }, hide: { operation: ['uploadToProject'] } },
	},
	{
		displayName: 'Model',
		name: 'modelId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'id', value: '' },
		description: 'The deployed model, by its ID or by its link in the dashboard',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] }, hide: { operation: ['uploadToProject'] } },
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${MODEL_ID_EXAMPLE}`,
				hint: 'The model’s UUID, from its model details in the dashboard',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: MODEL_ID_REGEX,
							errorMessage: `Not a model ID: a model ID is a UUID, 36 characters like ${MODEL_ID_EXAMPLE}`,
						},
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://app.epigos.ai/…/models/${MODEL_ID_EXAMPLE}`,
				hint: 'The model’s page in the dashboard (its ID after “models/”; a model version’s link gives its model’s ID), the API’s …/predict/detect/<ID>/ link, or a link with ?model=<ID>',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: MODEL_URL_REGEX,
							errorMessage: `Not a model link: the link must name the model’s ID, like …/models/${MODEL_ID_EXAMPLE}, …/predict/detect/${MODEL_ID_EXAMPLE}/ or ?model=${MODEL_ID_EXAMPLE}`,
						},
					},
				],
				extractValue: { type: 'regex', regex: MODEL_URL_REGEX },
			},
		],
	},
];

export const imageSourceFields: INodeProperties[] = [
	{
		displayName: 'Image Source',
		name: 'imageSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'All Images on the Item',
				value: 'allImages',
				description:
					'Every binary field whose file is an image (e-mail attachments, a form’s multi-file field…), one result per image; other files are listed as skipped',
			},
			{
				name: 'Base64',
				value: 'base64',
				description: 'The image as a base64 text (a data: prefix is allowed)',
			},
			{
				name: 'Binary File',
				value: 'binary',
				description: 'An image file from a previous node (upload, Google Drive, Read Files…), or several named fields',
			},
			{
				name: 'Binary From Expression',
				value: 'binaryExpression',
				description:
					'A file object given by an expression, e.g. another node’s file: {{ $(\'When chat message received\').item.binary.data0 }}',
			},
			{
				name: 'URL',
				value: 'url',
				description: 'A publicly reachable image address; the service downloads it',
			},
		],
		default: DEFAULT_IMAGE_SOURCE,
		displayOptions: { hide: { operation: ['uploadToProject'] } },
		builderHint: {
			propertyHint:
				"Use 'binary' when a previous node put the image in a binary field (Form Trigger upload, HTTP Request file, Google Drive, Telegram); " +
				"'allImages' for items with several files such as e-mails or multi-file form fields (one result per image, other files skipped); " +
				"'url' only for a publicly reachable address, which the service downloads itself (Output Images original or both is then not possible); " +
				"'base64' only when the image is base64 text in the item's JSON; " +
				"'binaryExpression' when the file sits on another node's item (for example a Chat Trigger's upload read by an AI Agent's tool), its field then set to that node's binary file object.",
		},
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: DEFAULT_BINARY_FIELD,
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the image. Several fields: separate them with commas (one result per image).',
		displayOptions: { show: { imageSource: ['binary'] } },
	},
	{
		displayName: 'Binary File Reference',
		name: 'imageBinary',
		type: 'string',
		required: true,
		default: '',
		placeholder: "e.g. {{ $('When chat message received').item.binary.data0 }}",
		hint: 'An expression giving a file object (not its field name), for example from a node before an AI Agent',
		displayOptions: { show: { imageSource: ['binaryExpression'] } },
	},
	{
		displayName: 'Image URL',
		name: 'imageUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/photo.jpg',
		displayOptions: { show: { imageSource: ['url'] } },
	},
	{
		displayName: 'Base64 Image',
		name: 'imageBase64',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. /9j/4AAQSkZJRg… or data:image/jpeg;base64,/9j/…',
		displayOptions: { show: { imageSource: ['base64'] } },
	},
];

export const confidenceOption: INodeProperties = {
	displayName: 'Confidence Threshold',
	name: 'confidence',
	type: 'number',
	default: 0.5,
	typeOptions: { minValue: CONFIDENCE_BOUNDS.min, maxValue: CONFIDENCE_BOUNDS.max, numberPrecision: 2 },
	description:
		'Predictions below this confidence (0 to 1) are left out. When not set, the model’s own default applies.',
};

/** Minimum Confidence per Label, as Detect and Classify each apply it (`leavesOut`), with an example of labels for the placeholder. */
export const labelMinimumsOption = (leavesOut: string, example: string): INodeProperties => ({
	displayName: 'Minimum Confidence per Label',
	name: 'minConfidenceByLabel',
	type: 'string',
	default: '',
	placeholder: `e.g. ${example}, ${OTHER_LABELS}: 0.3`,
	description: `${leavesOut} label: minimum pairs, separated by commas (or semicolons or lines); ${OTHER_LABELS} sets every other label’s minimum. Labels are matched exactly as the service returns them (case counts); quotes around a label, as in JSON, are taken off. A label with a comma in it (ImageNet’s) goes in an expression’s list, one entry per item, or an object.`,
});

/** Options every operation shares: how requests are sent. */
export const requestOptions: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		default: DEFAULT_CONCURRENCY,
		typeOptions: { minValue: CONCURRENCY_BOUNDS.min, maxValue: CONCURRENCY_BOUNDS.max },
		description: 'How many images are sent at once. 1 sends them one at a time.',
	},
	{
		displayName: 'Retries',
		name: 'retries',
		type: 'number',
		default: DEFAULT_RETRIES,
		typeOptions: { minValue: RETRIES_BOUNDS.min, maxValue: RETRIES_BOUNDS.max },
		description:
			'How often to retry a request that was rate-limited (429), hit a temporarily unavailable service (502, 503, 504), lost its connection or timed out. Bad requests, bad keys and unknown models are never retried.',
	},
	{
		displayName: 'Timeout (Ms)',
		name: 'timeout',
		type: 'number',
		default: DEFAULT_TIMEOUT_MS,
		typeOptions: { minValue: TIMEOUT_BOUNDS.min, maxValue: TIMEOUT_BOUNDS.max },
		description: 'How long to wait for one answer before giving up on that attempt, in milliseconds',
	},
];

/** An operation's Options collection: its own options plus the shared request options, sorted by name. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...options, ...requestOptions].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
