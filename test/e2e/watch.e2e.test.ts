/**
 * examples/watch-a-camera.json, activated in real n8n: its Schedule Trigger (set to every few
 * seconds here, and its cooldown to half a minute: the only changes besides the credentials, the
 * model and the camera's URL) fetches a camera's snapshot from a stand-in on 127.0.0.1
 * (test/watch/camera.ts) that serves a scripted sequence of frames made from car.jpg
 * (test/watch/frames.ts), one every 4 s:
 *   1 the road empty              first look: the baseline, nothing reported
 *   2 a car outside the driveway  left out by Only Objects in Zones: no change
 *   3 the car in the driveway     appeared: an e-mail, with the node's picture (the car framed, the driveway outlined)
 *   4 the same again              no change
 *   5 the road empty              the detector missed it once: held back (Departure After Looks 2)
 *   6–11 the car in the driveway  no change; the arrivals' cooldown ends meanwhile
 *   12, 13 the road empty         gone two looks in a row: a departure, reported, not mailed
 *   14 the car in the driveway    another car, 4 s later: an arrival, not held by the departure's
 *                                 cooldown: the second e-mail
 *   15, 16 the road empty         a departure within the departures' cooldown: held back
 *   17 the car in the driveway    the same as reported: no change, nothing mailed
 * The SMTP server on 127.0.0.1 (lib/smtp) must receive exactly the two messages. Each execution's
 * comparison is read from n8n's own execution records (REST), and the last look from the
 * workflow's static data as n8n saved it.
 */
import { labelColor, ZONE_COLOR } from '../../nodes/ImageInference/picture/draw/palette';
import { channelDistance, framedIn, pixelsOf } from '../harness/pictureChecks';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import type { Camera } from '../watch/camera';
import { startCamera } from '../watch/camera';
import type { FrameName } from '../watch/frames';
import { frame } from '../watch/frames';
import { RestClient, activateCameraExample, e2eVersions, startSmtpCapture, type N8nHome, type SmtpCapture } from './lib';

const SCRIPT: FrameName[] = [
	'empty',
	'carOutsideZone',
	'carInZone',
	'carInZone',
	'empty',
	...Array<FrameName>(6).fill('carInZone'),
	'empty',
	'empty',
	'carInZone',
	'empty',
	'empty',
	'carInZone',
];
const COOLDOWN_MINUTES = 0.5;
const INTERVAL_SECONDS = 4;
const DETECT = 'Watch the driveway';

