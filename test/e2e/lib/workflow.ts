/**
 * Workflow and credential JSON as n8n imports it, and small builders for the nodes the e2e uses.
 *
 * Exports (stable):
 *   types WorkflowJson, NodeJson, CredentialJson
 *   workflow(name, nodes, edges?, extra?)  nodes laid out left to right; edges default to a chain of
 *                                          main connections; an edge is [from, to] or [from, to, outputIndex]
 *   node(name, type, parameters, extra?)   any node (typeVersion 1 unless extra.typeVersion)
 *   manualTrigger(name?)
 *   readFile(name, filePath, {binaryPropertyName?}?)   Read/Write Files from Disk, operation read
 *   code(name, jsCode, mode?)                Code node (runOnceForAllItems by default)
 *   imageInference(name, parameters, credentialId, extra?)  this package's node (typeVersion 1)
 *   imageInferenceCredential(id, {baseUrl, apiKey, sendAs?}, name?)   plain `data` (n8n encrypts it)
 *   withPinData(wf, nodeName, items)        pinned output for a node (items' json only)
 *   replaceNode(wf, name, newNode)          swap a node (e.g. a trigger) keeping its connections
 */
import { randomUUID } from 'crypto';
import { CREDENTIAL_TYPE, NODE_TYPE } from './pack';

export interface NodeJson {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	continueOnFail?: boolean;
	webhookId?: string;
	disabled?: boolean;
	[k: string]: unknown;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: NodeJson[];
	connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;
	settings?: Record<string, unknown>;
	active?: boolean;
	pinData?: Record<string, Array<{ json: Record<string, unknown> }>>;
	[k: string]: unknown;
}

export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown> | string;
}

export type Edge = [string, string] | [string, string, number];

export function node(
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	extra: Partial<NodeJson> = {},
): NodeJson {
	return { id: randomUUID(), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

export function workflow(name: string, nodes: NodeJson[], edges?: Edge[], extra: Partial<WorkflowJson> = {}): WorkflowJson {
	const list = edges ?? nodes.slice(1).map((n, i): Edge => [nodes[i].name, n.name]);
	const connections: WorkflowJson['connections'] = {};
	for (const [from, to, out = 0] of list.map((e) => [e[0], e[1], e[2] ?? 0] as const)) {
		const c = (connections[from] ??= { main: [] });
		while (c.main.length <= out) c.main.push([]);
		c.main[out].push({ node: to, type: 'main', index: 0 });
	}
	const laidOut = nodes.map((n, i) =>
		n.position[0] === 0 && n.position[1] === 0 ? { ...n, position: [i * 220, 300] as [number, number] } : n,
	);
	return { name, nodes: laidOut, connections, settings: { executionOrder: 'v1' }, active: false, ...extra };
}

export const manualTrigger = (name = 'Start'): NodeJson => node(name, 'n8n-nodes-base.manualTrigger', {});

export function readFile(name: string, filePath: string, o: { binaryPropertyName?: string } = {}): NodeJson {
	return node(
		name,
		'n8n-nodes-base.readWriteFile',
		{
			operation: 'read',
			fileSelector: filePath,
			options: o.binaryPropertyName ? { dataPropertyName: o.binaryPropertyName } : {},
		},
		{ typeVersion: 1 },
	);
}

export function code(name: string, jsCode: string, mode: 'runOnceForAllItems' | 'runOnceForEachItem' = 'runOnceForAllItems'): NodeJson {
	return node(name, 'n8n-nodes-base.code', { mode, jsCode }, { typeVersion: 2 });
}

export function imageInference(
	name: string,
	parameters: Record<string, unknown>,
	credentialId: string,
	extra: Partial<NodeJson> = {},
): NodeJson {
	return node(name, NODE_TYPE, parameters, {
		typeVersion: 1,
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: `Image Inference ${credentialId}` } },
		...extra,
	});
}

export function imageInferenceCredential(
	id: string,
	data: { baseUrl: string; apiKey: string; sendAs?: 'header' | 'query' },
	name = `Image Inference ${id}`,
): CredentialJson {
	return { id, name, type: CREDENTIAL_TYPE, data: { sendAs: 'header', ...data } };
}

export function withPinData(wf: WorkflowJson, nodeName: string, items: Array<Record<string, unknown>>): WorkflowJson {
	return { ...wf, pinData: { ...wf.pinData, [nodeName]: items.map((json) => ({ json })) } };
}

export function replaceNode(wf: WorkflowJson, name: string, replacement: NodeJson): WorkflowJson {
	const old = wf.nodes.find((n) => n.name === name);
	if (!old) throw new Error(`no node ${name} in ${wf.name}`);
	const nodes = wf.nodes.map((n) => (n.name === name ? { ...replacement, position: old.position } : n));
	const rename = (s: string) => (s === name ? replacement.name : s);
	const connections: WorkflowJson['connections'] = {};
	for (const [from, c] of Object.entries(wf.connections)) {
		connections[rename(from)] = { main: c.main.map((outs) => (outs ?? []).map((t) => ({ ...t, node: rename(t.node) }))) };
	}
	return { ...wf, nodes, connections };
}
