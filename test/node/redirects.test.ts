/**
 * Redirects: no call follows one. The reference server answers a call with a 3xx whose Location
 * points at another loopback server (another origin, as another host is), which records every
 * request whole. The harness follows redirects as n8n's request helper does unless the request
 * says `disableFollowRedirect`, so these tests fail if the node ever lets one be followed: the key
 * (header or query, a Location that keeps the query) would reach the other origin, and a storage
 * 303 would turn the PUT into a GET.
 */
import type { FaultCall } from '../reference-server';
import { startNotTheService } from '../harness/notTheService';
import { CAR, carItem, classifyParameters, detectParameters, DOG, failureOf, useServer } from './setup';

const KEY = 'sk-live-R3d1rect-Q7vW';
const PROJECT_ID = '6a1f0c3e-2b4d-4f5a-9e8c-7d6b5a4c3e2f';

/** The advice for a redirect to another host: that host is not to be typed in unless it is the service's. */
const describeElsewhere = (baseUrl: string, origin: string) =>
	`The node does not follow redirects, so the API key goes nowhere but the Base URL (${baseUrl}). Set the Base URL in the "Image Inference API" credential to ${origin} only if ${origin} is the service’s own address; a login page or proxy there means something between n8n and the service redirects (ask whoever runs your network). The key was not sent there.`;

