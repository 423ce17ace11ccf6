import { CAMERA, CAMERA_CAR_BOX, cameraFrame } from '../harness/images';
import { activateTrigger } from '../harness/trigger';
import { fillRect } from '../reference-server/draw';
import { encodeImage } from '../reference-server/image-codec';
import { useWatchedDriveway } from './triggerSetup';

const EMPTY = cameraFrame('empty');
const CAR_IN = cameraFrame('carInZone');
const T0 = Date.parse('2026-11-30T12:00:00Z');
const SECOND = 1000;

/** Two red "cars" on the road, both right of the driveway, on the colour model's 15-pixel grid. */
function twoCarsOutside(): Buffer {
	const image = { ...CAMERA, data: Buffer.alloc(CAMERA.width * CAMERA.height * 4, 128) };
	for (const x of [510, 600]) fillRect(image, x, CAMERA_CAR_BOX.y, CAMERA_CAR_BOX.width, CAMERA_CAR_BOX.height, [230, 40, 40]);
	return encodeImage(image, 'png');
}

/** The error a manual run ends with, or undefined when it emits. */
async function manualFailure(run: { manual(): Promise<unknown> }) {
	return await run.manual().then(
		() => undefined,
		(error: unknown) => error as { message: string; description?: string },
	);
}

describe('Image Inference Trigger: what Detect sees of a look, Execute step’s messages, deactivation', () => {
	const { credentials, camera, parameters, activate } = useWatchedDriveway({ lookEvery: 5 });

	it('Execute step with nothing in view says what to do, in full', async () => {
		camera().script([EMPTY]);
		const run = await activateTrigger({ parameters: parameters({}, { zones: {} }), credentials: credentials(), mode: 'manual' });
		expect(await manualFailure(run)).toMatchObject({
			message: 'Nothing in view to make a test event from',
			description:
				'The camera gave a picture and the model looked at it, but no object your settings keep is in it. Put something in front of the camera, or lower the Confidence Threshold, and run it again; or pick Every Look in Start On as well to see looks with nothing in them.',
		});
	});

	it('Execute step with nothing in the zones but no object found at all does not blame the zones', async () => {
		camera().script([EMPTY]);
		const run = await activateTrigger({ parameters: parameters(), credentials: credentials(), mode: 'manual' });
		expect((await manualFailure(run))?.description).toMatch(/^The camera gave a picture and the model looked at it, but no object your settings keep is in it\./);
	});

	it('Execute step with two objects outside every zone counts them and names the zones', async () => {
		camera().script([twoCarsOutside()]);
		const run = await activateTrigger({
			parameters: parameters({}, { zones: { zone: [{ name: 'driveway', points: '0.38,0.53 0.52,0.53 0.58,0.64 0.33,0.64' }, { name: 'gate', points: '0,0 0.1,0 0.1,0.1 0,0.1' }] } }),
			credentials: credentials(),
			mode: 'manual',
		});
		expect((await manualFailure(run))?.description).toBe(
			'The model found 2 objects in the camera’s picture, none of them in your zones (driveway, gate). Put something in a zone, or check the zones’ points and Zone Anchor Point, and run it again; or pick Every Look in Start On as well to see looks with nothing in them.',
		);
	});

	it('deactivated, it looks no more', async () => {
		camera().script([EMPTY, CAR_IN]);
		const run = await activate();
		await run.tick(T0);
		expect(camera().served).toBe(1);
		await run.close();
		await run.tick(T0 + 10 * SECOND);
		expect(camera().served).toBe(1);
		expect(run.emissions.filter(({ items }) => items.length > 0)).toHaveLength(0);
	});

	it('the snapshot is Detect’s input file: the original picture is its bytes, and the pictures are named after it', async () => {
		camera().script([EMPTY, CAR_IN]);
		const run = await activate({}, { outputImages: 'both' });
		await run.tick(T0);
		await run.tick(T0 + 5 * SECOND);
		const [item] = run.emissions[1].items;
		expect(item.binary?.original).toMatchObject({ fileName: 'snapshot.png', mimeType: 'image/png' });
		expect(item.binary?.data).toMatchObject({ fileName: 'snapshot.annotated.png', mimeType: 'image/png' });
		expect(Buffer.from(item.binary!.original.data, 'base64').equals(CAR_IN)).toBe(true);
	});

	it('a setting Detect refuses stops the activation with Detect’s message and what to fix', async () => {
		const refused = await activate({}, { maxObjects: 0 }).then(
			() => undefined,
			(error: unknown) => error as { message: string; description?: string },
		);
		expect(refused?.message).toMatch(/^Max Objects /);
		expect(refused?.description).toBeTruthy();
		expect(refused?.message.endsWith(`: ${refused?.description}`)).toBe(true);
	});
});
