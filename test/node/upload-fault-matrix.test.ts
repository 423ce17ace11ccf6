/**
 * Upload to Project's fault matrix: each of its calls, one at a time, meets each fault once, on a
 * project of its own, and what the user gets is checked against the invariants (nothing created
 * twice; a failed item says what exists and what to do; the key never reaches another origin; a
 * redirect's error names where it pointed) and against the table in docs/learning.md, which this
 * test prints when the two differ.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { FaultAction, FaultCall } from '../reference-server';
import type { MatrixFault } from '../harness/faultMatrix';
import { LATE_MS, MATRIX_FAULTS, MATRIX_TIMEOUT_MS, matrixFaultAction } from '../harness/faultMatrix';
import { startNotTheService } from '../harness/notTheService';
import { CAR, failureIn, useServer } from './setup';

const CALLS: Array<[FaultCall, string]> = [
	['project', 'Project (`GET /projects/{id}/`)'],
	['labels', 'Labels'],
	['batch', 'Batch'],
	['upload', 'Where to put the file (`POST /upload/`)'],
	['storage', 'The `PUT` to storage'],
	['record', 'Record'],
	['annotations', 'Annotations'],
];
const FAULTS = MATRIX_FAULTS.filter((fault): fault is Fault => fault !== 'too many requests');
type Fault = Exclude<MatrixFault, 'too many requests'>;
const FAULT_HEADINGS: Record<Fault, string> = {
	late: 'Answered after the Timeout, work done',
	'bad gateway': '502, nothing done',
	unavailable: '503, nothing done',
	reset: 'Connection reset mid-body',
	elsewhere: '307 to another origin',
	'see other': '303 (same origin)',
	unauthorized: '401 half-way',
};

const TIMEOUT_MS = MATRIX_TIMEOUT_MS;

const DOC = join(__dirname, '..', '..', 'docs', 'learning.md');
const START = '<!-- fault-matrix:start (test/node/upload-fault-matrix.test.ts writes it) -->';
const END = '<!-- fault-matrix:end -->';

/** What the item's error says exists, by the sentence that begins its description. */
const SAID: Array<[RegExp, string]> = [
	[/^Nothing was added to (the|any) project for this image/, 'nothing added'],
	[/^No image was put in it\./, 'the batch may exist'],
	[/^Look in batch \S+ of project \S+ in the dashboard for a record named/, 'the record may exist'],
	[/^Add them in the dashboard, or delete record \S+ there/, 'the record exists without its box'],
	[/^Open record \S+ in the dashboard: if its annotations are there/, 'its box may exist'],
];

describe('Upload to Project’s fault matrix', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	let other: Awaited<ReturnType<typeof startNotTheService>>;
	beforeAll(async () => {
		other = await startNotTheService();
	});
	afterAll(async () => await other.close());
	const observed = new Map<string, string>();

	const faultFor = (call: FaultCall, fault: Fault): FaultAction =>
		matrixFaultAction(fault, {
			sameOrigin: call === 'storage' ? server().storage.url : server().url,
			elsewhere: `${new URL(other.baseUrl('htmlPage')).origin}/moved${call === 'storage' ? '' : '?api-key=taken'}`,
		});

	describe.each(CALLS)('%s', (call) => {
		it.each(FAULTS)('%s', async (fault) => {
			const projectId = server().addProject('object_detection');
			server().requests.splice(0);
			server().storage.requests.splice(0);
			other.requests.splice(0);
			server().addFault({ match: { call }, times: 1, action: faultFor(call, fault) });
			const started = Date.now();
			const { items } = await run(
				{
					operation: 'uploadToProject',
					project: { mode: 'id', value: projectId },
					imageSource: 'binary',
					binaryPropertyName: 'data',
					batchName: 'matrix',
					annotationSource: 'detections',
					detections: [{ label: 'car', x: 283, y: 183, width: 28, height: 22 }],
					options: { timeout: TIMEOUT_MS, retries: 1 },
				},
				[{ json: {}, binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } }],
				{ continueOnFail: true },
			);
			// the late call is done on the server once its delay is over
			if (fault === 'late') await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + LATE_MS + 100 - Date.now())));
			const project = server().projects(projectId)!;
			const sent = call === 'storage' ? server().storage.requests.length : server().requests.filter((request) => request.call === call).length;
			const failure = failureIn(items[0]);

			const records = project.records.length;
			const boxes = project.records.flatMap((record) => record.annotations).length;
			const said = failure ? (SAID.find(([pattern]) => pattern.test(failure.description ?? ''))?.[1] ?? 'UNEXPLAINED') : 'uploaded';
			const exists = records ? `${records} record${records === 1 ? '' : 's'}, ${boxes} box${boxes === 1 ? '' : 'es'}` : project.batches.length ? 'an empty batch' : 'nothing';
			observed.set(`${call} ${fault}`, `${failure ? '✗' : '✓'} ${said}, sent ${sent}× · ${exists}`);

			// nothing is created twice
			expect(project.batches.length).toBeLessThanOrEqual(1);
			expect(records).toBeLessThanOrEqual(1);
			expect(boxes).toBeLessThanOrEqual(1);
			expect(new Set(project.labels.map((label) => label.name)).size).toBe(project.labels.length);
			// the key never reaches another origin: nothing does
			expect(other.requests).toEqual([]);
			if (!failure) {
				expect([records, boxes]).toEqual([1, 1]);
				return;
			}
			// a failed item says what exists and what to do, never the key
			expect(said).not.toBe('UNEXPLAINED');
			expect(`${failure.message} ${failure.description}`).not.toContain(server().apiKey);
			if (records && said !== 'the record may exist') expect(failure.message).toContain(project.records[0].id);
			// a redirect's error names where it pointed
			if (fault === 'elsewhere') expect(`${failure.message} ${failure.description}`).toContain(new URL(other.baseUrl('htmlPage')).origin);
		});
	});

	it('the table in docs/learning.md is what the cells gave', () => {
		const rows = CALLS.map(([call, heading]) => `| ${heading} | ${FAULTS.map((fault) => observed.get(`${call} ${fault}`) ?? 'not run').join(' | ')} |`);
		const table = [`| Call | ${FAULTS.map((fault) => FAULT_HEADINGS[fault]).join(' | ')} |`, `|---|${FAULTS.map(() => '---|').join('')}`, ...rows].join('\n');
		const doc = readFileSync(DOC, 'utf8');
		const inDoc = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
		if (inDoc !== table) throw new Error(`docs/learning.md's fault matrix differs from what the cells gave. Put this between its markers:\n\n${table}\n`);
	});
});
