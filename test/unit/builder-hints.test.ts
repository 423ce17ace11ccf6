import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';

/** What n8n's AI workflow builder reads of the node: the description as n8n loads it. */
const { description } = new ImageInference();

/** Every property, with those inside collections, as [path, property]. */
function allProperties(properties: INodeProperties[], path = ''): Array<[string, INodeProperties]> {
	return properties.flatMap((property) => {
		const here = `${path}${property.name}`;
		const nested = (property.options ?? []).filter((option): option is INodeProperties => 'type' in option);
		return [[here, property] as [string, INodeProperties], ...allProperties(nested, `${here}.`)];
	});
}

/** Every string in a value, however deep. */
function strings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(strings);
	if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
	return [];
}

describe('hints for n8n’s AI workflow builder', () => {

	it('says at node level what the node takes, what it gives and which nodes go with it', () => {
		const hint = description.builderHint?.searchHint ?? '';
		for (const word of ['binary file', 'URL', 'base64', 'detections', 'countsByLabel', 'summary', 'annotated image']) {
			expect(hint).toContain(word);
		}
		expect(description.builderHint?.relatedNodes?.map((related) => related.nodeType).sort()).toEqual([
			'@n8n/n8n-nodes-langchain.agent',
			'n8n-nodes-base.editImage',
			'n8n-nodes-base.emailSend',
			'n8n-nodes-base.formTrigger',
			'n8n-nodes-base.httpRequest',
			'n8n-nodes-base.if',
			'n8n-nodes-base.telegram',
		]);
	});

	// an operation may have its own property of the same name (Upload to Project's Image Source): each explains its own choices
	it.each(['imageSource', 'outputItems', 'options.outputImages'])('explains every choice of %s', (path) => {
		const named = allProperties(description.properties).filter(([name]) => name === path);
		expect(named.length).toBeGreaterThan(0);
		for (const [, property] of named) {
			const hint = property.builderHint?.propertyHint ?? '';
			const values = (property.options as INodePropertyOptions[]).map((option) => String(option.value));
			expect(values.length).toBeGreaterThan(1);
			for (const value of values) expect(hint).toContain(`'${value}'`);
		}
	});

	it('has no wire-format expression or connection-type literal in any hint', () => {
		const hints = [description.builderHint, ...allProperties(description.properties).map(([, property]) => property.builderHint)].filter(Boolean);
		expect(hints.length).toBe(5);
		for (const text of strings(hints)) {
			expect(text).not.toMatch(/={{/);
			expect(text).not.toMatch(/\bai_[a-zA-Z]+\b/);
		}
	});

	it('sets no defaults.color (deprecated, and removed for community nodes in n8n 3.0)', () => {
		expect(description.defaults).not.toHaveProperty('color');
	});
});
