import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readOptionalBoolean } from '../../ImageInference/parameters/readers';
import type { CameraLogin } from '../camera/snapshot';
import { CAMERA_TIMEOUT_BOUNDS, DEFAULT_CAMERA_TIMEOUT_SECONDS, DEFAULT_FROZEN_AFTER_LOOKS, FROZEN_AFTER_LOOKS_BOUNDS } from '../camera/snapshot';
import type { LookUnit } from './cadence';
import { LOOK_EVERY_BOUNDS, LOOK_UNITS, intervalMs } from './cadence';
import type { EventKind } from './events';
import { EVENT_KINDS, PROBLEM_MINUTES_BOUNDS } from './events';

export const CAMERA_CREDENTIAL_TYPE = 'imageInferenceCameraApi';

export interface TriggerSettings {
	cameraUrl: string;
	usesCredential: boolean;
	intervalMs: number;
	unit: LookUnit;
	events: ReadonlySet<EventKind>;
	cameraTimeoutMs: number;
	frozenAfterLooks: number;
	ignoreSslIssues: boolean;
	/** 0: camera problems are only logged. */
	reportProblemsAfterMs: number;
	/** Track Objects Across Looks: the events come from the tracks, else from the counts. */
	tracking: boolean;
}

/**
 * A setting the trigger cannot run with. n8n shows an activation error by its message alone, so
 * the fix goes in the message.
 */
export function refuse(trigger: ITriggerFunctions, problem: string, fix: string): NodeOperationError {
	return new NodeOperationError(trigger.getNode(), `${problem}: ${fix}`, { description: fix });
}

function readNumber(trigger: ITriggerFunctions, value: unknown, name: string, bounds: { min: number; max: number }, integer = false): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < bounds.min || value > bounds.max || (integer && !Number.isInteger(value))) {
		throw refuse(trigger, `${name} is ${JSON.stringify(value) ?? 'empty'}`, `enter ${integer ? 'a whole number' : 'a number'} from ${bounds.min} to ${bounds.max}`);
	}
	return value;
}

function readCameraUrl(trigger: ITriggerFunctions): string {
	const raw = trigger.getNodeParameter('cameraUrl', '');
	const text = typeof raw === 'string' ? raw.trim() : '';
	const fix = 'enter the camera’s snapshot address, starting with http:// or https:// (for an RTSP camera, a snapshot address of go2rtc, Frigate or Home Assistant: see the docs)';
	if (text === '') throw refuse(trigger, 'Camera Snapshot URL is empty', fix);
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw refuse(trigger, 'Camera Snapshot URL is not an address', fix);
	}
	if (url.protocol === 'rtsp:' || url.protocol === 'rtsps:') throw refuse(trigger, 'Camera Snapshot URL is an RTSP stream, which the trigger cannot read', fix);
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(trigger, `Camera Snapshot URL starts with ${url.protocol}`, fix);
	if (url.username || url.password) {
		throw refuse(trigger, 'Camera Snapshot URL has a login in it', 'remove the user name and password from the address and put them in a camera credential (Camera Login), where they are stored encrypted');
	}
	return text;
}

function readEvents(trigger: ITriggerFunctions, tracking: boolean): ReadonlySet<EventKind> {
	const raw = trigger.getNodeParameter('events', []);
	const fix = `choose at least one of Start the Workflow On’s events (${EVENT_KINDS.join(', ')})`;
	if (!Array.isArray(raw) || raw.length === 0) throw refuse(trigger, 'No event is chosen', fix);
	const unknown = raw.filter((kind) => !(EVENT_KINDS as readonly unknown[]).includes(kind));
	if (unknown.length) throw refuse(trigger, `Start the Workflow On has an unknown event ${JSON.stringify(unknown[0])}`, fix);
	const events = new Set(raw as EventKind[]);
	if (events.has('stay') && !tracking) {
		throw refuse(trigger, 'Stay Over Its Limit needs Track Objects Across Looks', 'add Options > Track Objects Across Looks and turn it on, or take Stay Over Its Limit out of Start the Workflow On');
	}
	return events;
}

/** The trigger's own settings, checked at activation: a wrong one refuses the activation, saying what to fix. */
export function readTriggerSettings(trigger: ITriggerFunctions): TriggerSettings {
	const options = (trigger.getNodeParameter('options', {}) ?? {}) as IDataObject;
	// read as Detect reads it (an expression may give the text "true"), so both agree on whether objects are tracked
	const tracking = readOptionalBoolean.call(trigger, 0, options, 'trackObjects', 'Track Objects Across Looks') === true;
	const cameraUrl = readCameraUrl(trigger);
	const unitValue = trigger.getNodeParameter('lookEveryUnit', 'seconds');
	if (!(LOOK_UNITS as readonly unknown[]).includes(unitValue)) throw refuse(trigger, `Unit is ${JSON.stringify(unitValue)}`, 'choose Seconds or Minutes');
	const unit = unitValue as LookUnit;
	const every = readNumber(trigger, trigger.getNodeParameter('lookEvery', 5), 'Look Every', LOOK_EVERY_BOUNDS, true);
	const optional = (name: string, label: string, fallback: number, bounds: { min: number; max: number }, integer = false) =>
		options[name] === undefined ? fallback : readNumber(trigger, options[name], label, bounds, integer);
	const frozenAfterLooks = optional('frozenAfterLooks', 'Frozen Picture After Looks', DEFAULT_FROZEN_AFTER_LOOKS, FROZEN_AFTER_LOOKS_BOUNDS, true);
	// one look is always the same as itself: 1 would call every picture frozen
	if (frozenAfterLooks === 1) throw refuse(trigger, 'Frozen Picture After Looks is 1', 'enter 0 (never) or 2 or more');
	return {
		cameraUrl,
		usesCredential: trigger.getNodeParameter('authentication', 'none') === 'cameraApi',
		intervalMs: intervalMs(every, unit),
		unit,
		events: readEvents(trigger, tracking),
		cameraTimeoutMs: optional('cameraTimeout', 'Camera Timeout', DEFAULT_CAMERA_TIMEOUT_SECONDS, CAMERA_TIMEOUT_BOUNDS) * 1000,
		frozenAfterLooks,
		ignoreSslIssues: options.ignoreSslIssues === true,
		reportProblemsAfterMs: optional('reportCameraProblemsAfter', 'Report Camera Problems After', 0, PROBLEM_MINUTES_BOUNDS) * 60_000,
		tracking,
	};
}

/** The camera login from the Image Inference Camera credential, or none. */
export async function readCameraLogin(trigger: ITriggerFunctions, settings: TriggerSettings): Promise<{ login: CameraLogin; ignoreSslIssues: boolean }> {
	if (!settings.usesCredential) return { login: { kind: 'none' }, ignoreSslIssues: settings.ignoreSslIssues };
	const credential = await trigger.getCredentials(CAMERA_CREDENTIAL_TYPE);
	const ignoreSslIssues = settings.ignoreSslIssues || credential.ignoreSslIssues === true;
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	if (credential.loginType === 'header') {
		const name = text(credential.headerName).trim();
		if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
			throw refuse(trigger, 'The camera credential’s Header Name is not a header name', 'enter a name such as Authorization or X-Api-Key, without spaces or a colon');
		}
		return { login: { kind: 'header', name, value: text(credential.headerValue) }, ignoreSslIssues };
	}
	const kind = credential.loginType === 'digest' ? 'digest' : 'basic';
	return { login: { kind, username: text(credential.username), password: text(credential.password) }, ignoreSslIssues };
}
