import { createServer } from 'node:http';

import { listenOnLoopback } from './loopback';

/**
 * One server on 127.0.0.1 standing in for Base URLs that are not the image inference service
 * (and for answers of the service the reference server does not give). Each kind is a Base URL of
 * its own: `${url}/<kind>`, so the credential test's request arrives at
 * `/<kind>/predict/detect/<id>/`.
 */
export const NOT_THE_SERVICE = {
	/** a web site: 200 with an HTML page for any path */
	htmlPage: 'html-page',
	/** 302 to a login page (HTML) */
	redirectToPage: 'redirect-to-page',
	/** another API: 200 JSON without `message` */
	jsonWithoutMessage: 'json-without-message',
	/** a proxy refusing the request: 403 with an HTML page */
	proxyForbidden: 'proxy-forbidden',
	/** the service's 401 as the SDKs' error mocks write it: `message` only, no `code` */
	unauthorizedMessageOnly: 'unauthorized-message-only',
	/** a 401 with `code` only */
	unauthorizedCodeOnly: 'unauthorized-code-only',
	/** a model not found, answered with a `message` */
	notFoundWithMessage: 'not-found-with-message',
} as const;

export type NotTheServiceKind = keyof typeof NOT_THE_SERVICE;

export interface NotTheServiceRequest {
	method: string;
	path: string;
}

/** A request as it came: its path with the query, and every header (names in lower case). */
export interface HeardRequest extends NotTheServiceRequest {
	pathAndQuery: string;
	headers: Record<string, string>;
}

const PAGE = (title: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

export async function startNotTheService() {
	const requests: NotTheServiceRequest[] = [];
	const heard: HeardRequest[] = [];
	const server = createServer((request, response) => {
		request.resume();
		const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
		requests.push({ method: request.method ?? '', path });
		const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
		heard.push({ method: request.method ?? '', path, pathAndQuery: request.url ?? '/', headers });
		const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
			response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
			response.end(body);
		};
		const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
		const html = (status: number, title: string) => send(status, 'text/html; charset=utf-8', PAGE(title));
		switch (path.split('/')[1]) {
			case NOT_THE_SERVICE.htmlPage:
				return html(200, 'Welcome');
			case NOT_THE_SERVICE.redirectToPage:
				if (path.endsWith('/login')) return html(200, 'Sign in');
				return send(302, 'text/plain', '', { location: `/${NOT_THE_SERVICE.redirectToPage}/login` });
			case NOT_THE_SERVICE.jsonWithoutMessage:
				return json(200, { status: 'ok', version: '1.0' });
			case NOT_THE_SERVICE.proxyForbidden:
				return html(403, '403 Forbidden');
			case NOT_THE_SERVICE.unauthorizedMessageOnly:
				return json(401, { message: 'Invalid or missing credentials', details: [] });
			case NOT_THE_SERVICE.unauthorizedCodeOnly:
				return json(401, { code: 'unauthorized' });
			case NOT_THE_SERVICE.notFoundWithMessage:
				return json(404, { type: 'error', code: 'not_found', status: 404, message: 'Model not found', details: [] });
			default:
				return json(500, { message: `no such kind: ${path}` });
		}
	});
	const listening = await listenOnLoopback(server);
	return {
		/** The Base URL that answers as `kind` does. */
		baseUrl: (kind: NotTheServiceKind) => `${listening.url}/${NOT_THE_SERVICE[kind]}`,
		/** Its origin (`http://127.0.0.1:<port>`), standing for another host. */
		origin: listening.url,
		requests,
		/** The same requests whole, to see what reached this other host. */
		heard,
		close: listening.close,
	};
}
