import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { normalizeBaseUrl } from '../contract';
import { readImageInput } from '../helpers/imageInput';
import { readModelId, readRequestSettings } from '../helpers/parameters';
import { runInOrder } from '../helpers/pool';
import { CREDENTIAL_TYPE } from '../transport';
import { createRedactor } from '../transport/errors';
import { classify } from './classify.operation';
import { detect } from './detect.operation';
import type { ExecutionContext, ItemPlan, Operation } from './types';

const operations: Record<string, Operation<object>> = {
	detect: detect as Operation<object>,
	classify: classify as Operation<object>,
};

/**
 * The item loop: every item's inputs are checked before any request is sent, then requests run
 * with bounded concurrency; each input item yields exactly one output item in its own slot.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" is not supported`);
	}
	const continueOnFail = this.continueOnFail();
	const output: INodeExecutionData[] = new Array(items.length);

	const plans: Array<ItemPlan<object> | undefined> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			plans.push({
				itemIndex,
				modelId: readModelId.call(this, itemIndex),
				image: await readImageInput.call(this, itemIndex),
				fields: operation.prepare.call(this, itemIndex),
			});
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this.getNode(), error, itemIndex);
			output[itemIndex] = errorItem(error, itemIndex);
			plans.push(undefined);
		}
	}
	const ready = plans.filter((plan): plan is ItemPlan<object> => plan !== undefined);
	if (ready.length === 0) return [output];

	const settings = readRequestSettings.call(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const context: ExecutionContext = {
		settings,
		redact: createRedactor(credentials.apiKey),
		serviceUrl: normalizeBaseUrl(credentials.baseUrl),
	};

	const signal = this.getExecutionCancelSignal?.();
	await runInOrder(ready, settings.concurrency, signal, async (plan) => {
		try {
			output[plan.itemIndex] = await operation.execute.call(this, plan, context);
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this.getNode(), error, plan.itemIndex);
			output[plan.itemIndex] = errorItem(error, plan.itemIndex);
		}
	});
	if (signal?.aborted) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
	return [output];
}

/** The Continue On Fail item standing in for a failed one: what failed and why, nothing secret. */
function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const known = error as { message?: string; description?: string | null; errorResponse?: IDataObject };
	const response = known.errorResponse ?? {};
	const json: IDataObject = {
		error: known.message ?? String(error),
		description: known.description ?? null,
		status: typeof response.status === 'number' ? response.status : null,
		code: (response.code as string | null | undefined) ?? null,
		details: (response.details as IDataObject[] | undefined) ?? [],
		attempts: (response.attempts as number | undefined) ?? 0,
	};
	return { json, pairedItem: { item: itemIndex } };
}

/** Errors this node raises are already n8n errors with their item; anything else gets wrapped. */
function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}
