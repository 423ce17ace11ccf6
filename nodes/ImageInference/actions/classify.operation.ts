import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ClassifyRequest } from '../contract';
import { CONFIDENCE_BOUNDS, classifyRequestSchema, classifyAnswerSchema } from '../contract';
import { originalBinary } from '../helpers/imageInput';
import { imageFacts, passedThroughBinaries } from './outputItem';
import { readOptionalNumber, readOptions } from '../helpers/parameters';
import { confidenceOption, optionsCollection } from './common.description';
import { predict } from './predict';
import type { ExecutionContext, ImagePlan, Operation } from './types';

const properties: INodeProperties[] = [optionsCollection([confidenceOption])];

export const description = updateDisplayOptions({ show: { operation: ['classify'] } }, properties);

export type ClassifyFields = Omit<ClassifyRequest, 'image'>;

export function prepare(this: IExecuteFunctions, itemIndex: number): ClassifyFields {
	const options = readOptions.call(this, itemIndex);
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	return confidence === undefined ? {} : { confidence };
}

/** One item per image; it carries the item's files on (one image) or its own image in its own field. */
export async function execute(
	this: IExecuteFunctions,
	plan: ImagePlan<ClassifyFields>,
	context: ExecutionContext,
): Promise<INodeExecutionData> {
	const { result } = await predict.call(this, plan, context, {
		kind: 'classify',
		requestSchema: classifyRequestSchema,
		resultSchema: classifyAnswerSchema,
	});
	const binary = passedThroughBinaries.call(this, plan);
	if (!plan.passThrough && plan.image.source === 'binary') {
		binary[plan.image.field] = (await originalBinary.call(this, plan.itemIndex, plan.image))!;
	}
	const size = plan.image.source === 'url' ? undefined : plan.image.size;
	context.hints.image(plan, size);
	if (result.predictions.length === 0) context.hints.nothing(plan, typeof plan.fields.confidence === 'number' ? plan.fields.confidence : undefined);
	return {
		json: { category: result.category, confidence: result.confidence, predictions: result.predictions, ...imageFacts(plan, size) },
		...(Object.keys(binary).length ? { binary } : {}),
		pairedItem: { item: plan.itemIndex },
	};
}

export const classify: Operation<ClassifyFields> = {
	description,
	prepare,
	execute: async function (this: IExecuteFunctions, plan, context) {
		return [await execute.call(this, plan, context)];
	},
};
