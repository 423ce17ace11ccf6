/**
 * examples/parking-overstay.json, activated in real n8n: its Schedule Trigger (every few seconds
 * here) fetches a snapshot from a stand-in camera on 127.0.0.1 serving a scripted sequence
 * (test/watch/parking.ts), and the reference server answers each frame with its scripted cars.
 * The only changes besides the credentials, the model, the camera's URL and the Data Table's ID:
 * the interval, and Report Stays Longer Than 0.1 minutes (6 s) instead of 10, so a stay is "long"
 * after two looks. One look after another, a look every 4 s:
 *   1 empty         the baseline
 *   2 arriving      cars 1 and 2 park side by side in the bay; car 3 drives through it
 *   3 parked        car 3 has gone (missed once: its track is kept)
 *   4 secondOnly    car 1 hidden by someone walking past (kept); car 2 has stood 8 s: an e-mail;
 *                   car 3 missed twice: departed, a row
 *   5 parked        car 1 back with its id, 12 s: an e-mail
 *   6 parked        both already reported: nothing
 *   7 secondOnly    car 1 has left (missed once)
 *   8 secondOnly    car 1 departed: a row (seen from look 2 to 6: 16 s)
 *   9 empty         car 2 missed once
 *  10 empty         car 2 departed: a row (looks 2 to 8: 24 s)
 * Exactly one e-mail per overstaying car, none for the car passing through, none repeated; the
 * departures in the Data Table with their stays, each within one interval of the script's.
 */
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { sha256 } from '../reference-server/faults';
import type { Camera } from '../watch/camera';
import { startCamera } from '../watch/camera';
import type { ParkingLook } from '../watch/parking';
import { PARKING_LOOKS, PARKING_SCRIPT, PARKING_STAYS_COLUMNS, parkingAnswer, parkingFrame } from '../watch/parking';
import { RestClient, activateCameraExample, createN8nHome, e2eVersions, startSmtpCapture, type N8nHome, type SmtpCapture } from './lib';

const INTERVAL_SECONDS = 4;
const DETECT = 'Watch the no-parking bay';

type Tracking = { arrivals: Array<{ trackId: number }>; departed: Array<{ trackId: number }>; newOverstayCount: number };
type Row = { trackId: number; label: string; zone: string; minutes: number; arrivedAt: string; leftAt: string };

