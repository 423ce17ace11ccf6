/**
 * Runs the node's execute() outside n8n with real HTTP: a small IExecuteFunctions whose
 * httpRequestWithAuthentication applies the credential's own authenticate() and sends with
 * node:http, as n8n's axios does, following n8n's httpRequest semantics for the options the node
 * uses (baseURL + url, qs, JSON or Buffer body, timeout, returnFullResponse,
 * ignoreHttpStatusErrors, encoding arraybuffer or stream).
 * Binary data lives in a store keyed by id, like n8n's filesystem mode: `.data` holds no bytes.
 */
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';

import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	NodeExecutionHint,
} from 'n8n-workflow';
import { ApplicationError, NodeApiError, NodeOperationError, ObservableObject, UserError, Workflow } from 'n8n-workflow';

import { ImageInferenceApi } from '../../credentials/ImageInferenceApi.credentials';
import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';

export interface InputFile {
	bytes: Buffer;
	fileName?: string;
	mimeType?: string;
	/** Held in the item as base64, whatever the store (as a Code node's file is): no id. */
	inMemory?: boolean;
}

export interface InputItem {
	json?: IDataObject;
	binary?: Record<string, InputFile>;
}

/**
 * A parameter value, or a function of the item index standing in for an n8n expression; a
 * collection's fields may be such functions too, as an option set by an expression is.
 */
export type ParameterValue = unknown | ((itemIndex: number) => unknown);

/** A parameter with each function in it (an expression), at any depth, replaced by what `expression` makes of it. */
function withExpressions(value: unknown, expression: (stored: (itemIndex: number) => unknown) => unknown): unknown {
	if (typeof value === 'function') return expression(value as (itemIndex: number) => unknown);
	if (Array.isArray(value)) return value.map((entry) => withExpressions(entry, expression));
	if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withExpressions(field, expression)]));
	return value;
}

/** A stored parameter with each text in it, at any depth, replaced by what `text` makes of it. */
function withTexts(value: unknown, text: (stored: string) => unknown): unknown {
	if (typeof value === 'string') return text(value);
	if (Array.isArray(value)) return value.map((entry) => withTexts(entry, text));
	if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withTexts(field, text)]));
	return value;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * The node in a workflow as n8n runs it. n8n builds a Workflow from the saved workflow before
 * running it (packages/cli/src/workflow-runner.ts, runMainProcess; a queue-mode worker the same in
 * scaling/job-processor.ts), and the Workflow constructor replaces each node's parameters with
 * `NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node,
 * description)` (n8n-workflow src/workflow.ts; compiled in dist/cjs/workflow.js of the installed
 * package): top-level defaults added, and every parameter or option whose display conditions are
 * not met dropped, so the node never sees it. The real constructor does it here too.
 * Parameters are stored as a workflow stores them: each expression as its text.
 */
function workflowOf(node: INode, asTool: boolean): Workflow {
	const nodeType = new ImageInference();
	// an AI Agent's tool is the node under the name `…Tool` (packages/cli/src/node-types.ts,
	// getByNameAndVersion; tool-generation/ai-tools.ts, convertNodeToAiTool): the properties are
	// the node's own, as it declares its Tool Description, and `@tool` display conditions read the name
	const type: INodeType = asTool ? Object.create(nodeType, { description: { value: { ...nodeType.description, name: `${nodeType.description.name}Tool` } } }) : nodeType;
	const nodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) } as unknown as INodeTypes;
	return new Workflow({ id: 'workflow', nodes: [node], connections: {}, active: false, nodeTypes, staticData: {}, settings: {} });
}

/** The version n8n gives the node when it is added to a workflow. */
export const NODE_DEFAULT_VERSION = new ImageInference().description.defaultVersion!;

export const DELETED_CREDENTIAL_ID = 'Xb3kR9mQ2pLw7vNc';

export interface HarnessCredentials {
	baseUrl: string;
	apiKey: string;
	sendAs?: 'header' | 'query';
}

