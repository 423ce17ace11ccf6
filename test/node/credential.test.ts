import type { IHttpRequestOptions } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';
import { request } from 'undici';

import { ImageInferenceApi } from '../../credentials/ImageInferenceApi.credentials';
import { useServer } from './setup';

const credential = new ImageInferenceApi();

/** Base URLs as typed in the credential, and where requests then go: the node and the Test button agree. */
const BASE_URLS: Array<[unknown, string]> = [
	['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
	['  http://127.0.0.1:8080//  ', 'http://127.0.0.1:8080'],
	['https://inference.example.com/v1/', 'https://inference.example.com/v1'],
	['', 'https://api.epigos.ai'],
	['   ', 'https://api.epigos.ai'],
	[undefined, 'https://api.epigos.ai'],
];

describe('credential: authenticate', () => {
	const base: IHttpRequestOptions = { url: '/x', headers: { Accept: 'application/json' }, qs: { a: 1 } };

	it('header mode adds X-API-Key, keeps the request’s headers and query, adds no api-key', async () => {
		const out = await credential.authenticate({ apiKey: 'k1', sendAs: 'header', baseUrl: 'http://h/' }, base);
		expect(out.headers).toEqual({ Accept: 'application/json', 'X-API-Key': 'k1' });
		expect(out.qs).toEqual({ a: 1 });
		expect(out.baseURL).toBe('http://h');
	});

	it('query mode adds api-key, keeps the query and headers, adds no X-API-Key', async () => {
		const out = await credential.authenticate({ apiKey: 'k2', sendAs: 'query', baseUrl: '' }, base);
		expect(out.qs).toEqual({ a: 1, 'api-key': 'k2' });
		expect(out.headers).toEqual({ Accept: 'application/json' });
		expect(out.baseURL).toBe('https://api.epigos.ai');
	});

	it.each([...BASE_URLS, [42, 'https://api.epigos.ai']])('sends requests to the Base URL %j as %s', async (baseUrl, expected) => {
		const out = await credential.authenticate({ apiKey: 'k', sendAs: 'header', baseUrl } as never, { url: '/x' });
		expect(out.baseURL).toBe(expected);
	});

	it('does not change the request it was given', async () => {
		const before = JSON.stringify(base);
		await credential.authenticate({ apiKey: 'k', sendAs: 'query' }, base);
		await credential.authenticate({ apiKey: 'k', sendAs: 'header' }, base);
		expect(JSON.stringify(base)).toBe(before);
	});
});

/**
 * The test request's Base URL as n8n resolves it: an expression (leading "=") over `$credentials`,
 * evaluated by n8n-workflow's own expression engine. The whole Test button in real n8n:
 * test/e2e/credential-test.e2e.test.ts.
 */
function resolveBaseUrl(baseUrl: unknown): unknown {
	const value = credential.test.request.baseURL;
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: { baseUrl } });
}

/**
 * The credential test as n8n runs it: the test request (its base URL expression resolved),
 * authenticated by the credential, HTTP status errors ignored, then the rules applied to the body.
 */
async function runCredentialTest(credentials: { baseUrl: string; apiKey: string; sendAs: string }) {
	const test = credential.test.request;
	const options = await credential.authenticate(credentials, { ...test, baseURL: resolveBaseUrl(credentials.baseUrl) } as IHttpRequestOptions);
	const url = new URL(`${options.baseURL}${options.url}`);
	for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
	const response = await request(url, {
		method: 'POST',
		headers: { ...(options.headers as Record<string, string>), 'content-type': 'application/json' },
	});
	const body = (await response.body.json()) as Record<string, unknown>;
	for (const rule of credential.test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && body[rule.properties.key] === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message, httpStatus: response.statusCode };
		}
	}
	return { status: 'OK', httpStatus: response.statusCode };
}

describe('the test request\'s Base URL, as n8n resolves it', () => {
	it.each(BASE_URLS)('%j → %s', (baseUrl, expected) => {
		expect(resolveBaseUrl(baseUrl)).toBe(expected);
	});
});

describe('credential test against the reference server', () => {
	const { server } = useServer({ apiKey: 'credential-test-key', defaultModels: 'synthetic' });

	it.each(['header', 'query'])('a good key sent as %s passes (the nil model answers 400/404, not 401)', async (sendAs) => {
		const result = await runCredentialTest({ baseUrl: server().url, apiKey: server().apiKey, sendAs });
		expect(result.status).toBe('OK');
		expect([400, 404]).toContain(result.httpStatus);
	});

	it.each(['header', 'query'])('a bad key sent as %s fails with "Invalid or missing credentials"', async (sendAs) => {
		const result = await runCredentialTest({ baseUrl: `${server().url}/`, apiKey: 'not-the-key', sendAs });
		expect(result).toMatchObject({ status: 'Error', httpStatus: 401 });
		expect(result.message).toMatch(/^Invalid or missing credentials/);
	});
});
