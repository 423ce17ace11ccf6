import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { DefaultModels, ReferenceServer } from '../reference-server';
import { startReferenceServer } from '../reference-server';
import type { HarnessCredentials, InputItem, ParameterValue, RunOptions, RunResult } from '../harness/execute';
import { runNode } from '../harness/execute';

export { pngOf } from '../harness/images';
export { asServiceSent } from '../harness/detections';

export const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', 'fixtures', name));
export const CAR = fixture('car.jpg');
export const DOG = fixture('dog.jpg');

export const carItem = (field = 'data'): InputItem => ({
	binary: { [field]: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } },
});
export const dogItem = (field = 'data'): InputItem => ({
	binary: { [field]: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } },
});

/**
 * A reference server for the file's tests, and a way to run the node against it. Its default
 * models are the real detector's; tests about transport, faults and errors, where what the model
 * sees does not matter, pass `defaultModels: 'synthetic'` (fast, and no detector to load).
 */
export function useServer(options: { apiKey?: string; defaultModels?: DefaultModels } = {}) {
	const state: { server?: ReferenceServer } = {};
	beforeAll(async () => {
		state.server = await startReferenceServer(options);
		// the first prediction of an image runs the model and draws; do that before tests time anything
		state.server.predict('detect', CAR, {});
		state.server.predict('classify', DOG, {});
	});
	afterAll(async () => {
		await state.server?.close();
	});
	beforeEach(() => {
		state.server?.clearFaults();
		state.server?.setLatency(0);
		state.server?.stopHoldingAnswers();
		state.server?.requests.splice(0);
	});
	const server = () => state.server!;
	const credentials = (overrides: Partial<HarnessCredentials> = {}): HarnessCredentials => ({
		baseUrl: server().url,
		apiKey: server().apiKey,
		sendAs: 'header',
		...overrides,
	});
	/** Every RunOptions field but the credential passes through as given; the credential is the server's, with overrides. */
	const run = async (
		parameters: Record<string, ParameterValue>,
		items: InputItem[],
		extra: Omit<Partial<RunOptions>, 'parameters' | 'items' | 'credentials'> & { credentials?: Partial<HarnessCredentials> } = {},
	): Promise<RunResult> => await runNode({ ...extra, parameters, items, credentials: credentials(extra.credentials) });
	return { server, credentials, run };
}

export const detectParameters = (server: ReferenceServer, extra: Record<string, ParameterValue> = {}) => ({
	operation: 'detect',
	modelId: server.models.detect,
	imageSource: 'binary',
	binaryPropertyName: 'data',
	options: {},
	...extra,
});

export const classifyParameters = (server: ReferenceServer, extra: Record<string, ParameterValue> = {}) => ({
	operation: 'classify',
	modelId: server.models.classify,
	imageSource: 'binary',
	binaryPropertyName: 'data',
	options: {},
	...extra,
});

/** What a thrown node error says, as a user sees it in n8n. */
export async function failureOf(promise: Promise<unknown>) {
	try {
		await promise;
	} catch (error) {
		const known = error as { message: string; description?: string; context?: { itemIndex?: number }; httpCode?: string };
		return { message: known.message, description: known.description ?? '', itemIndex: known.context?.itemIndex, httpCode: known.httpCode };
	}
	throw new Error('expected the node to fail, it succeeded');
}

export const jsonOf = (items: INodeExecutionData[]) => items.map((item) => item.json);


/** What a failed item says under either Continue setting: its `error` object; undefined on a result. */
export interface FailureJson {
	message: string;
	description: string | null;
	httpCode: string | null;
	status: number | null;
	code: string | null;
	details: Array<Record<string, unknown>>;
	attempts: number;
}
export const failureIn = (item: INodeExecutionData): FailureJson | undefined => item.json.error as unknown as FailureJson | undefined;

/** The context the options' readers need (the node, for their item errors); each one stands for a run of its own. */
export function readerContext(): IExecuteFunctions {
	const node = { id: 'node', name: 'Image Inference', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
	return { getNode: () => node } as unknown as IExecuteFunctions;
}
