/**
 * examples/watch-a-camera.json, activated in real n8n: its Schedule Trigger (set to every few
 * seconds here, the only change besides the credentials, the model and the camera's URL) fetches a
 * camera's snapshot from a stand-in on 127.0.0.1 (test/watch/camera.ts) that serves a scripted
 * sequence of frames made from car.jpg (test/watch/frames.ts):
 *   1 the road empty              first look: the baseline, nothing reported
 *   2 a car outside the driveway  left out by Only Objects in Zones: no change
 *   3 the car in the driveway     appeared: the one e-mail, with the annotated photo
 *   4 the same again              no change
 *   5 the road empty              the car disappeared, within the cooldown: not reported
 *   6 the car in the driveway     appeared again, within the cooldown: not reported, no e-mail
 *   … frame 6 again               no change
 * The SMTP server on 127.0.0.1 (lib/smtp) must receive exactly one message. Each execution's
 * comparison is read from n8n's own execution records (REST), and the last look from the
 * workflow's static data as n8n saved it.
 */
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import type { Camera } from '../watch/camera';
import { startCamera } from '../watch/camera';
import type { FrameName } from '../watch/frames';
import { frame } from '../watch/frames';
import {
	RestClient,
	createN8nHome,
	e2eVersions,
	imageInferenceCredential,
	loadExample,
	smtpCredential,
	startSmtpCapture,
	useCredential,
	useCredentialAndModels,
	type N8nHome,
	type SmtpCapture,
	type WorkflowJson,
} from './lib';

const SCRIPT: FrameName[] = ['empty', 'carOutsideZone', 'carInZone', 'carInZone', 'empty', 'carInZone'];
const INTERVAL_SECONDS = 4;
const DETECT = 'Watch the driveway';

type Comparison = { changed: boolean; reason: string; cooldownUntil: string; appeared: string[]; disappeared: string[]; zones: Record<string, { appeared: string[] }> };
type Execution = { id: string; status: string; startedAt: string; data: string };

/** n8n keeps execution data in the `flatted` format: strings and objects by index into one array. */
function unflatten(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	const revived = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const value = input[index];
		if (value === null || typeof value !== 'object') return value;
		const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
		revived.set(index, out);
		for (const [key, entry] of Object.entries(value)) (out as Record<string, unknown>)[key] = typeof entry === 'string' ? revive(Number(entry)) : entry;
		return out;
	};
	return revive(0);
}

type RunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;

