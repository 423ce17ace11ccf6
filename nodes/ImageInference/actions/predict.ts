import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { PredictionKind } from '../contract';
import { describeIssues } from '../contract';
import type { ImageInput } from '../input/imageInput';
import { checkImageBytes, databaseStoreField, resolveImage, storedFile } from '../input/imageInput';
import { requestPrediction } from '../transport';
import type { AnswerPicture } from '../transport/answerReader';
import { BODY_CHUNK_BYTES, jsonBody, jsonBodyFromStream } from '../transport/body';
import type { ExecutionContext, ImagePlan } from './types';

export interface PredictionEndpoint<TSchema extends z.ZodTypeAny> {
	kind: PredictionKind;
	requestSchema: z.ZodTypeAny;
	resultSchema: TSchema;
	/** A last check of the image once its body is built (a file in the database store is read only then); throws to send nothing. */
	beforeSending?: (image: ImageInput) => Promise<void>;
}

/**
 * The path every operation shares: the image into the body, the body checked against the
 * contract, sent through the transport, the result checked against the contract.
 */
export async function predict<TFields extends object, TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	plan: ImagePlan<TFields>,
	context: ExecutionContext,
	endpoint: PredictionEndpoint<TSchema>,
): Promise<{ result: z.infer<TSchema>; attempts: number; picture?: AnswerPicture }> {
	const prediction = await requestPrediction.call(this, {
		itemIndex: plan.itemIndex,
		kind: endpoint.kind,
		modelId: plan.modelId,
		body: async () => await requestBody.call(this, plan, context, endpoint),
		resultSchema: endpoint.resultSchema,
		settings: plan.settings,
		redact: context.redact,
		serviceUrl: context.serviceUrl,
	});
	return { result: prediction.result, attempts: prediction.attempts, picture: prediction.picture };
}

/**
 * The JSON body's bytes. A file in n8n's binary data store is streamed into the body; one held in
 * memory is encoded from its buffer. Either way the file is not kept once its base64 is in the body.
 */
async function requestBody<TFields extends object>(
	this: IExecuteFunctions,
	plan: ImagePlan<TFields>,
	context: ExecutionContext,
	endpoint: PredictionEndpoint<z.ZodTypeAny>,
): Promise<Buffer> {
	const body = await buildBody.call(this, plan, context, endpoint.requestSchema);
	await endpoint.beforeSending?.(plan.image);
	return body;
}

async function buildBody<TFields extends object>(
	this: IExecuteFunctions,
	plan: ImagePlan<TFields>,
	context: ExecutionContext,
	requestSchema: z.ZodTypeAny,
): Promise<Buffer> {
	const { image, itemIndex } = plan;
	// A file's base64 is written straight into the body; the check sees a stand-in of its type.
	const imageText = image.source === 'binary' ? 'base64' : ((await resolveImage.call(this, itemIndex, image)) as string);
	const checked = requestSchema.safeParse({ image: imageText, ...plan.fields });
	if (!checked.success) {
		throw new NodeOperationError(this.getNode(), `The request is not valid: ${describeIssues(checked.error)}`, { itemIndex });
	}
	const fields: Record<string, unknown> = { ...(checked.data as object) };
	delete fields.image;
	if (image.source !== 'binary') return jsonBody(imageText, fields);
	if (databaseStoreField.call(this, itemIndex, image) !== undefined) {
		const bytes = await context.databaseFiles.read(plan.position);
		// the file's one read: checked here, as the check before the requests could not read it
		const size = checkImageBytes.call(this, itemIndex, image.field, bytes);
		image.size ??= size;
		return jsonBody(bytes, fields);
	}
	const stored = await storedFile.call(this, itemIndex, image.field);
	const streamed = stored && (await jsonBodyFromStream(await this.helpers.getBinaryStream(stored.id, BODY_CHUNK_BYTES), stored.size, fields));
	return streamed || jsonBody(await resolveImage.call(this, itemIndex, image), fields);
}