export interface RunOptions {
	/** The node's parameters as the workflow stores them; the node gets them as n8n resolves them against its description (workflowOf). */
	parameters: Record<string, ParameterValue>;
	items: InputItem[];
	credentials: HarnessCredentials;
	continueOnFail?: boolean;
	signal?: AbortSignal;
	/** Keep a copy of every request sent (default true; benchmarks turn it off). */
	recordRequests?: boolean;
	/** The node's version in the workflow; default the node's defaultVersion, as n8n gives a node added to a workflow. */
	typeVersion?: number;
	/** Run as n8n runs an AI Agent's tool: the node's `…Tool` variant. */
	asTool?: boolean;
	/** The node's On Error setting. */
	onError?: INode['onError'];
	/** The node's Retry On Fail setting (n8n runs the whole node again when it fails). */
	retryOnFail?: boolean;
	/** Store files as n8n 1.x does: without `bytes`, their size only in the store's metadata. */
	sizeInMetadataOnly?: boolean;
	/**
	 * The binary data store the files are in: `filesystem` (n8n's default from 2.0; streams read in
	 * chunks), `database` (queue mode's default; any stream is the whole file read first) or
	 * `default` (n8n 1.x's default: each file in memory, base64 in `data`, with no id to stream by;
	 * packages/core `binary-data/binary-data.service.ts`, `store` and `getAsBuffer`).
	 */
	binaryMode?: 'filesystem' | 'database' | 'default';
	/** Run as one tool call of an AI Agent whose input came from another node (with asTool; `items` unused). */
	agentInput?: AgentInput;
	/** How n8n runs the workflow (`getMode()`): `manual` from the editor, `trigger` or `webhook` when active; default `trigger`. */
	mode?: 'manual' | 'trigger' | 'webhook' | 'internal';
	/**
	 * The node's static data, kept as n8n keeps it: the node gets a copy wrapped in n8n-workflow's
	 * ObservableObject, and it is written back here when that proxy saw a change, whether the run
	 * succeeds or fails (n8n saves workflow static data when `__dataChanged` is set, after a failed
	 * execution too). Pass the same object to runs that follow each other.
	 */
	staticData?: IDataObject;
	/** The workflow's time zone (`getTimezone()`: its settings' timezone, else the instance's GENERIC_TIMEZONE); default UTC. */
	timezone?: string;
	/** Context methods left out, as a runner other than n8n's own may (n8n 1.123 and 2.41 have both). */
	contextWithout?: Array<'addExecutionHints' | 'getExecutionCancelSignal'>;
	/** Items whose files the binary store fails to read, as a disk does (a plain Error, code EIO). */
	unreadableItems?: number[];
	/**
	 * The credential cannot be had: `notSet`, none chosen; `deleted`, the one chosen no longer exists
	 * (getCredentials throws as n8n's does: see the harness's getCredentials).
	 */
	credentialFailure?: 'notSet' | 'deleted';
}

/**
 * An AI Agent's tool call as n8n builds it (n8n-core's `prepareRequestedNodesForExecution`,
 * packages/core/src/execution-engine/requests-response.ts, read compiled in
 * n8n-core/dist/execution-engine/requests-response.js of 1.123.81 and 2.41.1): the tool's one
 * item is `{ json: { ...agentInputItem.json, ...arguments, toolCallId }, pairedItem: { item:
 * <run index>, input: <output>, sourceOverwrite: { previousNode, previousNodeOutput,
 * previousNodeRun } } }`, without the agent's item's binary. `node`'s run `runIndex` output 0 is
 * `items`, readable through the workflow data proxy's `$items` as in n8n-workflow's
 * WorkflowDataProxy (workflow-data-proxy.js, `getNodeExecutionData`).
 */
export interface AgentInput {
	node: string;
	items: InputItem[];
	/** The agent's item the call is made for. */
	itemIndex: number;
	arguments?: IDataObject;
	runIndex?: number;
	/** The output of that node the agent's input came from (an If's false branch is output 1). */
	output?: number;
	/** Keep that node's files in memory, base64 in `data` without an id: n8n 1.x's default mode. */
	inMemory?: boolean;
	/** Files on the tool's own item (n8n puts none there; a test of what comes first). */
	toolItemFiles?: Record<string, InputFile>;
	/** The node the tool's item names as its source, when it is not `node` (one whose data cannot be read). */
	sourceNode?: string;
}

export interface SentRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: unknown;
}

