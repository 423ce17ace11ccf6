import * as fs from 'fs';
import * as path from 'path';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeProperties, NodePropertyTypes } from 'n8n-workflow';
import { Expression, NodeHelpers } from 'n8n-workflow';

import { ImageInferenceApi } from '../../credentials/ImageInferenceApi.credentials';
import { NIL_UUID } from '../../nodes/ImageInference/contract';
import { httpRequestAsN8n } from '../harness/execute';
import { NOT_THE_SERVICE, startNotTheService, type NotTheServiceKind } from '../harness/notTheService';
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
 * What n8n hands to `authenticate` for a credential saved with `entered` in its form: the stored
 * fields with the form's defaults filled in (n8n's CredentialsHelper.applyDefaultsAndOverwrites,
 * packages/cli/src/credentials-helper.ts, calls NodeHelpers.getNodeParameters exactly so).
 */
function asN8nReadsIt(entered: Record<string, string>): ICredentialDataDecryptedObject {
	return NodeHelpers.getNodeParameters(credential.properties, entered, true, false, null, null) as ICredentialDataDecryptedObject;
}

describe('the credential form, as saved and read by n8n', () => {
	it('with only the API key entered, requests go to https://api.epigos.ai with the key in the X-API-Key header', async () => {
		const out = await credential.authenticate(asN8nReadsIt({ apiKey: 'k3' }), { url: '/x' });
		expect(out.baseURL).toBe('https://api.epigos.ai');
		expect(out.headers).toEqual({ 'X-API-Key': 'k3' });
		expect(out.qs).toBeUndefined();
	});

	it('Send API Key As offers the header and the query parameter, each choice placing the key where its name says, the header chosen unless changed', async () => {
		const sendAs = credential.properties.find((field) => field.name === 'sendAs');
		const choices = (sendAs?.options ?? []) as Array<{ name: string; value: string }>;
		const placements = await Promise.all(
			choices.map(async (choice) => {
				const out = await credential.authenticate(asN8nReadsIt({ apiKey: 'k5', sendAs: choice.value }), { url: '/x' });
				const placed = out.headers?.['X-API-Key'] === 'k5' ? 'X-API-Key' : (out.qs?.['api-key'] === 'k5' ? 'api-key' : 'nowhere');
				return [placed, choice.name.includes(placed)];
			}),
		);
		expect(placements).toEqual([
			['X-API-Key', true],
			['api-key', true],
		]);
		expect(choices.map((choice) => choice.value)).toContain(sendAs?.default);
		expect(choices.find((choice) => choice.value === sendAs?.default)?.name).toMatch(/^Header/);
	});

	it('a Base URL and Send API Key As = Query Parameter entered in the form are the ones used', async () => {
		const out = await credential.authenticate(
			asN8nReadsIt({ apiKey: 'k4', baseUrl: 'http://127.0.0.1:8080/', sendAs: 'query' }),
			{ url: '/x' },
		);
		expect(out.baseURL).toBe('http://127.0.0.1:8080');
		expect(out.qs).toEqual({ 'api-key': 'k4' });
		expect(out.headers).toBeUndefined();
	});
});

