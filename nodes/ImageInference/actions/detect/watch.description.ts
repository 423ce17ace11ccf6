import type { INodeProperties } from 'n8n-workflow';

import { COOLDOWN_BOUNDS, DEFAULT_COOLDOWN_SCOPE, DEFAULT_DEPARTURE_AFTER_LOOKS, DEFAULT_WATCH_KEY, DEPARTURE_AFTER_LOOKS_BOUNDS, MAX_WATCH_KEYS } from '../../pipeline/comparison';
import {
	COUNT_AFTER_LOOKS_BOUNDS,
	DEFAULT_ARRIVALS_PERIOD,
	DEFAULT_COUNT_AFTER_LOOKS,
	DEFAULT_KEEP_MISSED_LOOKS,
	DEFAULT_MIN_OVERLAP,
	KEEP_MISSED_LOOKS_BOUNDS,
	MIN_OVERLAP_BOUNDS,
	STAY_MINUTES_BOUNDS,
} from '../../pipeline/tracking';
import { ASPECT_RATIO_BOUNDS, DEFAULT_ZONE_ANCHOR, DEFAULT_ZONE_UNITS } from '../../pipeline/zones';

/** A fraction of the image's area, as the node-wide and the zones' own Min / Max Object Size take it. */
const AREA_FRACTION = { minValue: 0, maxValue: 1, numberPrecision: 4 };

