import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ClassifyRequest } from '../../contract';
import { CONFIDENCE_BOUNDS, classifyAnswerSchema, classifyRequestSchema } from '../../contract';
import { originalBinary } from '../../input/imageInput';
import { aboutTheImage, outputItem, passedThroughBinaries } from '../../output/outputItem';
import { uprightSize } from '../../pipeline/geometry';
import { readOptionalNumber, readOptions } from '../../parameters/readers';
import { confidenceOption, optionsCollection } from '../common.description';
import { predict } from '../predict';
import type { ExecutionContext, ImagePlan, Operation } from '../types';

const properties: INodeProperties[] = [optionsCollection([confidenceOption])];

export const description = updateDisplayOptions({ show: { operation: ['classify'] } }, properties);

export type ClassifyFields = Omit<ClassifyRequest, 'image'>;

export function prepare(this: IExecuteFunctions, itemIndex: number): ClassifyFields {
	const options = readOptions.call(this, itemIndex);
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	return confidence === undefined ? {} : { confidence };
}

/** One item per image; it carries the item's files on (one image) or its own image in its own field. */
export async function execute(this: IExecuteFunctions, plan: ImagePlan<ClassifyFields>, context: ExecutionContext): Promise<INodeExecutionData[]> {
	const { result } = await predict.call(this, plan, context, {
		kind: 'classify',
		requestSchema: classifyRequestSchema,
		resultSchema: classifyAnswerSchema,
	});
	const binary = passedThroughBinaries.call(this, plan.itemIndex, plan.passThrough);
	if (!plan.passThrough && plan.image.source === 'binary') {
		binary[plan.image.field] = (await originalBinary.call(this, plan.itemIndex, plan.image))!;
	}
	const size = plan.image.source === 'url' || !plan.image.size ? undefined : uprightSize(plan.image.size);
	context.hints.image(plan, size);
	if (result.predictions.length === 0) context.hints.nothing(plan, typeof plan.fields.confidence === 'number' ? plan.fields.confidence : undefined);
	const json = { category: result.category, confidence: result.confidence, predictions: result.predictions, ...aboutTheImage(plan.image, size, plan.skippedFiles) };
	return [outputItem(json, binary, plan.itemIndex)];
}

export const classify: Operation<ClassifyFields> = { description, prepare, execute };
