import type { INodeProperties } from 'n8n-workflow';

export const ANNOTATED_BY = ['service', 'node'] as const;
export const WHEN_NODE_CANNOT_DRAW = ['none', 'service'] as const;

// what the node does when these options are not set; the editor shows the same
export const DEFAULT_ANNOTATED_BY = 'service';
export const DEFAULT_WHEN_NODE_CANNOT_DRAW = 'none';
export const DEFAULT_MAX_SIDE = 1920;
export const DEFAULT_JPEG_QUALITY = 85;
export const MAX_SIDE_BOUNDS = { min: 64, max: 10000, integer: true } as const;
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
		displayName: 'Show Zones on Image',
		name: 'showZones',
		type: 'boolean',
		default: true,
		description: 'Whether the node’s picture outlines and names the zones (white) and Ignore Regions (grey)',
		displayOptions: drawnByNode,
	},
];