describe.each(e2eVersions())('examples/parking-overstay.json activated in real n8n %s', (version) => {
	let server: ReferenceServer;
	let smtp: SmtpCapture;
	let camera: Camera<ParkingLook>;
	let home: N8nHome;
	let rest: RestClient;
	let workflowId: string;
	let rowsPath: string;

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
		for (const look of Object.keys(PARKING_LOOKS) as ParkingLook[]) {
			server.addFault({ match: { kind: 'detect', imageSha256: sha256(parkingFrame(look)) }, action: { type: 'status', status: 200, body: parkingAnswer(look) } });
		}
		smtp = await startSmtpCapture();
		camera = await startCamera(PARKING_SCRIPT, { frameOf: parkingFrame });

		// the Data Table the example records stays in, made as a user makes it before importing the example
		home = await createN8nHome({ version });
		const first = await home.start();
		const owner = await RestClient.setupOwner(first.url);
		const project = await owner.request<{ id: string }>('GET', '/rest/projects/personal');
		const table = await owner.request<{ id: string }>('POST', `/rest/projects/${project.body.id}/data-tables`, { name: 'parking stays', columns: PARKING_STAYS_COLUMNS });
		expect([project.status, table.status]).toEqual([200, 200]);
		rowsPath = `/rest/projects/${project.body.id}/data-tables/${table.body.id}/rows`;
		await first.stop();

		({ rest, workflowId } = await activateCameraExample({
			version,
			file: 'parking-overstay.json',
			server,
			smtpPort: smtp.port,
			snapshotUrl: camera.snapshotUrl,
			intervalSeconds: INTERVAL_SECONDS,
			home,
			adjust: (workflow) => {
				const nodes = new Map(workflow.nodes.map((node) => [node.name, node]));
				(nodes.get(DETECT)!.parameters.options as Record<string, unknown>).reportStaysLongerThan = 0.1;
				(nodes.get('Record the stay')!.parameters.dataTableId as { value: string }).value = table.body.id;
			},
		}));
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await camera?.close();
		await smtp?.close();
		await server?.close();
	});

	it('one e-mail per car that overstays, none for the car passing through, none repeated; every departure a row with its stay', async () => {
		const looks = PARKING_SCRIPT.length;
		const runs = await rest.waitForFinishedExecutions(workflowId, looks, (looks + 12) * INTERVAL_SECONDS * 1000, () => `the camera served ${camera.served.join(', ')}`);
		expect(runs.map((run) => run.status)).toEqual(Array(looks).fill('success'));
		expect(camera.served.slice(0, looks)).toEqual(PARKING_SCRIPT);

		const detected = runs.map((run) => run.runData[DETECT][0].data!.main[0]![0].json);
		// the key's ids count from its first tracked look's time in milliseconds (the second look's previousSeenAt): car n is that plus n - 1
		const firstId = Date.parse((detected[1].comparison as { previousSeenAt: string }).previousSeenAt);
		const carOf = (trackId: number) => trackId - firstId + 1;
		// the ids each look gave the cars: car 1 keeps its id through the look it was hidden in
		expect(detected.map((json) => (json.detections as Array<{ trackId: number }>).map((car) => carOf(car.trackId)))).toEqual([[], [1, 2, 3], [1, 2], [2], [1, 2], [1, 2], [2], [2], [], []]);
		const tracking = detected.map((json) => json.tracking as Tracking);
		expect(tracking.map((look) => look.arrivals.map((arrival) => carOf(arrival.trackId)))).toEqual([[], [1, 2, 3], [], [], [], [], [], [], [], []]);
		expect(tracking.map((look) => look.departed.map((departure) => carOf(departure.trackId)))).toEqual([[], [], [], [3], [], [], [], [1], [], [2]]);
		expect(tracking.map((look) => look.newOverstayCount)).toEqual([0, 0, 0, 1, 1, 0, 0, 0, 0, 0]);

		expect(smtp.messages.map(({ subject }) => subject)).toEqual(['A car has stood in the no-parking bay for 0 minutes', 'A car has stood in the no-parking bay for 0 minutes']);
		// no id in the text: the bay, since when (the workflow's time zone, to the minute), how long, the limit (0.1 minutes here)
		for (const { text } of smtp.messages) {
			expect((text ?? '').trim()).toMatch(/^A car has stood in the bay \(no-parking\) since \d\d:\d\d: 0 minutes, over the limit of 0\.1\. The camera's photo with the boxes drawn is attached\.$/);
		}
		for (const [index, mail] of smtp.messages.entries()) {
			expect(mail.attachments).toHaveLength(1);
			expect(mail.attachments[0].content.equals(parkingFrame(index === 0 ? 'secondOnly' : 'parked'))).toBe(true);
		}

		const rows = await rest.request<{ data: Row[] }>('GET', `${rowsPath}?take=50&skip=0`);
		expect(rows.status).toBe(200);
		const recorded = rows.body.data;
		expect(recorded.map(({ trackId, label, zone }) => ({ trackId: carOf(trackId), label, zone }))).toEqual([
			{ trackId: 3, label: 'car', zone: 'no-parking' },
			{ trackId: 1, label: 'car', zone: 'no-parking' },
			{ trackId: 2, label: 'car', zone: 'no-parking' },
		]);
		// each stay as the script has it (in looks, from the first look seen to the last), within one interval
		const stays = recorded.map(({ arrivedAt, leftAt }) => (Date.parse(leftAt) - Date.parse(arrivedAt)) / 1000);
		for (const [index, looksStayed] of [0, 4, 6].entries()) expect(Math.abs(stays[index] - looksStayed * INTERVAL_SECONDS)).toBeLessThanOrEqual(INTERVAL_SECONDS);
		expect(recorded.map(({ minutes }, index) => Math.abs(minutes - stays[index] / 60) <= 0.05)).toEqual([true, true, true]);
	});
});
