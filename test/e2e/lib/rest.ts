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
}
