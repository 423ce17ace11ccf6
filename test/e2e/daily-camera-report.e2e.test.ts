/**
 * examples/daily-camera-report.json in real n8n: its Data Table holds the stays that
 * examples/parking-overstay.json records (one row per car that left: trackId, label, zone,
 * minutes, arrivedAt, leftAt), written here through n8n's own Data Table API as the overstay
 * workflow's insert writes them: three cars that came and left today between 08:00 and 09:00,
 * a person at the gate at 14:00, and a car that left yesterday. The report, activated, its
 * Schedule Trigger firing every few seconds instead of each evening and the workflow's time zone
 * set to UTC (the only changes besides the credential and the table), must mail today's arrivals
 * per label and zone with the longest stay of each, and the busiest hour, with n8n's own nodes
 * (Filter, Summarize, Edit Fields, Sort, Limit, Merge).
 */
import { RestClient, createN8nHome, e2eVersions, loadExample, startSmtpCapture, useCredential, type N8nHome, type SmtpCapture } from './lib';
import { PARKING_STAYS_COLUMNS } from '../watch/parking';
import { smtpCredential } from './lib/smtp';

const MINUTE = 60_000;

/** A row as the overstay example writes it, for a stay of `minutes` from `arrivedAt`. */
function stay(trackId: number, label: string, zone: string, arrivedAt: Date, minutes: number) {
	return { trackId, label, zone, minutes, arrivedAt: arrivedAt.toISOString(), leftAt: new Date(arrivedAt.getTime() + minutes * MINUTE).toISOString() };
}

describe.each(e2eVersions())('examples/daily-camera-report.json in real n8n %s', (version) => {
	let smtp: SmtpCapture;
	let home: N8nHome;
	let workflowId: string;
	let rest: RestClient;

	beforeAll(async () => {
		smtp = await startSmtpCapture();
		home = await createN8nHome({ version });
		const n8n = await home.start();
		const owner = await RestClient.setupOwner(n8n.url);
		const project = await owner.request<{ id: string }>('GET', '/rest/projects/personal');
		const table = await owner.request<{ id: string }>('POST', `/rest/projects/${project.body.id}/data-tables`, { name: 'parking stays', columns: PARKING_STAYS_COLUMNS });
		const today = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z');
		const at = (hour: number, minute: number) => new Date(today.getTime() + (hour * 60 + minute) * MINUTE);
		const rows = [
			stay(1, 'car', 'no-parking', new Date(today.getTime() - 60 * MINUTE), 30),
			stay(2, 'car', 'no-parking', at(8, 5), 12),
			stay(3, 'car', 'no-parking', at(8, 20), 25.5),
			stay(4, 'car', 'no-parking', at(8, 40), 3),
			stay(5, 'person', 'gate', at(14, 10), 1.5),
		];
		const inserted = await owner.request('POST', `/rest/projects/${project.body.id}/data-tables/${table.body.id}/insert`, { data: rows, returnType: 'count' });
		expect([project.status, table.status, inserted.status]).toEqual([200, 200, 200]);
		await n8n.stop();

		await home.importCredentials([smtpCredential('credReportSmtp01', smtp.port)]);
		const workflow = useCredential(loadExample('daily-camera-report.json'), 'smtp', 'credReportSmtp01');
		const report = JSON.parse(JSON.stringify(workflow)) as typeof workflow & { settings: Record<string, unknown> };
		report.settings.timezone = 'UTC';
		(report.nodes.find((node) => node.name === "Today's stays")!.parameters.dataTableId as { value: string }).value = table.body.id;
		report.nodes.find((node) => node.name === 'Every evening')!.parameters.rule = { interval: [{ field: 'seconds', secondsInterval: 5 }] };
		[workflowId] = await home.importWorkflows(report);
		if (home.install.major >= 2) await home.cli(['publish:workflow', `--id=${workflowId}`]);
		else await home.cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
		rest = await RestClient.setupOwner((await home.start()).url);
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await smtp?.close();
	});

	it("mails today's arrivals per label and zone with the longest stay, and the busiest hour; yesterday's stay left out", async () => {
		const [run] = await rest.waitForFinishedExecutions(workflowId, 1, 60_000, () => `${smtp.messages.length} e-mails`);
		expect(run.status).toBe('success');
		const [mail] = smtp.messages;
		expect(mail.subject).toBe('Parking today: 4 arrivals');
		expect((mail.text ?? '').trim().split('\n')).toEqual([
			'car in no-parking: 3 came, the longest stay 25.5 minutes',
			'person in gate: 1 came, the longest stay 1.5 minutes',
			'Busiest hour: 8:00, 3 came.',
		]);
	});
});
