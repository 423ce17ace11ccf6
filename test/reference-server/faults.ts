import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import type { PredictionKind } from '../../nodes/ImageInference/contract';
import type { ProjectCall } from './projects';

export type FaultAction =
	/** `inTwoPiecesMs`: the body's first half, then the rest that much later (two reads for the client) */
	| { type: 'status'; status: number; body?: string | object; headers?: Record<string, string>; inTwoPiecesMs?: number }
	| { type: 'html'; status: number }
	| { type: 'reset' }
	| { type: 'hang' }
	| { type: 'malformed-json' }
	| { type: 'schema-break' }
	| { type: 'bad-annotated-image' }
	| { type: 'extra-field' }
	| { type: 'delay'; ms: number }
	/**
	 * a 200 whose body comes a byte every `intervalMs`, whole `forMs` after its head (a proxy that
	 * trickles); the head comes `headAfterMs` after the request (default at once)
	 */
	| { type: 'trickle'; intervalMs: number; forMs: number; headAfterMs?: number };

/** The project upload calls, and the PUT to the storage (its own server). */
export type FaultCall = ProjectCall | 'storage';

/** What a rule with a `call` can do; `delay` still performs the call, the others do not. */
const CALL_ACTIONS = new Set<FaultAction['type']>(['status', 'html', 'reset', 'hang', 'malformed-json', 'delay']);

export interface FaultRule {
	/** With `call`, the rule applies to that call only; without, to predictions only. */
	match?: { call?: FaultCall; kind?: PredictionKind; modelId?: string; imageSha256?: string };
	/** How many matching requests it applies to; unlimited when left out. */
	times?: number;
	action: FaultAction;
}

export type FaultTarget = { call?: undefined; kind: PredictionKind; modelId: string; imageSha256?: string } | { call: FaultCall };

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** Programmable faults: the first rule that matches a request and has uses left fires. */
export class FaultRegistry {
	private rules: Array<FaultRule & { fired: number }> = [];

	add(rule: FaultRule): void {
		if (rule.match?.call !== undefined && !CALL_ACTIONS.has(rule.action.type)) {
			throw new Error(`a ${rule.action.type} fault applies to predictions only, not to the ${rule.match.call} call`);
		}
		this.rules.push({ ...rule, fired: 0 });
	}

	/** Whether any rule needs the image's fingerprint (computing it costs a decode and a hash). */
	matchesOnImage(): boolean {
		return this.rules.some((rule) => rule.match?.imageSha256 !== undefined);
	}

	clear(): void {
		this.rules = [];
	}

	/** How often each rule fired, in the order added. */
	firedCounts(): number[] {
		return this.rules.map((rule) => rule.fired);
	}

	take(target: FaultTarget): FaultAction | undefined {
		const rule = this.rules.find(
			(candidate) =>
				(candidate.times === undefined || candidate.fired < candidate.times) &&
				candidate.match?.call === target.call &&
				(target.call !== undefined ||
					((candidate.match?.kind === undefined || candidate.match.kind === target.kind) &&
						(candidate.match?.modelId === undefined || candidate.match.modelId === target.modelId) &&
						(candidate.match?.imageSha256 === undefined || candidate.match.imageSha256 === target.imageSha256))),
		);
		if (!rule) return undefined;
		rule.fired++;
		return rule.action;
	}
}

/**
 * Answers with the fault instead of the call (`delay`, `bad-annotated-image` and `extra-field`
 * change a real answer and are applied by the caller). `record.status` is set to what was sent:
 * -1 for a reset, -2 for a hang.
 */
export function sendFault(fault: FaultAction, response: ServerResponse, record: { status: number }): void {
	switch (fault.type) {
		case 'status': {
			record.status = fault.status;
			const text = fault.body === undefined ? '' : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
			const type = typeof fault.body === 'object' ? 'application/json' : 'text/plain';
			response.writeHead(fault.status, { ...(text ? { 'content-type': type } : {}), 'content-length': Buffer.byteLength(text), ...fault.headers });
			if (fault.inTwoPiecesMs === undefined) return void response.end(text);
			const half = Math.floor(text.length / 2);
			response.write(text.slice(0, half));
			const rest = setTimeout(() => response.end(text.slice(half)), fault.inTwoPiecesMs);
			return void response.on('close', () => clearTimeout(rest));
		}
		case 'html': {
			record.status = fault.status;
			const page = `<!DOCTYPE html><html><head><title>${fault.status} Bad Gateway</title></head><body><center><h1>${fault.status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;
			response.writeHead(fault.status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
			return void response.end(page);
		}
		case 'reset':
			record.status = -1;
			response.writeHead(200, { 'content-type': 'application/json', 'content-length': 4096 });
			response.write('{"detections":[{"label":"red","confid');
			return void setImmediate(() => response.socket?.destroy());
		case 'hang':
			record.status = -2;
			return;
		case 'trickle': {
			record.status = 200;
			let drip: NodeJS.Timeout | undefined;
			const head = setTimeout(() => {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.write('{"detections": [');
				const started = Date.now();
				drip = setInterval(() => {
					if (Date.now() - started < fault.forMs) return void response.write(' ');
					clearInterval(drip);
					response.end('], "labelsCount": []}');
				}, fault.intervalMs);
			}, fault.headAfterMs ?? 0);
			return void response.on('close', () => {
				clearTimeout(head);
				clearInterval(drip);
			});
		}
		case 'malformed-json': {
			record.status = 200;
			const text = '{"detections": [{"label": "red", "confidence": 0.9,, ]';
			response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
			return void response.end(text);
		}
		case 'schema-break': {
			record.status = 200;
			const text = JSON.stringify({ detections: [{ label: 'red', confidence: 'high', x: 1, y: 2, width: 3, height: 4 }], image: null });
			response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
			return void response.end(text);
		}
		default:
			throw new Error(`fault ${fault.type} is applied elsewhere`);
	}
}
