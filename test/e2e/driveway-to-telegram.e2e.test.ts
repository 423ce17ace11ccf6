/**
 * examples/driveway-to-telegram.json, activated in real n8n: the Image Inference Trigger looks at
 * a stand-in camera on 127.0.0.1 (test/harness/standInCamera) and sends each arrival in the
 * driveway to a Telegram Bot API stand-in (./lib/telegram-bot-api) with the service's annotated
 * picture. The example runs as shipped except for what every example's e2e test points elsewhere:
 * the camera's address (the stand-in), the Image Inference credential (the reference server), the
 * model id (the server's synthetic detect model, which calls the red block `red`: so the captions
 * say "A red arrived…"), the Telegram credential (the stand-in); and Look Every 1 second instead
 * of 5, only to keep the test short (each frame below is one look, whatever the interval).
 *
 * Frames, one per look (test/harness/images.ts cameraFrame), in the example's driveway zone; each
 * look's frame differs from the others in a few pixels far from the zone (as a live camera's does,
 * through sensor noise), so the annotated photo Telegram gets tells which look announced it (the
 * stand-in serves a script's last frame again until the script changes):
 *   first run        1 empty (the first look: an execution with no item, which saves it),
 *                    2 empty, 3 car in → "A red arrived in the driveway"; 4 car in (it stays:
 *                    nothing), 5 empty (it left: departures are not picked, so an execution with
 *                    no item), 6 car outside the zone (nothing), 7 car in → the second message;
 *                    the car stays until n8n stops
 *   second run       11, 12 car in: the same car as before the stop, nothing (not sent twice);
 *                    13 empty: it left (an execution with no item); it stays away until n8n stops
 *   third run        21 car in → the third message: the car left before the stop and came back
 *                    after it, an arrival not lost; 22 it stays: nothing
 * The same n8n (user folder, database, encryption key) is stopped and started again in between;
 * its trigger state (the event ids' first part, the looks announced, the counts last seen
 * changing) goes on from where it was. Without the executions with no item, n8n would not have
 * saved look 13, and look 21 would be no arrival.
 */
import { PNG } from 'pngjs';

import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { decodeImage } from '../reference-server/image-codec';
import { cameraFrame } from '../harness/images';
import { startStandInCamera, type StandInCamera } from '../harness/standInCamera';
import type { FrameName } from '../watch/frames';
import {
	RestClient,
	createN8nHome,
	DRIVEWAY_TRIGGER,
	importDriveway,
	e2eVersions,
	startTelegramBotApi,
	type BotApiCall,
	type N8nHome,
	type N8nServer,
	type TelegramBotApi,
} from './lib';

const RUNS: Array<Array<[number, FrameName]>> = [
	[
		[1, 'empty'],
		[2, 'empty'],
		[3, 'carInZone'],
		[4, 'carInZone'],
		[5, 'empty'],
		[6, 'carOutsideZone'],
		[7, 'carInZone'],
	],
	[
		[11, 'carInZone'],
		[12, 'carInZone'],
		[13, 'empty'],
	],
	[
		[21, 'carInZone'],
		[22, 'carInZone'],
	],
];
/** The looks whose frame each message must carry, in order. */
const ANNOUNCED_BY = [3, 7, 21];
/** The looks that started an execution: with an item (the arrivals), or with none (they change what later looks compare with). */
const EXECUTIONS = [
	{ look: 1, items: 0 },
	{ look: 3, items: 1 },
	{ look: 5, items: 0 },
	{ look: 7, items: 1 },
	{ look: 13, items: 0 },
	{ look: 21, items: 1 },
];
const TRIGGER = DRIVEWAY_TRIGGER;
const SEND = 'Send the photo';
const CAPTION = 'A red arrived in the driveway';

type Event = { kind: string; label: string | null; zone: string | null; trackId: number | null; count?: number; id: string; at: string };

/**
 * The scene with the look's number written into the top row's first pixels (a little darker where
 * a bit is set), made once per look. PNG without row filters: pngjs's adaptive filtering takes
 * about a second per frame under jest (the reference server pays it once per new picture it draws on).
 */
const frames = new Map<number, Buffer>();
function frameOf(look: number, scene: FrameName): Buffer {
	let bytes = frames.get(look);
	if (!bytes) {
		const image = decodeImage(cameraFrame(scene));
		for (let bit = 0; bit < 8; bit++) if (look & (1 << bit)) image.data.fill(120, bit * 4, bit * 4 + 3);
		const png = new PNG({ width: image.width, height: image.height });
		image.data.copy(png.data);
		bytes = PNG.sync.write(png, { filterType: 0 });
		frames.set(look, bytes);
	}
	return bytes;
}
const framesOf = (script: Array<[number, FrameName]>) => script.map(([look, scene]) => frameOf(look, scene));

