/**
 * A stand-in for the prediction service that replays the reference server's own answers (see
 * ./phone-answers) after a fixed latency, so a batch of 12–16 MB photos costs the service side
 * nothing but the transfer: the node and n8n are what the batch benchmark measures. It checks what
 * matters for the measurement: the key, the path (the synthetic model's id), and that the body is
 * `{"image":"<base64 of one known photo>"}` in full (recognised by its first 64 KiB, its length
 * checked). Binds 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

import { listenOnLoopback } from '../harness/loopback';

import { SYNTHETIC_DETECT_MODEL } from './models';

export interface ProgrammedAnswer {
	/** The photo the request must carry. */
	photo: Buffer;
	/** The answer body to send back. */
	body: Buffer;
}

export interface ServedRequest {
	photo: number;
	/** When the request arrived, when its body was read in full, when the answer was sent. */
	at: number;
	receivedAt: number;
	answeredAt: number;
}

export interface ProgrammedService {
	url: string;
	apiKey: string;
	served: ServedRequest[];
	setLatency(ms: number): void;
	close(): Promise<void>;
}

const HEAD = Buffer.from('{"image":"');
const TAIL = Buffer.from('"}');
/** The photo is recognised by this much of its base64 (48 KiB of the file). */
const FINGERPRINT_CHARS = 64 * 1024;

const fingerprint = (base64Head: Buffer) => createHash('sha256').update(base64Head).digest('hex');

export async function startProgrammedService(answers: ProgrammedAnswer[], latencyMs: number): Promise<ProgrammedService> {
	const apiKey = 'bench-programmed';
	const byFingerprint = new Map<string, { index: number; bodyLength: number }>();
	answers.forEach(({ photo }, index) => {
		const head = Buffer.from(photo.subarray(0, (FINGERPRINT_CHARS / 4) * 3).toString('base64'));
		byFingerprint.set(fingerprint(head), { index, bodyLength: HEAD.length + Math.ceil(photo.length / 3) * 4 + TAIL.length });
	});
	const served: ServedRequest[] = [];
	let latency = latencyMs;
	const path = `/predict/detect/${SYNTHETIC_DETECT_MODEL}/`;

	const server = createServer((request, response) => {
		const at = Date.now();
		const fail = (status: number, message: string) => {
			request.resume();
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ detail: message }));
		};
		if (request.method !== 'POST' || request.url !== path) return fail(404, 'Not Found');
		if (request.headers['x-api-key'] !== apiKey) return fail(401, 'Invalid or missing credentials');
		const head: Buffer[] = [];
		let headLength = 0;
		let length = 0;
		request.on('data', (chunk: Buffer) => {
			length += chunk.length;
			if (headLength < HEAD.length + FINGERPRINT_CHARS) {
				head.push(chunk);
				headLength += chunk.length;
			}
		});
		request.on('end', () => {
			const receivedAt = Date.now();
			const start = Buffer.concat(head);
			const imageHead = start.subarray(HEAD.length, HEAD.length + FINGERPRINT_CHARS);
			// a photo smaller than the fingerprint ends at its closing quote (base64 has none)
			const quote = imageHead.indexOf(0x22);
			const known = start.subarray(0, HEAD.length).equals(HEAD)
				? byFingerprint.get(fingerprint(quote === -1 ? imageHead : imageHead.subarray(0, quote)))
				: undefined;
			if (!known || known.bodyLength !== length) {
				response.writeHead(400, { 'content-type': 'application/json' });
				return void response.end(JSON.stringify({ detail: `not one of the programmed photos in full (${length} bytes)` }));
			}
			const answer = answers[known.index].body;
			setTimeout(() => {
				response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
				response.end(answer, () => {
					if (served.length < 10_000) served.push({ photo: known.index, at, receivedAt, answeredAt: Date.now() });
				});
			}, latency).unref();
		});
	});
	const listening = await listenOnLoopback(server);
	return {
		url: listening.url,
		apiKey,
		served,
		setLatency: (ms) => {
			latency = ms;
		},
		close: listening.close,
	};
}
