import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { BINARY_ENCODING, NodeOperationError } from 'n8n-workflow';

import { binaryFieldsNamed, parseFieldList, quotedList } from './imageInput';
import { truncate } from './parameters';
import { runsAsTool } from './toolOutput';

/**
 * Where an item's image files come from when they are not on the item itself.
 *
 * As an AI Agent's tool, the node gets one item per tool call that n8n builds from the agent's
 * input item's json and the tool's arguments, without its binary: n8n-core's
 * `prepareRequestedNodesForExecution` (packages/core/src/execution-engine/requests-response.ts;
 * read compiled in n8n-core/dist/execution-engine/requests-response.js of 2.41.1 and 1.123.81).
 * That item's json is `{ ...agentInputItem.json, ...toolArguments, toolCallId }` and its
 * `pairedItem.sourceOverwrite` names the node the agent's input came from, with its output and
 * run. Its `pairedItem.item` is that run's index, not the item's, so `$('Node').item` (n8n-workflow's
 * WorkflowDataProxy, workflow-data-proxy.js, `normalizeInputs` follows `sourceOverwrite`) gives
 * the first item whichever item the agent is working on. The item is found instead among that
 * node's items (`$items(node, output, run)` of the same proxy, both versions) as the one whose
 * json the tool item carries; its files are then read from n8n's binary store by id, or from
 * memory (n8n 1.x's default mode keeps them base64 in `data`).
 *
 * Image Source "Binary From Expression" takes a file object an expression gives, for example
 * `{{ $('When chat message received').item.binary.data0 }}`, in any mode.
 *
 * The node's input is never changed (n8n shares it with the previous node's output): the node
 * runs on a view of its context whose items carry the files found and whose
 * getBinaryDataBuffer reads them. An item's own files come first; the agent's input item only
 * gives the fields the tool's item lacks.
 */
export function withImagesFromElsewhere(context: IExecuteFunctions): IExecuteFunctions {
	const asTool = runsAsTool(context);
	// Image Source takes no expression (noDataExpression): item 0's is every item's
	if (!asTool && context.getNodeParameter('imageSource', 0, 'binary') !== BINARY_EXPRESSION) return context;
	const items = [...context.getInputData()];
	const borrowed = new Set<string>();
	const resolved = new Set<number>();

	const view = Object.create(context) as IExecuteFunctions;
	view.getInputData = ((inputIndex?: number, connectionType?: never) =>
		(inputIndex ?? 0) === 0 && connectionType === undefined ? items : context.getInputData(inputIndex, connectionType)) as IExecuteFunctions['getInputData'];
	// the item's image source is the first thing read of it: its files are found then, so a
	// failure is that item's, under its On Error setting
	view.getNodeParameter = ((name: string, itemIndex: number, fallback?: unknown, options?: never) => {
		if (name === 'imageSource' && !resolved.has(itemIndex)) {
			resolved.add(itemIndex);
			const source = context.getNodeParameter(name, itemIndex, fallback, options) as string;
			if (source === BINARY_EXPRESSION) {
				items[itemIndex] = withReferencedBinary(context, items[itemIndex], itemIndex, borrowed);
			} else if (asTool && (source === 'binary' || source === 'allImages')) {
				items[itemIndex] = withAgentInputFiles(context, items[itemIndex], itemIndex, source, borrowed);
			}
		}
		if (items[itemIndex] && referencedField.has(items[itemIndex])) {
			if (name === 'imageSource') return 'binary';
			if (name === 'binaryPropertyName') return referencedField.get(items[itemIndex]);
		}
		return context.getNodeParameter(name, itemIndex, fallback, options);
	}) as IExecuteFunctions['getNodeParameter'];
	view.helpers = {
		...context.helpers,
		getBinaryDataBuffer: async (itemIndex: number, field: string) => {
			if (!borrowed.has(`${itemIndex}/${field}`)) return await context.helpers.getBinaryDataBuffer(itemIndex, field);
			return await readBinary(context, items[itemIndex].binary![field]);
		},
	};
	return view;
}

/** Image Source value: a file object given by an expression. */
export const BINARY_EXPRESSION = 'binaryExpression';

/** The binary field a referenced file is put under on the node's view of its item. */
const referencedField = new WeakMap<INodeExecutionData, string>();

function withReferencedBinary(context: IExecuteFunctions, item: INodeExecutionData, itemIndex: number, borrowed: Set<string>): INodeExecutionData {
	const value = context.getNodeParameter('imageBinary', itemIndex, '') as unknown;
	if (!isBinaryObject(value)) {
		const got =
			value === '' || value === undefined || value === null
				? 'it is empty'
				: `it gave ${typeof value === 'string' ? `the text "${truncate(value, 60)}"` : 'something other than a file'}`;
		throw new NodeOperationError(context.getNode(), 'Binary File Reference is not a file', {
			itemIndex,
			description: `Enter an expression that gives a file object, for example {{ $('When chat message received').item.binary.data0 }} or {{ $binary.data }}; ${got}.`,
		});
	}
	const field = freeFieldName(item.binary ?? {});
	const copy: INodeExecutionData = { ...item, binary: { ...(item.binary ?? {}), [field]: value } };
	referencedField.set(copy, field);
	borrowed.add(`${itemIndex}/${field}`);
	return copy;
}

