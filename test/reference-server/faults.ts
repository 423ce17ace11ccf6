import { createHash } from 'node:crypto';

import type { PredictionKind } from '../../nodes/ImageInference/contract';

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

export interface FaultRule {
	match?: { kind?: PredictionKind; modelId?: string; imageSha256?: string };
	/** How many matching requests it applies to; unlimited when left out. */
	times?: number;
	action: FaultAction;
}

export interface FaultTarget {
	kind: PredictionKind;
	modelId: string;
	imageSha256?: string;
}

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** Programmable faults: the first rule that matches a request and has uses left fires. */
export class FaultRegistry {
	private rules: Array<FaultRule & { fired: number }> = [];

	add(rule: FaultRule): void {
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
				(candidate.match?.kind === undefined || candidate.match.kind === target.kind) &&
				(candidate.match?.modelId === undefined || candidate.match.modelId === target.modelId) &&
				(candidate.match?.imageSha256 === undefined || candidate.match.imageSha256 === target.imageSha256),
		);
		if (!rule) return undefined;
		rule.fired++;
		return rule.action;
	}
}
