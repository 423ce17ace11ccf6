import { createRedactor, describeHttpFailure, describeNetworkFailure, snippet } from '../../nodes/ImageInference/transport/errors';

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
