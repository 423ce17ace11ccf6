import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PROJECT_ID_REGEX, PROJECT_URL_REGEX } from '../projectContract';
import { locatorText, truncate } from './readers';

const PROJECT_ID = new RegExp(`^${PROJECT_ID_REGEX}$`);
const PROJECT_URL = new RegExp(`^${PROJECT_URL_REGEX}$`);

/** The project's ID from the Project locator: By ID takes one ID, By URL the ID a link names after `projects/`. */
export function readProjectId(this: IExecuteFunctions, itemIndex: number): string {
	const { mode, text } = locatorText(this.getNodeParameter('project', itemIndex, ''));
	const byUrl = mode === 'url';
	if (/^REPLACE_WITH/i.test(text)) {
		throw new NodeOperationError(this.getNode(), `Project is still the example’s placeholder "${truncate(text, 80)}"`, {
			itemIndex,
			description: 'Paste your project’s ID (the part after “projects/” in its link in the dashboard), or choose By URL and paste the link.',
		});
	}
	const id = byUrl ? PROJECT_URL.exec(text)?.[1] : PROJECT_ID.exec(text)?.[0];
	if (id === undefined) {
		const shown = truncate(text, 80);
		const message = text === '' ? 'Project is empty' : byUrl ? `The link "${shown}" does not name a project` : `Project ID "${shown}" is not an ID`;
		const description = byUrl
			? 'Paste the project’s link from the dashboard: it names the project after “projects/” (…/projects/<project ID>), or choose By ID and paste the ID.'
			: 'Paste the project’s ID (letters, digits and dashes, the part after “projects/” in its link in the dashboard), or choose By URL and paste the link.';
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	}
	return id;
}
