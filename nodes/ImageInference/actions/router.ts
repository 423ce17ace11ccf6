import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { normalizeBaseUrl } from '../contract';
import { readImageInputs } from '../helpers/imageInput';
import { readModelId, readRequestSettings } from '../helpers/parameters';
import { runStoppingAtFirstFailure } from '../helpers/pool';
import { readFilesAhead } from '../helpers/readAhead';
import { runsAsTool } from '../helpers/toolOutput';
import { CREDENTIAL_TYPE } from '../transport';
import { createRedactor, errorJson } from '../transport/errors';
import { classify } from './classify.operation';
import { detect } from './detect.operation';
import { ExecutionHints } from './executionHints';
import type { ExecutionContext, ImagePlan, Operation } from './types';

const operations: Record<string, Operation<object>> = {
	detect: detect as Operation<object>,
	classify: classify as Operation<object>,
};

/**
 * The item loop: every item's inputs are checked before any request is sent, then one request per
 * image runs with bounded concurrency (over images, not items). Each image's output items take
 * its place in input order, each paired with its input item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" is not supported`);
	}
	const continueOnFail = this.continueOnFail();
	// an agent reads the tool's items itself, whatever On Error says: they keep the one shape
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput' && !runsAsTool(this);
	// per input item, per image: that image's output items
	const slots: INodeExecutionData[][][] = items.map(() => []);

	const plans: Array<ImagePlan<object>> = [];
	let concurrency: { value: number; itemIndex: number } | undefined;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const modelId = readModelId.call(this, itemIndex);
			const settings = readRequestSettings.call(this, itemIndex);
			concurrency ??= { value: settings.concurrency, itemIndex };
			if (settings.concurrency !== concurrency.value) {
				throw new NodeOperationError(
					this.getNode(),
					`Concurrency is ${settings.concurrency} for this item but ${concurrency.value} for item ${concurrency.itemIndex}: one execution sends at one concurrency`,
					{ itemIndex, description: 'Give Concurrency the same value for every item (it is usually a fixed number, not an expression).' },
				);
			}
			const { images, skippedFiles, passThrough } = await readImageInputs.call(this, itemIndex);
			const fields = operation.prepare.call(this, itemIndex);
			for (const image of images) plans.push({ itemIndex, position: plans.length, modelId, image, fields, passThrough, skippedFiles, settings });
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this.getNode(), error, itemIndex);
			slots[itemIndex] = [[errorItem(error, itemIndex, toErrorOutput)]];
		}
	}
	if (plans.length === 0 || !concurrency) return [slots.flat(2)];

	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const signal = this.getExecutionCancelSignal?.();
	let failed = false;
	const context: ExecutionContext = {
		redact: createRedactor(credentials.apiKey),
		serviceUrl: normalizeBaseUrl(credentials.baseUrl),
		wholeFiles: readFilesAhead.call(this, plans, () => failed || signal?.aborted === true),
		hints: new ExecutionHints(credentials.sendAs),
	};

	const tasks = plans.map((plan) => ({ plan, slot: slots[plan.itemIndex].push([]) - 1 }));
	await runStoppingAtFirstFailure(tasks, concurrency.value, signal, async ({ plan, slot }) => {
		try {
			slots[plan.itemIndex][slot] = await operation.execute.call(this, plan, context);
		} catch (error) {
			if (!continueOnFail) {
				failed = true;
				throw asNodeError(this.getNode(), error, plan.itemIndex);
			}
			slots[plan.itemIndex][slot] = [errorItem(error, plan.itemIndex, toErrorOutput)];
		}
	});
	if (signal?.aborted) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
	context.hints.addTo(this);
	return [slots.flat(2)];
}

/**
 * The Continue On Fail item standing in for a failed one: what failed and why, nothing secret.
 *
 * For On Error "Continue (using error output)" the same fields go under `error`, the one shape
 * n8n moves to the error output that keeps them. n8n-core's `WorkflowExecute`
 * (packages/core/src/execution-engine/workflow-execute.ts; compiled in
 * n8n-core/dist/execution-engine/workflow-execute.js, `handleNodeErrorOutput`, the same in 1.123.81
 * and 2.41.1) takes an item to the error output when the item has an `error` property, or when its
 * json has a truthy `error` and nothing else (1.123.81 also accepts `message` beside it, 2.41.1
 * `message` and `details`); there it becomes the paired input item's json with the item's json
 * over it. After that, every item with an `error` property gets its json replaced by
 * `{ error: <its message> }` (`normalizeNodeErrors` in 2.41.1, the loop after the run in
 * 1.123.81): description, status, code, details and attempts would be lost that way.
 */
function errorItem(error: unknown, itemIndex: number, toErrorOutput: boolean): INodeExecutionData {
	const json = errorJson(error);
	if (!toErrorOutput) return { json, pairedItem: { item: itemIndex } };
	const { error: message, ...rest } = json;
	return { json: { error: { message, ...rest } }, pairedItem: { item: itemIndex } };
}

/** Errors this node raises are already n8n errors with their item; anything else gets wrapped. */
function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}
