import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { truncate } from '../parameters/readers';

/** What a failed item says of its failure: what failed and why, nothing secret. */
export interface FailureFields {
	message: string;
	description: string | null;
	/** The HTTP status, when the service answered. */
	status: number | null;
	code: string | null;
	details: IDataObject[];
	attempts: number;
}

/** The fields of any error the node throws (a NodeApiError from the transport carries the rest in errorResponse). */
export function failureFields(error: unknown): FailureFields {
	const known = error as { message?: string; description?: string | null; errorResponse?: IDataObject };
	const response = known.errorResponse ?? {};
	return {
		message: known.message ?? String(error),
		description: known.description ?? null,
		status: typeof response.status === 'number' ? response.status : null,
		code: (response.code as string | null | undefined) ?? null,
		details: (response.details as IDataObject[] | undefined) ?? [],
		attempts: (response.attempts as number | undefined) ?? 0,
	};
}

/**
 * The Continue On Fail item standing in for a failed one.
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
export function failureItem(error: unknown, itemIndex: number, toErrorOutput: boolean): INodeExecutionData {
	const { message, ...rest } = failureFields(error);
	const json: IDataObject = toErrorOutput ? { error: { message, ...rest } } : { error: message, ...rest };
	return { json, pairedItem: { item: itemIndex } };
}

/** Error texts longer than this are cut in a tool result. */
const MAX_TOOL_ERROR_LENGTH = 500;

/** A failure as an agent's tool result: what failed and why, without the detail list. */
export function toolFailure(failure: Pick<FailureFields, 'message' | 'description' | 'status'>): IDataObject {
	return {
		error: truncate(failure.message, MAX_TOOL_ERROR_LENGTH),
		...(typeof failure.description === 'string' ? { description: truncate(failure.description, MAX_TOOL_ERROR_LENGTH) } : {}),
		...(typeof failure.status === 'number' ? { status: failure.status } : {}),
	};
}
