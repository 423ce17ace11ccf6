/**
 * The node gets its parameters as n8n resolves them from the saved workflow: n8n-workflow's
 * Workflow constructor runs NodeHelpers.getNodeParameters over them (test/harness/execute.ts,
 * workflowOf), which adds top-level defaults and drops every option whose display conditions are
 * not met. What the editor shows is what runs: the watch options show once Compare With Previous
 * Look is on, tracking's once Track Objects Across Looks is on, and set without it they never
 * reach the node.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';
import { TOOL_DESCRIPTIONS } from '../../nodes/ImageInference/actions/tool.description';
import { cameraFrame } from '../harness/images';
import { NODE_DEFAULT_VERSION, runNode } from '../harness/execute';
import { carItem, detectParameters, useServer } from './setup';

const description = new ImageInference().description;
/** Nothing listens there: a request that is sent fails to connect. */
const credentials = { baseUrl: 'http://127.0.0.1:9', apiKey: 'not-used' };
const MODEL = '4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f';
const stored = (options: IDataObject, extra: IDataObject = {}) => ({ operation: 'detect', modelId: MODEL, imageSource: 'binary', binaryPropertyName: 'data', ...extra, options });

/** What the node reads of its parameters in a run of one image, under Continue, and what the item says. */
async function runWith(parameters: Record<string, unknown>, asTool = false) {
	const result = await runNode({ parameters, items: [carItem()], credentials, onError: 'continueRegularOutput', asTool, recordRequests: false });
	return { parameters: result.parameters, error: (result.items[0].json.error as { message?: string } | undefined)?.message };
}

describe('the harness resolves the stored parameters as n8n does', () => {
	it('an option whose display condition is not met is dropped, exactly as n8n-workflow’s getNodeParameters drops it', async () => {
		// Include Images Without Objects shows only with Output Items One Item per Object
		const parameters = stored({ includeImagesWithoutObjects: true, confidence: 0.4 }, { outputItems: 'image' });
		const { parameters: resolved } = await runWith(parameters);
		expect(resolved.options).toEqual({ confidence: 0.4 });
		expect(resolved).toEqual(NodeHelpers.getNodeParameters(description.properties, parameters as INodeParameters, true, false, { typeVersion: NODE_DEFAULT_VERSION }, description));
		// shown, it stays
		const shown = await runWith(stored({ includeImagesWithoutObjects: true }, { outputItems: 'object' }));
		expect(shown.parameters.options).toEqual({ includeImagesWithoutObjects: true });
	});

	it('adds the defaults of the top-level parameters a workflow leaves out, not of the options', async () => {
		const { parameters } = await runWith({ operation: 'detect', modelId: MODEL, options: { confidence: 0.4 } });
		expect(parameters).toEqual({ operation: 'detect', modelId: MODEL, imageSource: 'binary', binaryPropertyName: 'data', outputItems: 'image', options: { confidence: 0.4 } });
	});

	it('an option whose condition an expression decides is kept, as n8n keeps it (it cannot know the value before the run)', async () => {
		// Put Original Image in Field shows only with Output Images Original or Both
		expect((await runWith(stored({ originalImageField: 'copy' }))).parameters.options).toEqual({});
		const { parameters } = await runWith(stored({ outputImages: () => 'annotated', originalImageField: 'copy' }));
		expect(parameters.options).toEqual({ outputImages: '={{ expression 1 }}', originalImageField: 'copy' });
	});

	it('the Tool Description is a parameter of the node run as an AI Agent’s tool only', async () => {
		expect((await runWith(stored({}))).parameters.toolDescription).toBeUndefined();
		expect((await runWith(stored({}), true)).parameters.toolDescription).toBe(TOOL_DESCRIPTIONS.detect);
	});
});

describe('how n8n reads a parameter for an item (n8n-core’s _getNodeParameter)', () => {
	it('the fallback stands in for a parameter the workflow lacks, not for an expression that resolves to nothing', async () => {
		const parameters = { operation: 'detect', modelId: MODEL, imageSource: 'binary', binaryPropertyName: '={{ $json.field }}', options: {} };
		const result = await runNode({ parameters, items: [{ json: {}, ...carItem() }], credentials, onError: 'continueRegularOutput', recordRequests: false });
		expect((result.items[0].json.error as { message?: string }).message).toBe('Input Binary Field is empty');
	});
});

describe('the node’s version', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('is the node’s default (latest) one, whose Model is a resource locator, by ID or by link', async () => {
		expect(NODE_DEFAULT_VERSION).toBe(1.1);
		for (const modelId of [
			{ __rl: true, mode: 'id', value: server().models.detect },
			{ __rl: true, mode: 'url', value: `https://app.epigos.ai/projects/p/models/${server().models.detect}` },
		]) {
			const { items, parameters } = await run(detectParameters(server(), { modelId }), [carItem()]);
			expect(parameters.modelId).toEqual(modelId);
			expect(items[0].json.error).toBeUndefined();
		}
		expect(server().requests.map((request) => request.modelId)).toEqual([server().models.detect, server().models.detect]);
		// a workflow without a model gets the resource locator's default
		const { parameters } = await run({ operation: 'detect', options: {} }, [carItem()], { onError: 'continueRegularOutput' });
		expect(parameters.modelId).toEqual({ __rl: true, mode: 'id', value: '' });
	});

	it('version 1, when a test asks for it: Model is a text', async () => {
		const { items, parameters } = await run(detectParameters(server()), [carItem()], { typeVersion: 1 });
		expect(parameters.modelId).toBe(server().models.detect);
		expect(items[0].json.error).toBeUndefined();
		expect((await run({ operation: 'detect', options: {} }, [carItem()], { typeVersion: 1, onError: 'continueRegularOutput' })).parameters.modelId).toBe('');
	});
});

