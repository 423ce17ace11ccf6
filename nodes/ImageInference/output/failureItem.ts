import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ImageRefusedError } from '../input/imageRefused';
import { truncate } from '../parameters/readers';

/** What a failed item says of its failure: what failed and why, nothing secret. */
export interface FailureFields {
	message: string;
	description: string | null;
	/** The HTTP status as text, in the field n8n's HTTP Request node's errors carry it (NodeApiError's). */
	httpCode: string | null;
	/** The HTTP status, when the service answered. */
	status: number | null;
	/** FAILURE_CODES: the service's code, the network's, or the node's own refusal. */
	code: string | null;
	details: IDataObject[];
	attempts: number;
}

/**
 * The codes of a failure the node raised itself, before any request: the image (send another
 * file) or a parameter (the workflow is set up wrong). The service's and the network's codes are
 * in transport/errors.ts.
 */
export const FAILURE_CODES = { image: 'invalid_image', parameter: 'invalid_parameter' } as const;

/** The fields of any error the node throws (a NodeApiError from the transport carries the rest in errorResponse). */
export function failureFields(error: unknown): FailureFields {
	const known = error as { message?: string; description?: string | null; errorResponse?: IDataObject };
	const response = known.errorResponse ?? {};
	const status = typeof response.status === 'number' ? response.status : null;
	return {
		message: known.message ?? String(error),
		description: known.description ?? null,
		httpCode: status === null ? null : String(status),
		status,
		code: (response.code as string | null | undefined) ?? ownCode(error),
		details: (response.details as IDataObject[] | undefined) ?? [],
		attempts: (response.attempts as number | undefined) ?? 0,
	};
}

function ownCode(error: unknown): string | null {
	if (error instanceof ImageRefusedError) return FAILURE_CODES.image;
	return error instanceof NodeOperationError ? FAILURE_CODES.parameter : null;
}

/**
 * The item standing in for a failed one under either Continue setting: `error` is one object
 * (FailureFields), beside the input item's json, and the input's files are kept (the router keeps
 * back its pictures with Blur These Labels), so an error branch can forward the photo that failed.
 *
 * Under "Continue (using error output)" the item's json is `{ error }` alone, as n8n moves to the
 * error output only an item whose json has a truthy `error` and no other key but `message` (and,
 * in 2.41.1, `details`), and merges the paired input item's json under it there: n8n-core's
 * `WorkflowExecute.handleNodeErrorOutput` (packages/core/src/execution-engine/workflow-execute.ts;
 * compiled in n8n-core/dist/execution-engine/workflow-execute.js, the same in 1.123.81 and
 * 2.41.1). It keeps the item's own `binary`, not the input's, so the item carries it. Under
 * "Continue (using regular output)" n8n merges nothing: the node puts the input's json beside
 * `error` itself. An item's `error` property (not set here) would make n8n replace its json by
 * `{ error: <message> }` (`normalizeNodeErrors` in 2.41.1, the loop after the run in 1.123.81).
 */
export function failureItem(error: unknown, input: INodeExecutionData | undefined, itemIndex: number, toErrorOutput: boolean): INodeExecutionData {
	const failure = failureFields(error) as unknown as IDataObject;
	return {
		json: toErrorOutput ? { error: failure } : { ...(input?.json ?? {}), error: failure },
		...(input?.binary ? { binary: input.binary } : {}),
		pairedItem: { item: itemIndex },
	};
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

/** Errors this node raises are already n8n errors with their item; anything else gets wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}