/** Detect's options for watching a place: zones, object sizes, and what changed since the last look. */
export const watchOptions: INodeProperties[] = [
	{
		displayName: 'Zones',
		name: 'zones',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Zone',
		default: {},
		description:
			'Named areas of the image. Each object gets the zones its anchor point is in, and countsByZone counts labels per zone. The annotated picture still shows every box the service drew.',
		options: [
			{
				displayName: 'Zone',
				name: 'zone',
				values: [
					{
						displayName: 'Max Object Size',
						name: 'maxObjectSize',
						type: 'number',
						default: 0,
						typeOptions: AREA_FRACTION,
						description: 'For objects whose anchor is in this zone, this fraction of the image’s area instead of the node’s Max Object Size. 0: the node’s.',
					},
					{
						displayName: 'Min Object Size',
						name: 'minObjectSize',
						type: 'number',
						default: 0,
						typeOptions: AREA_FRACTION,
						description: 'For objects whose anchor is in this zone, this fraction of the image’s area instead of the node’s Min Object Size (a person far away is small). 0: the node’s.',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. driveway',
						description: 'How the zone is named in countsByZone and in each object’s zones',
					},
					{
						displayName: 'Only These Labels',
						name: 'labels',
						type: 'string',
						default: '',
						placeholder: 'e.g. person',
						description: 'Count only objects with these labels in this zone, comma-separated, exactly as the service spells them. Empty: every label.',
					},
					{
						displayName: 'Points',
						name: 'points',
						type: 'string',
						default: '',
						placeholder: 'e.g. 0.1,0.6 0.5,0.6 0.5,1 0.1,1',
						description:
							'The polygon’s corners, at least 3, as x,y pairs separated by spaces, in the unit Zone Coordinates sets (relative: 0–1 of the image’s width and height from its top-left corner)',
					},
				],
			},
		],
	},
	{
		displayName: 'Ignore Regions',
		name: 'ignoreRegions',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Ignore Region',
		default: {},
		description:
			'Areas where objects are left out before zones and counts: a tree that moves, a poster of a person, the street behind the driveway. An object is in a region when its anchor point is (Zone Anchor Point), in the zones’ coordinates.',
		options: [
			{
				displayName: 'Region',
				name: 'region',
				values: [
					{
						displayName: 'Points',
						name: 'points',
						type: 'string',
						default: '',
						placeholder: 'e.g. 0,0 1,0 1,0.3 0,0.3',
						description: 'The polygon’s corners, at least 3, as x,y pairs separated by spaces, in the unit Zone Coordinates sets',
					},
				],
			},
		],
	},
	{
		displayName: 'Zone Coordinates',
		name: 'zoneCoordinates',
		type: 'options',
		options: [
			{ name: 'Relative (0–1)', value: 'relative', description: 'Fractions of the image’s width and height: the same zone fits any resolution' },
			{ name: 'Pixels', value: 'pixels', description: 'Pixels from the image’s top-left corner' },
		],
		default: DEFAULT_ZONE_UNITS,
		description: 'The unit of the zones’ points',
	},
	{
		displayName: 'Zone Anchor Point',
		name: 'zoneAnchor',
		type: 'options',
		options: [
			{ name: 'Box Centre', value: 'center', description: 'The middle of the box' },
			{
				name: 'Bottom Centre',
				value: 'bottomCenter',
				description: 'The middle of the box’s bottom edge: where a car or a person stands on the ground, as a camera sees it',
			},
		],
		default: DEFAULT_ZONE_ANCHOR,
		description: 'Which point of an object’s box must lie in a zone for the object to be in it',
	},
	{
		displayName: 'Only Objects in Zones',
		name: 'onlyInZones',
		type: 'boolean',
		default: false,
		description: 'Whether objects in no zone are left out; counts, summary and Max Objects follow, like the label filters',
	},
	{
		displayName: 'Min Object Size',
		name: 'minObjectSize',
		type: 'number',
		default: 0.002,
		typeOptions: AREA_FRACTION,
		description: 'Leave out objects whose box is smaller than this fraction of the image’s area (0.002 is 0.2 %): a car far away',
	},
	{
		displayName: 'Max Object Size',
		name: 'maxObjectSize',
		type: 'number',
		default: 0.5,
		typeOptions: AREA_FRACTION,
		description: 'Leave out objects whose box is larger than this fraction of the image’s area',
	},
	{
		displayName: 'Min Aspect Ratio',
		name: 'minAspectRatio',
		type: 'number',
		default: 0.2,
		typeOptions: { minValue: ASPECT_RATIO_BOUNDS.min, maxValue: ASPECT_RATIO_BOUNDS.max, numberPrecision: 2 },
		description: 'Leave out objects whose box’s width ÷ height is below this: a standing person is about 0.4, a car seen from the side about 2',
	},
	{
		displayName: 'Max Aspect Ratio',
		name: 'maxAspectRatio',
		type: 'number',
		default: 5,
		typeOptions: { minValue: ASPECT_RATIO_BOUNDS.min, maxValue: ASPECT_RATIO_BOUNDS.max, numberPrecision: 2 },
		description: 'Leave out objects whose box’s width ÷ height is above this: with Only These Labels person, 1 leaves out a lying shadow',
	},
	{
		displayName: 'Compare With Previous Look',
		name: 'compareWithPreviousLook',
		type: 'boolean',
		default: false,
		description:
			'Whether to compare the counts with the last image of the same Watch Key and output what changed (comparison.changed, appeared, disappeared). The last look is kept in the workflow’s static data, which n8n saves for active workflows only, not for manual test runs.',
	},
	{
		displayName: 'Watch Key',
		name: 'watchKey',
		type: 'string',
		default: DEFAULT_WATCH_KEY,
		placeholder: 'e.g. {{ $json.cameraId }}',
		description: `Which place an image shows, for Compare With Previous Look: one key per camera or folder. At most ${MAX_WATCH_KEYS} keys are kept; beyond that the one seen longest ago is forgotten.`,
		displayOptions: { show: { compareWithPreviousLook: [true] } },
	},
	{
		displayName: 'Cooldown (Minutes)',
		name: 'cooldownMinutes',
		type: 'number',
		default: 0,
		typeOptions: { minValue: COOLDOWN_BOUNDS.min, maxValue: COOLDOWN_BOUNDS.max },
		description:
			'After a reported change, further changes of the same kind (arrivals or departures, in the Cooldown Scope) are held back for this long: one notification, not one a minute. What still holds when it ends is reported then. 0: no cooldown.',
		displayOptions: { show: { compareWithPreviousLook: [true] } },
	},
	{
		displayName: 'Cooldown Scope',
		name: 'cooldownScope',
		type: 'options',
		options: [
			{ name: 'Watch Key', value: 'watchKey', description: 'One cooldown for arrivals and one for departures per Watch Key' },
			{ name: 'Label', value: 'label', description: 'Per label: a cat arriving is reported while the person’s cooldown runs' },
			{
				name: 'Zone and Label',
				value: 'zoneAndLabel',
				description: 'Per zone and label: a person in the garden is reported while the person at the door’s cooldown runs',
			},
		],
		default: DEFAULT_COOLDOWN_SCOPE,
		description: 'What one cooldown covers',
		displayOptions: { show: { compareWithPreviousLook: [true] } },
	},
	{
		displayName: 'Departure After Looks',
		name: 'departureAfterLooks',
		type: 'number',
		default: DEFAULT_DEPARTURE_AFTER_LOOKS,
		typeOptions: { minValue: DEPARTURE_AFTER_LOOKS_BOUNDS.min, maxValue: DEPARTURE_AFTER_LOOKS_BOUNDS.max, numberPrecision: 0 },
		description: 'How many looks in a row a count must stay lower before the drop is reported: 2 ignores a detector that misses an object for one look',
		displayOptions: { show: { compareWithPreviousLook: [true] } },
	},
	{
		displayName: 'Track Objects Across Looks',
		name: 'trackObjects',
		type: 'boolean',
		default: false,
		description:
			'Whether to follow each object from one look of the Watch Key to the next: each detection gets a trackId, firstSeenAt and seenForSeconds, and tracking lists arrivals, departures with how long each stayed, and stays over a limit. Needs the image’s size.',
		displayOptions: { show: { compareWithPreviousLook: [true] } },
	},
	{
		displayName: 'Track Min Overlap',
		name: 'trackMinOverlap',
		type: 'number',
		default: DEFAULT_MIN_OVERLAP,
		typeOptions: { minValue: MIN_OVERLAP_BOUNDS.min, maxValue: MIN_OVERLAP_BOUNDS.max, numberPrecision: 2 },
		description:
			'How much a box must overlap the object’s box in the look before to be the same object (intersection over union, 0–1). Lower it when objects move between looks; 0 takes any overlap.',
		displayOptions: { show: { compareWithPreviousLook: [true], trackObjects: [true] } },
	},
	{
		displayName: 'Track Kept Through Missed Looks',
		name: 'trackKeepMissedLooks',
		type: 'number',
		default: DEFAULT_KEEP_MISSED_LOOKS,
		typeOptions: { minValue: KEEP_MISSED_LOOKS_BOUNDS.min, maxValue: KEEP_MISSED_LOOKS_BOUNDS.max, numberPrecision: 0 },
		description:
			'How many looks in a row an object may be missing (someone walks in front of the car) and keep its trackId; missing for one more, it has departed. An object whose anchor is out of a zone for no more looks than this keeps its time in the zone. 0: departed at the first look without it.',
		displayOptions: { show: { compareWithPreviousLook: [true], trackObjects: [true] } },
	},
	{
		displayName: 'Arrival After Looks',
		name: 'trackCountAfterLooks',
		type: 'number',
		default: DEFAULT_COUNT_AFTER_LOOKS,
		typeOptions: { minValue: COUNT_AFTER_LOOKS_BOUNDS.min, maxValue: COUNT_AFTER_LOOKS_BOUNDS.max, numberPrecision: 0 },
		description: 'How many looks in a row a new object must be seen before it counts as an arrival: 2 sends nothing for one false detection',
		displayOptions: { show: { compareWithPreviousLook: [true], trackObjects: [true] } },
	},
	{
		displayName: 'Report Stays Longer Than (Minutes)',
		name: 'reportStaysLongerThan',
		type: 'number',
		default: 10,
		typeOptions: { minValue: STAY_MINUTES_BOUNDS.min, maxValue: STAY_MINUTES_BOUNDS.max, numberPrecision: 1 },
		description:
			'List in tracking.overstays each object seen for longer than this. An object’s stay is reported as new once (alreadyReported false, counted in tracking.newOverstayCount), so an IF on it alerts once per stay.',
		displayOptions: { show: { compareWithPreviousLook: [true], trackObjects: [true] } },
	},
	{
		displayName: 'Stay Limits per Zone',
		name: 'zoneStayLimits',
		type: 'string',
		default: '',
		placeholder: 'e.g. no-parking: 10, gate: 2',
		description: 'Zone: minutes pairs, comma-separated: an object whose anchor has been in the zone longer than its minutes is listed in tracking.overstays with the zone',
		displayOptions: { show: { compareWithPreviousLook: [true], trackObjects: [true] } },
	},
	{
		displayName: 'Count Arrivals',
		name: 'countArrivalsPer',
		type: 'options',
		options: [
			{ name: 'Since the First Look', value: 'firstLook', description: 'The counts (tracking.arrivalsByLabel) hold every arrival since the key’s first tracked look' },
			{ name: 'Per Day', value: 'day', description: 'The counts start again each day, in the workflow’s time zone' },
		],
		default: DEFAULT_ARRIVALS_PERIOD,
		description: 'What tracking.arrivalsByLabel and arrivalsByZone count: how many objects came, not how many photos showed them',
		displayOptions: { show: { compareWithPreviousLook: [true], trackObjects: [true] } },
	},
];