describe('the watch options show once Compare With Previous Look is on, tracking’s once Track Objects Across Looks is on', () => {
	// hand-listed: every option under Compare With Previous Look, and every one under Track Objects Across Looks
	const underCompare = { watchKey: 'gate', cooldownMinutes: 5, cooldownScope: 'label', departureAfterLooks: 2, trackObjects: true };
	const underTracking = { trackMinOverlap: 0.5, trackKeepMissedLooks: 2, trackCountAfterLooks: 2, reportStaysLongerThan: 5, zoneStayLimits: 'gate: 5', countArrivalsPer: 'day' };
	const resolvedOptions = (options: IDataObject) =>
		NodeHelpers.getNodeParameters(description.properties, stored(options) as INodeParameters, true, false, { typeVersion: NODE_DEFAULT_VERSION }, description)?.options;

	it.each(Object.entries({ ...underCompare, ...underTracking }))('%s, set without Compare With Previous Look, never reaches the node', (name, value) => {
		expect(resolvedOptions({ [name]: value })).toEqual({});
		expect(resolvedOptions({ compareWithPreviousLook: false, [name]: value })).toEqual({ compareWithPreviousLook: false });
	});

	it.each(Object.entries(underCompare))('%s reaches it with Compare With Previous Look on', (name, value) => {
		expect(resolvedOptions({ compareWithPreviousLook: true, [name]: value })).toEqual({ compareWithPreviousLook: true, [name]: value });
	});

	it.each(Object.entries(underTracking))('%s reaches it with Track Objects Across Looks on too, not without', (name, value) => {
		expect(resolvedOptions({ compareWithPreviousLook: true, [name]: value })).toEqual({ compareWithPreviousLook: true });
		expect(resolvedOptions({ compareWithPreviousLook: true, trackObjects: true, [name]: value })).toEqual({ compareWithPreviousLook: true, trackObjects: true, [name]: value });
	});

	it('Compare With Previous Look set by an expression keeps them all: n8n cannot know its value before the run', () => {
		const options = { compareWithPreviousLook: '={{ $json.watch }}', ...underCompare, ...underTracking };
		expect(resolvedOptions(options)).toEqual(options);
		// Track Objects by an expression keeps tracking’s options
		expect(resolvedOptions({ compareWithPreviousLook: true, trackObjects: '={{ $json.track }}', countArrivalsPer: 'day' })).toEqual({
			compareWithPreviousLook: true,
			trackObjects: '={{ $json.track }}',
			countArrivalsPer: 'day',
		});
	});
});

describe('Compare With Previous Look on per item, by an expression', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const photo = (json: IDataObject) => ({ json, binary: { data: { bytes: cameraFrame('empty'), fileName: 'empty.png', mimeType: 'image/png' } } });
	const watchAndTrack = {
		watchKey: 'gate',
		cooldownMinutes: 5,
		cooldownScope: 'label',
		departureAfterLooks: 2,
		trackObjects: true,
		trackMinOverlap: 0.5,
		trackKeepMissedLooks: 2,
		countArrivalsPer: 'day',
	};

	it('an item whose Compare is false is a plain detection, its watch and tracking options unused; an item whose Compare is true watches', async () => {
		const staticData: IDataObject = {};
		const parameters = detectParameters(server(), { options: { compareWithPreviousLook: '={{ $json.watch }}', ...watchAndTrack } });
		const { items } = await run(parameters, [photo({ watch: false }), photo({ watch: true })], { staticData });
		expect(items[0].json.error).toBeUndefined();
		expect(items[0].json.comparison).toBeUndefined();
		expect(items[0].json.tracking).toBeUndefined();
		expect(items[1].json.comparison).toMatchObject({ key: 'gate', changed: false, previousSeenAt: null });
		expect(items[1].json.tracking).toBeDefined();
		expect(Object.keys(staticData.looks as IDataObject)).toEqual(['gate']);
	});

	it('an item whose Compare is true and Track Objects false compares without tracking', async () => {
		const parameters = detectParameters(server(), { options: { compareWithPreviousLook: true, ...watchAndTrack, trackObjects: '={{ $json.track }}' } });
		const { items } = await run(parameters, [photo({ track: false })], { staticData: {} });
		expect(items[0].json.comparison).toMatchObject({ key: 'gate' });
		expect(items[0].json.tracking).toBeUndefined();
	});

	it('an image URL with Track Objects on, on an item whose Compare is false: no tracking, so no need of the image’s size', async () => {
		const imageUrl = server().hostImage(cameraFrame('empty'), 'image/png');
		const parameters = detectParameters(server(), {
			imageSource: 'url',
			imageUrl,
			options: { compareWithPreviousLook: '={{ $json.watch }}', trackObjects: true, outputImages: 'none' },
		});
		const { items } = await run(parameters, [{ json: { watch: false } }], { staticData: {} });
		expect(items[0].json.error).toBeUndefined();
		expect(items[0].json.tracking).toBeUndefined();
		expect(items[0].json.totalDetections).toBe(0);
	});
});
