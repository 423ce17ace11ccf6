import { createRedactor, describeHttpFailure, describeInvalidResponse, describeNetworkFailure, describeRedirect, snippet, toNodeApiError } from '../../nodes/ImageInference/transport/errors';
import { failureFields } from '../../nodes/ImageInference/output/failureItem';
import { ImageRefusedError } from '../../nodes/ImageInference/input/imageRefused';
import { NodeOperationError } from 'n8n-workflow';

const context = { kind: 'detect' as const, modelId: '4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f' };

describe('redaction', () => {
	it('removes the exact key, a key in a URL and a key in a header dump', () => {
		const redact = createRedactor('sk-SECRET-123');
		const text = redact('GET /predict/?api-key=sk-SECRET-123&x=1 {"X-API-Key":"other-key"} again sk-SECRET-123');
		expect(text).not.toContain('sk-SECRET-123');
		expect(text).not.toContain('other-key');
		expect(text).toContain('api-key=***&x=1');
	});
	it('removes url-encoded keys too', () => {
		const redact = createRedactor('a b/c+d');
		expect(redact(`key=${encodeURIComponent('a b/c+d')}`)).toBe('key=***');
	});
	it('removes the key in any letter case, every time it appears (a URL’s host name is lowercased)', () => {
		const redact = createRedactor('sk-live-R3d1rect-Q7vW');
		expect(redact('to http://sk-live-r3d1rect-q7vw.example.com, then SK-LIVE-R3D1RECT-Q7VW and sk-live-R3d1rect-Q7vW')).toBe('to http://***.example.com, then *** and ***');
		expect(createRedactor('a b/c')('key=a%20b%2fc')).toBe('key=***');
	});
	it('a key with characters that mean something in a pattern is matched as it is', () => {
		expect(createRedactor('a.b*c')('a.b*c, aXbbc, abc')).toBe('***, aXbbc, abc');
		expect(createRedactor('k(1)+[x]?^$|\\{2}')('k(1)+[x]?^$|\\{2} and k11x')).toBe('*** and k11x');
	});
});

describe('describeHttpFailure', () => {
	it('lists every detail of a 400', () => {
		const body = JSON.stringify({
			type: 'error',
			code: 'bad_request',
			status: 400,
			message: 'field required',
			details: [
				{ location: 'body', type: 'value_error.missing', pointer: '/image', message: 'field required' },
				{ location: 'body', type: 'value_error.number.not_le', pointer: '/confidence', message: 'must be <= 1' },
			],
		});
		const failure = describeHttpFailure(400, body, context);
		expect(failure.retryable).toBe(false);
		expect(failure.message).toContain('400');
		expect(failure.description).toBe('body /image: field required\nbody /confidence: must be <= 1');
		expect(failure.details).toHaveLength(2);
	});
	it('names the model of a 404 whatever the body', () => {
		for (const body of ['', 'Not Found', '{"detail":"Not Found"}', '<html><title>404</title></html>']) {
			const failure = describeHttpFailure(404, body, context);
			expect(failure.message).toContain(context.modelId);
			expect(failure.description).toContain('deployed');
			expect(failure.retryable).toBe(false);
		}
	});
	it('retries 429, 502, 503, 504 and not 400, 401, 404, 500', () => {
		const retryable = [400, 401, 404, 429, 500, 502, 503, 504].filter((status) => describeHttpFailure(status, '', context).retryable);
		expect(retryable).toEqual([429, 502, 503, 504]);
	});
	it('reduces an HTML error page to its title', () => {
		expect(snippet('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>')).toBe(
			'an HTML page titled "502 Bad Gateway"',
		);
	});
});

describe('describeNetworkFailure', () => {
	const where = { timeoutMs: 1000, host: 'http://127.0.0.1:9' };
	it('retries resets and time-outs but not refused connections', () => {
		expect(describeNetworkFailure({ code: 'ECONNRESET', message: 'socket hang up' }, where).retryable).toBe(true);
		expect(describeNetworkFailure({ message: 'x', cause: { code: 'ECONNABORTED', message: 'timeout of 1000ms exceeded' } }, where)).toMatchObject({
			retryable: true,
			message: 'The service did not answer within 1000 ms',
		});
		expect(describeNetworkFailure({ code: 'ECONNREFUSED' }, where)).toMatchObject({ retryable: false, message: 'Could not connect to http://127.0.0.1:9: connection refused' });
	});
});

describe('describeNetworkFailure: a body cut off mid-way', () => {
	it('Node reports a reset mid-body as "aborted" with ECONNRESET: a reset, not a time-out', () => {
		const failure = describeNetworkFailure({ message: 'aborted', code: 'ECONNRESET' }, { timeoutMs: 1000, host: 'h' });
		expect(failure).toMatchObject({ retryable: true, code: 'connection_reset' });
	});
	it('an abort by the time-out signal is a time-out', () => {
		const failure = describeNetworkFailure({ name: 'AbortError', message: 'This operation was aborted' }, { timeoutMs: 1000, host: 'h' });
		expect(failure).toMatchObject({ retryable: true, code: 'timeout' });
	});
});