describe('the credential form, as the editor shows it', () => {
	const editorRenders: NodePropertyTypes[] = ['string', 'options', 'boolean', 'number', 'notice', 'hidden'];
	const fields: INodeProperties[] = credential.properties;

	it('every field has a label, a help text (or choices that explain themselves) and a type the editor renders', () => {
		expect(credential.displayName.trim()).not.toBe('');
		for (const field of fields) {
			expect([field.name, field.displayName.trim()]).not.toContain('');
			expect(editorRenders).toContain(field.type);
			const helped = field.description?.trim() || field.options?.every((option) => 'description' in option && option.description);
			expect([field.name, Boolean(helped)]).toEqual([field.name, true]);
			for (const option of field.options ?? []) expect([field.name, 'name' in option && option.name.trim() !== '']).toEqual([field.name, true]);
		}
	});

	it('the API key is required and masked; the Base URL shows its default as the placeholder', () => {
		const byName = new Map(fields.map((field) => [field.name, field]));
		expect(byName.get('apiKey')).toMatchObject({ required: true, typeOptions: { password: true } });
		expect(byName.get('baseUrl')).toMatchObject({ default: 'https://api.epigos.ai', placeholder: 'https://api.epigos.ai' });
	});

	it('its light and dark icons are SVG files beside the node, and its documentation link is a web address', () => {
		const icon = credential.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			expect(file).toMatch(/^file:.+\.svg$/);
			const onDisk = path.resolve(__dirname, '../../credentials', file.slice('file:'.length));
			expect(fs.readFileSync(onDisk, 'utf8')).toMatch(/^\s*<svg[\s>]/);
		}
		expect(icon.light).not.toBe(icon.dark);
		expect(new URL(credential.documentationUrl ?? '').protocol).toBe('https:');
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
 * The credential test as n8n runs it (runRequestTest in packages/cli/src/services/
 * credentials-tester.service.ts: n8n-core's RoutingNode hands every field of the test request to
 * httpRequestWithAuthentication with returnFullResponse): the test request (its base URL
 * expression resolved) authenticated by the credential and sent with the harness's n8n request
 * helper (its empty body not sent; `Accept: application/json`; redirects as axios follows them
 * unless `disableFollowRedirect`; a body that is not JSON kept as its text, axios's silent JSON
 * parsing); a status outside 2xx an error unless `ignoreHttpStatusErrors`; otherwise the
 * `responseSuccessBody` rules in order, the first with `get(body, key) === value` failing the
 * test with its message.
 */
async function runCredentialTest(credentials: { baseUrl: string; apiKey: string; sendAs: string }) {
	const test = credential.test.request;
	const options = await credential.authenticate(credentials, { ...test, baseURL: resolveBaseUrl(credentials.baseUrl), returnFullResponse: true } as IHttpRequestOptions);
	const response = (await httpRequestAsN8n(options)) as { body: unknown; statusCode: number };
	const body = response.body;
	if (!test.ignoreHttpStatusErrors && (response.statusCode < 200 || response.statusCode > 299)) {
		return { status: 'Error', message: `Received HTTP status code: ${response.statusCode}`, httpStatus: response.statusCode };
	}
	// lodash's get for a key of one segment (a page's text has no `message`)
	const get = (value: unknown, key: string) => (value === null || value === undefined ? undefined : (Object(value) as Record<string, unknown>)[key]);
	for (const rule of credential.test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(body, rule.properties.key) === rule.properties.value) {
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

const BAD_KEY = 'Invalid or missing credentials: check the API key and Send API Key As';
const NOT_THE_SERVICE_MESSAGE = 'This Base URL did not answer like the image inference service: check it (e.g. https://api.epigos.ai)';

describe('credential test against the reference server', () => {
	const { server } = useServer({ apiKey: 'credential-test-key', defaultModels: 'synthetic' });

	it.each(['header', 'query'])('a good key sent as %s passes: the nil model answers 400 (no image) with a message', async (sendAs) => {
		const result = await runCredentialTest({ baseUrl: server().url, apiKey: server().apiKey, sendAs });
		expect(result).toEqual({ status: 'OK', httpStatus: 400 });
		expect(server().requests.map((r) => [r.method, r.modelId, r.status])).toEqual([['POST', NIL_UUID, 400]]);
	});

	it.each(['header', 'query'])('a bad key sent as %s fails with "Invalid or missing credentials"', async (sendAs) => {
		const result = await runCredentialTest({ baseUrl: `${server().url}/`, apiKey: 'not-the-key', sendAs });
		expect(result).toEqual({ status: 'Error', message: BAD_KEY, httpStatus: 401 });
	});

	it('a Base URL one folder off (every path 404 { detail: "Not Found" }, no message) fails as not the service', async () => {
		const result = await runCredentialTest({ baseUrl: `${server().url}/v1`, apiKey: server().apiKey, sendAs: 'header' });
		expect(result).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE, httpStatus: 404 });
	});
});

describe('credential test against a service that looks the model up before the body and answers 404 without a message', () => {
	const { server } = useServer({ defaultModels: 'synthetic' });

	it('a good key fails as not the service (the limit docs/compatibility.md names)', async () => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 404, body: { detail: 'Not Found' } } });
		const result = await runCredentialTest({ baseUrl: server().url, apiKey: server().apiKey, sendAs: 'header' });
		expect(result).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE, httpStatus: 404 });
		expect(server().requests.map((r) => [r.method, r.modelId, r.status])).toEqual([['POST', NIL_UUID, 404]]);
	});
});

