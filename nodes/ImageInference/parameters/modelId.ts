import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MODEL_ID_REGEX, MODEL_URL_FORMS, MODEL_URL_REGEX } from '../contract';
import { locatorText, truncate } from './readers';

const MODEL_ID = new RegExp(`^${MODEL_ID_REGEX}$`);
const MODEL_URL = new RegExp(`^${MODEL_URL_REGEX}$`);
const MODEL_ID_LOOKS_LIKE =
	'A model ID is a UUID: 36 characters, hexadecimal digits in groups of 8-4-4-4-12, like 4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f.';

/**
 * The model's ID from the Model parameter: version 1's text (an exact UUID, or a link read as By
 * URL reads it) or version 1.1's resource locator (By ID: one UUID and nothing else; By URL: the
 * UUID where a link names the model, MODEL_URL_REGEX). Never the first UUID found anywhere in the text.
 */
export function readModelId(this: IExecuteFunctions, itemIndex: number): string {
	// version 1's plain text has no mode: it is read either way
	const { mode, text } = locatorText(this.getNodeParameter('modelId', itemIndex, ''));
	const id =
		mode === 'id' ? MODEL_ID.exec(text)?.[0] : mode === 'url' ? MODEL_URL.exec(text)?.[1] : (MODEL_ID.exec(text)?.[0] ?? MODEL_URL.exec(text)?.[1]);
	if (id === undefined) {
		const shown = truncate(text, 80);
		const message =
			text === ''
				? 'Model ID is empty'
				: mode === 'url'
					? `The link "${shown}" does not name a model ID where a link names one`
					: `Model ID "${shown}" is not a UUID`;
		const fix =
			mode === 'url'
				? `A link is read where it names the model: ${MODEL_URL_FORMS}. Paste such a link, or choose By ID and paste the ID.`
				: `Copy the model’s ID from its model details in the dashboard, or paste a link that names it: ${MODEL_URL_FORMS}.`;
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description: `${MODEL_ID_LOOKS_LIKE} ${fix}` });
	}
	return id.trim().toLowerCase();
}
