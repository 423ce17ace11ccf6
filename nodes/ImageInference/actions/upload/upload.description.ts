import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DEFAULT_IMAGE_SOURCE } from '../../input/imageInput';
import { PROJECT_ID_REGEX, PROJECT_URL_REGEX } from '../../projectContract';
import { optionsCollection } from '../common.description';
import { blurTheseLabelsOption, hideWithOption } from '../detect/drawing.description';

const PROJECT_ID_EXAMPLE = '6b1d2c3e-4f5a-4b7c-8d9e-0f1a2b3c4d5e';
export const DEFAULT_BATCH_NAME = 'From n8n';

/** The project and where the image comes from: placed before the shared image fields (Input Binary Field…), so they read in that order. */
const projectAndSource: INodeProperties[] = [
	{
		displayName: 'Project',
		name: 'project',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'id', value: '' },
		description: 'The project the image goes to, by its ID or by its link in the dashboard',
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${PROJECT_ID_EXAMPLE}`,
				hint: 'The project’s ID, the part after “projects/” in its link in the dashboard',
				validation: [{ type: 'regex', properties: { regex: PROJECT_ID_REGEX, errorMessage: 'Not a project ID: letters, digits and dashes, like the part after “projects/” in the project’s link' } }],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://app.epigos.ai/…/projects/${PROJECT_ID_EXAMPLE}`,
				hint: 'The project’s page in the dashboard (its ID after “projects/”)',
				validation: [{ type: 'regex', properties: { regex: PROJECT_URL_REGEX, errorMessage: 'Not a project link: the link must name the project, like …/projects/<project ID>' } }],
				extractValue: { type: 'regex', regex: PROJECT_URL_REGEX },
			},
		],
	},
	{
		displayName: 'Image Source',
		name: 'imageSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'All Images on the Item',
				value: 'allImages',
				description: 'Every binary field whose file is an image, each uploaded as its own record; other files are listed as skipped',
			},
			{ name: 'Binary File', value: 'binary', description: 'A JPEG or PNG file from a previous node, or several named fields' },
			{
				name: 'Binary From Expression',
				value: 'binaryExpression',
				description: 'A file object given by an expression, e.g. another node’s file: {{ $(\'Telegram Trigger\').item.binary.data }}',
			},
		],
		default: DEFAULT_IMAGE_SOURCE,
		builderHint: {
			propertyHint:
				"Use 'binary' for the photo a previous node put in a binary field (JPEG or PNG); 'allImages' to upload every image file of the item, each as its own record; " +
				"'binaryExpression' when the photo sits on another node's item, for example the trigger's before a Detect node that output no file.",
		},
	},
];

const properties: INodeProperties[] = [
	{
		displayName: 'Batch Name',
		name: 'batchName',
		type: 'string',
		required: true,
		default: DEFAULT_BATCH_NAME,
		description:
			'The batch the images are filed under in the project. One batch is created each time the node runs, per project and name, and every item of that run with that name goes into it (a Loop Over Items makes one per pass).',
	},
	{
		displayName: 'Annotations',
		name: 'annotationSource',
		type: 'options',
		options: [
			{
				name: 'From Detections',
				value: 'detections',
				description: 'Boxes with labels, as a Detect Objects node before this one leaves them (for an object detection project)',
			},
			{ name: 'Classification Label', value: 'classificationLabel', description: 'The class the image shows (for a classification project)' },
			{ name: 'None', value: 'none', description: 'The image alone, to annotate in the dashboard' },
		],
		default: 'detections',
	},
	{
		displayName: 'Detections',
		name: 'detections',
		type: 'string',
		required: true,
		default: '={{ $json.detections }}',
		hint: 'A list of objects with a label and x, y, width, height in the image’s pixels (or a relativeBox). An empty list uploads the image without boxes.',
		displayOptions: { show: { annotationSource: ['detections'] } },
	},
	{
		displayName: 'Classification Label',
		name: 'classificationLabel',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. defect',
		description: 'The class the image shows, exactly as the project names it (case counts); new names are added to the project’s labels',
		displayOptions: { show: { annotationSource: ['classificationLabel'] } },
	},
	optionsCollection([
		{
			displayName: 'Allow as Agent Tool',
			name: 'allowAsTool',
			type: 'boolean',
			default: false,
			description:
				'Whether an AI Agent may run this upload as a tool. Off: the tool refuses, so an agent never fills a dataset on its own.',
		},
		blurTheseLabelsOption(
			'The Detections’ boxes of these labels are blurred in the image sent to the project, which then goes up as a JPEG, upright, at full size. Needs Annotations: From Detections; the boxes stay among the annotations unless you leave them out of Detections. Comma-separated; case and spaces do not count. What the model did not find is not blurred.',
		),
		hideWithOption(),
	]),
];

const shown = { show: { operation: ['uploadToProject'] } };
export const projectAndSourceDescription = updateDisplayOptions(shown, projectAndSource);
export const description = updateDisplayOptions(shown, properties);