function freeFieldName(binaries: Record<string, IBinaryData>): string {
	let name = 'image';
	for (let n = 1; binaries[name]; n++) name = `image_${n}`;
	return name;
}

function isBinaryObject(value: unknown): value is IBinaryData {
	if (typeof value !== 'object' || value === null) return false;
	const { id, data, mimeType } = value as IDataObject;
	return typeof mimeType === 'string' && (typeof id === 'string' || (typeof data === 'string' && data !== ''));
}

function withAgentInputFiles(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	source: 'binary' | 'allImages',
	borrowed: Set<string>,
): INodeExecutionData {
	const own = item.binary ?? {};
	const wanted = source === 'binary' ? parseFieldList(context.getNodeParameter('binaryPropertyName', itemIndex, 'data')) : [];
	const missing = source === 'binary' ? wanted.filter((field) => !own[field]) : Object.keys(own).length ? [] : ['*'];
	if (missing.length === 0) return item;

	const found = agentInputItem(context, item, itemIndex);
	const theirs = found.item?.binary ?? {};
	const taken = source === 'binary' ? missing.filter((field) => theirs[field]) : Object.keys(theirs);
	const stillMissing = source === 'binary' ? missing.filter((field) => !theirs[field]) : taken.length ? [] : ['*'];
	if (stillMissing.length) throw notFound(context, itemIndex, source, stillMissing, found);

	for (const field of taken) borrowed.add(`${itemIndex}/${field}`);
	return { ...item, binary: { ...own, ...Object.fromEntries(taken.map((field) => [field, theirs[field]])) } };
}

interface AgentInput {
	/** The node the agent's input came from, when n8n names it. */
	node?: string;
	item?: INodeExecutionData;
	/** Why no item was found, when none was. */
	reason?: string;
}

/** The item the AI Agent was working on when it called this tool, among its input node's items. */
function agentInputItem(context: IExecuteFunctions, item: INodeExecutionData, itemIndex: number): AgentInput {
	const paired = (Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem) as IPairedItemData | number | undefined;
	const source = typeof paired === 'object' ? paired.sourceOverwrite : undefined;
	if (!source?.previousNode) return { reason: 'n8n did not say which node the AI Agent’s input came from' };
	const node = source.previousNode;
	let candidates: INodeExecutionData[];
	try {
		candidates = context.getWorkflowDataProxy(itemIndex).$items(node, source.previousNodeOutput ?? 0, source.previousNodeRun ?? 0);
	} catch {
		return { node, reason: `the data of "${node}" could not be read` };
	}
	const matches = candidates.filter((candidate) => carries(item.json, candidate.json));
	if (matches.length === 1 || (matches.length > 1 && matches.every((match) => sameFiles(match, matches[0])))) {
		return { node, item: matches[0] };
	}
	// a tool argument named like one of the item's fields hides it: with one item there is no doubt
	if (matches.length === 0 && candidates.length === 1) return { node, item: candidates[0] };
	return {
		node,
		reason:
			matches.length > 1
				? `${matches.length} items of "${node}" hold the same data, so which one the AI Agent is working on cannot be told`
				: `none of the items of "${node}" is the one the AI Agent is working on`,
	};
}

/** Whether the tool's item json holds every field of a candidate item's json, with the same value. */
function carries(toolJson: IDataObject, json: IDataObject): boolean {
	return Object.entries(json).every(([key, value]) => key in toolJson && JSON.stringify(toolJson[key]) === JSON.stringify(value));
}

function sameFiles(a: INodeExecutionData, b: INodeExecutionData): boolean {
	return JSON.stringify(a.binary ?? {}) === JSON.stringify(b.binary ?? {});
}

function notFound(context: IExecuteFunctions, itemIndex: number, source: 'binary' | 'allImages', missing: string[], found: AgentInput) {
	const where = found.node ? `the AI Agent’s input item from "${found.node}"` : 'the AI Agent’s input item';
	const theirFields = Object.keys(found.item?.binary ?? {});
	const looked = found.item
		? `${where} has ${theirFields.length ? `the binary field(s) ${quotedList(theirFields)}` : 'no file'}`
		: `${where} was not found: ${found.reason}`;
	const message =
		source === 'binary'
			? `No ${binaryFieldsNamed(missing)} on the tool’s item or the AI Agent’s input item`
			: 'No file on the tool’s item or the AI Agent’s input item';
	return new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description:
			`Looked on the tool’s own item, then ${looked}. ` +
			(theirFields.length && source === 'binary'
				? `Set "Input Binary Field" to one of those, or use "All Images on the Item". `
				: 'In a chat, allow file uploads on the Chat Trigger and send a photo with the message. ') +
			`Or set Image Source to "Binary From Expression" with {{ $('${found.node ?? 'Node'}').item.binary.<field> }}, or pass an image URL.`,
	});
}

/** A file of another item: from n8n's binary store by its id, or from memory (n8n 1.x's default mode). */
async function readBinary(context: IExecuteFunctions, binary: IBinaryData): Promise<Buffer> {
	if (binary.id) return await context.helpers.binaryToBuffer(await context.helpers.getBinaryStream(binary.id));
	return Buffer.from(binary.data, BINARY_ENCODING);
}