describe('describeNetworkFailure: the clock decides a time-out', () => {
	it('a failure reported as a reset once the time-out has passed is a time-out', () => {
		const failure = describeNetworkFailure({ code: 'ECONNRESET', message: 'socket hang up' }, { timeoutMs: 1500, host: 'h', elapsedMs: 1502 });
		expect(failure).toMatchObject({ code: 'timeout', message: 'The service did not answer within 1500 ms' });
	});
	it('the same reset well before the time-out is a reset', () => {
		const failure = describeNetworkFailure({ code: 'ECONNRESET', message: 'socket hang up' }, { timeoutMs: 1500, host: 'h', elapsedMs: 40 });
		expect(failure).toMatchObject({ code: 'connection_reset' });
	});
});

/** The service's documented error body. */
const errorBody = (status: number, code: string, message: string, details: object[] = []) =>
	JSON.stringify({ type: 'error', code, status, message, details });

describe('what the user reads for each answer the service can give', () => {
	const missingImage = { location: 'body', type: 'value_error.missing', pointer: '/image', message: 'field required' };

	it.each([
		{
			answer: '400, the documented body with a detail',
			status: 400,
			body: errorBody(400, 'validation_error', 'Invalid request', [missingImage]),
			failure: { status: 400, code: 'validation_error', retryable: false, details: [missingImage], message: 'The service rejected the request (400 Bad Request): Invalid request', description: 'body /image: field required' },
		},
		{
			answer: '400 with no body',
			status: 400,
			body: '',
			failure: { status: 400, code: 'bad_request', retryable: false, details: [], message: 'The service rejected the request (400 Bad Request): no reason given', description: 'Check the image and the options of this item.' },
		},
		{
			answer: '400 with a plain-text reason',
			status: 400,
			body: '  image too small  ',
			failure: { status: 400, code: 'bad_request', retryable: false, details: [], message: 'The service rejected the request (400 Bad Request): image too small', description: 'Check the image and the options of this item.' },
		},
		{
			answer: '401, the documented body',
			status: 401,
			body: errorBody(401, 'unauthorized', 'Invalid API key', [missingImage]),
			failure: { status: 401, code: 'unauthorized', retryable: false, details: [missingImage], message: 'Invalid or missing credentials (401 Unauthorized)' },
		},
		{
			answer: '401 with no body',
			status: 401,
			body: '',
			failure: { status: 401, code: 'unauthorized', retryable: false, details: [], message: 'Invalid or missing credentials (401 Unauthorized)' },
		},
		{
			answer: '404 with a FastAPI-style detail',
			status: 404,
			body: '{"detail":"Model is not deployed"}',
			failure: { status: 404, code: 'not_found', retryable: false, message: `Model ${context.modelId} was not found (404 Not Found)`, description: 'Check that the Model ID is right, that the model is deployed, and that it is a detection model (Detect Objects). The service said: Model is not deployed' },
		},
		{
			answer: '404 with no body, classifying',
			status: 404,
			body: '',
			kind: 'classify' as const,
			failure: { status: 404, code: 'not_found', retryable: false, description: 'Check that the Model ID is right, that the model is deployed, and that it is a classification model (Classify Image).' },
		},
		{
			answer: '429 with its documented body and Retry-After',
			status: 429,
			body: errorBody(429, 'too_many_requests', 'Slow down'),
			retryAfterMs: 2000,
			failure: { status: 429, code: 'too_many_requests', retryable: true, retryAfterMs: 2000, message: 'The service is rate-limiting requests (429 Too Many Requests)', description: 'The service said: Slow down Lower "Concurrency" or raise "Retries".' },
		},
		{
			answer: '429 with nothing',
			status: 429,
			body: '',
			failure: { status: 429, code: 'rate_limited', retryable: true, message: 'The service is rate-limiting requests (429 Too Many Requests)', description: 'The service gave no reason. Lower "Concurrency" or raise "Retries".' },
		},
		{
			answer: '500 with an {"error": …} body',
			status: 500,
			body: '{"error":"CUDA out of memory"}',
			failure: { status: 500, code: 'server_error', retryable: false, message: 'The service failed (500 Internal Server Error)', description: 'The service said: CUDA out of memory' },
		},
		{
			answer: '501, a 5xx with no name of its own',
			status: 501,
			body: '',
			failure: { status: 501, code: 'server_error', retryable: false, message: 'The service failed (501 Server Error)', description: 'The service gave no reason.' },
		},
		{ answer: '502 with nothing', status: 502, body: '', failure: { status: 502, code: 'server_error', retryable: true, message: 'The service failed (502 Bad Gateway)' } },
		{ answer: '504 with nothing', status: 504, body: '', failure: { status: 504, code: 'server_error', retryable: true, message: 'The service failed (504 Gateway Timeout)' } },
		{
			answer: '503 with Retry-After',
			status: 503,
			body: errorBody(503, 'unavailable', 'Model is loading'),
			retryAfterMs: 5000,
			failure: { status: 503, code: 'unavailable', retryable: true, retryAfterMs: 5000, message: 'The service failed (503 Service Unavailable)', description: 'The service said: Model is loading' },
		},
		{
			answer: '413, a 4xx it does not document',
			status: 413,
			body: '<html><head><title>413 Request Entity Too Large</title></head><body>nginx</body></html>',
			failure: { status: 413, code: 'http_error', retryable: false, message: 'The service rejected the request (413 Error)', description: 'The service said: an HTML page titled "413 Request Entity Too Large"' },
		},
		{
			answer: '422 with a JSON body in no known shape',
			status: 422,
			body: '{"errors":[1,2]}',
			failure: { status: 422, code: 'http_error', retryable: false, description: 'The service said: {"errors":[1,2]}' },
		},
	])('$answer', ({ status, body, kind, retryAfterMs, failure }) => {
		const described = describeHttpFailure(status, body, { ...context, kind: kind ?? context.kind, retryAfterMs });
		expect(described).toMatchObject(failure);
		if (status !== 429 && status !== 503 && status < 500) expect(described.retryAfterMs).toBeUndefined();
	});
});

