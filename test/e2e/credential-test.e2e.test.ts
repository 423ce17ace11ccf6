/**
 * The credential's Test button in real n8n: `POST /rest/credentials/test`, which runs the
 * credential's declarative test (n8n's CredentialsTester, its Base URL expression evaluated by
 * n8n). It passes against the reference server with the right key, fails with a wrong key, and
 * fails with its own message for a Base URL that answers as the service does not (a page, a
 * redirect, never followed, JSON without `message`, a proxy's 403 page). What it cannot tell (a
 * server answering JSON with a `message`): docs/compatibility.md.
 */
import { NIL_UUID } from '../../nodes/ImageInference/contract';
import { NOT_THE_SERVICE, startNotTheService, type NotTheServiceKind } from '../harness/notTheService';
import { startReferenceServer, type ReferenceServer } from '../reference-server';
import { CREDENTIAL_TYPE, createN8nHome, e2eVersions, imageInferenceCredential, RestClient, type N8nHome } from './lib';

const BAD_KEY = 'Invalid or missing credentials: check the API key and Send API Key As';
const NOT_THE_SERVICE_MESSAGE = 'This Base URL did not answer like the image inference service: check it (e.g. https://api.epigos.ai)';

describe.each(e2eVersions())('the credential test in real n8n %s', (version) => {
	let server: ReferenceServer;
	let stand: Awaited<ReturnType<typeof startNotTheService>>;
	let home: N8nHome;
	let rest: RestClient;
	let stop: () => Promise<void>;
	const standIn = (kind: NotTheServiceKind) => () => ({ baseUrl: stand.baseUrl(kind), apiKey: 'any-key', sendAs: 'header' as const });
	const credentials = {
		good: { id: 'credTestGood0001', data: () => ({ baseUrl: server.url, apiKey: server.apiKey, sendAs: 'query' as const }) },
		badKey: { id: 'credTestBadKey01', data: () => ({ baseUrl: server.url, apiKey: 'not-the-key', sendAs: 'header' as const }) },
		folderOff: { id: 'credTestFolder01', data: () => ({ baseUrl: `${server.url}/v1`, apiKey: server.apiKey, sendAs: 'header' as const }) },
		htmlPage: { id: 'credTestHtml0001', data: standIn('htmlPage') },
		redirectToPage: { id: 'credTestRedirect', data: standIn('redirectToPage') },
		jsonWithoutMessage: { id: 'credTestJson0001', data: standIn('jsonWithoutMessage') },
		proxyForbidden: { id: 'credTestProxy001', data: standIn('proxyForbidden') },
		unauthorizedMessageOnly: { id: 'credTest401Msg01', data: standIn('unauthorizedMessageOnly') },
		unauthorizedCodeOnly: { id: 'credTest401Code1', data: standIn('unauthorizedCodeOnly') },
		notFoundWithMessage: { id: 'credTest404Msg01', data: standIn('notFoundWithMessage') },
	};
	const test = async (which: keyof typeof credentials) => {
		const { id, data } = credentials[which];
		return await rest.testCredential({ id, name: `Image Inference ${id}`, type: CREDENTIAL_TYPE, data: data() });
	};
	const asked = (kind: NotTheServiceKind) => ({ method: 'POST', path: `/${NOT_THE_SERVICE[kind]}/predict/detect/${NIL_UUID}/` });

	beforeAll(async () => {
		server = await startReferenceServer({ defaultModels: 'synthetic' });
		stand = await startNotTheService();
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
		await stand?.close();
	});
	beforeEach(() => {
		server.requests.splice(0);
		stand.requests.splice(0);
		stand.heard.splice(0);
		server.clearFaults();
	});

	it('passes for the right key (sent as a query parameter): the service answered the nil model 400 (no image)', async () => {
		const result = await test('good');
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests.map(({ method, kind, modelId, status }) => ({ method, kind, modelId, status }))).toEqual([
			{ method: 'POST', kind: 'detect', modelId: NIL_UUID, status: 400 },
		]);
	});

	it('fails for a wrong key: "Invalid or missing credentials"', async () => {
		expect(await test('badKey')).toEqual({ status: 'Error', message: BAD_KEY });
		expect(server.requests.map(({ status }) => status)).toEqual([401]);
	});

	it.each(['unauthorizedMessageOnly', 'unauthorizedCodeOnly'] as const)('fails as a wrong key for a 401 with one field of the documented body (%s)', async (kind) => {
		expect(await test(kind)).toEqual({ status: 'Error', message: BAD_KEY });
		expect(stand.requests).toEqual([asked(kind)]);
	});

	it('passes for a 404 whose body has a message (the key taken, the model not found)', async () => {
		expect(await test('notFoundWithMessage')).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(stand.requests).toEqual([asked('notFoundWithMessage')]);
	});

	it.each(['htmlPage', 'jsonWithoutMessage', 'proxyForbidden'] as const)(
		'fails for a Base URL that answers %s: "This Base URL did not answer like the image inference service"',
		async (kind) => {
			expect(await test(kind)).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE });
			expect(stand.requests).toEqual([asked(kind)]);
		},
	);

	it('fails the same for a Base URL that redirects (to an HTML page), the redirect not followed', async () => {
		expect(await test('redirectToPage')).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE });
		expect(stand.requests).toEqual([asked('redirectToPage')]);
	});

	it('does not take the key along a 307 to another origin, even one whose Location keeps the query (key sent as a query parameter)', async () => {
		const location = `${stand.origin}/moved/predict/detect/${NIL_UUID}/?api-key=${server.apiKey}`;
		server.addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 307, headers: { location } } });
		expect(await test('good')).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE });
		expect(stand.heard).toEqual([]);
		expect(server.requests.map(({ status }) => status)).toEqual([307]);
	});

	it('fails the same for the service one folder off (its 404 { detail: "Not Found" } has no message)', async () => {
		expect(await test('folderOff')).toEqual({ status: 'Error', message: NOT_THE_SERVICE_MESSAGE });
		expect(server.requests.map(({ path, status }) => ({ path, status }))).toEqual([{ path: `/v1/predict/detect/${NIL_UUID}/`, status: 404 }]);
	});
});
