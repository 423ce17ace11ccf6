/**
 * Static data of another shape (a hand edit, a restore, a look of another format): a look never
 * fails on it, and never stays a first look for good. What cannot be read is started afresh once,
 * and the item's warnings say so.
 */
import type { IDataObject } from 'n8n-workflow';

import { MINUTE, lookAt } from '../harness/watchLooks';
import type { SeenObject, WatchSettings } from '../harness/watchLooks';

const T0 = Date.parse('2026-11-28T08:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MINUTE;
const PARKED: SeenObject = { label: 'car', box: [0.1, 0.6, 0.2, 0.15] };
const OTHER: SeenObject = { label: 'car', box: [0.6, 0.6, 0.2, 0.15] };
const settings: WatchSettings = { zones: [{ name: 'bay', rectangle: [0, 0.5, 0.5, 1] }], stayLimitMinutes: 1, cooldownMinutes: 10, departureAfterLooks: 2 };
const afresh = (key: string, problem: string) => `Compare With Previous Look: the look kept for Watch Key "${key}" ${problem}, so the key starts afresh with its next look`;

/** The static data as the node leaves it after two looks of "gate" and one of "yard": cooldowns running, a stay reported, a zone left. */
function saved(): { looks: Record<string, Record<string, unknown> & { tracking: { nextId: number; tracks: Array<Record<string, unknown>>; arrivals: Record<string, unknown> } }> } {
	const store: IDataObject = {};
	lookAt(store, 'yard', settings, [], at(0));
	lookAt(store, 'gate', settings, [], at(0));
	// in the bay (its anchor at y 0.51), then just out of it (0.49)
	lookAt(store, 'gate', settings, [{ ...PARKED, box: [0.1, 0.36, 0.2, 0.15] }], at(1));
	lookAt(store, 'gate', settings, [{ ...PARKED, box: [0.1, 0.34, 0.2, 0.15] }], at(3));
	const kept = JSON.parse(JSON.stringify(store)) as ReturnType<typeof saved>;
	const gate = kept.looks.gate;
	expect(Object.keys(gate)).toEqual(['seenAt', 'counts', 'zones', 'cooldowns', 'lowerFor', 'settings', 'tracking']);
	expect(Object.keys(gate.tracking.tracks[0])).toEqual(['id', 'label', 'box', 'firstSeen', 'lastSeen', 'seenLooks', 'missedLooks', 'arrived', 'zones', 'overstaysReported', 'zonesLeft']);
	return kept;
}

/** The next look of "gate" on `store`: its warnings, and whether it was a first look; then one more look, which must compare. */
function looksOn(store: IDataObject) {
	const next = lookAt(store, 'gate', settings, [PARKED], at(4));
	const after = lookAt(store, 'gate', settings, [PARKED, OTHER], at(5));
	return { warnings: next.warnings, first: next.comparison!.previousSeenAt === null, afterWarnings: after.warnings, afterFirst: after.comparison!.previousSeenAt === null, arrivals: after.tracking!.arrivals.length };
}

describe('the looks kept are not an object', () => {
	it.each([
		[null, 'null'],
		[[], 'a list'],
		['broken', 'a text'],
		[5, 'a number'],
		[true, 'true'],
		// a list of looks may hold a key's name: never shown
		[[{ 'customer-4711@example.com': { seenAt: '2026-11-28T08:00:00.000Z', counts: {} } }], 'a list'],
	])('looks: %j starts every key afresh, once, and the next look compares', (looks, shown) => {
		const store: IDataObject = { looks: looks as never };
		expect(looksOn(store)).toEqual({
			warnings: [`Compare With Previous Look: the looks kept in the workflow’s static data are not an object (${shown}), so every Watch Key starts afresh with its next look`],
			first: true,
			afterWarnings: [],
			afterFirst: false,
			arrivals: 1,
		});
	});
});

describe('a look kept for a key that cannot be read', () => {
	type Saved = ReturnType<typeof saved>;
	type Gate = Saved['looks']['gate'];
	const cases: Array<[string, (gate: Gate, kept: Saved) => void, string]> = [
		['a text', (_gate, kept) => ((kept.looks as IDataObject).gate = 'broken'), 'is not an object'],
		['null', (_gate, kept) => ((kept.looks as IDataObject).gate = null), 'is not an object'],
		['a list', (_gate, kept) => ((kept.looks as IDataObject).gate = []), 'is not an object'],
		['no time seen', (gate) => delete gate.seenAt, 'has no time it was seen'],
		['a time that is no time', (gate) => (gate.seenAt = 'yesterday'), 'has no time it was seen'],
		['a time that is a number', (gate) => (gate.seenAt = 5), 'has no time it was seen'],
		['a cooldown that is a number', (gate) => (gate.cooldowns = { '["arrival"]': 5 }), 'has no readable cooldowns'],
		['no counts', (gate) => delete gate.counts, 'has no counts'],
		['a count that is text', (gate) => (gate.counts = { car: '1' }), 'has no counts'],
		['counts in a list', (gate) => (gate.counts = [1]), 'has no counts'],
		['a count that is negative', (gate) => (gate.counts = { car: -1 }), 'has no counts'],
		['a count that is not whole', (gate) => (gate.counts = { car: 0.5 }), 'has no counts'],
		['zones that are text', (gate) => (gate.zones = 'bay'), 'has no readable counts per zone'],
		['a zone’s counts that are text', (gate) => (gate.zones = { bay: 'car' }), 'has no readable counts per zone'],
		['cooldowns that are text', (gate) => (gate.cooldowns = 'soon'), 'has no readable cooldowns'],
		['a cooldown that is no time', (gate) => (gate.cooldowns = { '["arrival"]': 'soon' }), 'has no readable cooldowns'],
		// Date holds times up to 8.64e15 ms either side of 1970: a cooldown's end must be one too
		['a cooldown started on Date’s last day', (gate) => (gate.cooldowns = { '["arrival"]': '+275760-09-13T00:00:00.000Z' }), 'has no readable cooldowns'],
		['a time seen past Date’s last day', (gate) => (gate.seenAt = '+275760-09-13T00:00:00.001Z'), 'has no time it was seen'],
		['looks lower that are text', (gate) => (gate.lowerFor = { '[null,"car"]': '1' }), 'has no readable counts of looks lower'],
		['settings that are a number', (gate) => (gate.settings = 5), 'has no readable settings'],
		['tracks set aside with a note that is text', (gate) => (gate.paused = 'off'), 'has no readable note of tracks set aside'],
		['tracks set aside since no time', (gate) => (gate.paused = { since: 5 }), 'has no readable note of tracks set aside'],
		['tracks set aside under settings changed that are text', (gate) => (gate.paused = { since: '2026-11-28T08:00:00.000Z', changed: 'yes' }), 'has no readable note of tracks set aside'],
		['tracking that is text', (gate) => ((gate as IDataObject).tracking = 'tracks'), 'has tracks that are not readable: the state is not an object'],
		['tracks that are not a list', (gate) => ((gate.tracking as IDataObject).tracks = {}), 'has tracks that are not readable: the state has no list of tracks'],
		['no next id', (gate) => delete (gate.tracking as Partial<Gate['tracking']>).nextId, 'has tracks that are not readable: the state has no next track id above its tracks’ ids'],
		['two tracks of one id', (gate) => gate.tracking.tracks.push({ ...gate.tracking.tracks[0], box: [0.6, 0.6, 0.2, 0.15] }), 'has tracks that are not readable: the state has two tracks of one id'],
		['a next id a track has', (gate) => (gate.tracking.nextId = gate.tracking.tracks[0].id as number), 'has tracks that are not readable: the state has no next track id above its tracks’ ids'],
		['looks resumed that are text', (gate) => ((gate.tracking as IDataObject).resumedLooks = 'two'), 'has tracks that are not readable: the state has no readable count of looks resumed'],
		['no arrivals', (gate) => delete (gate.tracking as Partial<Gate['tracking']>).arrivals, 'has tracks that are not readable: the state has no readable arrivals'],
		['arrivals without their start', (gate) => delete gate.tracking.arrivals.since, 'has tracks that are not readable: the state has no readable arrivals'],
		['arrivals since a time past Date’s range', (gate) => (gate.tracking.arrivals.since = 8.64e15 + 1), 'has tracks that are not readable: the state has no readable arrivals'],
		['arrivals of a day that is a number', (gate) => (gate.tracking.arrivals.day = 5), 'has tracks that are not readable: the state has no readable arrivals'],
		['arrivals per label that are text', (gate) => (gate.tracking.arrivals.byLabel = 'car'), 'has tracks that are not readable: the state has no readable arrivals'],
		['a Track Min Overlap below 0', (gate) => ((gate.tracking as IDataObject).matching = { minOverlap: -0.1, keepMissedLooks: 1, countAfterLooks: 1 }), 'has tracks that are not readable: the state has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks'],
		['a Track Min Overlap above 1', (gate) => ((gate.tracking as IDataObject).matching = { minOverlap: 1.5, keepMissedLooks: 1, countAfterLooks: 1 }), 'has tracks that are not readable: the state has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks'],
		['looks kept through that are text', (gate) => ((gate.tracking as IDataObject).matching = { minOverlap: 0.3, keepMissedLooks: '1', countAfterLooks: 1 }), 'has tracks that are not readable: the state has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks'],
		['looks kept through past 100', (gate) => ((gate.tracking as IDataObject).matching = { minOverlap: 0.3, keepMissedLooks: 1e9, countAfterLooks: 1 }), 'has tracks that are not readable: the state has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks'],
		['no Arrival After Looks', (gate) => ((gate.tracking as IDataObject).matching = { minOverlap: 0.3, keepMissedLooks: 1 }), 'has tracks that are not readable: the state has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks'],
		['no tracks ended while off, in a list', (gate) => ((gate.tracking as IDataObject).endedWhileOff = []), 'has tracks that are not readable: the state has no readable tracks ended while tracking was off'],
		['a track ended while off that never counted', (gate) => ((gate.tracking as IDataObject).endedWhileOff = [{ ...gate.tracking.tracks[0], id: 1, arrived: false }]), 'has tracks that are not readable: the state has no readable tracks ended while tracking was off'],
		['matching that is text', (gate) => ((gate.tracking as IDataObject).matching = 'iou'), 'has tracks that are not readable: the state has no readable Track Min Overlap, Track Kept Through Missed Looks or Arrival After Looks'],
		['tracks ended while off that are text', (gate) => ((gate.tracking as IDataObject).endedWhileOff = 'car'), 'has tracks that are not readable: the state has no readable tracks ended while tracking was off'],
		['a track ended while off without its id', (gate) => ((gate.tracking as IDataObject).endedWhileOff = [{ ...gate.tracking.tracks[0], id: undefined }]), 'has tracks that are not readable: the state has no readable tracks ended while tracking was off'],
		['a track ended while off with a live track’s id', (gate) => ((gate.tracking as IDataObject).endedWhileOff = [{ ...gate.tracking.tracks[0] }]), 'has tracks that are not readable: the state has two tracks of one id'],
		['a track ended while off with an id from the next on', (gate) => ((gate.tracking as IDataObject).endedWhileOff = [{ ...gate.tracking.tracks[0], id: gate.tracking.nextId }]), 'has tracks that are not readable: the state has no next track id above its tracks’ ids'],
		['arrivals per label that are negative', (gate) => (gate.tracking.arrivals.byLabel = { car: -4 }), 'has tracks that are not readable: the state has no readable arrivals'],
		['arrivals per zone that are text', (gate) => (gate.tracking.arrivals.byZone = 'bay'), 'has tracks that are not readable: the state has no readable arrivals'],
		['a zone’s arrivals that are text', (gate) => (gate.tracking.arrivals.byZone = { bay: 'car' }), 'has tracks that are not readable: the state has no readable arrivals'],
	];
	const track = (change: (track: Record<string, unknown>) => void) => (gate: Gate) => change(gate.tracking.tracks[0]);
	const trackCases: Array<[string, (track: Record<string, unknown>) => void]> = [
		['a track that is text', (_track) => undefined],
		...(['id', 'label', 'box', 'firstSeen', 'lastSeen', 'seenLooks', 'missedLooks', 'arrived', 'zones', 'overstaysReported'].map((field) => [`a track without ${field}`, (kept: Record<string, unknown>) => delete kept[field]]) as Array<[string, (track: Record<string, unknown>) => void]>),
		['an id that is not whole', (kept) => (kept.id = 1.5)],
		['a label that is a number', (kept) => (kept.label = 5)],
		['a box of three numbers', (kept) => (kept.box = [0, 0, 1])],
		['a box with a text', (kept) => (kept.box = [0, 0, 1, '1'])],
		['a box that is text', (kept) => (kept.box = '0 0 1 1')],
		['a first time that is text', (kept) => (kept.firstSeen = '2026-11-28T08:00:00.000Z')],
		['a last time that is text', (kept) => (kept.lastSeen = 'now')],
		['a first time past Date’s range', (kept) => (kept.firstSeen = 1e300)],
		['a last time in nanoseconds', (kept) => (kept.lastSeen = at(3) * 1e6)],
		['a zone’s time past Date’s range', (kept) => (kept.zones = { bay: -8.64e15 - 1 })],
		['looks seen that are negative', (kept) => (kept.seenLooks = -1)],
		['looks missed that are text', (kept) => (kept.missedLooks = '0')],
		['arrived that is text', (kept) => (kept.arrived = 'yes')],
		['zones in a list', (kept) => (kept.zones = ['bay'])],
		['a zone’s time that is text', (kept) => (kept.zones = { bay: 'now' })],
		['stays reported that are text', (kept) => (kept.overstaysReported = '')],
		['a stay reported that is a number', (kept) => (kept.overstaysReported = [0])],
		['baseline that is false', (kept) => (kept.baseline = false)],
		['resumedAfterLoss that is false', (kept) => (kept.resumedAfterLoss = false)],
		['arrivedWhileOff that is false', (kept) => (kept.arrivedWhileOff = false)],
		['arrivedWhileOff on a track that never counted', (kept) => Object.assign(kept, { arrivedWhileOff: true, arrived: false })],
		['zones left that are text', (kept) => (kept.zonesLeft = 'bay')],
		['a zone left without its looks', (kept) => (kept.zonesLeft = { bay: [1] })],
		['a zone left that is a number', (kept) => (kept.zonesLeft = { bay: 1 })],
		['a zone left whose looks are text', (kept) => (kept.zonesLeft = { bay: [1, '1'] })],
		['a zone left whose time is text', (kept) => (kept.zonesLeft = { bay: ['now', 1] })],
	];

	it.each([
		...cases,
		...trackCases.map(([name, change]): (typeof cases)[number] => [
			name,
			name === 'a track that is text' ? (gate) => (gate.tracking.tracks[0] = 'car' as never) : track(change),
			'has tracks that are not readable: the state has a track without every field (track 1)',
		]),
	])('%s: the key starts afresh, once, saying so; the other keys are kept', (_name, change, problem) => {
		const kept = saved();
		change(kept.looks.gate, kept);
		const store = kept as unknown as IDataObject;
		expect(looksOn(store)).toEqual({ warnings: [afresh('gate', problem)], first: true, afterWarnings: [], afterFirst: false, arrivals: 1 });
		expect(lookAt(store, 'yard', settings, [], at(6)).comparison!.previousSeenAt).toBe('2026-11-28T08:00:00.000Z');
	});

	it('a look as the node keeps it is read without a warning, whatever else it holds', () => {
		const kept = saved();
		Object.assign(kept.looks.gate, { reportedAt: '2026-11-28T08:00:00.000Z', note: 'checked' });
		Object.assign(kept.looks.gate.tracking.tracks[0], { baseline: true, arrivedWhileOff: true });
		// Date's first millisecond, and a cooldown ending on its last
		kept.looks.gate.tracking.arrivals.since = -8.64e15;
		kept.looks.gate.cooldowns = { '["departure"]': new Date(8.64e15 - 10_080 * MINUTE).toISOString() };
		const next = lookAt(kept as unknown as IDataObject, 'gate', settings, [PARKED], at(4));
		expect([next.warnings, next.comparison!.previousSeenAt, next.comparison!.cooldownUntil, next.tracking!.arrivalsSince]).toEqual([
			[],
			'2026-11-28T08:03:00.000Z',
			new Date(8.64e15 - 10_080 * MINUTE + 10 * MINUTE).toISOString(),
			'-271821-04-20T00:00:00.000Z',
		]);
	});

	it('the bound is measured on the looks as repaired: a look that fits beside the readable ones keeps them', () => {
		const kept = saved();
		// a look of 60,000 characters that cannot be read, and one that fits beside "gate" and "yard" once it is gone
		(kept.looks as IDataObject).broken = { seenAt: 'never', counts: { ['x'.repeat(60_000)]: 1 } };
		const store = kept as unknown as IDataObject;
		const look = lookAt(store, 'big', { tracking: false }, [{ label: 'y'.repeat(60_000), box: [0, 0, 0.1, 0.1] }], at(4));
		expect(look.warnings).toEqual(['Compare With Previous Look: 1 other Watch Key’s look kept in the workflow’s static data could not be read, so it starts afresh with its next look']);
		expect(Object.keys(kept.looks)).toEqual(['yard', 'gate', 'big']);
	});

	it('another key’s look that cannot be read is said in the warning of the look that read the static data, without its name', () => {
		const kept = saved();
		(kept.looks as IDataObject).gate = 'broken';
		const look = lookAt(kept as unknown as IDataObject, 'yard', settings, [], at(4));
		expect(look.warnings).toEqual(['Compare With Previous Look: 1 other Watch Key’s look kept in the workflow’s static data could not be read, so it starts afresh with its next look']);
		expect(Object.keys(kept.looks)).toEqual(['yard']);
	});

	it('the issue’s case: two other keys’ looks, one a customer’s e-mail address, counted; the item’s own key named', () => {
		const kept = saved();
		Object.assign(kept.looks, { 'customer-4711@example.com': { seenAt: 'bad' }, 'other camera': null });
		(kept.looks.gate as IDataObject).counts = [1];
		const look = lookAt(kept as unknown as IDataObject, 'gate', settings, [], at(4));
		expect(look.warnings).toEqual([
			afresh('gate', 'has no counts'),
			'Compare With Previous Look: 2 other Watch Keys’ looks kept in the workflow’s static data could not be read, so they start afresh with their next look',
		]);
		expect(JSON.stringify(look)).not.toContain('customer-4711');
	});
});
