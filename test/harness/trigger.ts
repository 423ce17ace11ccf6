/**
 * Runs the Image Inference Trigger outside n8n with real HTTP: a small ITriggerFunctions over the
 * same request helper as the node's harness (execute.ts), whose static data behaves as n8n's does
 * for an active trigger: the node gets n8n-workflow's ObservableObject over the saved data, and the
 * saved copy is written only when the trigger emits or activation ends (n8n 2.41.1
 * trigger-execution-context.factory.js and 1.123.81 active-workflow-manager.js save on emit and
 * after activation), and only when the proxy saw a change.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions, INode, INodeExecutionData, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeApiError, NodeHelpers, ObservableObject } from 'n8n-workflow';

import { ImageInferenceApi } from '../../credentials/ImageInferenceApi.credentials';
import { ImageInferenceTrigger } from '../../nodes/ImageInferenceTrigger/ImageInferenceTrigger.node';
import { httpRequestAsN8n, type HarnessCredentials } from './execute';

export interface Emission {
	items: INodeExecutionData[];
	deduplicationKey?: string;
	/** The static data n8n saved with it. */
	saved: IDataObject;
}

export interface TriggerRun {
	emissions: Emission[];
	logged: string[];
	/** The static data as n8n has it saved. */
	saved: IDataObject;
	/** The cron expression registered, and a tick of it at `now`. */
	cron?: string;
	tick(now?: number): Promise<void>;
	/** Fetch Test Event: runs the manual trigger function, giving what it emitted. */
	manual(): Promise<INodeExecutionData[]>;
	/** Deactivation, or n8n stopping: n8n calls closeFunction and saves nothing (what the trigger kept unsaved is lost). */
	close(): Promise<void>;
	response: ITriggerResponse;
	/** Every request the trigger sent, the camera's and the service's. */
	sent: IHttpRequestOptions[];
}

export interface TriggerOptions {
	parameters: IDataObject;
	credentials: HarnessCredentials;
	camera?: ICredentialDataDecryptedObject;
	/** The static data as n8n saved it; passed again after a "restart". */
	saved?: IDataObject;
	mode?: 'trigger' | 'manual';
	/** Keep every request sent in `sent`, and each emission's items and saved state (default true; the benchmark keeps only the emissions' count, as n8n keeps nothing of them in the trigger's process). */
	recordRequests?: boolean;
	/** Asked at each file the trigger stores: true makes n8n's binary data store fail (a full disk, S3 down). */
	binaryStoreFails?: () => boolean;
}

const nodeType = new ImageInferenceTrigger();

function nodeOf(parameters: IDataObject): INode {
	const node: INode = {
		id: 'trigger-node',
		name: 'Image Inference Trigger',
		type: 'n8n-nodes-image-inference.imageInferenceTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	};
	node.parameters = NodeHelpers.getNodeParameters(nodeType.description.properties, node.parameters, true, false, node, nodeType.description) ?? {};
	return node;
}

/** Activates the trigger (its `trigger()`, as n8n does on activation or for Fetch Test Event). */
export async function activateTrigger(options: TriggerOptions): Promise<TriggerRun> {
	const node = nodeOf(options.parameters);
	const saved: IDataObject = JSON.parse(JSON.stringify(options.saved ?? {})) as IDataObject;
	const live = ObservableObject.create(JSON.parse(JSON.stringify(saved)) as IDataObject) as IDataObject & { __dataChanged?: boolean };
	const save = () => {
		if (live.__dataChanged !== true) return;
		const copy = JSON.parse(JSON.stringify(live)) as IDataObject;
		for (const key of Object.keys(saved)) delete saved[key];
		Object.assign(saved, copy);
		live.__dataChanged = false;
	};
	const emissions: Emission[] = [];
	const logged: string[] = [];
	const sent: IHttpRequestOptions[] = [];
	let onTick: (() => unknown) | undefined;
	let cron: string | undefined;
	let lastEmitted: INodeExecutionData[] = [];
	const credential = new ImageInferenceApi();
	const apiCredentials = { baseUrl: options.credentials.baseUrl, apiKey: options.credentials.apiKey, sendAs: options.credentials.sendAs ?? 'header' };
	const log = (level: string) => (message: string) => logged.push(`${level} ${message}`);
	const send = async (requestOptions: IHttpRequestOptions) => {
		if (options.recordRequests !== false) sent.push(requestOptions);
		return await httpRequestAsN8n(requestOptions);
	};

	const context = {
		getNode: () => node,
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => 'activate',
		getTimezone: () => 'UTC',
		getWorkflow: () => ({ id: 'workflow', name: 'Camera', active: true }),
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error('the trigger keeps its state in the node’s static data');
			return live;
		},
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = node.parameters[name];
			return value === undefined ? fallback : structuredClone(value);
		},
		getCredentials: async (type: string) => {
			if (type === credential.name) return { ...apiCredentials };
			if (type === 'imageInferenceCameraApi' && options.camera) return { ...options.camera };
			throw new Error(`Node does not have any credentials set for "${type}"`);
		},
		emit: (data: INodeExecutionData[][], _response?: unknown, _done?: unknown, deduplicationKey?: string) => {
			save();
			if (options.recordRequests !== false) lastEmitted = data[0];
			if (options.recordRequests === false) emissions.push({ items: [], saved: {} });
			else emissions.push({ items: data[0], ...(deduplicationKey ? { deduplicationKey } : {}), saved: JSON.parse(JSON.stringify(saved)) as IDataObject });
		},
		emitError: (error: Error) => logged.push(`emitError ${error.message}`),
		saveFailedExecution: () => undefined,
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), verbose: log('verbose') },
		helpers: {
			httpRequest: send,
			httpRequestWithAuthentication: async (type: string, requestOptions: IHttpRequestOptions) => {
				if (type !== credential.name) throw new Error(`unknown credential type ${type}`);
				try {
					return await send(await credential.authenticate(apiCredentials, requestOptions));
				} catch (error) {
					throw new NodeApiError(node, error as never);
				}
			},
			prepareBinaryData: async (bytes: Buffer, fileName?: string, mimeType?: string) => {
				if (options.binaryStoreFails?.() === true) throw new Error('binary data store: no space left on device');
				return {
					data: bytes.toString('base64'),
					mimeType: mimeType ?? 'application/octet-stream',
					...(fileName ? { fileName } : {}),
					bytes: bytes.length,
				};
			},
			binaryToBuffer: async (body: Buffer) => body,
			registerCron: (rule: { expression: string }, tick: () => unknown) => {
				cron = rule.expression;
				onTick = tick;
			},
		},
	} as unknown as ITriggerFunctions;

	const response = (await nodeType.trigger.call(context)) ?? {};
	// n8n saves the static data once the activation is done
	if (options.mode !== 'manual') save();
	return {
		emissions,
		logged,
		saved,
		sent,
		response,
		get cron() {
			return cron;
		},
		async tick(now?: number) {
			if (!onTick) throw new Error('the trigger registered no cron');
			// the clock the look reads is the tick's (a look's time, its tracks' times and its event's `at`)
			const realNow = Date.now;
			if (now !== undefined) Date.now = () => now;
			try {
				// n8n does not wait for a tick; the test does, to read what the look did
				await onTick();
			} finally {
				Date.now = realNow;
			}
		},
		async manual() {
			if (!response.manualTriggerFunction) throw new Error('no manual trigger function');
			await response.manualTriggerFunction();
			return lastEmitted;
		},
		async close() {
			await response.closeFunction?.();
		},
	};
}
