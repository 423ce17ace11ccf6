import type { IDataObject } from 'n8n-workflow';

import { cameraFrame } from '../harness/images';
import { detectParameters, useServer } from './setup';

// Under Continue, n8n's Retry On Fail reruns the whole node when output item 0 has json.error, after
// the run it replaces wrote its looks: a watched Detect refuses that combination before any request.
const photoItem = () => ({ binary: { data: { bytes: cameraFrame('carInZone'), fileName: 'gate.png', mimeType: 'image/png' } } });
const REFUSAL = {
	message: 'Compare With Previous Look does not run with Retry On Fail on under On Error Continue',
	description:
		'Turn off Retry On Fail in this node’s Settings: after a failed first item n8n would run the whole node again, comparing with the looks of the run it replaces, and the arrivals that run saw would never be reported. The node’s own Options > Retries retries each image’s request.',
};

describe('Compare With Previous Look and n8n’s Retry On Fail', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const watched = () => detectParameters(server(), { options: { compareWithPreviousLook: true } });

	it.each(['continueRegularOutput', 'continueErrorOutput'] as const)('under %s, every item is refused before any request and no look is kept', async (onError) => {
		const staticData: IDataObject = {};
		const result = await run(watched(), [photoItem(), photoItem()], { retryOnFail: true, onError, staticData });
		const items = onError === 'continueErrorOutput' ? result.errorItems : result.items;
		expect(items.map((item) => (item.json.error as IDataObject | undefined)?.message)).toEqual([REFUSAL.message, REFUSAL.message]);
		expect(items.map((item) => (item.json.error as IDataObject).description)).toEqual([REFUSAL.description, REFUSAL.description]);
		expect(server().requests).toEqual([]);
		expect(staticData).toEqual({});
	});

	it('under Stop Workflow the rerun follows a run that kept no look: it runs', async () => {
		const { items } = await run(watched(), [photoItem()], { retryOnFail: true, staticData: {} });
		expect(items[0].json.comparison).toMatchObject({ changed: false, reason: expect.stringMatching(/first look/) });
	});

	it('under Continue without Compare, Retry On Fail is left to the user', async () => {
		const { items } = await run(detectParameters(server()), [photoItem()], { retryOnFail: true, onError: 'continueRegularOutput' });
		expect(items[0].json.error).toBeUndefined();
		expect(items[0].json.totalDetections).toBe(1);
	});

	it('under Continue with Compare and Retry On Fail off, it runs', async () => {
		const { items } = await run(watched(), [photoItem()], { retryOnFail: false, onError: 'continueRegularOutput', staticData: {} });
		expect(items[0].json.comparison).toMatchObject({ reason: expect.stringMatching(/first look/) });
	});

});