describe('what the user reads when no answer came', () => {
	const where = { timeoutMs: 5000, host: 'https://vision.example.com' };

	it.each([
		{ error: { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND vision.example.com' }, failure: { code: 'host_unreachable', retryable: false, message: 'Could not connect to https://vision.example.com: host not found', description: 'Check the Base URL in the "Image Inference API" credential and that the service is reachable from n8n (ENOTFOUND).' } },
		{ error: { message: 'request failed', cause: { code: 'EAI_AGAIN' } }, failure: { code: 'host_unreachable', retryable: false, message: 'Could not connect to https://vision.example.com: host not found' } },
		{ error: { errorResponse: { code: 'EHOSTUNREACH' } }, failure: { code: 'host_unreachable', retryable: false, description: expect.stringContaining('(EHOSTUNREACH)') } },
		{ error: { code: 'ECONNREFUSED' }, failure: { code: 'connection_refused', retryable: false, message: 'Could not connect to https://vision.example.com: connection refused' } },
		{ error: { code: 'EPIPE', message: 'write EPIPE' }, failure: { code: 'connection_reset', retryable: true, message: 'The connection to the service was reset before it answered', description: 'The connection to https://vision.example.com was dropped (EPIPE). This is usually temporary.' } },
		{ error: { message: 'fetch failed', cause: { code: 'UND_ERR_SOCKET', message: 'closed' } }, failure: { code: 'connection_reset', retryable: true, description: expect.stringContaining('(UND_ERR_SOCKET)') } },
		{ error: new Error('socket hang up'), failure: { code: 'connection_reset', retryable: true, description: 'The connection to https://vision.example.com was dropped. This is usually temporary.' } },
		{ error: { code: 'ETIMEDOUT' }, failure: { code: 'timeout', retryable: true, message: 'The service did not answer within 5000 ms', description: 'Raise the "Timeout" option for large images, or try again later.' } },
		{ error: { code: 'ESOCKETTIMEDOUT' }, failure: { code: 'timeout', retryable: true } },
		{ error: { name: 'TimeoutError', message: 'The operation was aborted' }, failure: { code: 'timeout', retryable: true } },
		{ error: { code: 'ECONNABORTED', message: 'Request aborted' }, failure: { code: 'timeout', retryable: true } },
		{ error: undefined, failure: { code: 'request_failed', retryable: false, description: 'No further information.' } },
		{ error: { code: 'HPE_INVALID_CONSTANT', message: 'Parse Error: Expected HTTP/' }, failure: { code: 'request_failed', message: 'The request to https://vision.example.com failed', description: 'Parse Error: Expected HTTP/' } },
		{ error: { message: 'outer', cause: { code: 'EPROTO' } }, failure: { code: 'request_failed', message: 'The request to https://vision.example.com failed (EPROTO)', description: 'outer' } },
		{ error: { message: 'Request timed out' }, failure: { code: 'timeout', retryable: true } },
		{ error: { code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'Hostname/IP does not match certificate' }, failure: { code: 'request_failed', retryable: false, message: 'The request to https://vision.example.com failed (ERR_TLS_CERT_ALTNAME_INVALID)', description: 'Hostname/IP does not match certificate' } },
		{ error: { code: 'EPROTO', message: 'wrong version number' }, failure: { code: 'request_failed', retryable: false, message: 'The request to https://vision.example.com failed (EPROTO)', description: 'wrong version number' } },
		{ error: 'a string, not an error', failure: { code: 'request_failed', retryable: false, description: 'No further information.' } },
		{ error: { message: 'outer', cause: { message: 'inner', code: 'E42' } }, failure: { code: 'request_failed', message: 'The request to https://vision.example.com failed', description: 'outer | inner' } },
	])('$error', ({ error, failure }) => {
		expect(describeNetworkFailure(error, where)).toEqual(expect.objectContaining(failure));
	});

	it('a reset exactly at the time-out is a time-out; 11 ms before it is a reset', () => {
		const reset = { code: 'ECONNRESET', message: 'socket hang up' };
		expect(describeNetworkFailure(reset, { ...where, elapsedMs: 4990 }).code).toBe('timeout');
		expect(describeNetworkFailure(reset, { ...where, elapsedMs: 4989 }).code).toBe('connection_reset');
	});

	it('an error that wraps itself is read once, without looping', () => {
		const error: { message: string; code: string; cause?: unknown } = { message: 'loop', code: 'EPROTO' };
		error.cause = error;
		expect(describeNetworkFailure(error, where)).toMatchObject({ code: 'request_failed', description: 'loop' });
	});
});

describe('an answer that could not be read', () => {
	it('says what was wrong and how the body began; an empty body is named as such', () => {
		expect(describeInvalidResponse('the 200 answer is not JSON', '<html><title>Login</title></html>')).toEqual({
			code: 'invalid_response',
			retryable: false,
			message: "The service's answer could not be read: the 200 answer is not JSON",
			description: 'It began with: an HTML page titled "Login"',
		});
		expect(describeInvalidResponse('the 200 answer is not JSON', '').description).toBe('The body was empty.');
		expect(describeInvalidResponse('it does not match').description).toBe('The interface may have changed: check for an update of this node.');
	});
});

describe('the error n8n shows, and the error item of Continue On Fail', () => {
	const node = { id: '1', name: 'Detect', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
	const redact = createRedactor('sk-live-0123');

	it('carries status, code, attempts and details, the key redacted everywhere', () => {
		const failure = describeHttpFailure(400, errorBody(400, 'bad_request', 'key sk-live-0123 cannot read /image', [{ ...{ location: 'body', type: 't', pointer: '/image' }, message: 'sk-live-0123 bad' }]), context);
		const error = toNodeApiError(node as never, failure, { itemIndex: 3, attempts: 1, redact });
		expect(error.message).toBe('The service rejected the request (400 Bad Request): key *** cannot read /image');
		expect(error.description).toBe('body /image: *** bad');
		expect(error.httpCode).toBe('400');
		expect(error.context.itemIndex).toBe(3);
		expect(failureFields(error)).toEqual({
			message: 'The service rejected the request (400 Bad Request): key *** cannot read /image',
			description: 'body /image: *** bad',
			httpCode: '400',
			status: 400,
			code: 'bad_request',
			details: [{ location: 'body', type: 't', pointer: '/image', message: '*** bad' }],
			attempts: 1,
		});
	});

	it('says how many attempts were made when it gave up after retries; a network failure has no status', () => {
		const failure = describeNetworkFailure({ code: 'ECONNRESET' }, { timeoutMs: 1000, host: 'h' });
		const error = toNodeApiError(node as never, failure, { itemIndex: 0, attempts: 3, redact });
		expect(error.message).toBe('The connection to the service was reset before it answered (gave up after 3 attempts)');
		expect(failureFields(error)).toEqual({ message: error.message, description: 'The connection to h was dropped (ECONNRESET). This is usually temporary.', httpCode: null, status: null, code: 'connection_reset', details: [], attempts: 3 });
		// no HTTP status to show: n8n falls back to the failure's code, never the text "undefined"
		expect(error.httpCode).toBe('connection_reset');
	});

	it('the node’s own refusals say whether the image or a parameter was refused', () => {
		const node = { id: '1', name: 'Detect', type: 'n8n-nodes-image-inference.imageInference', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
		expect(failureFields(new ImageRefusedError(node, 'The file in binary field "data" is not an image')).code).toBe('invalid_image');
		expect(failureFields(new NodeOperationError(node, 'Model ID "x" is not a UUID')).code).toBe('invalid_parameter');
	});

	it('an error that is not the node’s own still becomes a readable item', () => {
		expect(failureFields(new Error('boom'))).toEqual({ message: 'boom', description: null, httpCode: null, status: null, code: null, details: [], attempts: 0 });
		expect(failureFields('plain text')).toEqual({ message: 'plain text', description: null, httpCode: null, status: null, code: null, details: [], attempts: 0 });
	});
});

describe('redaction, at its edges', () => {
	it('a key of fewer than 4 characters is not hunted in the text (it would shred every message); one of 4 is', () => {
		expect(createRedactor('abc')('abc of the model')).toBe('abc of the model');
		expect(createRedactor('')('the model said no')).toBe('the model said no');
		expect(createRedactor(undefined)('the model said no')).toBe('the model said no');
		expect(createRedactor(undefined)('confidence is undefined')).toBe('confidence is undefined');
		expect(createRedactor('abcd')('abcd of the model')).toBe('*** of the model');
	});
	it('a key-shaped value after x-api-key is removed in every header-dump form', () => {
		const redact = createRedactor('unrelated');
		expect(redact('x-api-key: k1 next')).toBe('x-api-key: *** next');
		expect(redact("{'X-Api-Key': 'k2'}")).toBe("{'X-Api-Key': '***'}");
		expect(redact('"x-api-key"  =  k3,')).toBe('"x-api-key"  =  ***,');
		expect(redact('https://h/p?a=1&API-KEY=k4#top')).toBe('https://h/p?a=1&API-KEY=***#top');
	});
});

describe('snippets of a body', () => {
	it('an HTML page without a title is reduced to its text; a long body is cut at 300 characters', () => {
		expect(snippet('<html><body><h1>Bad   gateway</h1><p>try later</p></body></html>')).toBe('an HTML page: Bad gateway try later');
		expect(snippet('<HTML><TITLE> Sign in </TITLE></HTML>')).toBe('an HTML page titled "Sign in"');
		expect(snippet('text before <html>')).toBe('text before <html>');
		expect(snippet('see <!DOCTYPE html> in the docs')).toBe('see <!DOCTYPE html> in the docs');
		expect(snippet('<html><title lang="en">Maintenance</title></html>')).toBe('an HTML page titled "Maintenance"');
		const long = 'x'.repeat(301);
		expect(snippet(long)).toBe(`${'x'.repeat(299)}…`);
		expect(snippet('y'.repeat(300))).toBe('y'.repeat(300));
	});
});

/*
 * What a user reads when the service or the storage answers with a redirect (never followed), and
 * when the storage, not the service, fails: the storage is named, and the credential is not blamed.
 */

const BASE_URL = 'http://vision.example.com:8080/v1';
const service = { host: BASE_URL, toStorage: false };
const storage = { host: 'https://bucket.example.net', toStorage: true };

/** The sentence every redirect of the service begins with, for the Base URL asked. */
const NOT_FOLLOWED = (baseUrl: string) => `The node does not follow redirects, so the API key goes nowhere but the Base URL (${baseUrl}).`;
const ONLY_IF = (origin: string) =>
	`Set the Base URL in the "Image Inference API" credential to ${origin} only if ${origin} is the service’s own address; a login page or proxy there means something between n8n and the service redirects (ask whoever runs your network). The key was not sent there.`;
const CHECK_THE_ADDRESS = 'Check that the Base URL in the "Image Inference API" credential is the service’s address (for example https://api.epigos.ai).';
const CHECK_THE_PATH = (path: string) =>
	`Check the path of the Base URL in the "Image Inference API" credential: the service pointed to ${path}; the Base URL is the service’s address without /predict or /projects (for example https://api.epigos.ai).`;
const DOWNGRADED =
	'The service pointed from https:// to plain http://, where the key would travel unencrypted: keep the Base URL in the "Image Inference API" credential at https:// and ask the service’s operator why it redirects to http://.';
const STORAGE_REDIRECT =
	'The file was not stored: the node does not follow a redirect of the storage (after a 303 the upload would become a download). Run the item again; the credential is not the cause, as the file goes to storage without it. If it keeps happening, the storage URLs the service hands out do not take uploads: ask its operator.';

describe('a redirect of the service', () => {
	it.each([
		[301, 'Moved Permanently'],
		[302, 'Found'],
		[303, 'See Other'],
		[307, 'Temporary Redirect'],
		[308, 'Permanent Redirect'],
		[300, 'Multiple Choices'],
		[399, 'Redirect'],
	])('%i to another host names that host’s origin, not its path or query, and sets the Base URL to it only if it is the service’s', (status, name) => {
		const failure = describeRedirect(status, 'https://elsewhere.example.org:8443/predict/detect/m/?api-key=sk-1#x', service);
		expect(failure).toEqual({
			status,
			code: 'redirect',
			retryable: false,
			message: `The service answered with a redirect (${status} ${name}) to https://elsewhere.example.org:8443`,
			description: `${NOT_FOLLOWED(BASE_URL)} ${ONLY_IF('https://elsewhere.example.org:8443')}`,
		});
	});

	it('a single sign-on or captive portal on another host is not offered as the Base URL unless it is the service’s', () => {
		expect(describeRedirect(302, 'https://login.corp.example/sso?return=https%3A%2F%2Fapi.epigos.ai%2F', { host: 'https://api.epigos.ai', toStorage: false })).toEqual({
			status: 302,
			code: 'redirect',
			retryable: false,
			message: 'The service answered with a redirect (302 Found) to https://login.corp.example',
			description:
				'The node does not follow redirects, so the API key goes nowhere but the Base URL (https://api.epigos.ai). Set the Base URL in the "Image Inference API" credential to https://login.corp.example only if https://login.corp.example is the service’s own address; a login page or proxy there means something between n8n and the service redirects (ask whoever runs your network). The key was not sent there.',
		});
	});

	it.each([
		['http://api.epigos.ai', 'https://api.epigos.ai/predict/detect/m/', 'https://api.epigos.ai', 'https://api.epigos.ai'],
		['http://vision.example.com/v1/', 'https://vision.example.com/v1/predict/detect/m/', 'https://vision.example.com/v1', 'https://vision.example.com'],
		['http://vision.example.com:80/v1', 'https://vision.example.com:443/v1/predict/detect/m/', 'https://vision.example.com/v1', 'https://vision.example.com'],
		['http://vision.example.com/v1//', 'https://vision.example.com/v1/predict/detect/m/', 'https://vision.example.com/v1', 'https://vision.example.com'],
	])('http to https on the same host and default ports (%s to %s) says to use %s', (baseUrl, location, upgraded, origin) => {
		expect(describeRedirect(301, location, { host: baseUrl, toStorage: false })).toEqual({
			status: 301,
			code: 'redirect',
			retryable: false,
			message: `The service answered with a redirect (301 Moved Permanently) to ${origin}`,
			description: `${NOT_FOLLOWED(baseUrl)} The service answers at https:// only: use ${upgraded} as the Base URL in the "Image Inference API" credential.`,
		});
	});

	it.each([
		['http://vision.example.com:8080/v1', 'https://vision.example.com:8080/v1/x', 'https://vision.example.com:8080'],
		['http://vision.example.com:8080', 'https://vision.example.com/x', 'https://vision.example.com'],
		['http://vision.example.com', 'https://vision.example.com:8443/x', 'https://vision.example.com:8443'],
		['http://vision.example.com', 'https://www.vision.example.com/x', 'https://www.vision.example.com'],
		['http://vision.example.com', 'http://elsewhere.example.org/x', 'http://elsewhere.example.org'],
		['https://vision.example.com', 'https://vision.example.com:8443/x', 'https://vision.example.com:8443'],
	])('from %s to %s is another host, not an upgrade to https://', (baseUrl, location, origin) => {
		expect(describeRedirect(307, location, { host: baseUrl, toStorage: false }).description).toBe(`${NOT_FOLLOWED(baseUrl)} ${ONLY_IF(origin)}`);
	});

	it.each([
		['https://api.epigos.ai', 'http://api.epigos.ai/predict/', 'http://api.epigos.ai'],
		['https://api.epigos.ai', 'http://elsewhere.example.org/x', 'http://elsewhere.example.org'],
	])('from https to plain http (%s to %s) says so and does not suggest changing the Base URL', (baseUrl, location, origin) => {
		expect(describeRedirect(307, location, { host: baseUrl, toStorage: false })).toEqual({
			status: 307,
			code: 'redirect',
			retryable: false,
			message: `The service answered with a redirect (307 Temporary Redirect) to ${origin}`,
			description: `${NOT_FOLLOWED(baseUrl)} ${DOWNGRADED}`,
		});
	});

	it.each([
		['/predict/detect/m', '/predict/detect/m'],
		['http://vision.example.com:8080/login?next=/v1&api-key=sk-1', '/login'],
		['../v2/predict/?api-key=sk-1#top', '/v2/predict/'],
	])('a path on the same origin (%s) names that path without its query and points at the Base URL’s path', (location, path) => {
		expect(describeRedirect(308, location, service)).toEqual({
			status: 308,
			code: 'redirect',
			retryable: false,
			message: 'The service answered with a redirect (308 Permanent Redirect) to another address on http://vision.example.com:8080',
			description: `${NOT_FOLLOWED(BASE_URL)} ${CHECK_THE_PATH(path)}`,
		});
	});

	it.each([undefined, '', '   ', 42, ['http://elsewhere.example.org/']])('without a Location (%j) it says so', (location) => {
		expect(describeRedirect(302, location, service)).toMatchObject({
			message: 'The service answered with a redirect (302 Found) without saying where to',
			description: `${NOT_FOLLOWED(BASE_URL)} ${CHECK_THE_ADDRESS}`,
		});
	});

	it.each(['mailto:ops@example.com', 'ftp://files.example.com/x', 'http://[broken'])('a Location that is not a web address (%s) is not named', (location) => {
		expect(describeRedirect(307, location, service)).toMatchObject({
			message: 'The service answered with a redirect (307 Temporary Redirect) to something that is not a web address',
			description: `${NOT_FOLLOWED(BASE_URL)} ${CHECK_THE_ADDRESS}`,
		});
	});

	it('a relative Location against an address that is not a URL is not named', () => {
		expect(describeRedirect(307, '/x', { host: 'vision', toStorage: false }).message).toBe(
			'The service answered with a redirect (307 Temporary Redirect) to something that is not a web address',
		);
	});

	it.each([undefined, 'https://elsewhere.example.org/x'])('a 304 (Location %s) is no redirect: it says the status as it is', (location) => {
		expect(describeRedirect(304, location, service)).toEqual({
			status: 304,
			code: 'not_modified',
			retryable: false,
			message: 'The service answered 304 Not Modified, without a result',
			description:
				'A 304 answers a conditional request, which the node does not send: something between n8n and the service (a cache or proxy) may have answered in its place. Check that the Base URL in the "Image Inference API" credential is the service’s address (for example https://api.epigos.ai).',
		});
	});
});

describe('a redirect of the storage', () => {
	it.each([
		[303, 'https://cdn.example.org/file.jpg?X-Amz-Signature=abc', 'to https://cdn.example.org', 'See Other'],
		[307, '/other-bucket/file.jpg', 'to another address on https://bucket.example.net', 'Temporary Redirect'],
		[302, undefined, 'without saying where to', 'Found'],
		[301, 'http://bucket.example.net/file.jpg', 'to http://bucket.example.net', 'Moved Permanently'],
	])('%i says the file was not stored, names only the origin, and does not blame the credential', (status, location, where, name) => {
		expect(describeRedirect(status, location, storage)).toEqual({
			status,
			code: 'storage_redirect',
			retryable: false,
			message: `The storage answered with a redirect (${status} ${name}) ${where}`,
			description: STORAGE_REDIRECT,
		});
	});

	it('a 304 of the storage says the status as it is, and that the upload cannot be taken as done', () => {
		expect(describeRedirect(304, undefined, storage)).toEqual({
			status: 304,
			code: 'storage_not_modified',
			retryable: false,
			message: 'The storage answered 304 Not Modified',
			description: 'A 304 answers a conditional request, which the node does not send, so the upload cannot be taken as done. Run the item again; the credential is not the cause, as the file goes to storage without it.',
		});
	});
});

describe('the storage refusing the file (4xx) is not a wrong API key, nor the service’s refusal', () => {
	const serviceAnswer = { notFound: { message: 'not found', description: 'Try again.' } };
	const storageAnswer = { ...serviceAnswer, who: 'The storage', toStorage: true };

	it('names the storage and says the credential is not the cause, with what it said', () => {
		expect(describeHttpFailure(401, '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', storageAnswer)).toEqual({
			status: 401,
			code: 'storage_unauthorized',
			retryable: false,
			message: 'The storage refused the file (401 Unauthorized)',
			description:
				'The storage URL the service handed out was not accepted (it may have expired). Run the item again; the credential is not the cause, as the file goes to storage without it. The storage said: <Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
		});
	});

	it('without a body it says no more', () => {
		expect(describeHttpFailure(401, '', storageAnswer).description).toBe(
			'The storage URL the service handed out was not accepted (it may have expired). Run the item again; the credential is not the cause, as the file goes to storage without it.',
		);
	});

	it.each([
		[
			400,
			'<Error><Code>RequestTimeout</Code><Message>Your socket connection to the server was not read from or written to within the timeout period.</Message></Error>',
			{
				code: 'storage_rejected',
				message: 'The storage refused the file (400 Bad Request)',
				description:
					'The file was not stored. Run the item again: the storage URL the service handed out may have expired, and the item asks for a new one when it runs again; the credential is not the cause, as the file goes to storage without it. The storage said: <Error><Code>RequestTimeout</Code><Message>Your socket connection to the server was not read from or written to within the timeout period.</Message></Error>',
			},
		],
		[
			403,
			'<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
			{
				code: 'storage_unauthorized',
				message: 'The storage refused the file (403 Forbidden)',
				description:
					'The storage URL the service handed out was not accepted (it may have expired). Run the item again; the credential is not the cause, as the file goes to storage without it. The storage said: <Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
			},
		],
		[
			409,
			'',
			{
				code: 'storage_rejected',
				message: 'The storage refused the file (409 Error)',
				description:
					'The file was not stored. Run the item again: the storage URL the service handed out may have expired, and the item asks for a new one when it runs again; the credential is not the cause, as the file goes to storage without it.',
			},
		],
		[
			499,
			'',
			{ code: 'storage_rejected', message: 'The storage refused the file (499 Error)' },
		],
	])('a storage %i gets storage advice, never the service’s', (status, body, failure) => {
		expect(describeHttpFailure(status, body, storageAnswer)).toMatchObject({ status, retryable: false, ...failure });
	});

	it('the storage’s 404 and 429 keep their own words; a 5xx is a failure; a 3xx is not a refusal', () => {
		expect(describeHttpFailure(404, '', storageAnswer)).toMatchObject({ code: 'not_found', message: 'not found (404 Not Found)', description: 'Try again.' });
		expect(describeHttpFailure(429, '', storageAnswer)).toMatchObject({ code: 'rate_limited', message: 'The storage is rate-limiting requests (429 Too Many Requests)' });
		expect(describeHttpFailure(500, '', storageAnswer)).toMatchObject({ code: 'server_error', message: 'The storage failed (500 Internal Server Error)' });
		expect(describeHttpFailure(399, '', storageAnswer)).toMatchObject({ code: 'http_error', message: 'The storage rejected the request (399 Error)' });
	});

	it('the service’s 400 and 403 keep the service’s words', () => {
		for (const context of [serviceAnswer, { ...serviceAnswer, toStorage: false }]) {
			expect(describeHttpFailure(400, '', context)).toMatchObject({ code: 'bad_request', message: 'The service rejected the request (400 Bad Request): no reason given', description: 'Check the image and the options of this item.' });
			expect(describeHttpFailure(403, '', context)).toMatchObject({ code: 'http_error', message: 'The service rejected the request (403 Forbidden)' });
		}
	});

	it('the service’s 401 still names the API key', () => {
		for (const context of [serviceAnswer, { ...serviceAnswer, toStorage: false }]) {
			expect(describeHttpFailure(401, '', context)).toMatchObject({ code: 'unauthorized', message: 'Invalid or missing credentials (401 Unauthorized)' });
		}
	});
});

describe('the storage not answering is named as the storage', () => {
	const where = { timeoutMs: 5000, host: 'https://bucket.example.net', toStorage: true };

	it.each([
		{
			error: { code: 'ECONNREFUSED' },
			failure: {
				code: 'connection_refused',
				retryable: false,
				message: 'Could not connect to the storage at https://bucket.example.net: connection refused',
				description:
					'The storage URL the service handed out could not be reached from n8n (ECONNREFUSED). Try again later; the credential is not the cause, as the file goes to storage without it. If it keeps failing, the service hands out a storage address n8n cannot reach: ask its operator.',
			},
		},
		{ error: { code: 'ENOTFOUND' }, failure: { code: 'host_unreachable', message: 'Could not connect to the storage at https://bucket.example.net: host not found', description: expect.stringContaining('could not be reached from n8n (ENOTFOUND)') } },
		{ error: { code: 'ETIMEDOUT' }, failure: { code: 'timeout', message: 'The storage did not answer within 5000 ms', description: 'Raise the "Timeout" option for large images, or run the item again later; the credential is not the cause, as the file goes to storage without it.' } },
		{ error: { code: 'ECONNRESET' }, failure: { code: 'connection_reset', message: 'The connection to the storage was reset before it answered', description: 'The connection to https://bucket.example.net was dropped (ECONNRESET). This is usually temporary; the credential is not the cause, as the file goes to storage without it.' } },
		{ error: { code: 'EPROTO', message: 'wrong version number' }, failure: { code: 'request_failed', message: 'The request to the storage at https://bucket.example.net failed (EPROTO)', description: 'wrong version number' } },
	])('$error.code', ({ error, failure }) => {
		const described = describeNetworkFailure(error, where);
		expect(described).toEqual(expect.objectContaining(failure));
		expect(described.description).not.toMatch(/Base URL/);
	});

	it('the service not answering still points at the Base URL', () => {
		for (const toStorage of [undefined, false]) {
			expect(describeNetworkFailure({ code: 'ECONNREFUSED' }, { ...where, toStorage })).toMatchObject({
				message: 'Could not connect to https://bucket.example.net: connection refused',
				description: 'Check the Base URL in the "Image Inference API" credential and that the service is reachable from n8n (ECONNREFUSED).',
			});
			expect(describeNetworkFailure({ code: 'ETIMEDOUT' }, { ...where, toStorage }).message).toBe('The service did not answer within 5000 ms');
			expect(describeNetworkFailure({ code: 'ECONNRESET' }, { ...where, toStorage }).message).toBe('The connection to the service was reset before it answered');
			expect(describeNetworkFailure({ code: 'EPROTO' }, { ...where, toStorage }).message).toBe('The request to https://bucket.example.net failed (EPROTO)');
		}
	});
});
