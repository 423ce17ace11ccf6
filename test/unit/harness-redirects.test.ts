/**
 * The harness's request helper follows redirects as n8n's does (axios with follow-redirects 1.x,
 * RedirectableRequest.prototype._processResponse), so a node test that lets a redirect be
 * followed sees what n8n would send. Two loopback servers: `first` answers with the redirect,
 * `second` (another port: another host to follow-redirects, another origin) records what came.
 */
import { createServer } from 'node:http';

import { httpRequestAsN8n } from '../harness/execute';
import { listenOnLoopback } from '../harness/loopback';

interface Came {
	method: string;
	pathAndQuery: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

async function recordingServer(answer: (came: Came) => { status: number; headers?: Record<string, string> }) {
	const came: Came[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const entry = { method: request.method ?? '', pathAndQuery: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
			came.push(entry);
			const { status, headers } = answer(entry);
			response.writeHead(status, { 'content-type': 'text/plain', ...headers });
			response.end(`${status}`);
		});
	});
	return { came, ...(await listenOnLoopback(server)) };
}

describe('the harness follows redirects as n8n’s request helper does', () => {
	let second: Awaited<ReturnType<typeof recordingServer>>;
	let first: Awaited<ReturnType<typeof recordingServer>>;
	/** What `first` answers next: a status and where to. */
	let redirect: { status: number; location: string } = { status: 307, location: '/' };
	beforeAll(async () => {
		second = await recordingServer(() => ({ status: 200 }));
		first = await recordingServer((came) => {
			if (came.pathAndQuery.startsWith('/loop')) return { status: 302, headers: { location: '/loop' } };
			if (came.pathAndQuery.startsWith('/dir/elsewhere')) return { status: 200 };
			return { status: redirect.status, headers: { location: redirect.location } };
		});
	});
	afterAll(async () => {
		await first?.close();
		await second?.close();
	});
	beforeEach(() => {
		first.came.splice(0);
		second.came.splice(0);
	});

	const headers = { 'X-API-Key': 'k-1', Authorization: 'Bearer t', Cookie: 'c=1', 'Content-Type': 'application/json' };
	const send = async (method: 'POST' | 'PUT' | 'GET', status: number, location: string, extra: object = {}) => {
		redirect = { status, location };
		return (await httpRequestAsN8n({ method, url: `${first.url}/start`, qs: { 'api-key': 'q-1' }, headers, body: method === 'GET' ? undefined : '{"a":1}', returnFullResponse: true, ignoreHttpStatusErrors: true, ...extra })) as {
			statusCode: number;
			headers: Record<string, string>;
		};
	};

	it.each([
		['POST', 301, 'GET', ''],
		['POST', 302, 'GET', ''],
		['POST', 303, 'GET', ''],
		['PUT', 303, 'GET', ''],
		['PUT', 301, 'PUT', '{"a":1}'],
		['PUT', 302, 'PUT', '{"a":1}'],
		['POST', 307, 'POST', '{"a":1}'],
		['PUT', 308, 'PUT', '{"a":1}'],
	] as const)('%s answered %i goes on as %s, body %j; to another host X-API-Key is kept, Authorization and Cookie dropped, the query as the Location gives it', async (method, status, followedAs, body) => {
		const answer = await send(method, status, `${second.url}/there?b=2`);
		expect(answer.statusCode).toBe(200);
		const [came] = second.came;
		expect(second.came).toHaveLength(1);
		expect([came.method, came.pathAndQuery, came.body]).toEqual([followedAs, '/there?b=2', body]);
		expect(came.headers['x-api-key']).toBe('k-1');
		expect([came.headers.authorization, came.headers.cookie]).toEqual([undefined, undefined]);
		expect(came.headers['content-type']).toBe(followedAs === 'GET' ? undefined : 'application/json');
	});

	it('a Location that keeps the query carries the api-key along', async () => {
		await send('POST', 307, `${second.url}/there?api-key=q-1`);
		expect(second.came.map((came) => came.pathAndQuery)).toEqual(['/there?api-key=q-1']);
	});

	it('on the same host, a relative Location is resolved against the URL asked and Authorization and Cookie are kept', async () => {
		redirect = { status: 307, location: 'elsewhere?c=3' };
		const answer = (await httpRequestAsN8n({ method: 'POST', url: `${first.url}/dir/start`, headers, body: '{"a":1}', returnFullResponse: true })) as { statusCode: number };
		expect(answer.statusCode).toBe(200);
		expect(first.came.map((came) => came.pathAndQuery)).toEqual(['/dir/start', '/dir/elsewhere?c=3']);
		expect(first.came[1]).toMatchObject({ method: 'POST', body: '{"a":1}' });
		expect([first.came[1].headers.authorization, first.came[1].headers.cookie, first.came[1].headers['x-api-key']]).toEqual(['Bearer t', 'c=1', 'k-1']);
	});

	it('with disableFollowRedirect the 3xx is the answer, its Location with it, and nothing else is asked', async () => {
		const answer = await send('POST', 307, `${second.url}/there`, { disableFollowRedirect: true });
		expect([answer.statusCode, answer.headers.location]).toEqual([307, `${second.url}/there`]);
		expect(first.came).toHaveLength(1);
		expect(second.came).toEqual([]);
	});

	it('follows 21 redirects and fails on the 22nd, as follow-redirects does', async () => {
		await expect(httpRequestAsN8n({ method: 'GET', url: `${first.url}/loop` })).rejects.toMatchObject({ code: 'ERR_FR_TOO_MANY_REDIRECTS', message: 'Maximum number of redirects exceeded' });
		expect(first.came).toHaveLength(22);
	});
});