export interface RunResult {
	/** The node's (success) output, as the next node gets it. */
	items: INodeExecutionData[];
	/** With On Error "Continue (using error output)": the error output, as its next node gets it; otherwise empty. */
	errorItems: INodeExecutionData[];
	/** Bytes of an output binary, read from the store as n8n would. */
	bytes(item: INodeExecutionData, field: string): Buffer;
	sent: SentRequest[];
	logged: string[];
	/** How the node read its input files: whole (getBinaryDataBuffer, or any stream from the database) or streamed (bytes taken). */
	reads: { whole: number; streamedBytes: number };
	/** In the order they happened: `read <item>` when a file is read whole, `answer` when an answer's headers arrive. */
	events: string[];
	/** What the node gave n8n's output panel through addExecutionHints, in order. */
	hints: NodeExecutionHint[];
	/** Whether the node's static data changed, so that n8n saves it. */
	staticDataSaved: boolean;
	/** The node's parameters as n8n resolved them from the stored ones (workflowOf): what `getNode().parameters` gave the node. */
	parameters: INode['parameters'];
}

/**
 * Connections are kept alive so the benchmarks see the node's own cost; n8n (1.x and 2.x) opens
 * one per request, whose cost the throughput benchmark shows beside it.
 */
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 128 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 128 }) };

export class BinaryStore {
	private readonly files = new Map<string, Buffer>();

	constructor(
		private readonly sizeInMetadataOnly = false,
		readonly mode: 'filesystem' | 'database' | 'default' = 'filesystem',
	) {}

	put(bytes: Buffer, meta: { fileName?: string; mimeType?: string; inMemory?: boolean }): IBinaryData {
		const described = {
			mimeType: meta.mimeType ?? 'application/octet-stream',
			fileName: meta.fileName,
			fileExtension: meta.fileName?.includes('.') ? meta.fileName.split('.').pop() : undefined,
			fileSize: `${bytes.length} B`,
		};
		if (this.mode === 'default' || meta.inMemory) return { data: bytes.toString('base64'), ...described };
		const id = `${this.mode === 'database' ? 'database' : 'filesystem-v2'}:${randomUUID()}`;
		this.files.set(id, bytes);
		return {
			id,
			data: this.mode === 'database' ? 'database' : 'filesystem-v2',
			...described,
			...(this.sizeInMetadataOnly ? {} : { bytes: bytes.length }),
		};
	}

	get(binary: IBinaryData): Buffer {
		if (!binary.id) return Buffer.from(binary.data, 'base64');
		const bytes = binary.id ? this.files.get(binary.id) : undefined;
		if (!bytes) throw new Error(`binary ${binary.id ?? '(no id)'} is not in the store`);
		return bytes;
	}
}

