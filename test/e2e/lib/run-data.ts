/**
 * Reading n8n's own run data (the IRun `n8n execute` prints).
 *
 * Exports (stable):
 *   type RunLike, Item (INodeExecutionData-like), BinaryRef
 *   nodeRuns(run, nodeName)                          the node's task data (one per run)
 *   nodeItems(run, nodeName, {output?, runIndex?})   items on one output (default main[0], first run)
 *   nodeError(run, nodeName)                         the error a node stopped with, if any
 *   executedNodes(run)                               names of nodes that ran
 *   readBinary(home, binary): Buffer                 the bytes of an n8n binary in an item: inline base64
 *                                                    (1.x default mode) or the file of filesystem mode (2.x)
 */
import * as fs from 'fs';
import * as path from 'path';

export interface BinaryRef {
	data: string;
	mimeType: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
	fileType?: string;
	id?: string;
	[k: string]: unknown;
}

export interface Item {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryRef>;
	pairedItem?: { item: number; input?: number } | Array<{ item: number }> | number;
	error?: unknown;
}

export interface TaskData {
	startTime: number;
	executionTime: number;
	executionStatus?: string;
	data?: { main?: Array<Item[] | null> };
	error?: { message?: string; description?: string; name?: string; [k: string]: unknown };
	source?: unknown;
}

export interface RunLike {
	data: {
		resultData: {
			runData: Record<string, TaskData[]>;
			lastNodeExecuted?: string;
			error?: { message?: string; description?: string | null; node?: { name?: string }; [k: string]: unknown };
		};
	};
	mode?: string;
	status?: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

export function nodeRuns(run: RunLike, nodeName: string): TaskData[] {
	const r = run.data.resultData.runData[nodeName];
	if (!r) throw new Error(`node "${nodeName}" did not run; ran: ${executedNodes(run).join(', ')}`);
	return r;
}

export function nodeItems(run: RunLike, nodeName: string, o: { output?: number; runIndex?: number } = {}): Item[] {
	const task = nodeRuns(run, nodeName)[o.runIndex ?? 0];
	if (!task) throw new Error(`node "${nodeName}" has no run ${o.runIndex ?? 0}`);
	return task.data?.main?.[o.output ?? 0] ?? [];
}

export function nodeError(run: RunLike, nodeName: string): TaskData['error'] | undefined {
	return run.data.resultData.runData[nodeName]?.[0]?.error;
}

export function executedNodes(run: RunLike): string[] {
	return Object.keys(run.data.resultData.runData);
}

export function readBinary(home: { userFolder: string }, binary: BinaryRef): Buffer {
	if (!binary.id) return Buffer.from(binary.data, 'base64');
	const fileId = binary.id.slice(binary.id.indexOf(':') + 1);
	const n8nFolder = path.join(home.userFolder, '.n8n');
	for (const base of [path.join(n8nFolder, 'storage'), path.join(n8nFolder, 'binaryData')]) {
		const file = path.join(base, fileId);
		if (fs.existsSync(file)) return fs.readFileSync(file);
	}
	throw new Error(`binary ${binary.id} not found under ${n8nFolder}`);
}