type Comparison = { changed: boolean; reason: string; cooldownUntil: string; appeared: string[]; disappeared: string[]; zones: Record<string, { appeared: string[]; disappeared: string[] }> };

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
		({ home, rest, workflowId } = await activateCameraExample({
			version,
			file: 'watch-a-camera.json',
			server,
			smtpPort: smtp.port,
			snapshotUrl: camera.snapshotUrl,
			intervalSeconds: INTERVAL_SECONDS,
			adjust: (workflow) => {
				(workflow.nodes.find((n) => n.name === DETECT)!.parameters.options as Record<string, unknown>).cooldownMinutes = COOLDOWN_MINUTES;
			},
		}));
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await camera?.close();
		await smtp?.close();
		await server?.close();
	});

	it('an e-mail for each car that arrives in the driveway: none for the car outside it, the repeated frame, a one-look miss, or the departures', async () => {
		// the last look's static data is read before any cooldown of it ends (the earliest ends 30 s after the 13th look)
		const wanted = SCRIPT.length;
		const runs = await rest.waitForFinishedExecutions(workflowId, wanted, (wanted + 12) * INTERVAL_SECONDS * 1000, () => `the camera served ${camera.served.join(', ')}`);
		expect(runs.map((run) => run.status)).toEqual(Array(wanted).fill('success'));
		expect(camera.served.slice(0, SCRIPT.length)).toEqual(SCRIPT);

		const comparisons = runs.map((run) => run.runData[DETECT][0].data!.main[0]![0].json.comparison as Comparison);
		const same = { changed: false, reason: 'no change since the counts last reported' };
		const missedOnce = { changed: false, reason: 'changed since the counts last reported, not reported yet: lower for 1 look(s) of the Departure After Looks' };
		const reported = { changed: true, reason: 'changed since the counts last reported' };
		expect(comparisons.map(({ changed, reason }) => ({ changed, reason: reason.replace(/ until \S+$/, ' until …') }))).toEqual([
			{ changed: false, reason: 'first look for this key: nothing to compare with yet' },
			same,
			reported,
			same,
			missedOnce,
			...Array(6).fill(same),
			missedOnce,
			reported,
			reported,
			missedOnce,
			{ changed: false, reason: 'changed since the counts last reported, not reported yet: within the departures’ cooldown until …' },
			same,
		]);
		expect(comparisons[12].zones.driveway.disappeared).toEqual(['car']);
		expect(comparisons[13].zones.driveway.appeared).toEqual(['car']);
		expect(comparisons[2].zones.driveway.appeared).toEqual(['car']);
		// the car outside the driveway was detected, and left out by Only Objects in Zones
		const outside = runs[1].runData[DETECT][0].data!.main[0]![0].json;
		expect(outside).toMatchObject({ totalDetections: 0, countsByZone: { driveway: {} } });
		expect(server.predict('detect', frame('carOutsideZone'), {}).detections.map(({ label }) => label)).toEqual(['car']);

		// the IF sent exactly the 3rd and the 14th execution to Send Email
		expect(runs.flatMap((run, index) => (run.runData['Email the photo'] ? [index + 1] : []))).toEqual([3, 14]);
		expect(smtp.messages).toHaveLength(2);
		for (const [index, mail] of smtp.messages.entries()) {
			expect(mail.subject).toBe('A car arrived in the driveway');
			expect(mail.text).toMatch(/^A car arrived in the driveway \(1 car\)\./);
			expect(mail.text).toContain(`Further arrivals are not mailed until ${comparisons[index === 0 ? 2 : 13].cooldownUntil}`);
			expect(mail.attachments).toHaveLength(1);
			const [photo] = mail.attachments;
			expect(photo.filename).toBe('snapshot.annotated.jpg');
			expect(photo.contentType).toBe('image/jpeg');
			// the node's own picture: the car framed in its label's colour, the driveway outlined in white, at the frame's size
			const drawn = pixelsOf(photo.content);
			const plain = pixelsOf(frame('carInZone'));
			expect([drawn.width, drawn.height]).toEqual([plain.width, plain.height]);
			const [car] = server.predict('detect', frame('carInZone'), {}).detections;
			expect(framedIn(drawn, plain, car, labelColor('car'))).toBe(true);
			// the middle of the driveway's top edge (0.38,0.53 to 0.52,0.53)
			const edge = [Math.round(0.45 * drawn.width), Math.round(0.53 * drawn.height)] as const;
			expect(channelDistance(drawn.pixel(...edge), ZONE_COLOR)).toBeLessThan(channelDistance(plain.pixel(...edge), ZONE_COLOR) - 50);
		}

		// what n8n saved: the key's last look in the node's static data
		type Look = { counts: object; zones: object; cooldowns: Record<string, string> };
		const saved = await rest.request<{ staticData?: Record<string, { looks: Record<string, Look> }> }>('GET', `/rest/workflows/${workflowId}`);
		const look = saved.body.staticData![`node:${DETECT}`].looks['driveway camera'];
		expect(look).toMatchObject({ counts: { car: 1 }, zones: { driveway: { car: 1 } } });
		// each kind's cooldown runs from its last reported change: the departure of the 13th look, the arrival of the 14th
		expect(Object.keys(look.cooldowns).sort()).toEqual(['["arrival"]', '["departure"]']);
		expect(Date.parse(look.cooldowns['["arrival"]']) + COOLDOWN_MINUTES * 60_000).toBe(Date.parse(comparisons[13].cooldownUntil));
		expect(Date.parse(look.cooldowns['["departure"]'])).toBeLessThan(Date.parse(look.cooldowns['["arrival"]']));
	});
});
