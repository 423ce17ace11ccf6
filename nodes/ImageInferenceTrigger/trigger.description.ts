import type { INodeProperties } from 'n8n-workflow';

import { modelIdFields } from '../ImageInference/actions/common.description';
import { detectProperties } from '../ImageInference/actions/detect/detect.description';
import { CAMERA_TIMEOUT_BOUNDS, DEFAULT_CAMERA_TIMEOUT_SECONDS, DEFAULT_FROZEN_AFTER_LOOKS, FROZEN_AFTER_LOOKS_BOUNDS } from './camera/snapshot';
import type { EventKind } from './look/events';
import { PROBLEM_MINUTES_BOUNDS } from './look/events';
import { LOOK_EVERY_BOUNDS } from './look/cadence';

/** The events Start the Workflow On offers: each of look/events.ts's kinds. */
export const EVENT_KINDS_OFFERED: Array<{ name: string; value: EventKind; description: string }> = [
	{ name: 'Arrival', value: 'arrival', description: 'An object came (into a zone, with zones): per tracked object, or per label whose count went up' },
	{ name: 'Departure', value: 'departure', description: 'An object left: per tracked object, or per label whose count went down' },
	{
		name: 'Stay Over Its Limit',
		value: 'stay',
		description: 'A tracked object stayed longer than Report Stays Longer Than or its zone’s limit (needs Track Objects Across Looks)',
	},
	{ name: 'Any Change', value: 'change', description: 'The counts changed: one event per look with a change' },
	{ name: 'Every Look', value: 'look', description: 'Every look starts the workflow, changed or not (as a Schedule Trigger would)' },
];

/** Detect's options the trigger sets itself: it always compares under one key, one image at a time, one item per look. */
const SET_BY_THE_TRIGGER = new Set(['compareWithPreviousLook', 'watchKey', 'concurrency', 'includeImagesWithoutObjects']);

/** Detect's option, shown without its condition on Compare With Previous Look (always on here). */
function withoutCompareCondition(option: INodeProperties): INodeProperties {
	const show = option.displayOptions?.show;
	if (!show || !('compareWithPreviousLook' in show)) return option;
	const rest = Object.fromEntries(Object.entries(show).filter(([name]) => name !== 'compareWithPreviousLook'));
	const withoutConditions = Object.fromEntries(Object.entries(option).filter(([name]) => name !== 'displayOptions')) as unknown as INodeProperties;
	const others = Object.fromEntries(Object.entries(option.displayOptions ?? {}).filter(([name]) => name !== 'show'));
	const displayOptions = Object.keys(rest).length ? { ...others, show: rest } : others;
	return Object.keys(displayOptions).length ? { ...withoutConditions, displayOptions } : withoutConditions;
}

const detectOptions = (detectProperties.find((property) => property.name === 'options')?.options ?? []) as INodeProperties[];

const triggerOwnOptions: INodeProperties[] = [
	{
		displayName: 'Camera Timeout (Seconds)',
		name: 'cameraTimeout',
		type: 'number',
		default: DEFAULT_CAMERA_TIMEOUT_SECONDS,
		typeOptions: { minValue: CAMERA_TIMEOUT_BOUNDS.min, maxValue: CAMERA_TIMEOUT_BOUNDS.max },
		description: 'How long one snapshot may take, from asking to its last byte. A slower camera counts as unreachable for that look.',
	},
	{
		displayName: 'Frozen Picture After Looks',
		name: 'frozenAfterLooks',
		type: 'number',
		default: DEFAULT_FROZEN_AFTER_LOOKS,
		typeOptions: { minValue: FROZEN_AFTER_LOOKS_BOUNDS.min, maxValue: FROZEN_AFTER_LOOKS_BOUNDS.max, numberPrecision: 0 },
		description:
			'The camera counts as failing once it gives exactly the same picture this many looks in a row (a frozen stream); 0 never. A live camera’s picture changes at every look through sensor noise.',
	},
	{
		displayName: 'Ignore SSL Issues (Insecure)',
		name: 'ignoreSslIssues',
		type: 'boolean',
		default: false,
		description:
			'Whether to accept the camera’s HTTPS certificate even when it cannot be verified (a camera’s own self-signed certificate). Anyone between n8n and the camera could then see its login.',
	},
	{
		displayName: 'Report Camera Problems After (Minutes)',
		name: 'reportCameraProblemsAfter',
		type: 'number',
		default: 0,
		typeOptions: { minValue: PROBLEM_MINUTES_BOUNDS.min, maxValue: PROBLEM_MINUTES_BOUNDS.max, numberPrecision: 1 },
		description:
			'Start the workflow once with a Camera Problem event when the camera (or the service) has failed for this long, and once with a Camera Back event when a look works again. 0: never; failures are then only logged.',
	},
];

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Camera Snapshot URL',
		name: 'cameraUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. http://192.168.1.20/cgi-bin/snapshot.jpg',
		description:
			'The address that answers with the camera’s current picture as a JPEG or PNG. For an RTSP-only camera, a snapshot address of go2rtc (…/api/frame.jpeg?src=name), Frigate (…/api/name/latest.jpg) or Home Assistant works: see the docs.',
	},
	{
		displayName: 'Camera Login',
		name: 'authentication',
		type: 'options',
		options: [
			{ name: 'None', value: 'none', description: 'The snapshot address needs no login' },
			{ name: 'Camera Credential', value: 'cameraApi', description: 'Basic, Digest or a header token, from an Image Inference Camera credential' },
		],
		default: 'none',
	},
	...modelIdFields
		.filter((field) => field.type === 'resourceLocator')
		.map((field): INodeProperties => ({ ...field, displayOptions: undefined })),
	{
		displayName: 'Look Every',
		name: 'lookEvery',
		type: 'number',
		default: 5,
		typeOptions: { minValue: LOOK_EVERY_BOUNDS.min, maxValue: LOOK_EVERY_BOUNDS.max, numberPrecision: 0 },
		description: 'How often the trigger fetches a snapshot and runs the model on it: 1 to 1,440 seconds or minutes',
	},
	{
		displayName: 'Unit',
		name: 'lookEveryUnit',
		type: 'options',
		options: [
			{ name: 'Seconds', value: 'seconds' },
			{ name: 'Minutes', value: 'minutes' },
		],
		default: 'seconds',
	},
	{
		displayName: 'Start the Workflow On',
		name: 'events',
		type: 'multiOptions',
		options: EVENT_KINDS_OFFERED.map(({ name, value, description }) => ({ name, value, description })),
		default: ['arrival'],
		description: 'The events that start an execution; a look with none starts nothing. Several events of one look come as items of one execution.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...detectOptions.filter((option) => !SET_BY_THE_TRIGGER.has(option.name)).map(withoutCompareCondition), ...triggerOwnOptions].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	},
];
