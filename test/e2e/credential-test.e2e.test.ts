/**
 * The credential's Test button in real n8n: `POST /rest/credentials/test`, which runs the node's
 * credential test function (n8n's CredentialsTester, `testedBy`). It passes against the reference
 * server with the right key, and fails, naming the Base URL and what came back, against a wrong
 * Base URL that answers a 404 HTML page; a wrong key fails as "Invalid or missing credentials".
 */
import { createServer } from 'node:http';

import { listenOnLoopback, type LoopbackServer } from '../harness/loopback';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { CREDENTIAL_TYPE, createN8nHome, e2eVersions, imageInferenceCredential, RestClient, type N8nHome } from './lib';

const NOT_FOUND_PAGE = '<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>404</h1></body></html>';

describe.each(e2eVersions())('the credential test in real n8n %s', (version) => {
	let server: ReferenceServer;
	let webSite: LoopbackServer;
	let home: N8nHome;
	let rest: RestClient;
	let stop: () => Promise<void>;
	const credentials = {
		good: { id: 'credTestGood0001', data: () => ({ baseUrl: server.url, apiKey: server.apiKey, sendAs: 'query' as const }) },
		badKey: { id: 'credTestBadKey01', data: () => ({ baseUrl: server.url, apiKey: 'not-the-key', sendAs: 'header' as const }) },
		webSite: { id: 'credTestWebSite1', data: () => ({ baseUrl: `${webSite.url}/`, apiKey: server.apiKey, sendAs: 'header' as const }) },
	};
	const test = async (which: keyof typeof credentials) => {
		const { id, data } = credentials[which];
		return await rest.testCredential({ id, name: `Image Inference ${id}`, type: CREDENTIAL_TYPE, data: data() });
	};

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
		webSite = await listenOnLoopback(
			createServer((_, response) => {
				response.writeHead(404, { 'content-type': 'text/html' });
				response.end(NOT_FOUND_PAGE);
			}),
		);
		home = await createN8nHome({ version });
		// n8n 2.x tests a stored credential (the request's data is merged over it)
		await home.importCredentials(Object.values(credentials).map(({ id, data }) => imageInferenceCredential(id, data())));
		const started = await home.start();
		stop = started.stop;
		rest = await RestClient.setupOwner(started.url);
	});
	afterAll(async () => {
		await stop?.();
		await home?.dispose();
		await webSite?.close();
		await server?.close();
	});

	it('passes for the right key (sent as a query parameter): the service answered the nil model', async () => {
		server.requests.splice(0);
		const result = await test('good');
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^Connection successful: http:\/\/127\.0\.0\.1:\d+ accepted the API key/);
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]).toMatchObject({ method: 'POST', kind: 'detect', modelId: '00000000-0000-0000-0000-000000000000' });
	});

	it('fails for a wrong key: "Invalid or missing credentials"', async () => {
		const result = await test('badKey');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Invalid or missing credentials: http:\/\/127\.0\.0\.1:\d+ refused the API key \(401/);
	});

	it('fails for a Base URL that answers a 404 HTML page, naming it and the page', async () => {
		const result = await test('webSite');
		expect(result).toEqual({
			status: 'Error',
			message: `${webSite.url} did not answer as the prediction API does: it answered 404 Not Found with an HTML page titled "Page not found". The service answers in JSON: check the Base URL (it should be the API address, for example https://api.epigos.ai).`,
		});
	});
});
