import type { INodeProperties } from 'n8n-workflow';

import { STROKE_WIDTH_BOUNDS } from '../../contract';
import { MAX_OBJECTS_BOUNDS } from '../../pipeline/maxObjects';
import { confidenceOption, labelMinimumsOption, optionsCollection } from '../common.description';
import { drawingOptions } from './drawing.description';
import { watchOptions } from './watch.description';

export const OUTPUT_ITEMS = ['image', 'object'] as const;
export const OUTPUT_IMAGES = ['annotated', 'original', 'both', 'none'] as const;

// what the node does when these parameters are not set; the editor shows the same
export const DEFAULT_OUTPUT_ITEMS = 'image';
export const DEFAULT_OUTPUT_IMAGES = 'annotated';
export const DEFAULT_ANNOTATED_IMAGE_FIELD = 'data';
export const DEFAULT_ORIGINAL_IMAGE_FIELD = 'original';

/** Detect's parameters in the editor (the options every operation shares: common.description.ts). */
export const detectProperties: INodeProperties[] = [
	{
		displayName: 'Output Items',
		name: 'outputItems',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'One Item per Image',
				value: 'image',
				description: 'The image’s detections, counts per label and a summary in one item',
			},
			{
				name: 'One Item per Object',
				value: 'object',
				description:
					'One item per detected object with its label, confidence and box (x, y, width, height), ready for Edit Image’s Crop',
			},
		],
		default: DEFAULT_OUTPUT_ITEMS,
		builderHint: {
			propertyHint:
				"Keep 'image' (one item per image with detections, countsByLabel, totalDetections and summary) to count, branch with IF or send a message or the annotated picture. " +
				"Use 'object' to handle each detection as its own item (e.g. crop it with Edit Image using x, y, width and height); an image with no object then gives no item unless the option includeImagesWithoutObjects is on.",
		},
	},
	optionsCollection([
		{
			displayName: 'Annotate Image',
			name: 'annotate',
			type: 'boolean',
			default: true,
			description:
				'Whether the service draws the bounding boxes on the image and returns it as a file. When not set, it is asked for only if Output Images includes the annotated image.',
			displayOptions: { hide: { annotatedBy: ['node'] } },
		},
		{
			displayName: 'Box Stroke Width',
			name: 'strokeWidth',
			type: 'number',
			default: 2,
			typeOptions: { minValue: STROKE_WIDTH_BOUNDS.min, maxValue: STROKE_WIDTH_BOUNDS.max },
			description: 'Border width of the boxes the service draws, from 1 to 5',
			displayOptions: { hide: { annotatedBy: ['node'] } },
		},
		confidenceOption,
		{
			displayName: 'Ignore These Labels',
			name: 'ignoreLabels',
			type: 'string',
			default: '',
			placeholder: 'e.g. car, truck',
			description:
				'Objects with these labels are left out, and counts and summary follow. Comma-separated; labels are matched exactly as the service returns them (case counts). The service’s picture still shows every box it found; the node’s own picture (Annotated Image Drawn By) shows only what is kept.',
		},
		{
			displayName: 'Include Images Without Objects',
			name: 'includeImagesWithoutObjects',
			type: 'boolean',
			default: false,
			description:
				'Whether an image with no (remaining) object still yields one item, with objectCount 0. Off: such an image yields no item, as Split Out does.',
			displayOptions: { show: { '/outputItems': ['object'] } },
		},
		...watchOptions,
		...drawingOptions,
		{
			displayName: 'Max Objects',
			name: 'maxObjects',
			type: 'number',
			default: 10,
			typeOptions: { minValue: MAX_OBJECTS_BOUNDS.min, maxValue: MAX_OBJECTS_BOUNDS.max, numberPrecision: 0 },
			description: 'Keep at most this many objects per image, the most confident first (after the label filters)',
		},
		labelMinimumsOption(
			'Leave out objects under their label’s minimum confidence, checked after the service’s answer and before every other filter (the service’s Confidence Threshold still applies first).',
			'person: 0.7, car: 0.4',
		),
		{
			displayName: 'Only These Labels',
			name: 'onlyLabels',
			type: 'string',
			default: '',
			placeholder: 'e.g. person, dog',
			description:
				'Keep only objects with these labels; counts and summary follow. Comma-separated; labels are matched exactly as the service returns them (case counts). The service’s picture still shows every box it found; the node’s own picture (Annotated Image Drawn By) shows only what is kept.',
		},
		{
			displayName: 'Output Images',
			name: 'outputImages',
			type: 'options',
			options: [
				{ name: 'Annotated', value: 'annotated', description: 'The picture with the boxes drawn (by the service or the node: Annotated Image Drawn By)' },
				{ name: 'Original', value: 'original', description: 'The image as it came in (for a crop, or to forward it)' },
				{ name: 'Both', value: 'both', description: 'The annotated and the original image, each in its own field' },
				{ name: 'None', value: 'none', description: 'No image, only the results' },
			],
			default: DEFAULT_OUTPUT_IMAGES,
			description: 'Which image files the output items carry',
			builderHint: {
				propertyHint:
					"'annotated' (default) puts the picture with the boxes drawn in binary field data, for Send Email, Telegram or a form's completion page; " +
					"'original' carries the input image on, for cropping with Edit Image (not with Image Source url); 'both' carries both; " +
					"'none' when only the numbers are needed: the service then draws no picture.",
			},
		},
		{
			displayName: 'Put Annotated Image in Field',
			name: 'annotatedImageField',
			type: 'string',
			default: DEFAULT_ANNOTATED_IMAGE_FIELD,
			description:
				'The output binary field for the annotated image. With one named input field, a URL or Base64, the item’s other binary fields pass through unchanged.',
			displayOptions: { hide: { outputImages: ['original', 'none'] } },
		},
		{
			displayName: 'Put Original Image in Field',
			name: 'originalImageField',
			type: 'string',
			default: DEFAULT_ORIGINAL_IMAGE_FIELD,
			description: 'The output binary field for the original image',
			displayOptions: { show: { outputImages: ['original', 'both'] } },
		},
		{
			displayName: 'Show Confidence on Boxes',
			name: 'showConfidence',
			type: 'boolean',
			default: true,
			description: 'Whether each drawn box is labelled with its confidence',
		},
	]),
];
