/**
 * n8n's Evaluations, run as the editor's Evaluations tab runs them ("Run evaluation"), over n8n's
 * REST API. The routes, the same in 2.41.1 and 1.123.81 (n8n/dist/evaluation.ee/test-runs.controller.ee.js):
 *   POST /rest/workflows/:workflowId/test-runs/new            2.x answers {success, testRunId} once the run
 *                                                             exists; 1.x answers {success} and creates it after
 *   GET  /rest/workflows/:workflowId/test-runs                newest first
 *   GET  /rest/workflows/:workflowId/test-runs/:id            status, metrics (each one's average over the cases that have it)
 *   GET  /rest/workflows/:workflowId/test-runs/:id/test-cases one per dataset row: status, metrics, inputs, outputs
 * The editor posts no body (n8n-editor-ui's evaluation API: startTestRun).
 *
 * Exports (stable):
 *   runEvaluation(rest, workflowId, timeoutMs?): Promise<{run, cases}>   starts a run, waits until it ends
 *        (completed, error or cancelled); an error saying the run's state when it does not within timeoutMs
 *   testRuns(rest, workflowId): Promise<TestRun[]>   the workflow's runs, newest first
 *   TestRun { id, status, metrics, errorCode, finalResult, … }
 *   TestCase { id, status, metrics, inputs, outputs, errorCode, executionId, runIndex (2.x only), … }
 */
import type { RestClient } from './rest';

export interface TestRun {
	id: string;
	status: 'new' | 'running' | 'completed' | 'error' | 'cancelled';
	metrics: Record<string, number> | null;
	errorCode: string | null;
	errorDetails: unknown;
	finalResult: string | null;
	[k: string]: unknown;
}

export interface TestCase {
	id: string;
	status: string;
	metrics: Record<string, number> | null;
	inputs: Record<string, unknown> | null;
	outputs: Record<string, unknown> | null;
	errorCode: string | null;
	executionId: string | null;
	runIndex?: number;
	[k: string]: unknown;
}

export async function testRuns(rest: RestClient, workflowId: string): Promise<TestRun[]> {
	const runs = await rest.request<TestRun[]>('GET', `/rest/workflows/${workflowId}/test-runs`);
	if (runs.status !== 200) throw new Error(`test runs of ${workflowId}: HTTP ${runs.status} ${JSON.stringify(runs.raw)}`);
	return runs.body;
}

export async function runEvaluation(rest: RestClient, workflowId: string, timeoutMs = 180_000): Promise<{ run: TestRun; cases: TestCase[] }> {
	const before = new Set((await testRuns(rest, workflowId)).map((run) => run.id));
	const started = await rest.request<{ success: boolean; testRunId?: string }>('POST', `/rest/workflows/${workflowId}/test-runs/new`);
	if (started.status !== 202) throw new Error(`start test run: HTTP ${started.status} ${JSON.stringify(started.raw)}`);
	const deadline = Date.now() + timeoutMs;
	let id = started.body.testRunId;
	let run: TestRun | undefined;
	for (;;) {
		id ??= (await testRuns(rest, workflowId)).find((candidate) => !before.has(candidate.id))?.id;
		if (id) {
			const got = await rest.request<TestRun>('GET', `/rest/workflows/${workflowId}/test-runs/${id}`);
			if (got.status !== 200) throw new Error(`test run ${id}: HTTP ${got.status} ${JSON.stringify(got.raw)}`);
			run = got.body;
			if (!['new', 'running'].includes(run.status)) break;
		}
		if (Date.now() > deadline) throw new Error(`test run ${id ?? '(not created)'} still ${run?.status ?? 'absent'} after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	const cases = await rest.request<TestCase[]>('GET', `/rest/workflows/${workflowId}/test-runs/${id}/test-cases`);
	if (cases.status !== 200) throw new Error(`test cases of ${id}: HTTP ${cases.status} ${JSON.stringify(cases.raw)}`);
	return { run, cases: cases.body };
}
