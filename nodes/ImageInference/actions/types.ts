import type { IExecuteFunctions, INodeExecutionData, INodeProperties, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { DatabaseFileReadAhead } from '../input/databaseReadAhead';
import type { ImageInput, ImageSource, SkippedFile } from '../input/imageInput';
import type { ExecutionHints } from '../output/executionHints';
import type { RequestSettings } from '../transport';
import type { Redact } from '../transport/errors';

/** One image's checked inputs: everything needed to send it, read before any request goes out. */
export interface ImagePlan<TFields> {
	itemIndex: number;
	/** The image's place among this execution's images, the order their requests start in. */
	position: number;
	/** The model's ID; empty for an operation that runs no model (Operation.readsModel). */
	modelId: string;
	image: ImageInput;
	fields: TFields;
	/** Whether output items also carry the input item's binary fields (see ItemImages). */
	passThrough: boolean;
	/** Files of the item "All Images on the Item" left out; listed on each of its output items. */
	skippedFiles?: SkippedFile[];
	/** How this image's item asks its requests to be sent (retries, time-out). */
	settings: RequestSettings;
}

/** What every image of one execution shares. */
export interface ExecutionContext {
	redact: Redact;
	serviceUrl: string;
	/** Files in n8n's database store, read one image ahead of the requests. */
	databaseFiles: DatabaseFileReadAhead;
	/** What the output panel is told after the run (see executionHints.ts). */
	hints: ExecutionHints;
}

export interface Operation<TFields> {
	description: INodeProperties[];
	/** Whether the operation runs a model (reads Model); uploads do not. */
	readsModel: boolean;
	/** Reads and checks this operation's fields for one item; throws an item error, sends nothing. */
	prepare(this: IExecuteFunctions, itemIndex: number, imageSource: ImageSource): TFields;
	/** Checks one image further before any request is sent (its file read if need be), knowing how many its item gives; throws an item error. */
	checkImage?(this: IExecuteFunctions, plan: ImagePlan<TFields>, imagesOfItem: number): Promise<void>;
	/** Called once all images are checked, before the first request: what the execution's calls share. */
	startExecution?(this: IExecuteFunctions, plans: Array<ImagePlan<TFields>>, context: ExecutionContext): void;
	/** Called when a failed image stops the execution (On Error "Stop Workflow"), with the error the node throws: it may add to it. */
	whenStopped?(this: IExecuteFunctions, error: NodeApiError | NodeOperationError, context: ExecutionContext): void;
	/** Sends one image's requests and reads the answers; gives how the image's output items are made. */
	execute(this: IExecuteFunctions, plan: ImagePlan<TFields>, context: ExecutionContext): Promise<MakeOutputItems>;
}

/**
 * An image's output items, each paired with the image's input item (none is allowed). The router
 * makes them once every image of the execution is answered, in input order: a Watch Key's looks
 * are compared in that order, and an execution stopped by a failed request keeps none.
 */
export type MakeOutputItems = () => INodeExecutionData[] | Promise<INodeExecutionData[]>;