export async function runNode(options: RunOptions): Promise<RunResult> {
	const store = new BinaryStore(options.sizeInMetadataOnly, options.binaryMode);
	// each expression stored as a text of its own, by which it is found again to resolve it per item
	const expressions = new Map<string, (itemIndex: number) => unknown>();
	const stored = withExpressions(options.parameters, (expression) => {
		const text = `={{ expression ${expressions.size + 1} }}`;
		expressions.set(text, expression);
		return text;
	}) as INode['parameters'];
	const workflow = workflowOf(
		{
			id: randomUUID(),
			name: 'Image Inference',
			type: `n8n-nodes-image-inference.imageInference${options.asTool ? 'Tool' : ''}`,
			typeVersion: options.typeVersion ?? NODE_DEFAULT_VERSION,
			position: [0, 0],
			parameters: stored,
			...(options.onError ? { onError: options.onError } : {}),
			...(options.retryOnFail !== undefined ? { retryOnFail: options.retryOnFail } : {}),
		},
		options.asTool === true,
	);
	const node = workflow.getNode('Image Inference')!;
	const agent = options.agentInput && agentRunData(options.agentInput, store);
	const inputItems: INodeExecutionData[] = agent ? [agent.toolItem] : options.items.map((item) => ({
		json: item.json ?? {},
		...(item.binary
			? {
					binary: Object.fromEntries(
						Object.entries(item.binary).map(([field, file]) => [field, store.put(file.bytes, file)]),
					),
				}
			: {}),
	}));
	const sent: SentRequest[] = [];
	const logged: string[] = [];
	const reads = { whole: 0, streamedBytes: 0 };
	const events: string[] = [];
	const hints: NodeExecutionHint[] = [];
	let globalStaticData: IDataObject | undefined;
	let nodeStaticData: (IDataObject & { __dataChanged?: boolean }) | undefined;
	const without = new Set(options.contextWithout);
	const unreadable = new Set((options.unreadableItems ?? []).flatMap((index) => Object.values(inputItems[index]?.binary ?? {}).flatMap((binary) => (binary.id ? [binary.id] : []))));
	const readFailure = () => Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
	const credential = new ImageInferenceApi();
	const credentials = { baseUrl: options.credentials.baseUrl, apiKey: options.credentials.apiKey, sendAs: options.credentials.sendAs ?? 'header' };
	const log = (level: string) => (message: string, meta?: object) => logged.push(`${level} ${message} ${meta ? JSON.stringify(meta) : ''}`);
	/** n8n's request helpers: a failure to get an answer comes as a NodeApiError. */
	const sendAsN8n = async (requestOptions: IHttpRequestOptions) => {
		try {
			return await send(requestOptions, options.signal, options.recordRequests === false ? undefined : sent, () => events.push('answer'));
		} catch (error) {
			throw new NodeApiError(node, error as never);
		}
	};

	const context = {
		getInputData: () => inputItems,
		getNode: () => node,
		getWorkflowDataProxy: () => ({
			$items(nodeName: string, outputIndex = 0, runIndex = -1) {
				const runs = agent?.runData[nodeName];
				if (!runs) throw new Error(`Node '${nodeName}' hasn't been executed`);
				const run = runIndex === -1 ? runs.length - 1 : runIndex;
				if (run >= runs.length) throw new Error(`Run ${run} of node "${nodeName}" not found`);
				return runs[run][outputIndex];
			},
		}),
		// as n8n: either Continue setting of On Error is Continue On Fail
		continueOnFail: () => options.continueOnFail ?? (options.onError === 'continueRegularOutput' || options.onError === 'continueErrorOutput'),
		// as n8n: a workflow's every node gets its execution's AbortController signal (n8n-core
		// dist/execution-engine/workflow-execute.js, runNode(…, this.abortController.signal), 1.123.81 and 2.41.1)
		...(without.has('getExecutionCancelSignal') ? {} : { getExecutionCancelSignal: () => options.signal ?? new AbortController().signal }),
		...(without.has('addExecutionHints') ? {} : { addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added) }),
		// as n8n's Workflow.getStaticData (n8n-workflow src/workflow.ts): "node" is this node's own, "global" the workflow's; any other kind throws
		getMode: () => options.mode ?? 'trigger',
		getTimezone: () => options.timezone ?? 'UTC',
		getWorkflowStaticData: (type: string) => {
			if (type === 'node') return (nodeStaticData ??= ObservableObject.create(JSON.parse(JSON.stringify(options.staticData ?? {})) as IDataObject));
			if (type === 'global') return (globalStaticData ??= {});
			throw new Error('Unknown context type. Only `global` and `node` are supported.');
		},
		getCredentials: async (type: string) => {
			if (type !== credential.name) throw new Error(`unknown credential type ${type}`);
			// as n8n 1.123.81 and 2.41.1 do: n8n-core's NodeExecutionContext.getCredentials
			// (dist/execution-engine/node-execution-context/node-execution-context.js) for a required
			// credential the node lacks; the n8n package's CredentialNotFoundError, a UserError
			// (dist/errors/credential-not-found.error.js), for one that was deleted
			if (options.credentialFailure === 'notSet') throw new NodeOperationError(node, 'Node does not have any credentials set', { level: 'warning' });
			if (options.credentialFailure === 'deleted') throw new UserError(`Credential with ID "${DELETED_CREDENTIAL_ID}" does not exist for type "${type}".`);
			return { ...credentials };
		},
		getNodeParameter(name: string, itemIndex: number, fallback?: unknown) {
			// as n8n-core's _getNodeParameter does (packages/core/src/execution-engine/node-execution-context/
			// node-execution-context.ts): the fallback stands in for a parameter the node's parameters lack,
			// before any expression is resolved, so an expression that resolves to undefined gives undefined
			const value: unknown = node.parameters[name] === undefined ? fallback : node.parameters[name];
			if (value === undefined) throw new ApplicationError('Could not get parameter', { extra: { parameterName: name } });
			// each expression resolved for the item: a test's by its function, any other (a default such
			// as `={{ $json.detections }}`) by n8n-workflow's own expression engine
			const resolved = withTexts(value, (text) => {
				const expression = expressions.get(text);
				if (expression) return expression(itemIndex);
				if (!text.startsWith('=')) return text;
				return workflow.expression.getParameterValue(text, null, 0, itemIndex, node.name, inputItems, options.mode ?? 'trigger', {});
			});
			return resolved === undefined ? undefined : structuredClone(resolved);
		},
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), verbose: log('verbose') },
		helpers: {
			async getBinaryDataBuffer(itemIndex: number, field: string) {
				const binary = inputItems[itemIndex]?.binary?.[field];
				if (!binary) throw new Error(`No binary data property "${field}" exists on item!`);
				if (unreadable.has(binary.id ?? '')) throw readFailure();
				reads.whole++;
				events.push(`read ${itemIndex}`);
				return store.get(binary);
			},
			// as n8n's stores do it: the filesystem reads the file in chunks of the size asked for; the
			// database reads it whole, whatever part of it is then read
			async getBinaryStream(binaryDataId: string, chunkSize = 64 * 1024) {
				if (unreadable.has(binaryDataId)) throw readFailure();
				const bytes = store.get({ id: binaryDataId } as IBinaryData);
				if (store.mode === 'database') {
					reads.whole++;
					return Readable.from([bytes]);
				}
				return Readable.from(
					(function* () {
						for (let start = 0; start < bytes.length; start += chunkSize) {
							const chunk = bytes.subarray(start, start + chunkSize);
							reads.streamedBytes += chunk.length;
							yield chunk;
						}
					})(),
				);
			},
			async binaryToBuffer(body: Buffer | Readable) {
				if (Buffer.isBuffer(body)) return body;
				const chunks: Buffer[] = [];
				for await (const chunk of body) chunks.push(chunk as Buffer);
				return Buffer.concat(chunks);
			},
			async getBinaryMetadata(binaryDataId: string) {
				const bytes = store.get({ id: binaryDataId } as IBinaryData);
				return { fileSize: bytes.length };
			},
			async prepareBinaryData(bytes: Buffer, fileName?: string, mimeType?: string) {
				return store.put(bytes, { fileName, mimeType });
			},
			async httpRequest(requestOptions: IHttpRequestOptions) {
				return await sendAsN8n(requestOptions);
			},
			async httpRequestWithAuthentication(this: unknown, type: string, requestOptions: IHttpRequestOptions) {
				if (type !== credential.name) throw new Error(`unknown credential type ${type}`);
				return await sendAsN8n(await credential.authenticate(credentials, requestOptions));
			},
		},
	} as unknown as IExecuteFunctions;

	// n8n saves changed static data after an execution that failed too (n8n-core's workflow-execute.js:
	// processSuccessExecution with its executionError, and the run's catch, in 1.123.81 and 2.41.1)
	let output: INodeExecutionData[][];
	let staticDataSaved = false;
	try {
		output = await new ImageInference().execute.call(context);
	} finally {
		staticDataSaved = saveStaticData(nodeStaticData, options);
	}
	// a tool's items go back to its caller, not along main connections: not routed here (an AI Agent
	// calling it under Continue (using error output) gets nothing from n8n: test/e2e/error-output.e2e.test.ts)
	const [items, errorItems = []] = options.asTool ? output : routeAsN8nDoes(output, inputItems, node);
	return { items, errorItems, bytes: (item, field) => store.get(item.binary![field]), sent, logged, reads, events, hints, staticDataSaved, parameters: node.parameters };
}

