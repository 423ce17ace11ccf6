/**
 * The node gets its parameters as n8n resolves them from the saved workflow: n8n-workflow's
 * Workflow constructor runs NodeHelpers.getNodeParameters over them (test/harness/execute.ts,
 * workflowOf), which adds top-level defaults and drops every option whose display conditions are
 * not met. So an option the node must refuse can carry no display condition that hides it, or the
 * refusal never happens and an imported workflow silently does less than it says.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';
import { TOOL_DESCRIPTIONS } from '../../nodes/ImageInference/actions/tool.description';
import { readWatch } from '../../nodes/ImageInference/pipeline/comparison';
import { runNode } from '../harness/execute';
import { carItem, failureOf, readerContext } from './setup';

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
		expect(resolved).toEqual(NodeHelpers.getNodeParameters(description.properties, parameters as INodeParameters, true, false, { typeVersion: 1 }, description));
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

describe('options the node refuses without the option they need reach it, so the item fails saying so', () => {
	// hand-listed: every option the node refuses without Compare With Previous Look or Track Objects Across Looks
	const needCompare = { watchKey: 'gate', cooldownMinutes: 5, cooldownScope: 'label', departureAfterLooks: 2, trackObjects: true };
	const needTracking = { trackMinOverlap: 0.5, trackKeepMissedLooks: 2, trackCountAfterLooks: 2, reportStaysLongerThan: 5, zoneStayLimits: 'gate: 5', countArrivalsPer: 'day' };

	it.each(Object.entries({ ...needCompare, ...needTracking }))('%s, set alone, reaches the node', (name, value) => {
		const parameters = stored({ [name]: value }) as INodeParameters;
		expect(NodeHelpers.getNodeParameters(description.properties, parameters, true, false, { typeVersion: 1 }, description)?.options).toEqual({ [name]: value });
	});

	it('in a run: Cooldown Scope, Departure After Looks and Track Objects without Compare With Previous Look, tracking’s options without Track Objects', async () => {
		expect((await runWith(stored({ cooldownScope: 'label' }))).error).toBe('Cooldown Scope set without Compare With Previous Look');
		expect((await runWith(stored({ departureAfterLooks: 2 }))).error).toBe('Departure After Looks set without Compare With Previous Look');
		expect((await runWith(stored({ trackObjects: true }))).error).toBe('Track Objects Across Looks is on without Compare With Previous Look');
		expect((await runWith(stored({ compareWithPreviousLook: true, countArrivalsPer: 'day' }))).error).toBe('Count Arrivals set without Track Objects Across Looks');
	});

	it('Watch Key and Cooldown (Minutes) without Compare With Previous Look fail the item too, naming each', async () => {
		const description = 'Turn Compare With Previous Look on, or remove the option: it only applies to comparing looks.';
		const read = async (options: IDataObject) => await failureOf((async () => readWatch.call(readerContext(), 3, options))());
		expect(await read({ watchKey: 'gate' })).toEqual({ message: 'Watch Key set without Compare With Previous Look', description, itemIndex: 3, httpCode: undefined });
		expect(await read({ compareWithPreviousLook: false, cooldownMinutes: 0 })).toEqual({ message: 'Cooldown (Minutes) set without Compare With Previous Look', description, itemIndex: 3, httpCode: undefined });
		expect((await read({ watchKey: 'gate', cooldownMinutes: 5, cooldownScope: 'label', departureAfterLooks: 2 })).message).toBe(
			'Watch Key and Cooldown (Minutes) and Cooldown Scope and Departure After Looks set without Compare With Previous Look',
		);
	});
});
