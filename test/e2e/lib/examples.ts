/**
 * The importable workflows in examples/, made runnable headless (no form submission, no Google account).
 *
 * Exports (stable):
 *   loadExample(file): WorkflowJson                 examples/<file> as JSON
 *   useCredentialAndModels(wf, {credentialId, detect?, classify?}): WorkflowJson
 *        points every Image Inference node at that credential and replaces the model-ID placeholders
 *   feedTriggerWithFile(wf, triggerName, filePath, binaryPropertyName): WorkflowJson
 *        swaps a trigger for Manual Trigger → Read/Write Files from Disk; the Read node takes the
 *        trigger's name, so the rest of the workflow (connections, expressions) is untouched and the
 *        file arrives in the binary field the trigger would have filled (Form Trigger: the field label)
 *   swapNodeForFile(wf, nodeName, filePath, binaryPropertyName?)   same for a non-trigger node
 *        (e.g. Google Drive "Download file")
 *   useCredential(wf, type, id): WorkflowJson   every node using a credential of that type (e.g. smtp) uses credential id
 *   asSavedAtVersion1(wf, modelIdText?): WorkflowJson
 *        every Image Inference node as a workflow saved with node version 1 holds it: typeVersion 1
 *        and the model as plain text (the locator's value, or modelIdText(id) such as a pasted link)
 */
import * as fs from 'fs';
import * as path from 'path';
import { CREDENTIAL_TYPE, NODE_TYPE } from './pack';
import { examplesDir } from './paths';
import { manualTrigger, readFile, replaceNode, type WorkflowJson } from './workflow';

export function loadExample(file: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')) as WorkflowJson;
}

export function useCredentialAndModels(
	wf: WorkflowJson,
	o: { credentialId: string; detect?: string; classify?: string },
): WorkflowJson {
	const nodes = wf.nodes.map((n) => {
		if (n.type !== NODE_TYPE) return n;
		const op = n.parameters.operation as 'detect' | 'classify';
		const saved = n.parameters.modelId;
		const locator = isLocator(saved) ? saved : undefined;
		const text = String(locator ? locator.value : (saved ?? ''));
		const id = text.startsWith('REPLACE_WITH') ? o[op] : text;
		const modelId = locator ? { ...locator, value: id } : id;
		return {
			...n,
			parameters: { ...n.parameters, modelId },
			credentials: { [CREDENTIAL_TYPE]: { id: o.credentialId, name: `Image Inference ${o.credentialId}` } },
		};
	});
	return { ...wf, nodes };
}

export function feedTriggerWithFile(
	wf: WorkflowJson,
	triggerName: string,
	filePath: string,
	binaryPropertyName = 'data',
): WorkflowJson {
	const swapped = swapNodeForFile(wf, triggerName, filePath, binaryPropertyName);
	const start = { ...manualTrigger('Start (replaces the trigger)'), position: [-220, 300] as [number, number] };
	return {
		...swapped,
		nodes: [start, ...swapped.nodes],
		connections: { ...swapped.connections, [start.name]: { main: [[{ node: triggerName, type: 'main', index: 0 }]] } },
	};
}

export function swapNodeForFile(wf: WorkflowJson, nodeName: string, filePath: string, binaryPropertyName = 'data'): WorkflowJson {
	return replaceNode(wf, nodeName, readFile(nodeName, filePath, { binaryPropertyName }));
}

/** Points every node that uses a credential of `type` (e.g. `smtp`) at credential `id`. */
export function useCredential(wf: WorkflowJson, type: string, id: string): WorkflowJson {
	const nodes = wf.nodes.map((n) =>
		n.credentials?.[type] ? { ...n, credentials: { ...n.credentials, [type]: { id, name: `${type} ${id}` } } } : n,
	);
	return { ...wf, nodes };
}

interface ModelLocator {
	__rl: true;
	mode: string;
	value: unknown;
}

function isLocator(value: unknown): value is ModelLocator {
	return typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;
}

export function asSavedAtVersion1(wf: WorkflowJson, modelIdText: (id: string) => string = (id) => id): WorkflowJson {
	const nodes = wf.nodes.map((n) => {
		if (!n.type.startsWith(NODE_TYPE)) return n;
		const saved = n.parameters.modelId;
		const text = String(isLocator(saved) ? saved.value : (saved ?? ''));
		// an expression ($fromAI in a tool) stays as it is
		const modelId = text.startsWith('=') ? text : modelIdText(text);
		return { ...n, typeVersion: 1, parameters: { ...n.parameters, modelId } };
	});
	return { ...wf, nodes };
}
