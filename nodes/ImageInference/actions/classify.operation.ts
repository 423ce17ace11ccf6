import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ClassifyRequest } from '../contract';
import { CONFIDENCE_BOUNDS, classifyRequestSchema, classifyResultSchema } from '../contract';
import { readOptionalNumber, readOptions } from '../helpers/parameters';
import { confidenceOption, optionsCollection } from './common.description';
import { predict } from './predict';
import type { ExecutionContext, ItemPlan, Operation } from './types';

const properties: INodeProperties[] = [optionsCollection([confidenceOption])];

export const description = updateDisplayOptions({ show: { operation: ['classify'] } }, properties);

export type ClassifyFields = Omit<ClassifyRequest, 'image'>;

export function prepare(this: IExecuteFunctions, itemIndex: number): ClassifyFields {
	const options = readOptions.call(this, itemIndex);
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	return confidence === undefined ? {} : { confidence };
}

export async function execute(
	this: IExecuteFunctions,
	plan: ItemPlan<ClassifyFields>,
	context: ExecutionContext,
): Promise<INodeExecutionData> {
	const { result } = await predict.call(this, plan, context, {
		kind: 'classify',
		requestSchema: classifyRequestSchema,
		resultSchema: classifyResultSchema,
	});
	const { binary } = this.getInputData()[plan.itemIndex];
	return {
		json: { category: result.category, confidence: result.confidence, predictions: result.predictions },
		...(binary ? { binary } : {}),
		pairedItem: { item: plan.itemIndex },
	};
}

export const classify: Operation<ClassifyFields> = { description, prepare, execute };
