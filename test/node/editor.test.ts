import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';
import { carItem, classifyParameters, detectParameters, dogItem, useServer } from './setup';

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
	it('Classify Image: Confidence Threshold, Minimum Confidence per Label and the request settings are its options; none of Detect Objects’ settings appear', () => {
		const shown = shownFor('classify');
		expect(shown.get('Options')).toEqual(['Concurrency', 'Confidence Threshold', 'Minimum Confidence per Label', 'Retries', 'Timeout (Ms)']);
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

/**
 * The editor's number fields stop at the node's own bounds: a value the node refuses cannot be
 * typed there (n8n's number input clamps to minValue/maxValue), and the editor's bounds are never
 * tighter than the node's. Each number option is set just past and just at each editor bound.
 */
describe('the editor’s bounds are the node’s', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const numberOptions = (operation: string) => {
		const options = description.properties.filter(
			(property) => property.name === 'options' && NodeHelpers.displayParameter({ operation }, property, { typeVersion: 1.1 }, description),
		);
		return options.flatMap((collection) => (collection.options as INodeProperties[]).filter((option) => option.type === 'number'));
	};
	const refusal = async (operation: string, option: INodeProperties, value: number) => {
		// the comparison's options reach the node with Compare With Previous Look on, tracking's with Track Objects on too
		const watch = operation === 'detect' ? { compareWithPreviousLook: true, trackObjects: true } : {};
		// and each option with what shows it in the editor (n8n drops a hidden one): Annotated Image Drawn By: Node, One Item per Object…
		const shownBy = Object.entries(option.displayOptions?.show ?? {}).filter(([key]) => !key.startsWith('@'));
		const inOptions = Object.fromEntries(shownBy.filter(([key]) => !key.startsWith('/')).map(([key, values]) => [key, (values as unknown[])[0]]));
		const atRoot = Object.fromEntries(shownBy.filter(([key]) => key.startsWith('/')).map(([key, values]) => [key.slice(1), (values as unknown[])[0]]));
		const parameters = (operation === 'detect' ? detectParameters : classifyParameters)(server(), { ...atRoot, options: { ...watch, ...inOptions, [option.name]: value } });
		const { items } = await run(parameters, [operation === 'detect' ? carItem() : dogItem()], { onError: 'continueRegularOutput' });
		return (items[0].json.error as { message?: string } | undefined)?.message;
	};

	it.each(['detect', 'classify'])('%s: every number option has both bounds in the editor, and the node takes exactly what lies between', async (operation) => {
		const options = numberOptions(operation);
		expect(options.length).toBeGreaterThan(3);
		for (const option of options) {
			const { minValue, maxValue, numberPrecision } = option.typeOptions ?? {};
			expect({ option: option.displayName, minValue: typeof minValue, maxValue: typeof maxValue }).toEqual({ option: option.displayName, minValue: 'number', maxValue: 'number' });
			const step = numberPrecision ? 10 ** -numberPrecision : 1;
			// messages name the option without the unit its display name carries: "Timeout must be…"
			const named = expect.stringContaining(option.displayName.replace(/ \(.*\)$/, ''));
			expect({ option: option.displayName, below: await refusal(operation, option, (minValue as number) - step) }).toEqual({ option: option.displayName, below: named });
			expect({ option: option.displayName, above: await refusal(operation, option, (maxValue as number) + step) }).toEqual({ option: option.displayName, above: named });
		}
	});
});
