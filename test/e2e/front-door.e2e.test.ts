/**
 * examples/front-door.json, activated in real n8n: its Schedule Trigger (every few seconds here:
 * the only change besides the credentials, the model and the camera's URL) fetches a snapshot from
 * a stand-in camera on 127.0.0.1 serving a scripted sequence (test/watch/front-door.ts), and the
 * reference server answers each frame with its scripted detections. One look after another:
 *   1 empty        the baseline
 *   2 coat         a "person" at 45 % on the hook by the door: under the example's person minimum
 *   3 poster       a person on the poster on the door: in the example's ignore region
 *   4 cat          a cat on the doorstep: the door zone counts only people
 *   5 visitor      a person at the door: the first e-mail
 *   6 walker       a person walking up the driveway: the driveway zone counts only cars
 *   7 car          a car in the driveway, within the door's cooldown: the second e-mail, as the
 *                  example's Cooldown Scope is Zone and Label
 * Each knob keeps one alert from being sent: with it off, the mails are not exactly the two below.
 * The SMTP server on 127.0.0.1 (lib/smtp) must receive exactly those two.
 */
import { labelColor } from '../../nodes/ImageInference/picture/draw/palette';
import { framedIn, pixelsOf } from '../harness/pictureChecks';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { sha256 } from '../reference-server/faults';
import type { Camera } from '../watch/camera';
import { startCamera } from '../watch/camera';
import type { FrontDoorLook } from '../watch/front-door';
import { CAR, FRONT_DOOR_LOOKS, VISITOR, frontDoorAnswer, frontDoorFrame } from '../watch/front-door';
import { RestClient, activateCameraExample, e2eVersions, startSmtpCapture, type N8nHome, type SmtpCapture } from './lib';

const SCRIPT = Object.keys(FRONT_DOOR_LOOKS) as FrontDoorLook[];
const INTERVAL_SECONDS = 4;
const DETECT = 'Watch the front door';

type ZoneChange = { appeared: string[]; changeByLabel: Record<string, number> };
type Comparison = { changed: boolean; heldBack: unknown[]; zones: { door: ZoneChange; driveway: ZoneChange } };

describe.each(e2eVersions())('examples/front-door.json activated in real n8n %s', (version) => {
	let server: ReferenceServer;
	let smtp: SmtpCapture;
	let camera: Camera<FrontDoorLook>;
	let home: N8nHome;
	let rest: RestClient;
	let workflowId: string;

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
		for (const look of SCRIPT) {
			server.addFault({ match: { kind: 'detect', imageSha256: sha256(frontDoorFrame(look)) }, action: { type: 'status', status: 200, body: frontDoorAnswer(look) } });
		}
		smtp = await startSmtpCapture();
		camera = await startCamera(SCRIPT, { frameOf: frontDoorFrame });
		({ home, rest, workflowId } = await activateCameraExample({
			version,
			file: 'front-door.json',
			server,
			smtpPort: smtp.port,
			snapshotUrl: camera.snapshotUrl,
			intervalSeconds: INTERVAL_SECONDS,
		}));
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await camera?.close();
		await smtp?.close();
		await server?.close();
	});

	it('an e-mail for the visitor at the door and one for the car in the driveway, none for the coat, the poster, the cat or the walker', async () => {
		const runs = await rest.waitForFinishedExecutions(workflowId, SCRIPT.length, (SCRIPT.length + 12) * INTERVAL_SECONDS * 1000, () => `the camera served ${camera.served.join(', ')}`);
		expect(runs.map((run) => run.status)).toEqual(Array(SCRIPT.length).fill('success'));
		expect(camera.served.slice(0, SCRIPT.length)).toEqual(SCRIPT);
		// the looks the IF sent to Send Email: with any knob of the example off, one more (or, with the scope off, one fewer)
		expect(runs.flatMap((run, index) => (run.runData['Email the photo'] ? [SCRIPT[index]] : []))).toEqual(['visitor', 'car']);
		// every look was answered with its scripted detections
		expect(runs.map((run) => run.runData[DETECT][0].data!.main[0]![0].json.totalDetections)).toEqual([0, 0, 0, 0, 1, 1, 2]);

		const comparisons = runs.map((run) => run.runData[DETECT][0].data!.main[0]![0].json.comparison as Comparison);
		expect(comparisons.map(({ zones }) => [zones.door.appeared, zones.driveway.appeared])).toEqual([
			[[], []],
			[[], []],
			[[], []],
			[[], []],
			[['person'], []],
			[[], []],
			[[], ['car']],
		]);
		expect(comparisons.every(({ heldBack }) => heldBack.length === 0)).toBe(true);

		expect(smtp.messages.map(({ subject }) => subject)).toEqual(['Front door: person arrived', 'Front door: car arrived']);
		expect(smtp.messages[0].text).toMatch(/^At the door: person\. In the driveway: nothing new\./);
		expect(smtp.messages[1].text).toMatch(/^At the door: nobody new\. In the driveway: car\./);
		// the node's own picture: what the example keeps framed (the visitor, then the car too), what it leaves out not
		for (const [index, mail] of smtp.messages.entries()) {
			expect(mail.attachments).toHaveLength(1);
			const look = index === 0 ? 'visitor' : 'car';
			const drawn = pixelsOf(mail.attachments[0].content);
			const plain = pixelsOf(frontDoorFrame(look));
			const framed = FRONT_DOOR_LOOKS[look].map((box) => [box.label, box.x, framedIn(drawn, plain, box, labelColor(box.label))]);
			expect(framed).toEqual(FRONT_DOOR_LOOKS[look].map((box) => [box.label, box.x, box === VISITOR || box === CAR]));
		}
	});
});
