import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { PredictionKind } from '../contract';
import { describeIssues } from '../contract';
import type { ResolvedImage } from '../helpers/imageInput';
import { resolveImage } from '../helpers/imageInput';
import { requestPrediction } from '../transport';
import type { ExecutionContext, ItemPlan } from './types';

/**
 * The path every operation shares: the image into the body, the body checked against the
 * contract, sent through the transport, the result checked against the contract.
 */
export async function predict<TFields extends object, TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	plan: ItemPlan<TFields>,
	context: ExecutionContext,
	endpoint: { kind: PredictionKind; requestSchema: z.ZodTypeAny; resultSchema: TSchema },
): Promise<{ result: z.infer<TSchema>; image: ResolvedImage; attempts: number }> {
	const image = await resolveImage.call(this, plan.itemIndex, plan.image);
	const body = endpoint.requestSchema.safeParse({ image: image.image, ...plan.fields });
	if (!body.success) {
		throw new NodeOperationError(this.getNode(), `The request is not valid: ${describeIssues(body.error)}`, {
			itemIndex: plan.itemIndex,
		});
	}
	const { result, attempts } = await requestPrediction.call(this, {
		itemIndex: plan.itemIndex,
		kind: endpoint.kind,
		modelId: plan.modelId,
		body: body.data as object,
		resultSchema: endpoint.resultSchema,
		settings: context.settings,
		redact: context.redact,
		serviceUrl: context.serviceUrl,
	});
	return { result, image, attempts };
}
