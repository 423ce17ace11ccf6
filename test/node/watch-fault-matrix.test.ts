/**
 * Compare With Previous Look and Track Objects Across Looks under faults: two cameras (Watch Keys
 * "gate" and "yard") watched through six executions, the gate's prediction call meeting one fault
 * at its car's arrival or at its departure, under each On Error setting. What reached the user
 * (the items of the executions that finished) is checked against the invariants: each change of
 * each camera is reported once, by the comparison and by tracking, never twice and never lost; a
 * failed look keeps nothing; the other camera is not held back by it under Continue; every input
 * item gives one output item; the key reaches no other origin and no error text.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MatrixFault } from '../harness/faultMatrix';
import { LATE_MS, MATRIX_FAULTS, MATRIX_TIMEOUT_MS, matrixFaultAction } from '../harness/faultMatrix';
import { cameraFrame } from '../harness/images';
import { startNotTheService } from '../harness/notTheService';
import type { FaultAction } from '../reference-server';
import type { FrameName } from '../watch/frames';
import { DRIVEWAY } from '../watch/frames';
import { detectParameters, failureIn, failureOf, useServer } from './setup';

const CAR = 'red';
/** In input order: the yard is asked first, so a stopped execution has a look of it to keep or not. */
const KEYS = ['yard', 'gate'] as const;
const GATE = KEYS.indexOf('gate');
type Key = (typeof KEYS)[number];

/**
 * What each camera sees in each execution: the gate's car arrives in the 2nd and leaves in the
 * 4th; the yard's car, there at the first look, leaves in the 2nd. Two looks follow the last
 * change, as tracking tolerates one missed look (Track Kept Through Missed Looks) before a
 * departure, and the look after a stopped execution reports what it missed.
 */
const SCENES: Record<Key, FrameName[]> = {
	gate: ['empty', 'carInZone', 'carInZone', 'empty', 'empty', 'empty'],
	yard: ['carInZone', 'empty', 'empty', 'empty', 'empty', 'empty'],
};
/** What each camera must report over the sequence, each exactly once. */
const CHANGES: Record<Key, Array<'arrival' | 'departure'>> = {
	gate: ['arrival', 'departure'],
	yard: ['departure'],
};

const FAULTS = MATRIX_FAULTS;
type Fault = MatrixFault;
/** The faults the node's Retries get past: the same look is asked again. */
const RETRIED = new Set<Fault>(['late', 'bad gateway', 'unavailable', 'too many requests', 'reset']);
/** Where in the sequence the gate's call meets the fault: its arrival's look, its departure's. */
const AT = [
	['arrival', 1],
	['departure', 3],
] as const;
const ON_ERROR = ['stop', 'continue'] as const;

const TIMEOUT_MS = MATRIX_TIMEOUT_MS;

const photo = (name: FrameName) => ({
	binary: {
		data: {
			bytes: cameraFrame(name),
			fileName: `${name}.png`,
			mimeType: 'image/png',
		},
	},
});

describe('Watching under faults: each change reported once, a failed look keeps nothing', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	let other: Awaited<ReturnType<typeof startNotTheService>>;
	beforeAll(async () => {
		other = await startNotTheService();
	});
	afterAll(async () => await other.close());

	const faultAction = (fault: Fault): FaultAction => matrixFaultAction(fault, { sameOrigin: server().url, elsewhere: `${new URL(other.baseUrl('htmlPage')).origin}/moved?api-key=taken` });

	describe.each(ON_ERROR)('On Error %s', (onError) => {
		describe.each(AT)('the gate’s call at its %s', (_at, failingExecution) => {
			it.each(FAULTS)('%s', async (fault) => {
				const staticData: IDataObject = {};
				other.requests.splice(0);
				const parameters = detectParameters(server(), {
					outputImages: 'none',
					options: {
						zones: { zone: [{ name: 'driveway', points: DRIVEWAY }] },
						zoneAnchor: 'bottomCenter',
						onlyInZones: true,
						minObjectSize: 0.003,
						compareWithPreviousLook: true,
						watchKey: (itemIndex: number) => KEYS[itemIndex],
						trackObjects: true,
						concurrency: 1,
						timeout: TIMEOUT_MS,
						retries: 1,
					},
				});
				const reported: Record<Key, string[]> = { gate: [], yard: [] };
				for (let execution = 0; execution < SCENES.gate.length; execution++) {
					const faulted = execution === failingExecution;
					// Concurrency 1: the yard's call is answered as it is, then the gate's meets the fault, once
					if (faulted) {
						server().addFault({
							match: { kind: 'detect' },
							times: 1,
							action: { type: 'delay', ms: 0 },
						});
						server().addFault({
							match: { kind: 'detect' },
							times: 1,
							action: faultAction(fault),
						});
					}
					const before = JSON.stringify(staticData);
					const items = KEYS.map((key) => photo(SCENES[key][execution]));
					const extra = { staticData, continueOnFail: onError === 'continue' };
					const started = Date.now();

					if (faulted && !RETRIED.has(fault) && onError === 'stop') {
						const failure = await failureOf(run(parameters, items, extra));
						expect(failure.itemIndex).toBe(GATE);
						expect(`${failure.message} ${failure.description}`).not.toContain(server().apiKey);
						// a stopped execution keeps no look of either camera: the next one reports what they saw
						expect(JSON.stringify(staticData)).toBe(before);
						continue;
					}
					const { items: out } = await run(parameters, items, extra);
					if (faulted && fault === 'late') await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + LATE_MS + 100 - Date.now())));
					expect(out).toHaveLength(KEYS.length);
					const gateFailure = failureIn(out[GATE]);
					if (faulted && !RETRIED.has(fault)) {
						expect(gateFailure).toBeDefined();
						expect(`${gateFailure!.message} ${gateFailure!.description}`).not.toContain(server().apiKey);
						// the failed look keeps nothing of the gate; the yard's look is kept
						const looksBefore = (JSON.parse(before) as { looks: Record<string, unknown> }).looks;
						const looks = staticData.looks as IDataObject;
						expect(JSON.stringify(looks.gate)).toBe(JSON.stringify(looksBefore.gate));
						expect(JSON.stringify(looks.yard)).not.toBe(JSON.stringify(looksBefore.yard));
						expect(failureIn(out[1 - GATE])).toBeUndefined();
					} else {
						expect(out.map(failureIn)).toEqual([undefined, undefined]);
					}
					KEYS.forEach((key, index) => {
						const json = out[index].json;
						if (failureIn(out[index])) return;
						const comparison = json.comparison as {
							appeared: string[];
							disappeared: string[];
						};
						const tracking = json.tracking as {
							arrivals: unknown[];
							departed: unknown[];
						};
						for (const label of comparison.appeared) reported[key].push(`comparison arrival ${label}`);
						for (const label of comparison.disappeared) reported[key].push(`comparison departure ${label}`);
						reported[key].push(...tracking.arrivals.map(() => 'tracking arrival'), ...tracking.departed.map(() => 'tracking departure'));
					});
				}
				// each change of each camera reported once, by the comparison and by tracking
				for (const key of KEYS) {
					const expected = CHANGES[key].flatMap((change) => [`comparison ${change} ${CAR}`, `tracking ${change}`]);
					expect({ key, reported: [...reported[key]].sort() }).toEqual({
						key,
						reported: expected.sort(),
					});
				}
				// the key never reaches another origin: nothing does
				expect(other.requests).toEqual([]);
			});
		});
	});
});