describe('no call follows a redirect', () => {
	const { server, run } = useServer({ apiKey: KEY, defaultModels: 'synthetic' });
	let other: Awaited<ReturnType<typeof startNotTheService>>;
	beforeAll(async () => {
		other = await startNotTheService();
		server().addProject('object_detection', { id: PROJECT_ID });
	});
	afterAll(async () => {
		await other?.close();
	});
	beforeEach(() => {
		other.requests.splice(0);
		other.heard.splice(0);
		server().storage.requests.splice(0);
	});

	/** Where the service's redirect points: another origin; in query mode the Location keeps the query, key and all. */
	const elsewhere = (sendAs: 'header' | 'query') => `${other.origin}/moved/here${sendAs === 'query' ? `?api-key=${KEY}` : ''}`;
	const redirectTo = (location: string, status = 307) => ({ type: 'status' as const, status, headers: { location } });
	/** What reached the other origin carrying the key, in a header or the query. */
	const keyElsewhere = () => other.heard.filter((request) => JSON.stringify(request).includes(KEY));

	describe.each(['header', 'query'] as const)('the key sent as %s', (sendAs) => {
		it.each([
			['Detect Objects', 'detect'],
			['Classify Image', 'classify'],
		] as const)('%s: a 307 to another origin fails the item naming that origin; nothing reaches it', async (_, kind) => {
			server().addFault({ match: { kind }, action: redirectTo(elsewhere(sendAs)) });
			const parameters = (kind === 'detect' ? detectParameters : classifyParameters)(server());
			const failure = await failureOf(run(parameters, [carItem()], { credentials: { sendAs } }));
			expect(keyElsewhere()).toEqual([]);
			expect(other.heard).toEqual([]);
			expect(failure).toEqual({
				message: `The service answered with a redirect (307 Temporary Redirect) to ${other.origin}`,
				description: describeElsewhere(server().url, other.origin),
				itemIndex: 0,
				httpCode: '307',
			});
			// asked once: a redirect is not retried (Retries is 3 by default)
			expect(server().requests).toHaveLength(1);
		});

		it.each<FaultCall>(['project', 'batch', 'upload', 'record', 'labels', 'annotations'])('Upload to Project, the %s call: a 307 to another origin fails the item naming it; nothing reaches it', async (call) => {
			server().addFault({ match: { call }, action: redirectTo(elsewhere(sendAs)) });
			const boxes = { annotationSource: 'detections', detections: () => [{ label: `car-${call}-${sendAs}`, x: 10, y: 20, width: 30, height: 40 }] };
			const failure = await failureOf(run(uploadParameters(boxes), [photo()], { credentials: { sendAs } }));
			expect(keyElsewhere()).toEqual([]);
			expect(other.heard).toEqual([]);
			expect(failure.message).toMatch(new RegExp(`(^|: )The service answered with a redirect \\(307 Temporary Redirect\\) to ${escape(other.origin)}$`));
			expect(failure.description).toContain(describeElsewhere(server().url, other.origin));
			expect(server().requests.filter((request) => request.status === 307)).toHaveLength(1);
		});
	});

	it.each([301, 302, 303, 308])('a %i to another origin is not followed either', async (status) => {
		server().addFault({ match: { kind: 'detect' }, action: redirectTo(elsewhere('header'), status) });
		const failure = await failureOf(run(detectParameters(server()), [carItem()]));
		expect(other.heard).toEqual([]);
		expect(failure.message).toMatch(new RegExp(`^The service answered with a redirect \\(${status} [A-Za-z ]+\\) to ${escape(other.origin)}$`));
	});

	it('a redirect to another path of the service is not followed: it names the service’s origin and the path, and points at the Base URL’s path', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: redirectTo(`/v2/predict/detect/${server().models.detect}/?api-key=${KEY}&v=2`, 308) });
		const failure = await failureOf(run(detectParameters(server()), [carItem()]));
		expect(failure.message).toBe(`The service answered with a redirect (308 Permanent Redirect) to another address on ${server().url}`);
		expect(failure.description).toBe(
			`The node does not follow redirects, so the API key goes nowhere but the Base URL (${server().url}). Check the path of the Base URL in the "Image Inference API" credential: the service pointed to /v2/predict/detect/${server().models.detect}/; the Base URL is the service’s address without /predict or /projects (for example https://api.epigos.ai).`,
		);
		expect(server().requests.map((request) => request.path)).toEqual([`/predict/detect/${server().models.detect}/`]);
	});

	it.each([
		[300, 'with a redirect (300 Multiple Choices) without saying where to'],
		[399, 'with a redirect (399 Redirect) without saying where to'],
		[304, '304 Not Modified, without a result'],
	])('every 3xx but 304 is a redirect, %i too; a 3xx without a Location says so, a 304 says what it is', async (status, what) => {
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status } });
		const failure = await failureOf(run(detectParameters(server()), [carItem()]));
		expect(failure.message).toBe(`The service answered ${what}`);
		expect(server().requests).toHaveLength(1);
	});

	it.each(['header', 'query'] as const)('the key as a Location’s host name (lowercased by URL parsing) is not shown either (key sent as %s)', async (sendAs) => {
		server().addFault({ match: { kind: 'detect' }, action: redirectTo(`http://${KEY}.example.com/x`) });
		const failure = await failureOf(run(detectParameters(server()), [carItem()], { credentials: { sendAs } }));
		expect(failure.message).toBe('The service answered with a redirect (307 Temporary Redirect) to http://***.example.com');
		expect(failure.description).toBe(describeElsewhere(server().url, 'http://***.example.com'));
	});

	it('a path on the service’s origin that carries the key is named without it', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: redirectTo(`/keys/${KEY}/predict/?api-key=${KEY}`, 308) });
		const failure = await failureOf(run(detectParameters(server()), [carItem()], { credentials: { sendAs: 'query' } }));
		expect(failure.description).toContain('the service pointed to /keys/***/predict/;');
		expect(JSON.stringify(failure).toLowerCase()).not.toContain(KEY.toLowerCase());
	});

	it('a redirect whose body stalls is reported once its status and headers are in, not waited for and not retried', async () => {
		server().addFault({
			match: { kind: 'detect' },
			times: 1,
			action: { type: 'status', status: 307, headers: { location: elsewhere('header') }, body: '<html><body>Moved</body></html>', inTwoPiecesMs: 2500 },
		});
		const started = Date.now();
		const failure = await failureOf(run(detectParameters(server(), { options: { timeout: 1000, retries: 1 } }), [carItem()]));
		// well before the Timeout (1000 ms), which waiting for the body would run into
		expect(Date.now() - started).toBeLessThan(1000);
		expect(failure.message).toBe(`The service answered with a redirect (307 Temporary Redirect) to ${other.origin}`);
		expect(server().requests).toHaveLength(1);
		expect(other.heard).toEqual([]);
		// the redirect's connection is let go, not left open until its body's second piece (2500 ms)
		await new Promise((resolve) => setTimeout(resolve, 200));
		await run(detectParameters(server()), [carItem()]);
		expect(server().requests.map((request) => [request.status, request.openOnArrival])).toEqual([
			[307, 1],
			[200, 1],
		]);
	});

	it('the 2xx and 4xx next to the 3xx are not redirects', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: 'no', details: [] } } });
		expect((await failureOf(run(detectParameters(server()), [carItem()]))).message).toBe('The service rejected the request (400 Bad Request): no');
		server().addFault({ match: { kind: 'detect' }, times: 1, action: { type: 'status', status: 299, body: { detections: [], labelsCount: [] } } });
		const { items } = await run(detectParameters(server()), [carItem()]);
		expect(items[0].json).toMatchObject({ detections: [] });
	});

	describe('the storage PUT (sent without the key)', () => {
		it.each([
			[303, 'See Other'],
			[307, 'Temporary Redirect'],
		])('a %i is a failure of that step: nothing fetched or sent elsewhere, no record created', async (status, name) => {
			// the other origin answers any GET or PUT there with 200: followed, the "upload" would succeed
			server().addFault({ match: { call: 'storage' }, times: 1, action: redirectTo(`${other.baseUrl('htmlPage')}/bucket/car.jpg`, status) });
			const recordsBefore = server().projects(PROJECT_ID)!.records.length;
			const failure = await failureOf(run(uploadParameters(), [photo()]));
			expect(other.heard).toEqual([]);
			expect(failure.message).toBe(`The image could not be put into the project’s storage: The storage answered with a redirect (${status} ${name}) to ${other.origin}`);
			expect(failure.description).toContain(
				'The file was not stored: the node does not follow a redirect of the storage (after a 303 the upload would become a download). Run the item again; the credential is not the cause, as the file goes to storage without it.',
			);
			expect(server().requests.filter((request) => request.path.endsWith('/datasets/records/'))).toEqual([]);
			expect(server().projects(PROJECT_ID)!.records).toHaveLength(recordsBefore);
			expect(server().storage.requests.map((request) => [request.method, request.status])).toEqual([['PUT', status]]);
		});

		it.each([
			[400, 'Bad Request', '<Error><Code>RequestTimeout</Code><Message>Your socket connection to the server was not read from or written to within the timeout period.</Message></Error>', 'The file was not stored. Run the item again: the storage URL the service handed out may have expired, and the item asks for a new one when it runs again; the credential is not the cause, as the file goes to storage without it.'],
			[403, 'Forbidden', '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', 'The storage URL the service handed out was not accepted (it may have expired). Run the item again; the credential is not the cause, as the file goes to storage without it.'],
		])('a storage %i is the storage’s refusal, with storage advice, not the service’s', async (status, name, xml, advice) => {
			server().addFault({ match: { call: 'storage' }, times: 1, action: { type: 'status', status, body: xml } });
			const failure = await failureOf(run(uploadParameters(), [photo()]));
			expect(failure.message).toBe(`The image could not be put into the project’s storage: The storage refused the file (${status} ${name})`);
			expect(failure.description).toContain(`${advice} The storage said: ${xml}`);
			expect(failure.description).not.toContain('Check the image and the options of this item.');
		});

		it('a storage that refuses the connection is named as the storage, not as the credential’s Base URL', async () => {
			const closed = await startNotTheService();
			const refusing = closed.origin;
			await closed.close();
			server().addFault({ match: { call: 'upload' }, times: 1, action: { type: 'status', status: 201, body: { uploadUrl: `${refusing}/bucket/car.jpg`, uri: 's3://reference-bucket/car.jpg' } } });
			const failure = await failureOf(run(uploadParameters({ options: { retries: 0 } }), [photo()]));
			expect(failure.message).toBe(`The image could not be put into the project’s storage: Could not connect to the storage at ${refusing}: connection refused`);
			expect(failure.description).toContain(
				'The storage URL the service handed out could not be reached from n8n (ECONNREFUSED). Try again later; the credential is not the cause, as the file goes to storage without it.',
			);
			expect(failure.description).not.toContain('Base URL');
		});
	});

	it('a redirect on one item fails that item only', async () => {
		server().addFault({ match: { kind: 'detect' }, times: 1, action: redirectTo(elsewhere('header')) });
		const { items } = await run(detectParameters(server(), { options: { concurrency: 1 } }), [carItem(), { binary: { data: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } }], { continueOnFail: true });
		expect(items.map((item) => (item.json.error as { message?: string } | undefined)?.message ?? 'ok')).toEqual([
			`The service answered with a redirect (307 Temporary Redirect) to ${other.origin}`,
			'ok',
		]);
		expect(other.heard).toEqual([]);
	});

	const uploadParameters = (extra: Record<string, unknown> = {}) => ({
		operation: 'uploadToProject',
		project: { mode: 'id', value: PROJECT_ID },
		imageSource: 'binary',
		binaryPropertyName: 'data',
		batchName: 'from n8n',
		annotationSource: 'none',
		options: {},
		...extra,
	});
	const photo = () => ({ binary: { data: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

