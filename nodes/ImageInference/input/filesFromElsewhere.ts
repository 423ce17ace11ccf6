import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import { truncate } from '../parameters/readers';
import type { ImageSource } from './imageInput';
import { ImageRefusedError } from './imageRefused';
import { DEFAULT_BINARY_FIELD, binaryFieldsNamed, parseFieldList, quotedList } from './imageInput';

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
export function filesFromElsewhere(context: IExecuteFunctions, source: ImageSource, asTool: boolean): FilesFromElsewhere {
	if (!asTool && source !== 'binaryExpression') return { context, bring: () => undefined };
	const items = [...context.getInputData()];
	const broughtIn = new Set<string>();

	const view = Object.create(context) as IExecuteFunctions;
	view.getInputData = ((inputIndex?: number, connectionType?: never) =>
		(inputIndex ?? 0) === 0 && connectionType === undefined ? items : context.getInputData(inputIndex, connectionType)) as IExecuteFunctions['getInputData'];
	view.helpers = {
		...context.helpers,
		getBinaryDataBuffer: async (itemIndex: number, field: string) => {
			if (!broughtIn.has(`${itemIndex}/${field}`)) return await context.helpers.getBinaryDataBuffer(itemIndex, field);
			return await readBinary(context, items[itemIndex].binary![field]);
		},
	};
	const bring = (itemIndex: number): string | undefined => {
		if (source === 'binaryExpression') {
			const { item, field } = withReferencedBinary(context, items[itemIndex], itemIndex);
			items[itemIndex] = item;
			broughtIn.add(`${itemIndex}/${field}`);
			return field;
		}
		if (source === 'binary' || source === 'allImages') {
			const { item, fields } = withAgentInputFiles(context, items[itemIndex], itemIndex, source);
			items[itemIndex] = item;
			for (const field of fields) broughtIn.add(`${itemIndex}/${field}`);
		}
		return undefined;
	};
	return { context: view, bring };
}

/** The node's context with an item's files found elsewhere, and how to find them. */
export interface FilesFromElsewhere {
	/** The context the node runs on: its items carry the files brought in, and it reads them. */
	context: IExecuteFunctions;
	/**
	 * Brings item `itemIndex`'s files in, before anything else is read of the item, so a failure is
	 * that item's; gives the binary field a file from Binary From Expression was put under.
	 */
	bring(itemIndex: number): string | undefined;
}

function withReferencedBinary(context: IExecuteFunctions, item: INodeExecutionData, itemIndex: number): { item: INodeExecutionData; field: string } {
	const value = context.getNodeParameter('imageBinary', itemIndex, '') as unknown;
	if (!isBinaryObject(value)) {
		const got =
			value === '' || value === undefined || value === null
				? 'it is empty'
				: `it gave ${typeof value === 'string' ? `the text "${truncate(value, 60)}"` : 'something other than a file'}`;
		throw new ImageRefusedError(context.getNode(), 'Binary File Reference is not a file', {
			itemIndex,
			description: `Enter an expression that gives a file object, for example {{ $('When chat message received').item.binary.data0 }} or {{ $binary.data }}; ${got}.`,
		});
	}
	const field = freeFieldName(item.binary ?? {});
	return { item: { ...item, binary: { ...(item.binary ?? {}), [field]: value } }, field };
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
): { item: INodeExecutionData; fields: string[] } {
	const own = item.binary ?? {};
	const wanted = source === 'binary' ? parseFieldList(context.getNodeParameter('binaryPropertyName', itemIndex, DEFAULT_BINARY_FIELD)) : [];
	const missing = source === 'binary' ? wanted.filter((field) => !own[field]) : Object.keys(own).length ? [] : ['*'];
	if (missing.length === 0) return { item, fields: [] };

	const found = agentInputItem(context, item, itemIndex);
	const theirs = found.item?.binary ?? {};
	const taken = source === 'binary' ? missing.filter((field) => theirs[field]) : Object.keys(theirs);
	const stillMissing = source === 'binary' ? missing.filter((field) => !theirs[field]) : taken.length ? [] : ['*'];
	if (stillMissing.length) throw notFound(context, itemIndex, source, stillMissing, found);

	return { item: { ...item, binary: { ...own, ...Object.fromEntries(taken.map((field) => [field, theirs[field]])) } }, fields: taken };
}

interface AgentInput {
	/** The node the agent's input came from, when n8n names it. */
	node?: string;
	item?: INodeExecutionData;
	/** Why no item was found, when none was. */
	reason?: string;
	/** No item was found because several hold the tool item's data: n8n gives the tool no other way to tell them apart. */
	alike?: boolean;
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
	const matches = candidates.filter((candidate) => holdsAllFieldsOf(item.json, candidate.json));
	if (matches.length === 1 || (matches.length > 1 && matches.every((match) => sameFiles(match, matches[0])))) {
		return { node, item: matches[0] };
	}
	// a tool argument named like one of the item's fields hides it: with one item there is no doubt
	if (matches.length === 0 && candidates.length === 1) return { node, item: candidates[0] };
	if (matches.length > 1) return { node, alike: true, reason: `${matches.length} of its items hold the same data` };
	return { node, reason: `none of the items of "${node}" is the one the AI Agent is working on` };
}

/** Whether the tool's item json holds every field of a candidate item's json, with the same value. */
function holdsAllFieldsOf(toolJson: IDataObject, json: IDataObject): boolean {
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
		: `${where} ${found.alike ? 'could not be told apart' : 'was not found'}: ${found.reason}`;
	const message =
		source === 'binary'
			? `No ${binaryFieldsNamed(missing)} on the tool’s item or the AI Agent’s input item`
			: 'No file on the tool’s item or the AI Agent’s input item';
	// $('Node').item is not offered: in a tool it gives the node's first item whichever the AI Agent works on
	const fix = found.alike
		? 'n8n gives a tool only the data of the item the AI Agent works on, not which item it is. Before the AI Agent, give each item data of its own: an Edit Fields node setting "item" to {{ $itemIndex }}, with "Include Other Input Fields" on (it keeps the files only then).'
		: theirFields.length && source === 'binary'
			? 'Set "Input Binary Field" to one of those, or use "All Images on the Item".'
			: 'In a chat, allow file uploads on the Chat Trigger and send a photo with the message.';
	return new ImageRefusedError(context.getNode(), message, {
		itemIndex,
		description: `Looked on the tool’s own item, then ${looked}. ${fix} Or pass an image URL.`,
	});
}

/** A file of another item: from n8n's binary store by its id, or from memory (n8n 1.x's default mode). */
async function readBinary(context: IExecuteFunctions, binary: IBinaryData): Promise<Buffer> {
	if (binary.id) return await context.helpers.binaryToBuffer(await context.helpers.getBinaryStream(binary.id));
	return Buffer.from(binary.data, BINARY_ENCODING);
}
