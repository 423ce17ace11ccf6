import type { FaultAction } from '../reference-server';
import { NIL_UUID } from '../../nodes/ImageInference/contract';
import { ImageInferenceApi } from '../../credentials/ImageInferenceApi.credentials';
import { carItem, detectParameters, failureOf, useServer } from './setup';

const KEY = 'sk-live-7Hq2Zx9WmQ4vB8nK';

/** Every kind of outcome, in both credential modes: the key shows up nowhere a user or a log can see. */
describe('the API key never leaks', () => {
	const { server, run } = useServer({ apiKey: KEY, defaultModels: 'synthetic' });

	const faults: Array<FaultAction | undefined> = [
		undefined,
		{ type: 'status', status: 500, body: `upstream said: bad request for ?api-key=${KEY}` },
		{ type: 'status', status: 404, body: `Not Found: /predict/detect/x/?api-key=${KEY}` },
		{ type: 'status', status: 400, body: { type: 'error', code: 'bad_request', status: 400, message: `bad key ${KEY}`, details: [{ location: 'query', type: 'x', pointer: 'api-key', message: `value ${KEY}` }] } },
		{ type: 'status', status: 503, body: `X-API-Key: ${KEY}` },
		{ type: 'html', status: 502 },
		{ type: 'reset' },
		{ type: 'hang' },
		{ type: 'malformed-json' },
		{ type: 'schema-break' },
		{ type: 'bad-annotated-image' },
	];

	describe.each(['header', 'query'] as const)('key sent as %s', (sendAs) => {
		it.each(faults.map((fault) => [fault?.type ?? 'success', fault] as const))('%s', async (_, fault) => {
			if (fault) server().addFault({ match: { kind: 'detect' }, action: fault });
			const parameters = detectParameters(server(), { options: { retries: 1, timeout: 200 } });
			const withCof = await run(parameters, [carItem(), carItem()], { continueOnFail: true, credentials: { sendAs } });
			expect(JSON.stringify(withCof.items)).not.toContain(KEY);
			// an unreadable annotated picture is a warning on a good item, not a failure
			if (fault && fault.type !== 'bad-annotated-image') {
				const failure = await failureOf(run(parameters, [carItem()], { credentials: { sendAs } }));
				expect(`${failure.message}\n${failure.description}`).not.toContain(KEY);
			}
			// the key did travel, in the one place chosen
			const sent = server().requests.at(-1)!;
			expect(sendAs === 'header' ? sent.headers['x-api-key'] : sent.query['api-key']).toBe(KEY);
		});

		it('a bad key and an unknown model: messages without the key', async () => {
			for (const [modelId, apiKey] of [[server().models.detect, `${KEY}-wrong`], [NIL_UUID, KEY]]) {
				const failure = await failureOf(run(detectParameters(server(), { modelId }), [carItem()], { credentials: { sendAs, apiKey } }));
				expect(`${failure.message}\n${failure.description}`).not.toContain(KEY);
			}
		});
	});

	it('the editor masks the API key as it is typed and shown', () => {
		expect(new ImageInferenceApi().properties.find((property) => property.name === 'apiKey')?.typeOptions?.password).toBe(true);
	});
});
