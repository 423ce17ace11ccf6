import type { ICredentialDataDecryptedObject, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { NIL_UUID, apiKeyPlacement, normalizeBaseUrl, predictPath } from '../contract';
import { createRedactor, snippet } from './errors';

/**
 * What n8n gives a node's credential test function (n8n-workflow's ICredentialTestFunctions;
 * n8n-core's CredentialTestContext in 1.123 and 2.41): SSH tunnels and `request`, nothing else.
 * The function runs without the credential's `authenticate`, so the key is placed here by the
 * same `apiKeyPlacement` that `authenticate` uses.
 */
export type CredentialTestHelpers = ICredentialTestFunctions['helpers'];

/** The answer as n8n's `request` gives it with `resolveWithFullResponse` and `simple: false`. */
export interface TestAnswer {
	statusCode: number;
	statusMessage?: string;
	headers?: Record<string, unknown>;
	/** The body as text (`json: false`); undefined when empty. */
	body?: unknown;
}

/** The service answers these to a predict call with no image for no model: the key was accepted. */
const ACCEPTED_STATUSES: Record<number, string> = {
	400: 'no image was sent',
	404: 'there is no model with the nil id',
	422: 'the request was incomplete',
};

const TEST_TIMEOUT_MS = 20_000;

/**
 * The credential test: a detection call on the nil model with an empty body, so no model is
 * needed and nothing is predicted. It passes only on what the service answers such a call with
 * a valid key (400, 404 or 422 with a JSON body) and fails on 401 and on anything else, naming
 * the Base URL and what came back. Redirects are not followed: a redirected POST is not the API.
 */
export async function testImageInferenceCredential(
	helpers: CredentialTestHelpers,
	credentials: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const redact = createRedactor(credentials.apiKey);
	const placement = apiKeyPlacement(credentials);
	let answer: TestAnswer;
	try {
		answer = (await helpers.request({
			method: 'POST',
			uri: `${baseUrl}${predictPath('detect', NIL_UUID)}`,
			headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...('headers' in placement ? placement.headers : {}) },
			qs: 'qs' in placement ? placement.qs : {},
			body: '{}',
			json: false,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			timeout: TEST_TIMEOUT_MS,
		})) as TestAnswer;
	} catch (error) {
		return { status: 'Error', message: redact(`Could not reach ${baseUrl}: ${networkProblem(error)}. Check the Base URL and that n8n can reach it.`) };
	}
	return judgeTestAnswer(baseUrl, answer, redact);
}

/** The verdict on the test call's answer (see testImageInferenceCredential). */
export function judgeTestAnswer(baseUrl: string, answer: TestAnswer, redact: (text: string) => string = (text) => text): INodeCredentialTestResult {
	const status = answer.statusCode;
	const text = bodyText(answer.body);
	const came = redact(describeAnswer(answer, text));
	if (status === 401) {
		return {
			status: 'Error',
			message: `Invalid or missing credentials: ${baseUrl} refused the API key (${came}). Check the API key and "Send API Key As".`,
		};
	}
	if (status in ACCEPTED_STATUSES && isJson(text)) {
		return {
			status: 'OK',
			message: `Connection successful: ${baseUrl} accepted the API key (a test call answered ${status} because ${ACCEPTED_STATUSES[status]}, as the service does).`,
		};
	}
	return { status: 'Error', message: `${baseUrl} did not answer as the prediction API does: it answered ${came}. ${advice(status, text)}` };
}

function advice(status: number, text: string): string {
	if (status >= 300 && status < 400) return 'Check the Base URL: use the address the service is at, not one that redirects (http instead of https, a missing or extra path).';
	if (status >= 200 && status < 300) return 'The service never accepts a call without an image, so this is another server: check the Base URL.';
	if (status === 403) return 'Something on the way (a gateway, proxy or firewall) or a wrong Base URL refused the call: check the Base URL and the network between n8n and the service.';
	if (status === 429 || status >= 500) return 'The service may be overloaded or down: try again later, and check the Base URL.';
	if (!isJson(text)) return 'The service answers in JSON: check the Base URL (it should be the API address, for example https://api.epigos.ai).';
	return 'Check the Base URL.';
}

function describeAnswer(answer: TestAnswer, text: string): string {
	const status = `${answer.statusCode}${answer.statusMessage ? ` ${answer.statusMessage}` : ''}`;
	if (answer.statusCode >= 300 && answer.statusCode < 400) {
		const location = headerValue(answer.headers, 'location');
		return `${status}, a redirect${location ? ` to ${snippet(location, 200)}` : ''}`;
	}
	if (text.trim() === '') return `${status} with an empty body`;
	if (isJson(text)) return `${status} with JSON: ${snippet(text, 200)}`;
	const shown = snippet(text, 200);
	return shown.startsWith('an HTML page') ? `${status} with ${shown}` : `${status} with a body that is not JSON: ${shown}`;
}

function isJson(text: string): boolean {
	if (text.trim() === '') return false;
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	return JSON.stringify(body);
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
	return typeof found === 'string' ? found : Array.isArray(found) ? String(found[0]) : undefined;
}

function networkProblem(error: unknown): string {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	const text = typeof message === 'string' ? message : String(error);
	if (code === 'ECONNREFUSED') return 'connection refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(text)) return `no answer within ${TEST_TIMEOUT_MS / 1000} s`;
	return typeof code === 'string' ? `${code} (${snippet(text, 200)})` : snippet(text, 200);
}