describe('credential test against a Base URL that is not the service', () => {
	let stand: Awaited<ReturnType<typeof startNotTheService>>;
	beforeAll(async () => {
		stand = await startNotTheService();
	});
	afterAll(async () => {
		await stand?.close();
	});
	beforeEach(() => stand.requests.splice(0));
	const testAgainst = async (kind: NotTheServiceKind) => await runCredentialTest({ baseUrl: stand.baseUrl(kind), apiKey: 'any-key', sendAs: 'header' });

	it.each<[NotTheServiceKind, number]>([
		['htmlPage', 200],
		['jsonWithoutMessage', 200],
		['proxyForbidden', 403],
	])('%s (HTTP %i) fails: "This Base URL did not answer like the image inference service"', async (kind, status) => {
		expect(await testAgainst(kind)).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE, httpStatus: status });
		expect(stand.requests).toEqual([{ method: 'POST', path: `/${NOT_THE_SERVICE[kind]}/predict/detect/${NIL_UUID}/` }]);
	});

	it('a redirect (to an HTML page) fails the same, the redirect not followed', async () => {
		expect(await testAgainst('redirectToPage')).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE, httpStatus: 302 });
		expect(stand.requests).toEqual([{ method: 'POST', path: `/${NOT_THE_SERVICE.redirectToPage}/predict/detect/${NIL_UUID}/` }]);
	});

	it.each<NotTheServiceKind>(['unauthorizedMessageOnly', 'unauthorizedCodeOnly'])('a 401 with one field of the documented body (%s) fails as a bad key', async (kind) => {
		expect(await testAgainst(kind)).toEqual({ status: 'Error', message: BAD_KEY, httpStatus: 401 });
	});

	it('a 404 whose body has a message (a model not found) passes: the key was taken', async () => {
		expect(await testAgainst('notFoundWithMessage')).toEqual({ status: 'OK', httpStatus: 404 });
	});
});

describe('credential test against a Base URL that redirects', () => {
	const { server } = useServer({ apiKey: 'credential-test-redirect-key', defaultModels: 'synthetic' });
	let other: Awaited<ReturnType<typeof startNotTheService>>;
	beforeAll(async () => {
		other = await startNotTheService();
	});
	afterAll(async () => {
		await other?.close();
	});
	beforeEach(() => other.heard.splice(0));

	it.each(['header', 'query'] as const)('with the key sent as %s, a 307 to another origin is not followed: nothing reaches it, and the test fails as a wrong Base URL', async (sendAs) => {
		// in query mode the Location keeps the query, key and all
		const location = `${other.origin}/moved/predict/detect/${NIL_UUID}/${sendAs === 'query' ? `?api-key=${server().apiKey}` : ''}`;
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 307, headers: { location } } });
		const result = await runCredentialTest({ baseUrl: server().url, apiKey: server().apiKey, sendAs });
		expect(other.heard.filter((request) => JSON.stringify(request).includes(server().apiKey))).toEqual([]);
		expect(other.heard).toEqual([]);
		expect(result).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE, httpStatus: 307 });
	});
});
