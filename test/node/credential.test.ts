import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { ImageInferenceApi } from '../../credentials/ImageInferenceApi.credentials';
import { NIL_UUID } from '../../nodes/ImageInference/contract';
import { runCredentialTest } from '../harness/credentialTest';
import type { LoopbackServer } from '../harness/loopback';
import { listenOnLoopback } from '../harness/loopback';
import { useServer } from './setup';

const credential = new ImageInferenceApi();

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

	it('does not change the request it was given', async () => {
		const before = JSON.stringify(base);
		await credential.authenticate({ apiKey: 'k', sendAs: 'query' }, base);
		await credential.authenticate({ apiKey: 'k', sendAs: 'header' }, base);
		expect(JSON.stringify(base)).toBe(before);
	});
});

describe('credential test against the reference server', () => {
	const { server } = useServer({ apiKey: 'credential-test-key', defaultModels: 'synthetic' });

	it.each(['header', 'query'] as const)('a good key sent as %s passes', async (sendAs) => {
		const result = await runCredentialTest({ baseUrl: ` ${server().url}/ `, apiKey: server().apiKey, sendAs });
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(new RegExp(`^Connection successful: ${server().url} accepted the API key \\(a test call answered 40[04]`));
		expect(server().requests).toHaveLength(1);
		expect(server().requests[0]).toMatchObject({ method: 'POST', kind: 'detect', modelId: NIL_UUID });
		if (sendAs === 'query') expect(server().requests[0].query).toMatchObject({ 'api-key': server().apiKey });
		else expect(server().requests[0].headers['x-api-key']).toBe(server().apiKey);
	});

	it.each(['header', 'query'] as const)('a bad key sent as %s fails with "Invalid or missing credentials", naming the Base URL', async (sendAs) => {
		const result = await runCredentialTest({ baseUrl: `${server().url}/`, apiKey: 'not-the-key', sendAs });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(new RegExp(`^Invalid or missing credentials: ${server().url} refused the API key \\(401`));
		expect(result.message).not.toContain('not-the-key');
	});
});

/** A stand-in for a wrong Base URL: answers every request with one canned answer, and records what it got. */
interface StandIn {
	url: string;
	received: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }>;
}

function useStandIn(answer: { status: number; headers?: Record<string, string>; body?: string }): () => StandIn {
	let loopback: LoopbackServer | undefined;
	const received: StandIn['received'] = [];
	beforeAll(async () => {
		loopback = await listenOnLoopback(
			createServer((request, response) => {
				let body = '';
				request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
				request.on('end', () => {
					received.push({ method: request.method, url: request.url, headers: request.headers, body });
					response.writeHead(answer.status, answer.headers);
					response.end(answer.body ?? '');
				});
			}),
		);
	});
	afterAll(async () => await loopback?.close());
	beforeEach(() => received.splice(0));
	return () => ({ url: loopback!.url, received });
}