describe.each(e2eVersions())('examples/watch-a-camera.json activated in real n8n %s', (version) => {
	let server: ReferenceServer;
	let smtp: SmtpCapture;
	let camera: Camera;
	let home: N8nHome;
	let rest: RestClient;
	let workflowId: string;

	beforeAll(async () => {
		server = await startReferenceServer({});
		// each frame's detections are computed once here, so that each run is quick (well within the interval)
		for (const name of new Set(SCRIPT)) server.predict('detect', frame(name), {});
		smtp = await startSmtpCapture();
		camera = await startCamera(SCRIPT);
		home = await createN8nHome({ version });
		await home.importCredentials([
			imageInferenceCredential('credWatch0000001', { baseUrl: server.url, apiKey: server.apiKey }),
			smtpCredential('credWatchSmtp001', smtp.port),
		]);
		const example = useCredential(useCredentialAndModels(loadExample('watch-a-camera.json'), { credentialId: 'credWatch0000001', detect: server.models.detect }), 'smtp', 'credWatchSmtp001');
		const wf: WorkflowJson = JSON.parse(JSON.stringify(example));
		wf.nodes.find((n) => n.name === 'Every minute')!.parameters.rule = { interval: [{ field: 'seconds', secondsInterval: INTERVAL_SECONDS }] };
		wf.nodes.find((n) => n.name === 'Get the snapshot')!.parameters.url = camera.snapshotUrl;
		[workflowId] = await home.importWorkflows(wf);
		if (home.install.major >= 2) await home.cli(['publish:workflow', `--id=${workflowId}`]);
		else await home.cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
		const n8n = await home.start();
		rest = await RestClient.setupOwner(n8n.url);
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await camera?.close();
		await smtp?.close();
		await server?.close();
	});

	/** The workflow's finished executions, oldest first, with their run data. */
	const executions = async (): Promise<Array<{ status: string; runData: RunData }>> => {
		const list = await rest.request<{ results: Execution[] }>('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`);
		const finished = list.body.results.filter((execution) => execution.status !== 'running' && execution.status !== 'new').sort((a, b) => Number(a.id) - Number(b.id));
		return await Promise.all(
			finished.map(async ({ id, status }) => {
				const full = await rest.request<Execution>('GET', `/rest/executions/${id}`);
				const data = unflatten(full.body.data) as { resultData: { runData: RunData } };
				return { status, runData: data.resultData.runData };
			}),
		);
	};

	it('one e-mail for the car that arrived in the driveway: none for the car outside it, the repeated frame, or during the cooldown', async () => {
		const wanted = SCRIPT.length + 2;
		let runs: Awaited<ReturnType<typeof executions>> = [];
		for (const deadline = Date.now() + (wanted + 12) * INTERVAL_SECONDS * 1000; runs.length < wanted; ) {
			if (Date.now() > deadline) throw new Error(`only ${runs.length} executions finished; the camera served ${camera.served.join(', ')}`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			runs = await executions();
		}
		runs = runs.slice(0, wanted);
		expect(runs.map((run) => run.status)).toEqual(Array(wanted).fill('success'));
		expect(camera.served.slice(0, SCRIPT.length)).toEqual(SCRIPT);

		const comparisons = runs.map((run) => run.runData[DETECT][0].data!.main[0]![0].json.comparison as Comparison);
		expect(comparisons.map(({ changed, reason }) => ({ changed, reason: reason.replace(/ at \S+$/, '') }))).toEqual([
			{ changed: false, reason: 'first look for this key: nothing to compare with yet' },
			{ changed: false, reason: 'no change since the last look' },
			{ changed: true, reason: 'changed since the last look' },
			{ changed: false, reason: 'no change since the last look' },
			{ changed: false, reason: 'changed since the last look, not reported: within the cooldown after the change' },
			{ changed: false, reason: 'changed since the last look, not reported: within the cooldown after the change' },
			{ changed: false, reason: 'no change since the last look' },
			{ changed: false, reason: 'no change since the last look' },
		]);
		expect(comparisons[2].zones.driveway.appeared).toEqual(['car']);
		// the car outside the driveway was detected, and left out by Only Objects in Zones
		const outside = runs[1].runData[DETECT][0].data!.main[0]![0].json;
		expect(outside).toMatchObject({ totalDetections: 0, countsByZone: { driveway: {} } });
		expect(server.predict('detect', frame('carOutsideZone'), {}).detections.map(({ label }) => label)).toEqual(['car']);

		// the IF sent exactly the third execution to Send Email
		expect(runs.map((run) => Boolean(run.runData['Email the photo']))).toEqual([false, false, true, false, false, false, false, false]);
		expect(smtp.messages).toHaveLength(1);
		const [mail] = smtp.messages;
		expect(mail.subject).toBe('A car arrived in the driveway');
		expect(mail.text).toMatch(/^A car arrived in the driveway \(1 car\)\./);
		expect(mail.attachments).toHaveLength(1);
		const [photo] = mail.attachments;
		expect(photo.filename).toBe('snapshot.annotated.jpg');
		expect(photo.contentType).toBe('image/jpeg');
		expect(photo.content.equals(Buffer.from(server.predict('detect', frame('carInZone'), {}).image!, 'base64'))).toBe(true);

		// what n8n saved: the key's last look in the node's static data
		const saved = await rest.request<{ staticData?: Record<string, { looks: Record<string, { counts: object; zones: object; reportedAt: string }> }> }>('GET', `/rest/workflows/${workflowId}`);
		const look = saved.body.staticData![`node:${DETECT}`].looks['driveway camera'];
		expect(look).toMatchObject({ counts: { car: 1 }, zones: { driveway: { car: 1 } } });
		// the cooldown runs from the arrival, 10 minutes as the example sets it
		expect(Date.parse(look.reportedAt) + 10 * 60_000).toBe(Date.parse(comparisons[2].cooldownUntil));
	});
});
