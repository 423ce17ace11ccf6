import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ImageInput } from '../helpers/imageInput';
import type { RequestSettings } from '../helpers/parameters';
import type { Redact } from '../transport/errors';

/** One item's checked inputs: everything needed to send it, read before any request goes out. */
export interface ItemPlan<TFields> {
	itemIndex: number;
	modelId: string;
	image: ImageInput;
	fields: TFields;
}

/** What every item of one execution shares. */
export interface ExecutionContext {
	settings: RequestSettings;
	redact: Redact;
	serviceUrl: string;
}

export interface Operation<TFields> {
	description: INodeProperties[];
	/** Reads and checks this operation's fields for one item; throws an item error, sends nothing. */
	prepare(this: IExecuteFunctions, itemIndex: number): TFields;
	execute(this: IExecuteFunctions, plan: ItemPlan<TFields>, context: ExecutionContext): Promise<INodeExecutionData>;
}
