import type { IBinaryKeyData, IDataObject, INodeExecutionData, ITriggerFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { router } from '../../ImageInference/actions/router';
import type { ProblemKind, Snapshot } from '../camera/snapshot';
import { CameraProblem, fetchSnapshot, pictureFingerprint } from '../camera/snapshot';
import { isDue, waitAfter } from './cadence';
import { detectContext } from './detectContext';
import type { EventKind, LookEvent } from './events';
import { deduplicationKey, eventId, eventsOfLook } from './events';
import type { TriggerSettings } from './settings';
import { readCameraLogin } from './settings';
import type { TriggerState } from './triggerState';
import { comparedLook, readTriggerState, trackBoxes, tracksMovedAway, writeTriggerState } from './triggerState';

/** What one look gave: Detect's output item for the snapshot and the events the user picked. */
export interface LookResult {
	output: INodeExecutionData;
	events: LookEvent[];
	/** Whether the look started or ended something (an arrival, a departure, a stay), picked or not. */
	changed: boolean;
}

/** The kinds that change what later looks compare with. */
const STATE_CHANGES: ReadonlySet<EventKind> = new Set<EventKind>(['arrival', 'departure', 'stay']);

/** The camera's frozen-picture count, carried from look to look in memory. */
export interface FrozenCount {
	fingerprint?: string;
	looks: number;
}

/** The camera credential deleted or changed since the activation checked it. */
const credentialProblem = (error: unknown) => new CameraProblem('login', `The camera credential cannot be used: ${error instanceof Error ? error.message : String(error)}`);

/** A look's failure as a CameraProblem: the camera's own, or the service's (a failed Detect). */
export function asCameraProblem(error: unknown): CameraProblem {
	if (error instanceof CameraProblem) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new CameraProblem('service', `The image inference service failed on the snapshot: ${message}`);
}

/**
 * One look: the snapshot, Detect on it (comparing with the looks in `staticData`), the events of
 * the kinds picked. Throws a CameraProblem when the camera or the service fails; then nothing of
 * the look is kept (Detect writes its look only once the service has answered).
 */
export async function lookOnce(
	trigger: ITriggerFunctions,
	settings: TriggerSettings,
	staticData: IDataObject,
	frozen: FrozenCount,
	signal?: AbortSignal,
): Promise<LookResult> {
	let camera: Awaited<ReturnType<typeof readCameraLogin>>;
	try {
		camera = await readCameraLogin(trigger, settings);
	} catch (error) {
		throw credentialProblem(error);
	}
	const { login, ignoreSslIssues } = camera;
	const snapshot: Snapshot = await fetchSnapshot(async (options) => await trigger.helpers.httpRequest(options), {
		url: settings.cameraUrl,
		login,
		timeoutMs: settings.cameraTimeoutMs,
		ignoreSslIssues,
	});
	const fingerprint = pictureFingerprint(snapshot.bytes);
	frozen.looks = fingerprint === frozen.fingerprint ? frozen.looks + 1 : 1;
	frozen.fingerprint = fingerprint;
	if (settings.frozenAfterLooks > 0 && frozen.looks >= settings.frozenAfterLooks) {
		throw new CameraProblem('frozen', `The camera has given exactly the same picture ${frozen.looks} looks in a row: its picture seems frozen (Options > Frozen Picture After Looks)`);
	}
	let outputs: INodeExecutionData[];
	try {
		[outputs] = await router.call(detectContext(trigger, { snapshot, staticData, signal }));
	} catch (error) {
		throw asCameraProblem(error);
	}
	const output = outputs[0] ?? { json: {} };
	return { output, events: eventsOfLook(output.json, settings.events), changed: eventsOfLook(output.json, STATE_CHANGES).length > 0 };
}

/** The look's files, put into n8n's binary store for the execution its events start. */
async function storedFiles(trigger: ITriggerFunctions, binary: IBinaryKeyData | undefined): Promise<IBinaryKeyData | undefined> {
	if (!binary) return undefined;
	const stored: IBinaryKeyData = {};
	for (const [field, file] of Object.entries(binary)) {
		stored[field] = await trigger.helpers.prepareBinaryData(Buffer.from(file.data, 'base64'), file.fileName, file.mimeType);
	}
	return stored;
}

/** The items of one execution: one per event, each with the look's output, `event` first. */
export async function eventItems(
	trigger: ITriggerFunctions,
	events: LookEvent[],
	output: INodeExecutionData | undefined,
	ids: { stateId: string; look: number; prefix?: string },
	at: string,
): Promise<INodeExecutionData[]> {
	// stored once, and shared by the look's items
	const binary = events.length ? await storedFiles(trigger, output?.binary) : undefined;
	return events.map((event) => {
		const id = `${ids.prefix ?? ''}${eventId(ids.stateId, ids.look, event)}`;
		return { json: { event: { ...event, id, at }, ...(output?.json ?? {}) }, ...(binary ? { binary: { ...binary } } : {}) };
	});
}

/** Puts the node's static data back as it was, key by key (n8n observes the object itself, which stays). */
function restoreStaticData(staticData: IDataObject, was: IDataObject): void {
	for (const key of Object.keys(staticData)) if (!(key in was)) delete staticData[key];
	Object.assign(staticData, was);
}

/**
 * The active trigger's looks: started by its cron tick when due, one at a time, backing off while
 * the camera fails, and announcing a camera problem once and its end once.
 */
export class CameraWatch {
	private running = false;
	private stopped = false;
	private nextLookAt = 0;
	private failures = 0;
	private failingSince: number | undefined;
	private loggedKind: ProblemKind | undefined;
	private readonly frozen: FrozenCount = { looks: 0 };
	private controller: AbortController | undefined;
	/** What later looks compare with, as n8n last saved it (comparedLook), and the tracks' boxes then. */
	private savedLook: string;
	private savedTracks: ReadonlyMap<number, [number, number, number, number]>;

	constructor(
		private readonly trigger: ITriggerFunctions,
		private readonly settings: TriggerSettings,
		private readonly staticData: IDataObject,
	) {
		this.savedLook = comparedLook(staticData);
		this.savedTracks = trackBoxes(staticData);
	}

	/** The cron tick: starts a look when one is due and none is running. */
	async tick(now = Date.now()): Promise<void> {
		if (this.stopped || this.running || !isDue(now, this.nextLookAt, this.settings.intervalMs, this.settings.unit)) return;
		this.running = true;
		try {
			await this.look(now);
		} catch (error) {
			// n8n does not wait for a tick: what escapes a look is logged, and the next tick looks again
			this.trigger.logger.error(`Image Inference Trigger "${this.trigger.getNode().name}": ${error instanceof Error ? error.message : String(error)}`);
		} finally {
			this.running = false;
		}
	}

	stop(): void {
		this.stopped = true;
		this.controller?.abort();
	}

	private async look(startedAt: number): Promise<void> {
		this.controller = new AbortController();
		const before = JSON.stringify(this.staticData);
		let result: LookResult | undefined;
		let problem: CameraProblem | undefined;
		try {
			result = await lookOnce(this.trigger, this.settings, this.staticData, this.frozen, this.controller.signal);
		} catch (error) {
			problem = asCameraProblem(error);
		}
		if (this.stopped) return;
		this.failures = problem ? this.failures + 1 : 0;
		this.nextLookAt = startedAt + waitAfter(this.settings.intervalMs, this.failures);
		const state = readTriggerState(this.staticData);
		try {
			if (problem) await this.failed(problem, state, startedAt);
			else if (result) await this.succeeded(result, state, startedAt);
		} catch (error) {
			// the look's execution could not be made (n8n's binary data store failing, say): Detect has
			// already kept the look, which would make the next look find nothing new; it is undone, so
			// the next look announces what this one saw
			restoreStaticData(this.staticData, JSON.parse(before) as IDataObject);
			throw new NodeOperationError(this.trigger.getNode(), error as Error);
		}
	}

	private async succeeded(result: LookResult, state: TriggerState, now: number): Promise<void> {
		this.failingSince = undefined;
		this.loggedKind = undefined;
		const events = [...result.events];
		if (state.problem) events.push({ kind: 'cameraBack', label: null, zone: null, trackId: null });
		// n8n saves the state only with an execution: a look that changed what later looks compare
		// with (a first look, a change not picked, a track moved off its saved box) starts one with no items, which runs no node
		const unsaved = result.changed || comparedLook(this.staticData) !== this.savedLook || tracksMovedAway(this.staticData, this.savedTracks);
		if (events.length === 0 && !unsaved) return;
		await this.announce({ ...state, looks: state.looks + 1, problem: undefined }, events, result.output, now);
	}

	private async failed(problem: CameraProblem, state: TriggerState, now: number): Promise<void> {
		this.failingSince ??= now;
		if (this.loggedKind !== problem.kind) {
			this.loggedKind = problem.kind;
			this.trigger.logger.warn(`Image Inference Trigger "${this.trigger.getNode().name}": ${problem.message}. It keeps looking, backing off up to a minute.`);
		}
		const after = this.settings.reportProblemsAfterMs;
		if (after === 0 || state.problem || now - this.failingSince < after) return;
		const since = new Date(this.failingSince).toISOString();
		const event: LookEvent = { kind: 'cameraProblem', label: null, zone: null, trackId: null };
		await this.announce({ ...state, looks: state.looks + 1, problem: { kind: problem.kind, since } }, [event], { json: { problem: { kind: problem.kind, message: problem.message, since } } }, now);
	}

	/** Emits the look's events as one execution, saving the state that announced them with it. */
	private async announce(state: TriggerState, events: LookEvent[], output: INodeExecutionData, now: number): Promise<void> {
		const items = await eventItems(this.trigger, events, output, { stateId: state.id, look: state.looks }, new Date(now).toISOString());
		writeTriggerState(this.staticData, state);
		this.savedLook = comparedLook(this.staticData);
		this.savedTracks = trackBoxes(this.staticData);
		// n8n 2.x drops a second execution with the same key (a look worked out again after a crash before its state was saved); 1.x ignores the argument
		const ids = items.map((item) => String((item.json.event as IDataObject).id));
		this.trigger.emit([items], undefined, undefined, deduplicationKey(state.id, state.looks, ids));
	}
}
