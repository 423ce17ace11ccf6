import type { IDataObject } from 'n8n-workflow';

import { activateTrigger } from '../harness/trigger';
import { useServer } from './setup';

describe('Image Inference Trigger: a setting it cannot run with refuses the activation, saying what to fix, before any request', () => {
	const { server, credentials } = useServer({ defaultModels: 'synthetic' });

	const parameters = (extra: IDataObject = {}, options: IDataObject = {}): IDataObject => ({
		cameraUrl: 'http://127.0.0.1:9/snapshot.jpg',
		modelId: { __rl: true, mode: 'id', value: server().models.detect },
		lookEvery: 5,
		lookEveryUnit: 'seconds',
		events: ['arrival'],
		options,
		...extra,
	});

	it.each<[string, IDataObject, IDataObject, RegExp]>([
		['no camera URL', { cameraUrl: '' }, {}, /^Camera Snapshot URL is empty: enter the camera’s snapshot address, starting with http:\/\/ or https:\/\//],
		['a URL that is not one', { cameraUrl: 'camera in the garage' }, {}, /^Camera Snapshot URL is not an address: enter/],
		['an RTSP stream', { cameraUrl: 'RTSP://192.168.1.20:554/stream1' }, {}, /^Camera Snapshot URL is an RTSP stream, which the trigger cannot read: .*go2rtc, Frigate or Home Assistant/],
		['another scheme', { cameraUrl: 'ftp://192.168.1.20/snap.jpg' }, {}, /^Camera Snapshot URL starts with ftp:/],
		['a login in the URL', { cameraUrl: 'http://admin:secret@192.168.1.20/snap.jpg' }, {}, /^Camera Snapshot URL has a login in it: remove the user name and password/],
		['a password alone in the URL', { cameraUrl: 'http://:secret@192.168.1.20/snap.jpg' }, {}, /has a login in it/],
		['an interval under 1 second', { lookEvery: 0 }, {}, /^Look Every is 0: enter a whole number from 1 to 1440$/],
		['a fractional interval', { lookEvery: 2.5 }, {}, /^Look Every is 2.5: enter a whole number/],
		['an unknown unit', { lookEveryUnit: 'hours' }, {}, /^Unit is "hours": choose Seconds or Minutes$/],
		['no event chosen', { events: [] }, {}, /^No event is chosen: choose at least one of Start the Workflow On’s events/],
		['an unknown event', { events: ['arrival', 'explosion'] }, {}, /unknown event "explosion"/],
		['a stay event without tracking', { events: ['stay'] }, {}, /^Stay Over Its Limit needs Track Objects Across Looks: add Options > Track Objects Across Looks/],
		['a Camera Timeout out of bounds', {}, { cameraTimeout: 0 }, /^Camera Timeout is 0: enter a number from 1 to 120$/],
		['a negative Frozen Picture After Looks', {}, { frozenAfterLooks: -1 }, /^Frozen Picture After Looks is -1/],
		['a zone Detect refuses', {}, { zones: { zone: [{ name: 'driveway', points: '0,0 1,0' }] } }, /zone.*driveway.*: /i],
		['an empty model', { modelId: { __rl: true, mode: 'id', value: '' } }, {}, /^Model ID is empty: /],
		['retries out of bounds', {}, { retries: 99 }, /^Retries/],
	])('%s', async (_case, extra, options, message) => {
		await expect(activateTrigger({ parameters: parameters(extra, options), credentials: credentials() })).rejects.toThrow(message);
		expect(server().requests).toHaveLength(0);
	});

	it('a good setting activates without a request: looks start at the first tick', async () => {
		const run = await activateTrigger({ parameters: parameters({}, { trackObjects: true }), credentials: credentials() });
		expect(run.cron).toBe('* * * * * *');
		expect(run.sent).toHaveLength(0);
		expect(run.saved.trigger).toEqual({ id: expect.stringMatching(/^[0-9a-f]{12}$/), looks: 0, looksOf: expect.stringMatching(/^[0-9a-f]{1,8}$/) });
		expect(JSON.stringify(run.saved)).not.toContain('127.0.0.1');
	});

	it('Frozen Picture After Looks 1 is refused: every picture is the same as itself', async () => {
		await expect(activateTrigger({ parameters: parameters({}, { frozenAfterLooks: 1 }), credentials: credentials() })).rejects.toThrow(/^Frozen Picture After Looks is 1: enter 0 \(never\) or 2 or more$/);
		await expect(activateTrigger({ parameters: parameters({}, { frozenAfterLooks: 2 }), credentials: credentials() })).resolves.toBeDefined();
	});

	it('a camera credential whose header name is none is refused at activation; an address with "example" in it is a real one', async () => {
		const camera = { loginType: 'header', headerName: 'X Api Key', headerValue: 'tok' };
		await expect(activateTrigger({ parameters: parameters({ authentication: 'cameraApi' }), credentials: credentials(), camera })).rejects.toThrow(/Header Name is not a header name/);
		await expect(activateTrigger({ parameters: parameters({ cameraUrl: 'http://cam1.example-industries.com/snap.jpg' }), credentials: credentials() })).resolves.toBeDefined();
	});
});
