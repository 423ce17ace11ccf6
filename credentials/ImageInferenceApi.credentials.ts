import type { ICredentialDataDecryptedObject, ICredentialType, IHttpRequestOptions, INodeProperties, Icon } from 'n8n-workflow';

import { DEFAULT_BASE_URL, apiKeyPlacement, normalizeBaseUrl } from '../nodes/ImageInference/contract';

/**
 * Tested by the Image Inference node (`testedBy` on its credential entry, `methods.credentialTest`
 * on the node): n8n's declarative `test` can only fail on a body field equal to a value, so it
 * would pass a wrong Base URL that answers any page. The node's test passes only on answers the
 * service gives and names the Base URL and what came back otherwise (docs/compatibility.md,
 * "Credential test").
 */
export class ImageInferenceApi implements ICredentialType {
	name = 'imageInferenceApi';

	displayName = 'Image Inference API';

	icon: Icon = {
		light: 'file:../nodes/ImageInference/imageInference.svg',
		dark: 'file:../nodes/ImageInference/imageInference.dark.svg',
	};

	documentationUrl = 'https://docs.epigos.ai';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			placeholder: DEFAULT_BASE_URL,
			description: 'Address of the prediction API. Change it only for a self-hosted or test deployment.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Create one in the dashboard under Workspace Settings > API Keys',
		},
		{
			displayName: 'Send API Key As',
			name: 'sendAs',
			type: 'options',
			options: [
				{
					name: 'Header (X-API-Key)',
					value: 'header',
					description: 'Recommended: the key stays out of URLs and access logs',
				},
				{
					name: 'Query Parameter (api-key)',
					value: 'query',
					description: 'For networks that strip custom headers',
				},
			],
			default: 'header',
		},
	];

	/** Adds exactly one of the two key placements, keeping whatever headers or query the request has. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const placement = apiKeyPlacement(credentials);
		const authenticated: IHttpRequestOptions = {
			...requestOptions,
			baseURL: requestOptions.baseURL ?? normalizeBaseUrl(credentials.baseUrl),
		};
		if ('qs' in placement) authenticated.qs = { ...(requestOptions.qs ?? {}), ...placement.qs };
		else authenticated.headers = { ...(requestOptions.headers ?? {}), ...placement.headers };
		return authenticated;
	}
}
