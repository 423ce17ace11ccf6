import type { IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normalizeBaseUrl } from '../contract';
import { readFilesAhead } from '../input/databaseReadAhead';
import { filesFromElsewhere } from '../input/filesFromElsewhere';
import type { ImageSource } from '../input/imageInput';
import { readImageInputs, readImageSource } from '../input/imageInput';
import { blursPictures, withoutImageFiles } from '../output/drawnImage';
import { ExecutionHints } from '../output/executionHints';
import { asNodeError, failureItem } from '../output/failureItem';
import { runsAsTool } from '../output/toolResult';
import { readModelId } from '../parameters/modelId';
import { readRequestSettings } from '../parameters/requestSettings';
import { CREDENTIAL_TYPE } from '../transport';
import { createRedactor } from '../transport/errors';
import { runStoppingAtFirstFailure } from '../transport/pool';
import { classify } from './classify/classify.operation';
import { detect } from './detect/detect.operation';
import { uploadToProject } from './upload/upload.operation';
import type { ExecutionContext, ImagePlan, MakeOutputItems, Operation } from './types';

const operations: Record<string, Operation<object>> = {
	detect: detect as Operation<object>,
	classify: classify as Operation<object>,
	uploadToProject: uploadToProject as Operation<object>,
};

/**
 * The item loop: every item's inputs are checked before any request is sent, then one request per
 * image runs with bounded concurrency (over images, not items). Each image's output items take
 * its place in input order, each paired with its input item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" is not supported`);
	}
	const asTool = runsAsTool(this);
	const imageSource = readImageSource.call(this);
	const files = filesFromElsewhere(this, imageSource, asTool);
	// a failed item keeps its input's own files, not those brought in from elsewhere
	const inputs = this.getInputData();
	return await runItems.call(files.context, operation, imageSource, files.bring, asTool, inputs);
}

async function runItems(
	this: IExecuteFunctions,
	operation: Operation<object>,
	imageSource: ImageSource,
	bringFiles: (itemIndex: number) => string | undefined,
	asTool: boolean,
	inputs: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	// an agent reads the tool's items itself, whatever On Error says: they keep the one shape
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput' && !asTool;
	const blurs = blursPictures(this.getNode());
	// per input item, per image: that image's output items
	const outputsByImage: INodeExecutionData[][][] = items.map(() => []);
	let failed = false;
	// with On Error "Continue", the item's failure is its output; else the node fails, naming the item
	const itemFailed = (error: unknown, itemIndex: number): INodeExecutionData[] => {
		if (!continueOnFail) {
			failed = true;
			throw asNodeError(this.getNode(), error, itemIndex);
		}
		const input = inputs[itemIndex];
		// with Blur These Labels, a failed item carries none of its pictures unblurred either
		const kept = blurs && input?.binary ? { ...input, binary: withoutImageFiles(input.binary) } : input;
		return [failureItem(error, kept, itemIndex, toErrorOutput)];
	};

	const images: Array<ImagePlan<object>> = [];
	let concurrency: { value: number; itemIndex: number } | undefined;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const modelId = operation.readsModel ? readModelId.call(this, itemIndex) : '';
			const settings = readRequestSettings.call(this, itemIndex);
			concurrency ??= { value: settings.concurrency, itemIndex };
			if (settings.concurrency !== concurrency.value) {
				throw new NodeOperationError(
					this.getNode(),
					`Concurrency is ${settings.concurrency} for this item but ${concurrency.value} for item ${concurrency.itemIndex}: one execution sends at one concurrency`,
					{ itemIndex, description: 'Give Concurrency the same value for every item (it is usually a fixed number, not an expression).' },
				);
			}
			const referencedField = bringFiles(itemIndex);
			const { images: itemImages, skippedFiles, passThrough } = await readImageInputs.call(this, itemIndex, imageSource, referencedField);
			const fields = operation.prepare.call(this, itemIndex, imageSource);
			const itemPlans = itemImages.map((image, index) => ({ itemIndex, position: images.length + index, modelId, image, fields, passThrough, skippedFiles, settings }));
			for (const plan of itemPlans) await operation.checkImage?.call(this, plan, itemPlans.length);
			images.push(...itemPlans);
		} catch (error) {
			outputsByImage[itemIndex] = [itemFailed(error, itemIndex)];
		}
	}
	if (images.length === 0 || !concurrency) return [outputsByImage.flat(2)];

	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const signal = this.getExecutionCancelSignal?.();
	const context: ExecutionContext = {
		redact: createRedactor(credentials.apiKey),
		serviceUrl: normalizeBaseUrl(credentials.baseUrl),
		databaseFiles: readFilesAhead.call(this, images, () => failed || signal?.aborted === true),
		hints: new ExecutionHints(credentials.sendAs),
	};

	operation.startExecution?.call(this, images, context);
	const tasks = images.map((plan) => ({ plan, output: outputsByImage[plan.itemIndex].push([]) - 1, makeOutputItems: undefined as MakeOutputItems | undefined }));
	// one phase of an image's work; its failure is the image's output
	const imageStep = async (task: (typeof tasks)[number], work: () => Promise<void> | void) => {
		try {
			await work();
		} catch (error) {
			outputsByImage[task.plan.itemIndex][task.output] = itemFailed(error, task.plan.itemIndex);
		}
	};
	try {
		await runStoppingAtFirstFailure(tasks, concurrency.value, signal, async (task) => {
			await imageStep(task, async () => {
				task.makeOutputItems = await operation.execute.call(this, task.plan, context);
			});
		});
	} catch (error) {
		// itemFailed threw it, as an n8n error, once every image in flight had settled
		const stopped = error as NodeApiError | NodeOperationError;
		operation.whenStopped?.call(this, stopped, context);
		throw stopped;
	}
	if (signal?.aborted) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
	// every image answered: their output items are made in input order (MakeOutputItems says why)
	for (const task of tasks) {
		const { makeOutputItems } = task;
		if (!makeOutputItems) continue;
		await imageStep(task, async () => {
			outputsByImage[task.plan.itemIndex][task.output] = await makeOutputItems();
		});
	}
	context.hints.addTo(this);
	return [outputsByImage.flat(2)];
}
