/**
 * Three zones (relative, bottom-centre anchor, one with its own labels and sizes), an ignore
 * region, a minimum per label, sizes and shape, and Compare With Previous Look with a cooldown per
 * zone and label and Departure After Looks: every knob a watch sets.
 */
export const WATCH_OPTIONS = {
	minConfidenceByLabel: 'person: 0.6, car: 0.3, *: 0.2',
	zones: {
		zone: [
			{ name: 'driveway', points: '0.38,0.53 0.52,0.53 0.58,0.64 0.33,0.64', labels: 'car, truck', minObjectSize: 0.001 },
			{ name: 'street', points: '0,0.55 1,0.5 1,0.7 0,0.75' },
			{ name: 'garden', points: '0,0.3 0.3,0.25 0.35,0.5 0.2,0.6 0,0.55' },
		],
	},
	ignoreRegions: { region: [{ points: '0.9,0 1,0 1,0.2 0.9,0.2' }] },
	zoneAnchor: 'bottomCenter',
	minObjectSize: 0.0005,
	maxObjectSize: 0.9,
	minAspectRatio: 0.1,
	maxAspectRatio: 10,
	compareWithPreviousLook: true,
	cooldownMinutes: 5,
	cooldownScope: 'zoneAndLabel',
	departureAfterLooks: 2,
};