const HTML = { 'content-type': 'text/html' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('credential test against servers that are not the service: fails, naming the Base URL and what came back', () => {
	const cases: Array<{ name: string; answer: { status: number; headers?: Record<string, string>; body?: string }; says: RegExp }> = [
		{
			name: 'a 404 HTML page (a wrong path on a web server)',
			answer: { status: 404, headers: HTML, body: '<!DOCTYPE html><html><head><title>Page not found</title></head><body>Nope</body></html>' },
			says: /answered 404 Not Found with an HTML page titled "Page not found"/,
		},
		{
			name: 'a 200 body that is not JSON',
			answer: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'Welcome to nginx' },
			says: /answered 200 OK with a body that is not JSON: Welcome to nginx/,
		},
		{
			name: 'a 302 redirect',
			answer: { status: 302, headers: { location: 'https://login.example.test/sso' } },
			says: /answered 302 Found, a redirect to https:\/\/login\.example\.test\/sso\. Check the Base URL/,
		},
		{
			name: 'a 2xx JSON answer',
			answer: { status: 200, headers: JSON_TYPE, body: '{"ok":true}' },
			says: /answered 200 OK with JSON: \{"ok":true\}\. The service never accepts a call without an image/,
		},
		{
			name: 'a 201 with an empty body',
			answer: { status: 201 },
			says: /answered 201 Created with an empty body/,
		},
		{
			name: 'a gateway’s 403',
			answer: { status: 403, headers: JSON_TYPE, body: '{"message":"Forbidden"}' },
			says: /answered 403 Forbidden with JSON: \{"message":"Forbidden"\}\. Something on the way/,
		},
		{
			name: 'a 400 that is not JSON',
			answer: { status: 400, headers: HTML, body: '<html><head><title>400 Bad Request</title></head><body><center><h1>400 Bad Request</h1></center><hr><center>nginx</center></body></html>' },
			says: /answered 400 Bad Request with an HTML page titled "400 Bad Request"/,
		},
		{
			name: 'a 503 (down for maintenance)',
			answer: { status: 503, headers: HTML, body: '<html><title>Maintenance</title></html>' },
			says: /answered 503 Service Unavailable with an HTML page titled "Maintenance"\. The service may be overloaded or down/,
		},
	];

	describe.each(cases)('$name', ({ answer, says }) => {
		const standIn = useStandIn(answer);

		it('fails with a message that names the Base URL and the answer', async () => {
			const result = await runCredentialTest({ baseUrl: standIn().url, apiKey: 'a-key-1234', sendAs: 'header' });
			expect(result.status).toBe('Error');
			expect(result.message.startsWith(`${standIn().url} did not answer as the prediction API does: it answered `)).toBe(true);
			expect(result.message).toMatch(says);
			expect(standIn().received).toHaveLength(1);
			expect(standIn().received[0]).toMatchObject({ method: 'POST', url: `/predict/detect/${NIL_UUID}/`, body: '{}' });
			expect(standIn().received[0].headers['x-api-key']).toBe('a-key-1234');
		});
	});

	describe('a redirect that echoes the key sent as a query parameter', () => {
		const standIn = useStandIn({ status: 301, headers: { location: '/v2/predict?api-key=secret-key-5678' } });

		it('fails without the key in the message', async () => {
			const result = await runCredentialTest({ baseUrl: standIn().url, apiKey: 'secret-key-5678', sendAs: 'query' });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answered 301 Moved Permanently, a redirect to \/v2\/predict\?api-key=\*\*\*/);
			expect(result.message).not.toContain('secret-key-5678');
			expect(standIn().received[0].url).toBe(`/predict/detect/${NIL_UUID}/?api-key=secret-key-5678`);
		});
	});

	it('a Base URL where nothing listens: "Could not reach", naming it', async () => {
		const closed = await listenOnLoopback(createServer());
		await closed.close();
		const result = await runCredentialTest({ baseUrl: closed.url, apiKey: 'k-1234' });
		expect(result).toEqual({ status: 'Error', message: `Could not reach ${closed.url}: connection refused. Check the Base URL and that n8n can reach it.` });
	});
});

describe('credential test: what the service may answer with a valid key passes, read leniently', () => {
	const cases: Array<{ name: string; answer: { status: number; headers?: Record<string, string>; body?: string } }> = [
		{ name: 'the contract’s 400 error body', answer: { status: 400, headers: JSON_TYPE, body: '{"type":"error","code":"bad_request","status":400,"message":"image: field required","details":[{"location":"body","type":"value_error.missing","pointer":"/image","message":"field required"}]}' } },
		{ name: 'a 400 as the SDKs’ tests mock it', answer: { status: 400, headers: JSON_TYPE, body: '{"message":"validation error","details":[]}' } },
		{ name: 'a 404 with a JSON body (the contract does not show it)', answer: { status: 404, headers: JSON_TYPE, body: '{"detail":"Not Found"}' } },
		{ name: 'a 422 with a JSON body', answer: { status: 422, headers: JSON_TYPE, body: '{"detail":[{"loc":["body","image"],"msg":"field required"}]}' } },
	];

	describe.each(cases)('$name', ({ answer }) => {
		const standIn = useStandIn(answer);

		it('passes', async () => {
			const result = await runCredentialTest({ baseUrl: standIn().url, apiKey: 'a-key-1234' });
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(new RegExp(`^Connection successful: ${standIn().url} accepted the API key \\(a test call answered ${answer.status} because`));
		});
	});
});

describe('credential test: n8n finds the node’s test function', () => {
	it('the credential has no declarative test (n8n would run it instead of the node’s)', () => {
		expect('test' in new ImageInferenceApi()).toBe(false);
	});
});