function agentRunData(agent: AgentInput, store: BinaryStore) {
	const runIndex = agent.runIndex ?? 0;
	const output = agent.output ?? 0;
	// one file on several items (a node that copies items keeps the file's id) is stored once
	const stored = new Map<InputFile, IBinaryData>();
	const storedOnce = (file: InputFile) => stored.get(file) ?? stored.set(file, store.put(file.bytes, file)).get(file)!;
	const items: INodeExecutionData[] = agent.items.map((item) => ({
		json: item.json ?? {},
		...(item.binary
			? {
					binary: Object.fromEntries(
						Object.entries(item.binary).map(([field, file]) => [
							field,
							agent.inMemory
								? { data: file.bytes.toString('base64'), mimeType: file.mimeType ?? 'application/octet-stream', fileName: file.fileName, fileSize: `${file.bytes.length} B` }
								: storedOnce(file),
						]),
					),
				}
			: {}),
	}));
	const runData: Record<string, INodeExecutionData[][][]> = {
		[agent.node]: Array.from({ length: runIndex + 1 }, (_, run) => Array.from({ length: output + 1 }, (_, index) => (run === runIndex && index === output ? items : []))),
	};
	const toolItem: INodeExecutionData = {
		json: { ...(items[agent.itemIndex]?.json ?? {}), ...(agent.arguments ?? {}), toolCallId: `call_${agent.itemIndex}` },
		...(agent.toolItemFiles
			? { binary: Object.fromEntries(Object.entries(agent.toolItemFiles).map(([field, file]) => [field, store.put(file.bytes, file)])) }
			: {}),
		pairedItem: { item: runIndex, input: 0, sourceOverwrite: { previousNode: agent.sourceNode ?? agent.node, previousNodeOutput: output, previousNodeRun: runIndex } },
	};
	return { runData, toolItem };
}

