/**
 * Runs the node's credential test function as n8n's CredentialsTester does (packages/cli
 * credentials-tester.service.js: the node named by the credential entry's `testedBy`, its
 * `methods.credentialTest[testedBy]` called with `this` a CredentialTestContext and the decrypted
 * credential), with a `helpers.request` sending real HTTP by n8n's legacy-request rules for the
 * options the test uses (n8n 2.41 @n8n/backend-network http/legacy-request.js and
 * http/axios/legacy.js; n8n 1.123 n8n-core request-helper-functions.js proxyRequestToAxios):
 * `uri` + `qs`, string body, `json: false` (the body comes back as text, '' as undefined),
 * `simple: false` (every status resolves), `resolveWithFullResponse`, no redirect followed for a
 * POST with `followRedirect: false`, `timeout`. A network failure rejects with the socket error (its `code`).
 */
import * as http from 'node:http';
import * as https from 'node:https';

import type { ICredentialTestFunction, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { ImageInference } from '../../nodes/ImageInference/ImageInference.node';

export interface CredentialData {
	baseUrl?: string;
	apiKey: string;
	sendAs?: 'header' | 'query';
}

interface LegacyOptions {
	method?: string;
	uri: string;
	headers?: Record<string, string>;
	qs?: Record<string, string>;
	body?: string;
	json?: boolean;
	simple?: boolean;
	resolveWithFullResponse?: boolean;
	followRedirect?: boolean;
	followAllRedirects?: boolean;
	timeout?: number;
}

async function legacyRequest(options: LegacyOptions): Promise<unknown> {
	if (options.json !== false || options.simple !== false || !options.resolveWithFullResponse) {
		throw new Error('the harness implements only json: false, simple: false, resolveWithFullResponse: true');
	}
	if (options.followRedirect !== false && options.followAllRedirects) throw new Error('the harness follows no redirect');
	const url = new URL(options.uri);
	for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, value);
	const client = url.protocol === 'https:' ? https : http;
	return await new Promise((resolve, reject) => {
		const request = client.request(url, { method: options.method ?? 'GET', headers: options.headers, timeout: options.timeout }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('error', reject);
			response.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				resolve({
					body: text === '' ? undefined : text,
					headers: { ...response.headers },
					statusCode: response.statusCode,
					statusMessage: response.statusMessage,
				});
			});
		});
		request.on('timeout', () => request.destroy(Object.assign(new Error(`timeout of ${options.timeout}ms exceeded`), { code: 'ECONNABORTED' })));
		request.on('error', reject);
		request.end(options.body);
	});
}

/** The credential test n8n would run for the Image Inference credential, on these data. */
export async function runCredentialTest(data: CredentialData): Promise<INodeCredentialTestResult> {
	const node = new ImageInference();
	const entry = node.description.credentials?.find((credential) => credential.name === 'imageInferenceApi');
	const testedBy = entry?.testedBy;
	if (typeof testedBy !== 'string') throw new Error('the credential entry names no test function (testedBy)');
	const test = (node.methods?.credentialTest as Record<string, ICredentialTestFunction> | undefined)?.[testedBy];
	if (!test) throw new Error(`the node has no methods.credentialTest.${testedBy}`);
	const context = { helpers: { request: legacyRequest }, logger: console } as unknown as ICredentialTestFunctions;
	return await test.call(context, { id: 'test', name: 'test', type: 'imageInferenceApi', data: { sendAs: 'header', ...data } });
}
