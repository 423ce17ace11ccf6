import type { IBinaryKeyData, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { DetectRequest, DetectResult } from '../contract';
import { CONFIDENCE_BOUNDS, STROKE_WIDTH_BOUNDS, detectRequestSchema, detectResultSchema } from '../contract';
import { toAnnotatedBinary } from '../helpers/annotatedImage';
import { readFieldName, readOptionalBoolean, readOptionalNumber, readOptions } from '../helpers/parameters';
import { confidenceOption, optionsCollection } from './common.description';
import { predict } from './predict';
import type { ExecutionContext, ItemPlan, Operation } from './types';

const properties: INodeProperties[] = [
	optionsCollection([
		{
			displayName: 'Annotate Image',
			name: 'annotate',
			type: 'boolean',
			default: true,
			description: 'Whether the service draws the bounding boxes on the image and returns it as a file',
		},
		{
			displayName: 'Box Stroke Width',
			name: 'strokeWidth',
			type: 'number',
			default: 2,
			typeOptions: { minValue: STROKE_WIDTH_BOUNDS.min, maxValue: STROKE_WIDTH_BOUNDS.max },
			description: 'Border width of the drawn boxes, from 1 to 5',
		},
		confidenceOption,
		{
			displayName: 'Put Annotated Image in Field',
			name: 'annotatedImageField',
			type: 'string',
			default: 'data',
			description:
				'The output binary field for the annotated image. Other binary fields of the item pass through unchanged.',
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

export const description = updateDisplayOptions({ show: { operation: ['detect'] } }, properties);

export interface DetectFields {
	request: Omit<DetectRequest, 'image'>;
	annotatedImageField: string;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): DetectFields {
	const options = readOptions.call(this, itemIndex);
	const request: Omit<DetectRequest, 'image'> = {};
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	const annotate = readOptionalBoolean.call(this, itemIndex, options, 'annotate', 'Annotate Image');
	const showProb = readOptionalBoolean.call(this, itemIndex, options, 'showConfidence', 'Show Confidence on Boxes');
	const strokeWidth = readOptionalNumber.call(this, itemIndex, options, 'strokeWidth', 'Box Stroke Width', STROKE_WIDTH_BOUNDS);
	if (confidence !== undefined) request.confidence = confidence;
	if (annotate !== undefined) request.annotate = annotate;
	if (showProb !== undefined) request.show_prob = showProb;
	if (strokeWidth !== undefined) request.stroke_width = strokeWidth;
	const annotatedImageField =
		options.annotatedImageField === undefined
			? 'data'
			: readFieldName.call(this, itemIndex, options.annotatedImageField, 'Put Annotated Image in Field');
	return { request, annotatedImageField };
}

export async function execute(
	this: IExecuteFunctions,
	plan: ItemPlan<DetectFields>,
	context: ExecutionContext,
): Promise<INodeExecutionData> {
	const { result, fileName, attempts, liftedImage } = await predict.call(this, { ...plan, fields: plan.fields.request }, context, {
		kind: 'detect',
		requestSchema: detectRequestSchema,
		resultSchema: detectResultSchema,
	});
	const binary: IBinaryKeyData = { ...(this.getInputData()[plan.itemIndex].binary ?? {}) };
	const annotated = await toAnnotatedBinary.call(this, plan.itemIndex, result.image, liftedImage, fileName, attempts);
	if (annotated) binary[plan.fields.annotatedImageField] = annotated;
	return {
		json: summarize(result),
		...(Object.keys(binary).length ? { binary } : {}),
		pairedItem: { item: plan.itemIndex },
	};
}

/** The result without its image, plus what a notification needs without a Code node. */
export function summarize(result: DetectResult) {
	const countsByLabel: Record<string, number> = {};
	for (const { label, total } of result.labelsCount) countsByLabel[label] = total;
	return {
		detections: result.detections,
		labelsCount: result.labelsCount,
		countsByLabel,
		totalDetections: result.detections.length,
	};
}

export const detect: Operation<DetectFields> = { description, prepare, execute };