/** The node's static data written back into the run's `staticData` when its proxy saw a change, as n8n saves it; whether it was. */
function saveStaticData(nodeStaticData: (IDataObject & { __dataChanged?: boolean }) | undefined, options: RunOptions): boolean {
	if (nodeStaticData?.__dataChanged !== true) return false;
	const saved = JSON.parse(JSON.stringify(nodeStaticData)) as IDataObject;
	options.staticData ??= {};
	for (const key of Object.keys(options.staticData)) delete options.staticData[key];
	for (const [key, value] of Object.entries(saved)) Object.defineProperty(options.staticData, key, { value, enumerable: true, writable: true, configurable: true });
	return true;
}

/**
 * What n8n's engine does with a node's output before the next nodes get it, ported from n8n-core's
 * `WorkflowExecute` (packages/core/src/execution-engine/workflow-execute.ts; read compiled in
 * n8n-core/dist/execution-engine/workflow-execute.js of 1.123.81 and 2.41.1):
 * - On Error "Continue (using error output)" (`node.onError === 'continueErrorOutput'`):
 *   `handleNodeErrorOutput` adds an error output after the node's main output and moves each
 *   error item to it, in order: an item with an `error` property, or whose json has a truthy
 *   `error` and no other key but those the version allows (below). An error item paired with an
 *   input item becomes `{ ...item, json: { ...inputItem.json, ...item.json } }`.
 * - Then, with any On Error, every item with an `error` property gets its json replaced by
 *   `{ error: error.message }` (2.41.1's `normalizeNodeErrors`, 1.123.81's loop after the run; an
 *   item whose json has `$error` and `$json` too).
 * The versions differ only in the json they count as an error: the port applies both and throws
 * when they disagree, so an item one tested version would route and the other not fails the test.
 */
function routeAsN8nDoes(output: INodeExecutionData[][], inputItems: INodeExecutionData[], node: INode): INodeExecutionData[][] {
	let routed = output.map((items) => [...items]);
	if (node.onError === 'continueErrorOutput') {
		const success: INodeExecutionData[] = [];
		const errors: INodeExecutionData[] = [];
		for (const item of routed[0] ?? []) {
			const v1 = isErrorItem(item, 'n8n 1.123.81');
			if (v1 !== isErrorItem(item, 'n8n 2.41.1')) {
				throw new Error(`n8n 1.123.81 and 2.41.1 route this item differently: ${JSON.stringify(item.json)}`);
			}
			if (!v1) {
				success.push(item);
				continue;
			}
			const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
			const input = paired && typeof paired === 'object' ? inputItems[paired.item] : undefined;
			errors.push(input ? { ...item, json: { ...input.json, ...item.json } } : item);
		}
		routed = [success, errors];
	}
	return routed.map((items) => items.map(normalizeNodeError));
}

function normalizeNodeError(item: INodeExecutionData): INodeExecutionData {
	const { $error, $json } = item.json as { $error?: Error; $json?: unknown };
	if ($error !== undefined && $json !== undefined) return { ...item, error: $error as never, json: { error: $error.message } };
	return item.error !== undefined ? { ...item, json: { error: item.error.message } } : item;
}

