/**
 * The credential's Test button in real n8n: `POST /rest/credentials/test`, which runs the
 * credential's declarative test (n8n's CredentialsTester, its Base URL expression evaluated by
 * n8n). It passes against the reference server with the right key and fails with a wrong key.
 * What it cannot tell (a wrong Base URL that answers a 404 page): docs/compatibility.md.
 */
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { CREDENTIAL_TYPE, createN8nHome, e2eVersions, imageInferenceCredential, RestClient, type N8nHome } from './lib';

describe.each(e2eVersions())('the credential test in real n8n %s', (version) => {
	let server: ReferenceServer;
	let home: N8nHome;
	let rest: RestClient;
	let stop: () => Promise<void>;
	const credentials = {
		good: { id: 'credTestGood0001', data: () => ({ baseUrl: server.url, apiKey: server.apiKey, sendAs: 'query' as const }) },
		badKey: { id: 'credTestBadKey01', data: () => ({ baseUrl: server.url, apiKey: 'not-the-key', sendAs: 'header' as const }) },
	};
	const test = async (which: keyof typeof credentials) => {
		const { id, data } = credentials[which];
		return await rest.testCredential({ id, name: `Image Inference ${id}`, type: CREDENTIAL_TYPE, data: data() });
	};

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
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
		await server?.close();
	});

	it('passes for the right key (sent as a query parameter): the service answered the nil model', async () => {
		server.requests.splice(0);
		const result = await test('good');
		expect(result.status).toBe('OK');
		expect(result.message).toBe('Connection successful!');
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]).toMatchObject({ method: 'POST', kind: 'detect', modelId: '00000000-0000-0000-0000-000000000000' });
	});

	it('fails for a wrong key: "Invalid or missing credentials"', async () => {
		const result = await test('badKey');
		expect(result.status).toBe('Error');
		expect(result.message).toBe('Invalid or missing credentials: check the API key and Send API Key As');
	});
});
