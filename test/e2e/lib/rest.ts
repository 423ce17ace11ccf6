/**
 * n8n's REST API as the editor uses it, headless: owner setup, cookie login, credential test,
 * node types. Works against `N8nServer.url`.
 *
 * Exports (stable):
 *   OWNER = { email, password, firstName, lastName }
 *   RestClient.setupOwner(baseUrl, owner?)   POST /rest/owner/setup (logs in: keeps the n8n-auth cookie);
 *                                            falls back to POST /rest/login if the owner exists
 *   client.request(method, path, body?)      JSON request with the cookie and a fixed browser-id header;
 *                                            returns {status, body}; unwraps n8n's {data: …}
 *   client.testCredential({id, name, type, data}) POST /rest/credentials/test → {status:'OK'|'Error', message}
 *   client.createCredential({name, type, data})   POST /rest/credentials → {id, …}
 *   client.nodeTypes()                        GET /types/nodes.json (all node type descriptions, incl. the
 *                                            synthetic *Tool variants n8n generates)
 *   client.finishedExecutions(workflowId)     a workflow's finished executions, oldest first, each
 *                                            {status, runData} (n8n's execution records)
 *   client.waitForFinishedExecutions(workflowId, count, timeoutMs, state)
 *                                            the first `count` of them, once finished; an error saying
 *                                            state() when they are not within timeoutMs
 */
export const OWNER = {
	email: 'owner@e2e.invalid',
	password: 'E2e-Passw0rd!x',
	firstName: 'E2E',
	lastName: 'Owner',
};

const BROWSER_ID = 'image-inference-e2e-browser';

export interface RestResponse<T = unknown> {
	status: number;
	body: T;
	raw: unknown;
}

export class RestClient {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	static async setupOwner(baseUrl: string, owner = OWNER): Promise<RestClient> {
		const c = new RestClient(baseUrl);
		const r = await c.request('POST', '/rest/owner/setup', owner);
		if (r.status !== 200 || !c.cookie) {
			const login = await c.request('POST', '/rest/login', {
				emailOrLdapLoginId: owner.email,
				email: owner.email,
				password: owner.password,
			});
			if (login.status !== 200) {
				throw new Error(`owner setup ${r.status} ${JSON.stringify(r.raw)}; login ${login.status} ${JSON.stringify(login.raw)}`);
			}
		}
		return c;
	}

	async request<T = unknown>(method: string, path: string, body?: unknown): Promise<RestResponse<T>> {
		const res = await fetch(this.baseUrl + path, {
			method,
			headers: {
				'content-type': 'application/json',
				accept: 'application/json',
				'browser-id': BROWSER_ID,
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		for (const c of res.headers.getSetCookie?.() ?? []) {
			const [pair] = c.split(';');
			if (pair.startsWith('n8n-auth=')) this.cookie = pair;
		}
		const text = await res.text();
		let raw: unknown = text;
		try {
			raw = JSON.parse(text);
		} catch {
			/* not JSON */
		}
		const data =
			raw && typeof raw === 'object' && 'data' in (raw as object) ? (raw as { data: T }).data : (raw as T);
		return { status: res.status, body: data, raw };
	}

	async testCredential(cred: {
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const r = await this.request<{ status: 'OK' | 'Error'; message: string }>('POST', '/rest/credentials/test', {
			credentials: cred,
		});
		if (r.status !== 200) throw new Error(`credential test: HTTP ${r.status} ${JSON.stringify(r.raw)}`);
		return r.body;
	}

	async createCredential(cred: { name: string; type: string; data: Record<string, unknown> }): Promise<{ id: string }> {
		const r = await this.request<{ id: string }>('POST', '/rest/credentials', cred);
		if (r.status !== 200) throw new Error(`create credential: HTTP ${r.status} ${JSON.stringify(r.raw)}`);
		return r.body;
	}

	async nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[]; [k: string]: unknown }>> {
		const r = await this.request<Array<{ name: string; displayName: string; version: number | number[] }>>(
			'GET',
			'/types/nodes.json',
		);
		if (r.status !== 200 || !Array.isArray(r.body)) throw new Error(`nodes.json: HTTP ${r.status}`);
		return r.body;
	}

	/** The first `count` finished executions of an active workflow, once there are as many. */
	async waitForFinishedExecutions(workflowId: string, count: number, timeoutMs: number, state: () => string): Promise<Array<{ status: string; runData: ExecutionRunData }>> {
		for (const deadline = Date.now() + timeoutMs; ; ) {
			const runs = await this.finishedExecutions(workflowId);
			if (runs.length >= count) return runs.slice(0, count);
			if (Date.now() > deadline) throw new Error(`only ${runs.length} of ${count} executions finished; ${state()}`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}

	/** The workflow's finished executions, oldest first, with their run data (at most the last 100). */
	async finishedExecutions(workflowId: string): Promise<Array<{ status: string; runData: ExecutionRunData }>> {
		type Execution = { id: string; status: string; data: string };
		const list = await this.request<{ results: Execution[] }>('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`);
		const finished = list.body.results.filter((execution) => execution.status !== 'running' && execution.status !== 'new').sort((a, b) => Number(a.id) - Number(b.id));
		return await Promise.all(
			finished.map(async ({ id, status }) => {
				const full = await this.request<Execution>('GET', `/rest/executions/${id}`);
				const data = unflatten(full.body.data) as { resultData: { runData: ExecutionRunData } };
				return { status, runData: data.resultData.runData };
			}),
		);
	}
}

export type ExecutionRunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;

/** n8n keeps execution data in the `flatted` format: strings and objects by index into one array. */
export function unflatten(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	const revived = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const value = input[index];
		if (value === null || typeof value !== 'object') return value;
		const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
		revived.set(index, out);
		for (const [key, entry] of Object.entries(value)) (out as Record<string, unknown>)[key] = typeof entry === 'string' ? revive(Number(entry)) : entry;
		return out;
	};
	return revive(0);
}
