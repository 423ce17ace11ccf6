import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';

/**
 * What the editor shows under each operation: n8n's editor decides with n8n-workflow's
 * `NodeHelpers.displayParameter` (packages/workflow `node-helpers.ts`), run here on the node's
 * own description as a user would set the node.
 */
const description = new ImageInference().description;

function shownFor(operation: string): Map<string, string[]> {
	const values = { operation, imageSource: 'binary', modelId: '' };
	const shown = new Map<string, string[]>();
	for (const property of description.properties) {
		if (!NodeHelpers.displayParameter(values, property, { typeVersion: 1.1 }, description)) continue;
		const choices = (property.options ?? []) as Array<INodeProperties | INodePropertyOptions | INodePropertyCollection>;
		const names = property.type === 'collection' ? choices.map((option) => ('displayName' in option ? option.displayName : option.name)) : [];
		shown.set(property.displayName, [...(shown.get(property.displayName) ?? []), ...names]);
	}
	return shown;
}

describe('the editor shows each operation its own settings', () => {
	it('Classify Image: Confidence Threshold and the request settings are its options; none of Detect Objects’ settings appear', () => {
		const shown = shownFor('classify');
		expect(shown.get('Options')).toEqual(['Concurrency', 'Confidence Threshold', 'Retries', 'Timeout (Ms)']);
		expect(shown.has('Output Items')).toBe(false);
		expect([...shown.keys()]).toEqual(expect.arrayContaining(['Operation', 'Model', 'Image Source', 'Input Binary Field']));
	});

	it('Detect Objects: Output Items and Detect’s options, not a second Options list from Classify', () => {
		const shown = shownFor('detect');
		expect(shown.has('Output Items')).toBe(true);
		const options = shown.get('Options') ?? [];
		expect(options).toEqual(expect.arrayContaining(['Confidence Threshold', 'Max Objects', 'Output Images', 'Annotate Image', 'Zones']));
		// one Confidence Threshold: Classify's options collection is not shown beside Detect's
		expect(options.filter((name) => name === 'Confidence Threshold')).toHaveLength(1);
	});
});
