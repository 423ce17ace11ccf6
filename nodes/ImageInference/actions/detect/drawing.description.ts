import type { INodeProperties } from 'n8n-workflow';

export const ANNOTATED_BY = ['service', 'node'] as const;
export const HIDE_WITH = ['blur', 'pixelate'] as const;
export const DEFAULT_HIDE_WITH = 'blur';

/** Blur These Labels, as Detect and Upload to Project each describe it. */
export const blurTheseLabelsOption = (description: string): INodeProperties => ({
	displayName: 'Blur These Labels',
	name: 'hideLabels',
	type: 'string',
	default: '',
	placeholder: 'e.g. person, face, license-plate',
	description,
});

export const hideWithOption = (): INodeProperties => ({
	displayName: 'Hide With',
	name: 'hideWith',
	type: 'options',
	options: [
		{ name: 'Blur', value: 'blur', description: 'A strong blur: colours and shapes stay, detail goes' },
		{ name: 'Pixelate', value: 'pixelate', description: 'Blocks of a tenth of the box’s size' },
	],
	default: DEFAULT_HIDE_WITH,
	description: 'How the boxes of Blur These Labels are hidden',
});
export const WHEN_NODE_CANNOT_DRAW = ['none', 'service'] as const;

// what the node does when these options are not set; the editor shows the same
export const DEFAULT_ANNOTATED_BY = 'service';
export const DEFAULT_WHEN_NODE_CANNOT_DRAW = 'none';
export const DEFAULT_MAX_SIDE = 1920;
export const DEFAULT_JPEG_QUALITY = 85;
export const MAX_SIDE_BOUNDS = { min: 64, max: 10000, integer: true } as const;
export const DEFAULT_CROP_PADDING = 0.1;
export const DEFAULT_CROP_MIN_SIDE = 32;
export const DEFAULT_CROP_FIELD = 'crop';
export const CROP_PADDING_BOUNDS = { min: 0, max: 1 } as const;
export const CROP_MIN_SIDE_BOUNDS = { min: 0, max: 10000, integer: true } as const;

const oneItemPerObject = { show: { '/outputItems': ['object'] } };
const cropping = { show: { '/outputItems': ['object'], cropObjects: [true] } };
export const JPEG_QUALITY_BOUNDS = { min: 1, max: 100, integer: true } as const;

const drawnByNode = { show: { annotatedBy: ['node'] } };

/** Who draws the annotated picture, and how the node draws its own (docs/notifications.md, The node's own picture). */
export const drawingOptions: INodeProperties[] = [
	{
		displayName: 'Annotated Image Drawn By',
		name: 'annotatedBy',
		type: 'options',
		options: [
			{ name: 'Service', value: 'service', description: 'The service draws every box it found' },
			{
				name: 'Node',
				value: 'node',
				description:
					'The node draws only the objects it kept (after the label filters, zones and Max Objects), with track IDs and zones, on the image’s own file (JPEG or PNG); the service is asked for no picture',
			},
		],
		default: DEFAULT_ANNOTATED_BY,
		description: 'Who draws the annotated picture',
	},
	blurTheseLabelsOption(
		'Every box of these labels the service found (also those the filters leave out) is blurred in every picture the node outputs: its annotated picture, the original image and the crops. With an annotated picture, needs Annotated Image Drawn By: Node. Comma-separated; case and spaces do not count. Left empty it is refused; an expression that gives no label turns it off, and each item says so in warnings. What the model did not find is not blurred.',
	),
	{
		displayName: 'Crop Each Object',
		name: 'cropObjects',
		type: 'boolean',
		default: false,
		description:
			'Whether each object’s item carries its crop as a JPEG file (Put Crop in Field): its box grown by Crop Padding, at least Crop Min Side, cut from the image’s own file (JPEG or PNG) at full size, for Classify or a face check',
		displayOptions: oneItemPerObject,
	},
	{
		displayName: 'Crop Min Side (Pixels)',
		name: 'cropMinSide',
		type: 'number',
		default: DEFAULT_CROP_MIN_SIDE,
		typeOptions: { minValue: CROP_MIN_SIDE_BOUNDS.min, maxValue: CROP_MIN_SIDE_BOUNDS.max, numberPrecision: 0 },
		description: 'A crop is at least this wide and high where the image allows: a small object keeps some of its surroundings',
		displayOptions: cropping,
	},
	{
		displayName: 'Crop Padding',
		name: 'cropPadding',
		type: 'number',
		default: DEFAULT_CROP_PADDING,
		typeOptions: { minValue: CROP_PADDING_BOUNDS.min, maxValue: CROP_PADDING_BOUNDS.max, numberPrecision: 2 },
		description: 'How much a crop is larger than the box, from 0 to 1: 0.1 adds a tenth of its width and height in all',
		displayOptions: cropping,
	},
	hideWithOption(),
	{
		displayName: 'If the Node Cannot Draw',
		name: 'whenNodeCannotDraw',
		type: 'options',
		options: [
			{ name: 'No Annotated Image', value: 'none', description: 'The item says why in warnings and carries no annotated image' },
			{
				name: 'Service’s Picture',
				value: 'service',
				description: 'The item carries the picture the service drew; the service is then asked to draw one for every image',
			},
		],
		default: DEFAULT_WHEN_NODE_CANNOT_DRAW,
		description: 'What the item carries when the image is not a JPEG or PNG the node can read (a WebP, a CMYK JPEG, a damaged file)',
		displayOptions: drawnByNode,
	},
	{
		displayName: 'JPEG Quality',
		name: 'jpegQuality',
		type: 'number',
		default: DEFAULT_JPEG_QUALITY,
		typeOptions: { minValue: JPEG_QUALITY_BOUNDS.min, maxValue: JPEG_QUALITY_BOUNDS.max, numberPrecision: 0 },
		description: 'The quality of the JPEG the node draws, from 1 to 100',
		displayOptions: drawnByNode,
	},
	{
		displayName: 'Max Side (Pixels)',
		name: 'maxSide',
		type: 'number',
		default: DEFAULT_MAX_SIDE,
		typeOptions: { minValue: MAX_SIDE_BOUNDS.min, maxValue: MAX_SIDE_BOUNDS.max, numberPrecision: 0 },
		description:
			'The longer side of the picture the node draws, at most: a phone photo is made smaller for mail and chat apps (Telegram shows photos at up to 2560 pixels). A smaller image keeps its size.',
		displayOptions: drawnByNode,
	},
	{
		displayName: 'Pass On the Unblurred Original',
		name: 'passUnblurredOriginal',
		type: 'boolean',
		default: false,
		description:
			'Whether, with Blur These Labels, the original image still goes on as it came in (Output Images Original or Both, and the item’s own image files). Off: the original goes on blurred, as a JPEG, and the item’s image files are not passed on.',
		displayOptions: drawnByNode,
	},
	{
		displayName: 'Put Crop in Field',
		name: 'cropField',
		type: 'string',
		default: DEFAULT_CROP_FIELD,
		description: 'The output binary field for each object’s crop',
		displayOptions: cropping,
	},
	{
		displayName: 'Show Zones on Image',
		name: 'showZones',
		type: 'boolean',
		default: true,
		description: 'Whether the node’s picture outlines and names the zones (white) and Ignore Regions (grey)',
		displayOptions: drawnByNode,
	},
];
