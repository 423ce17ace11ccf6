import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ClassifyRequest } from '../../contract';
import { CONFIDENCE_BOUNDS, classifyAnswerSchema, classifyRequestSchema } from '../../contract';
import { originalBinary } from '../../input/imageInput';
import { aboutTheImage, outputItem, passedThroughBinaries } from '../../output/outputItem';
import { uprightSize } from '../../pipeline/geometry';
import { readOptionalNumber, readOptions } from '../../parameters/readers';
import { classificationAboveMinimums, readLabelMinimums } from '../../pipeline/labelMinimums';
import type { LabelMinimums } from '../../pipeline/types';
import { confidenceOption, labelMinimumsOption, optionsCollection } from '../common.description';
import { predict } from '../predict';
import type { ExecutionContext, ImagePlan, MakeOutputItems, Operation } from '../types';

const properties: INodeProperties[] = [
	optionsCollection([
		confidenceOption,
		labelMinimumsOption(
			'Leave out predictions under their category’s minimum confidence, checked after the service’s answer (its Confidence Threshold applies first). The category stays the service’s when it meets its minimum, else it is the most confident prediction kept; with none kept, category and confidence are null.',
			'defect: 0.8, ok: 0.6',
		),
	]),
];

export const description = updateDisplayOptions({ show: { operation: ['classify'] } }, properties);

export interface ClassifyFields {
	request: Omit<ClassifyRequest, 'image'>;
	labelMinimums?: LabelMinimums;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): ClassifyFields {
	const options = readOptions.call(this, itemIndex);
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	return { request: confidence === undefined ? {} : { confidence }, ...readLabelMinimums.call(this, itemIndex, options) };
}

/** One item per image; it carries the item's files on (one image) or its own image in its own field. */
export async function execute(this: IExecuteFunctions, plan: ImagePlan<ClassifyFields>, context: ExecutionContext): Promise<MakeOutputItems> {
	const { result } = await predict.call(this, { ...plan, fields: plan.fields.request }, context, {
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
	const confidence = plan.fields.request.confidence;
	if (result.predictions.length === 0) context.hints.nothing(plan, typeof confidence === 'number' ? confidence : undefined);
	const kept = classificationAboveMinimums(result, plan.fields.labelMinimums);
	context.hints.predictionsLeftOut(plan, result, kept);
	const json = { category: kept.category, confidence: kept.confidence, predictions: kept.predictions, ...aboutTheImage(plan.image, size, plan.skippedFiles) };
	const items = [outputItem(json, binary, plan.itemIndex)];
	return () => items;
}

export const classify: Operation<ClassifyFields> = { description, readsModel: true, prepare, execute };