function isErrorItem(item: INodeExecutionData, version: 'n8n 1.123.81' | 'n8n 2.41.1'): boolean {
	if (item.error) return true;
	if (!item.json.error) return false;
	const keys = Object.keys(item.json);
	if (version === 'n8n 2.41.1') return keys.every((key) => ['error', 'message', 'details'].includes(key));
	return keys.length === 1 || (keys.length === 2 && Boolean(item.json.message));
}

/** n8n's httpRequest (the request helper under `this.helpers.httpRequest*`), for tests that send as n8n does outside a node run (the credential test). */
export async function httpRequestAsN8n(options: IHttpRequestOptions): Promise<unknown> {
	return await send(options, undefined, undefined);
}

/** follow-redirects' default, which axios keeps when the request sets no maxRedirects. */
const MAX_REDIRECTS = 21;

/**
 * n8n's httpRequest, reduced to the options this package uses, over node:http. Redirects are
 * followed as axios's follow-redirects follows them (see `redirected`) unless
 * `disableFollowRedirect`, which answers the 3xx as it is (axios maxRedirects 0 in both tested
 * lines: n8n-core 1.122.48's request-helper-functions.js and @n8n/backend-network 1.15.1's
 * http/axios/request.js, convertN8nRequestToAxios). Every request sent, each hop of a redirect
 * too, is recorded in `sent`.
 */