/** Waits until `done()`, saying `state()` when it does not come. */
async function until(what: string, done: () => boolean, state: () => string, timeoutMs = 60_000): Promise<void> {
	for (const started = Date.now(); !done(); ) {
		if (Date.now() - started > timeoutMs) throw new Error(`${what} not within ${timeoutMs / 1000} s; ${state()}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

describe.each(e2eVersions())('examples/driveway-to-telegram.json activated in real n8n %s', (version) => {
	let server: ReferenceServer;
	let telegram: TelegramBotApi;
	let camera: StandInCamera;
	let home: N8nHome;
	let n8n: N8nServer | undefined;
	let workflowId: string;

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
		telegram = await startTelegramBotApi();
		camera = await startStandInCamera();
		home = await createN8nHome({ version });
		workflowId = await importDriveway(home, { service: server, cameraUrl: camera.url, telegram });
		if (home.install.major >= 2) await home.cli(['publish:workflow', `--id=${workflowId}`]);
		else await home.cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
	}, 300_000);

	afterAll(async () => {
		await home?.dispose();
		await camera?.close();
		await telegram?.close();
		await server?.close();
	});

	const photos = () => telegram.calls.filter((call) => call.method === 'sendPhoto');
	const state = () => `${camera.served} frames served, ${photos().length} photos sent, Telegram saw ${telegram.calls.map((call) => `${call.method} ${call.status}`).join(', ') || 'nothing'}`;
	/** Starts n8n on the camera's script and waits until it has sent `messages` photos and looked `settle` more times than the script is long. */
	const runScript = async (script: Array<[number, FrameName]>, messages: number, settle = 3) => {
		camera.script(framesOf(script));
		n8n = await home.start();
		await until(`${messages} photos and ${script.length + settle} looks`, () => photos().length >= messages && camera.served >= script.length + settle, state);
	};
	/** The look whose frame, annotated by the service with the options the trigger sent, is this photo (0: none of the script's). */
	const lookOf = (call: BotApiCall): number => {
		const sent = server.requests.find((request) => request.kind === 'detect');
		const { image: _image, ...options } = sent!.body as { image: string };
		void _image;
		const look = RUNS.flat().find(([number, scene]) =>
			call.files.photo?.bytes.equals(Buffer.from(server.predict('detect', frameOf(number, scene), options, server.models.syntheticDetect).image!, 'base64')),
		);
		return look?.[0] ?? 0;
	};
	const expectSentToPeople = (call: BotApiCall) => {
		expect(call.status).toBe(200);
		expect([call.fields.chat_id, call.fields.caption]).toEqual(['REPLACE_WITH_YOUR_CHAT_ID', CAPTION]);
		// the text goes to people: no model, event id or other internals in any field
		expect(JSON.stringify(call.fields)).not.toMatch(new RegExp(`${server.models.syntheticDetect}|arrival:|trackId|undefined|null`));
		expect(Object.keys(call.files)).toEqual(['photo']);
	};

	it('one photo per arrival in the driveway; across restarts of n8n the car still there is not sent again, and a car that left and came back is not lost', async () => {
		await runScript(RUNS[0], 2);
		expect(photos().map(lookOf)).toEqual(ANNOUNCED_BY.slice(0, 2));
		await n8n!.stop();

		await runScript(RUNS[1], 2);
		await n8n!.stop();
		expect(photos().map(lookOf)).toEqual(ANNOUNCED_BY.slice(0, 2));

		await runScript(RUNS[2], 3);
		expect(photos().map(lookOf)).toEqual(ANNOUNCED_BY);
		for (const call of photos()) expectSentToPeople(call);

		// n8n's own record: an execution for each look that changed what later looks compare with, counted on from the same state;
		// the arrivals' with one item, sent on; the others with none, which run no node after the trigger
		const rest = await RestClient.setupOwner(n8n!.url);
		const runs = await rest.finishedExecutions(workflowId);
		expect(runs.map((run) => run.status)).toEqual(EXECUTIONS.map(() => 'success'));
		const items = runs.map((run) => run.runData[TRIGGER][0].data!.main[0]!);
		expect(items.map((sent) => sent.length)).toEqual(EXECUTIONS.map((execution) => execution.items));
		expect(runs.map((run) => run.runData[SEND]?.[0].data!.main[0]!.length ?? 0)).toEqual(EXECUTIONS.map((execution) => execution.items));
		const events = items.filter((sent) => sent.length > 0).map(([item]) => item.json.event as Event);
		expect(events.map(({ kind, label, zone, trackId, count }) => ({ kind, label, zone, trackId, count }))).toEqual(
			Array(3).fill({ kind: 'arrival', label: 'red', zone: 'driveway', trackId: null, count: 1 }),
		);
		const stateId = events[0].id.split(':')[0];
		expect(events.map((event) => event.id)).toEqual([2, 4, 6].map((number) => `${stateId}:${number}:arrival:red:driveway:`));
	});
});
