/**
 * Two cameras in one execution, each its own Watch Key, in real n8n: Read Files (each camera's
 * snapshot, rewritten between executions) → a Code node making one item per camera → Detect with
 * Compare With Previous Look, Concurrency 2. Run from n8n's CLI (`n8n execute`: mode "cli", which
 * saves the workflow's static data as an active run does, failed or not: n8n's
 * execution-lifecycle-hooks.js hookFunctionsSave, and n8n-core's workflow-execute.js, 1.123.81 and 2.41.1).
 *   1 both cameras empty                       the baseline
 *   2 a car at the gate; the yard's request    the node stops the execution, and keeps no look:
 *     fails (400)                              nothing went on to report the car
 *   3 the car at the gate, the yard empty      the gate's arrival is reported
 * Every label comes from the reference server's own detector.
 */
import * as fs from 'fs';
import * as path from 'path';

import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { sha256 } from '../reference-server/faults';
import type { FrameName } from '../watch/frames';
import { frame } from '../watch/frames';
import { code, createN8nHome, e2eVersions, imageInference, imageInferenceCredential, manualTrigger, nodeItems, readFile, workflow, type N8nHome } from './lib';

const CREDENTIAL = 'credCameras00001';
const DETECT = 'Watch both cameras';

type Comparison = { key: string; changed: boolean; reason: string; appeared: string[] };

describe.each(e2eVersions())('two cameras in one execution, in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let workflowId: string;

	const snapshots = (gate: FrameName, yard: FrameName) => {
		fs.writeFileSync(path.join(home.filesDir, 'gate.jpg'), frame(gate));
		fs.writeFileSync(path.join(home.filesDir, 'yard.jpg'), frame(yard));
	};
	/** The workflow's static data as n8n saved it. */
	const staticData = async () => {
		const file = path.join(home.filesDir, 'exported.json');
		await home.cli(['export:workflow', `--id=${workflowId}`, `--output=${file}`]);
		const [saved] = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ staticData?: unknown }>;
		return saved.staticData;
	};

	beforeAll(async () => {
		server = await startReferenceServer({});
		for (const name of ['empty', 'carInZone', 'carOutsideZone'] as const) server.predict('detect', frame(name), {});
		home = await createN8nHome({ version });
		await home.importCredentials(imageInferenceCredential(CREDENTIAL, { baseUrl: server.url, apiKey: server.apiKey }));
		[workflowId] = await home.importWorkflows(
			workflow('two cameras', [
				manualTrigger(),
				readFile('Read the gate', path.join(home.filesDir, 'gate.jpg')),
				readFile('Read the yard', path.join(home.filesDir, 'yard.jpg')),
				code(
					'One item per camera',
					`return [
  { json: { camera: 'gate' }, binary: { data: $('Read the gate').first().binary.data } },
  { json: { camera: 'yard' }, binary: { data: $('Read the yard').first().binary.data } },
];`,
				),
				imageInference(
					DETECT,
					{
						operation: 'detect',
						modelId: server.models.detect,
						imageSource: 'binary',
						binaryPropertyName: 'data',
						options: { outputImages: 'none', compareWithPreviousLook: true, watchKey: '={{ $json.camera }}', concurrency: 2 },
					},
					CREDENTIAL,
				),
			]),
		);
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await server?.close();
	});

	it('an execution a failed request stops keeps no look, and the next one reports the car it saw', async () => {
		snapshots('empty', 'empty');
		const baseline = await home.execute(workflowId);
		expect(baseline.error).toBeUndefined();
		const kept = await staticData();
		expect(Object.keys((kept as { [node: string]: { looks: object } })[`node:${DETECT}`].looks).sort()).toEqual(['gate', 'yard']);

		snapshots('carInZone', 'carOutsideZone');
		server.addFault({ match: { imageSha256: sha256(frame('carOutsideZone')) }, action: { type: 'status', status: 400, body: { message: 'bad image' } } });
		server.requests.splice(0);
		const stopped = await home.execute(workflowId);
		expect(stopped.ok).toBe(false);
		expect(stopped.error).toContain('bad image');
		// the gate's car was answered: only the yard's request failed
		expect(server.requests.map((request) => request.status).sort()).toEqual([200, 400]);
		expect(await staticData()).toEqual(kept);

		server.clearFaults();
		snapshots('carInZone', 'empty');
		const next = await home.execute(workflowId);
		expect(next.error).toBeUndefined();
		const comparisons = nodeItems(next.run!, DETECT).map((item) => item.json.comparison as Comparison);
		expect(comparisons).toMatchObject([
			{ key: 'gate', changed: true, appeared: ['car'] },
			{ key: 'yard', changed: false, reason: 'no change since the counts last reported' },
		]);
	});
});