async function send(options: IHttpRequestOptions, cancel: AbortSignal | undefined, sent: SentRequest[] | undefined, answered?: () => void) {
	let url = new URL(options.url, options.baseURL ? `${options.baseURL.replace(/\/+$/, '')}/` : undefined);
	if (options.baseURL && options.url.startsWith('/')) url.pathname = new URL(options.baseURL).pathname.replace(/\/+$/, '') + options.url;
	for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
	let headers: Record<string, string> = { 'user-agent': 'n8n' };
	for (const [key, value] of Object.entries(options.headers ?? {})) headers[key.toLowerCase()] = String(value);
	let body: string | Buffer | undefined;
	if (Buffer.isBuffer(options.body)) {
		body = options.body;
	} else if (options.body !== undefined && !(typeof options.body === 'object' && options.body !== null && Object.keys(options.body).length === 0)) {
		body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	if (options.json) headers.accept ??= 'application/json';
	if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
	let method: string = options.method ?? 'GET';

	let timedOut = false;
	try {
		let response: http.IncomingMessage;
		for (let redirects = 0; ; redirects++) {
			sent?.push({ method, url: url.toString(), headers: { ...headers }, body: body && asJsonOrBytes(body) });
			response = await exchange(url, { method, headers, signal: (options.abortSignal as AbortSignal | undefined) ?? cancel }, body, options.timeout, () => (timedOut = true));
			const next = options.disableFollowRedirect === true ? undefined : redirected(response, { url, method, headers, body });
			if (!next) break;
			response.destroy();
			if (redirects >= MAX_REDIRECTS) throw Object.assign(new Error('Maximum number of redirects exceeded'), { code: 'ERR_FR_TOO_MANY_REDIRECTS' });
			({ url, method, headers, body } = next);
		}
		answered?.();
		const statusCode = response.statusCode ?? 0;
		const ok = statusCode >= 200 && statusCode < 300;
		if (options.encoding === 'stream' && (ok || options.ignoreHttpStatusErrors)) {
			const full = { body: response, headers: response.headers, statusCode, statusMessage: response.statusMessage ?? '' };
			return options.returnFullResponse ? full : response;
		}
		const chunks: Buffer[] = [];
		for await (const chunk of response) chunks.push(chunk as Buffer);
		const bytes = Buffer.concat(chunks);
		if (!ok && !options.ignoreHttpStatusErrors) {
			throw Object.assign(new Error(`Request failed with status code ${statusCode}`), {
				response: { status: statusCode, data: bytes.toString('utf8') },
			});
		}
		const payload = options.encoding === 'arraybuffer' ? bytes : decode(bytes, options.json === true);
		return options.returnFullResponse
			? { body: payload, headers: response.headers, statusCode, statusMessage: response.statusMessage ?? '' }
			: payload;
	} catch (error) {
		throw axiosLike(error, { timedOut, cancelled: (options.abortSignal ?? cancel)?.aborted === true, timeoutMs: options.timeout });
	}
}

interface Hop {
	url: URL;
	method: string;
	headers: Record<string, string>;
	body: string | Buffer | undefined;
}

/**
 * The request a 3xx with a Location leads to, as follow-redirects 1.x makes it
 * (RedirectableRequest.prototype._processResponse, the library axios follows redirects with in
 * n8n): the Location resolved against the URL asked, its query as given; a POST answered 301 or
 * 302, and anything but GET or HEAD answered 303, becomes a GET without its body and `content-*`
 * headers; 307 and 308 (and 301 or 302 after a PUT) keep the method and the body; Authorization,
 * Proxy-Authorization and Cookie are dropped when the host changes (not to a subdomain) or the
 * protocol changes to anything but https, and every other header, X-API-Key among them, is kept.
 * (n8n's beforeRedirect puts an Authorization header back, on any origin unless
 * sendCredentialsOnCrossOriginRedirect is false; this package sends none.) Undefined when the
 * answer is not one to follow.
 */
function redirected(response: http.IncomingMessage, asked: Hop): Hop | undefined {
	const status = response.statusCode ?? 0;
	const location = response.headers.location;
	if (!location || status < 300 || status >= 400) return undefined;
	const url = new URL(location, asked.url);
	const toGet = ((status === 301 || status === 302) && asked.method === 'POST') || (status === 303 && !/^(?:GET|HEAD)$/.test(asked.method));
	const keep = (name: string) =>
		!(toGet && /^content-/i.test(name)) && !(sensitiveDropped(asked.url, url) && /^(?:authorization|proxy-authorization|cookie)$/i.test(name));
	return {
		url,
		method: toGet ? 'GET' : asked.method,
		headers: Object.fromEntries(Object.entries(asked.headers).filter(([name]) => keep(name))),
		body: toGet ? undefined : asked.body,
	};
}

function sensitiveDropped(from: URL, to: URL): boolean {
	const subdomain = to.host.endsWith(`.${from.host}`);
	return (to.protocol !== from.protocol && to.protocol !== 'https:') || (to.host !== from.host && !subdomain);
}

/**
 * Sends one request and resolves with the response once its headers are in. The time-out is the
 * socket's idle time, as in axios's Node adapter that n8n sends with (`req.setTimeout(timeout,
 * handleTimeout)` in axios/lib/adapters/http.js): an answer that keeps trickling in is never cut
 * off by it, however long it takes.
 */
function exchange(
	url: URL,
	init: { method: string; headers: Record<string, string>; signal?: AbortSignal },
	body: string | Buffer | undefined,
	timeoutMs: number | undefined,
	onTimeout: () => void,
) {
	const client = url.protocol === 'https:' ? https : http;
	return new Promise<http.IncomingMessage>((resolve, reject) => {
		const outgoing = client.request(url, { ...init, agent: agents[url.protocol as keyof typeof agents] }, resolve);
		// listening first: a time-out setTimeout refuses (a negative one) must not leave the socket's error unheard
		outgoing.on('error', reject);
		if (timeoutMs) {
			// axiosLike gives the error its axios shape from onTimeout's mark
			outgoing.setTimeout(timeoutMs, () => {
				onTimeout();
				outgoing.destroy();
			});
		}
		outgoing.end(body);
	});
}

/** A sent body as tests read it: JSON parsed, anything else (a file) as its bytes. */
function asJsonOrBytes(body: string | Buffer): unknown {
	try {
		return JSON.parse(body.toString());
	} catch {
		return Buffer.isBuffer(body) ? body : Buffer.from(body);
	}
}

function decode(bytes: Buffer, json: boolean): unknown {
	const text = bytes.toString('utf8');
	if (!json) return text;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** The error shapes axios (and so n8n) produces for time-outs, cancellation and dropped sockets. */
function axiosLike(error: unknown, state: { timedOut: boolean; cancelled: boolean; timeoutMs?: number }): Error {
	if ((error as { response?: unknown }).response) return error as Error;
	if ((error as { code?: unknown }).code === 'ERR_FR_TOO_MANY_REDIRECTS') return error as Error;
	if (state.cancelled) return Object.assign(new Error('canceled'), { name: 'CanceledError', code: 'ERR_CANCELED' });
	if (state.timedOut) {
		return Object.assign(new Error(`timeout of ${state.timeoutMs}ms exceeded`), { code: 'ECONNABORTED' });
	}
	const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
	if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') {
		return Object.assign(new Error(`connect ${code}`), { code });
	}
	return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}
