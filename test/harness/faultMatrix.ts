/**
 * The faults the fault-matrix tests send one call at a time (test/node/*-fault-matrix.test.ts), as
 * the reference server's fault actions: one answer each, so a cell meets its fault once.
 */
import type { FaultAction } from '../reference-server';

export const MATRIX_FAULTS = ['late', 'bad gateway', 'unavailable', 'too many requests', 'reset', 'elsewhere', 'see other', 'unauthorized'] as const;
export type MatrixFault = (typeof MATRIX_FAULTS)[number];

/**
 * The node's Timeout in the matrices: every call of a cell has it, so it must hold for the calls
 * that meet no fault on a machine busy with other suites and installs (CI runs them side by side),
 * and in a mutation run's dry run, where all of the node's code is instrumented.
 */
export const MATRIX_TIMEOUT_MS = 3_000;
/** Well past the Timeout (a loaded machine cannot make it look in time): the call is done on the server, then answered to a client that gave up. */
export const LATE_MS = 7_000;

/**
 * The answer that makes `fault`: `sameOrigin`, the origin a 303 points into; `elsewhere`, the URL on
 * another origin a 307 points to (with the key in its query where the call carries one).
 */
export function matrixFaultAction(fault: MatrixFault, { sameOrigin, elsewhere }: { sameOrigin: string; elsewhere: string }): FaultAction {
	switch (fault) {
		case 'late':
			return { type: 'delay', ms: LATE_MS };
		case 'bad gateway':
			return { type: 'html', status: 502 };
		case 'unavailable':
			return { type: 'html', status: 503 };
		case 'too many requests':
			return { type: 'status', status: 429, headers: { 'retry-after': '0' }, body: { message: 'Too many requests' } };
		case 'reset':
			return { type: 'reset' };
		case 'elsewhere':
			return { type: 'status', status: 307, headers: { location: elsewhere } };
		case 'see other':
			return { type: 'status', status: 303, headers: { location: `${sameOrigin}/see-other/` } };
		case 'unauthorized':
			return { type: 'status', status: 401, body: { type: 'error', code: 'unauthorized', status: 401, message: 'Invalid or missing credentials', details: [] } };
	}
}
