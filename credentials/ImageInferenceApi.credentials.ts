import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	API_KEY_HEADER,
	API_KEY_QUERY_PARAMETER,
	BASE_URL_EXPRESSION,
	DEFAULT_BASE_URL,
	NIL_UUID,
	normalizeBaseUrl,
	predictPath,
	UNAUTHORIZED_MESSAGE,
} from '../nodes/ImageInference/contract';

const INVALID_KEY_MESSAGE = `${UNAUTHORIZED_MESSAGE}: check the API key and Send API Key As`;

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
		const apiKey = String(credentials.apiKey ?? '');
		const authenticated: IHttpRequestOptions = {
			...requestOptions,
			baseURL: requestOptions.baseURL ?? normalizeBaseUrl(credentials.baseUrl),
		};
		if (credentials.sendAs === 'query') {
			authenticated.qs = { ...(requestOptions.qs ?? {}), [API_KEY_QUERY_PARAMETER]: apiKey };
		} else {
			authenticated.headers = { ...(requestOptions.headers ?? {}), [API_KEY_HEADER]: apiKey };
		}
		return authenticated;
	}

	/**
	 * A predict call on the nil model with an empty body: a valid key gets 400 (no image), an invalid
	 * one the 401 error body. Needs no real model.
	 *
	 * n8n fails the test on the first `responseSuccessBody` rule, in order, with
	 * `get(body, key) === value` (CredentialsTester.runRequestTest,
	 * packages/cli/src/services/credentials-tester.service.ts, in 1.123.81 and 2.41.1), so
	 * `value: undefined` matches a body without that key. Every error body of the service carries
	 * `message`; a web page (handed over as its text) or another service's JSON has none. The 401
	 * rules come first so that a wrong key is named as such. docs/compatibility.md has the limits.
	 *
	 * `disableFollowRedirect`: the key is not carried along a redirect. n8n runs the test request
	 * through its RoutingNode, which copies every field of `request` into the options it hands
	 * `httpRequestWithAuthentication` (n8n-core's execution-engine/routing-node.js,
	 * getRequestOptionsFromParameters; 1.122.48 under n8n 1.123.81, 2.41.1), and both request
	 * helpers give axios maxRedirects 0 for it (see transport/index.ts). The 3xx answer then
	 * reaches the rules: its body has no `message`, so the test fails with the Base URL message.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: predictPath('detect', NIL_UUID),
			method: 'POST',
			body: {},
			json: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: { key: 'code', value: 'unauthorized', message: INVALID_KEY_MESSAGE },
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'message', value: UNAUTHORIZED_MESSAGE, message: INVALID_KEY_MESSAGE },
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: undefined,
					message: `This Base URL did not answer like the image inference service: check it (e.g. ${DEFAULT_BASE_URL})`,
				},
			},
		],
	};
}
