import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, ITriggerFunctions } from 'n8n-workflow';

import type { Snapshot } from '../camera/snapshot';

/** The snapshot's binary field on the one item Detect sees. */
export const SNAPSHOT_FIELD = 'snapshot';
/** The one Watch Key of a trigger: its camera. */
export const TRIGGER_WATCH_KEY = 'camera';
/** The trigger's own options, which Detect does not know. */
export const TRIGGER_OWN_OPTIONS = ['cameraTimeout', 'frozenAfterLooks', 'ignoreSslIssues', 'reportCameraProblemsAfter'];

/** What Detect's parameters are on the trigger: those the trigger sets itself, and the options it always sets. */
const SET_PARAMETERS: IDataObject = { operation: 'detect', imageSource: 'binary', binaryPropertyName: SNAPSHOT_FIELD, outputItems: 'image' };

export interface LookScope {
	snapshot: Snapshot;
	/** The node's static data the look compares with and writes to (a copy, in a Fetch Test Event). */
	staticData: IDataObject;
	signal?: AbortSignal;
}

/** A file kept in memory as base64, as a Code node's file is: a look's files reach n8n's binary store only when its event is emitted. */
export function inMemoryFile(bytes: Buffer, fileName: string | undefined, mimeType: string | undefined): IBinaryData {
	const extension = fileName?.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : undefined;
	return {
		data: bytes.toString('base64'),
		mimeType: mimeType ?? 'application/octet-stream',
		...(fileName ? { fileName } : {}),
		...(extension ? { fileExtension: extension } : {}),
		fileSize: `${Math.round((bytes.length / 1024) * 10) / 10} kB`,
		bytes: bytes.length,
	};
}

/** The trigger's options as Detect reads them: Compare With Previous Look always on, under the camera's key. */
export function detectOptionsOf(triggerOptions: IDataObject): IDataObject {
	const options = Object.fromEntries(Object.entries(triggerOptions).filter(([name]) => !TRIGGER_OWN_OPTIONS.includes(name)));
	return { ...options, compareWithPreviousLook: true, watchKey: TRIGGER_WATCH_KEY };
}

/**
 * The trigger's context as the Image Inference node's Detect reads an execution's: one input item
 * holding the snapshot, Detect's parameters as the trigger sets them, the node's static data for
 * its looks. Detect runs on it unchanged, so the trigger and the node share one pipeline.
 */
export function detectContext(trigger: ITriggerFunctions, scope: LookScope): IExecuteFunctions {
	const item: INodeExecutionData = {
		json: {},
		binary: { [SNAPSHOT_FIELD]: inMemoryFile(scope.snapshot.bytes, `snapshot.${scope.snapshot.extension}`, scope.snapshot.mimeType) },
	};
	const readBinary = (field: string): Buffer => {
		const binary = item.binary?.[field];
		if (!binary) throw new Error(`No binary field "${field}" on the snapshot item`);
		return field === SNAPSHOT_FIELD ? scope.snapshot.bytes : Buffer.from(binary.data, 'base64');
	};
	const context = {
		getNode: () => trigger.getNode(),
		getMode: () => trigger.getMode(),
		getTimezone: () => trigger.getTimezone(),
		getWorkflow: () => trigger.getWorkflow(),
		getCredentials: async (type: string) => await trigger.getCredentials(type),
		getWorkflowStaticData: () => scope.staticData,
		getExecutionCancelSignal: () => scope.signal,
		getInputData: () => [item],
		continueOnFail: () => false,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => {
			if (name in SET_PARAMETERS) return SET_PARAMETERS[name];
			if (name === 'options') return detectOptionsOf(trigger.getNodeParameter('options', {}) as IDataObject);
			return trigger.getNodeParameter(name, fallback);
		},
		logger: trigger.logger,
		helpers: {
			httpRequest: async (...args: Parameters<ITriggerFunctions['helpers']['httpRequest']>) => await trigger.helpers.httpRequest(...args),
			httpRequestWithAuthentication: async (...args: Parameters<ITriggerFunctions['helpers']['httpRequestWithAuthentication']>) =>
				await trigger.helpers.httpRequestWithAuthentication.call(trigger, ...args),
			getBinaryDataBuffer: async (_itemIndex: number, field: string) => readBinary(field),
			binaryToBuffer: async (...args: Parameters<ITriggerFunctions['helpers']['binaryToBuffer']>) => await trigger.helpers.binaryToBuffer(...args),
			prepareBinaryData: async (bytes: Buffer, fileName?: string, mimeType?: string) => inMemoryFile(bytes, fileName, mimeType),
		},
	};
	return context as unknown as IExecuteFunctions;
}
