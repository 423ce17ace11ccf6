import { deduplicationKey, eventId, eventsOfLook, sampleEventsOfLook } from '../../nodes/ImageInferenceTrigger/look/events';
import type { EventKind } from '../../nodes/ImageInferenceTrigger/look/events';
import { intervalMs, isDue, tickExpression, waitAfter } from '../../nodes/ImageInferenceTrigger/look/cadence';

const ALL = new Set<EventKind>(['arrival', 'departure', 'stay', 'change', 'look']);
const only = (...kinds: EventKind[]) => new Set<EventKind>(kinds);
const none = { kind: 'look', label: null, zone: null, trackId: null };

describe('The events of a look, from Detect’s output', () => {
	it('without tracking or zones: per label whose count went up or down, with by how many', () => {
		const output = { comparison: { changed: true, changeByLabel: { car: 2, person: -1, dog: 0, cat: 'x' } } };
		expect(eventsOfLook(output, ALL)).toEqual([
			{ kind: 'arrival', label: 'car', zone: null, trackId: null, count: 2 },
			{ kind: 'departure', label: 'person', zone: null, trackId: null, count: 1 },
			{ kind: 'change', label: null, zone: null, trackId: null },
			none,
		]);
		expect(eventsOfLook(output, only('departure'))).toEqual([{ kind: 'departure', label: 'person', zone: null, trackId: null, count: 1 }]);
	});

	it('with zones: per zone, the image-wide change left aside', () => {
		const output = { comparison: { changed: true, changeByLabel: { car: 1 }, zones: { driveway: { changeByLabel: { car: 1 } }, street: { changeByLabel: {} }, broken: 'x' } } };
		expect(eventsOfLook(output, only('arrival'))).toEqual([{ kind: 'arrival', label: 'car', zone: 'driveway', trackId: null, count: 1 }]);
	});

	it('with tracking: per tracked object, per zone it is in; stays only when first over the limit', () => {
		const output = {
			comparison: { changed: true, changeByLabel: { car: 1 } },
			tracking: {
				arrivals: [{ trackId: 3, label: 'car', zones: ['driveway', 'gate'] }, { trackId: 4, label: 'cat', zones: [] }, 'x'],
				departed: [{ trackId: 1, label: 'person', zones: [], stayedSeconds: 40 }],
				overstays: [
					{ trackId: 2, label: 'van', zone: 'gate', stayedSeconds: 700, alreadyReported: false },
					{ trackId: 5, label: 'van', zone: null, stayedSeconds: 900, alreadyReported: true },
				],
			},
		};
		expect(eventsOfLook(output, only('arrival', 'departure', 'stay'))).toEqual([
			{ kind: 'arrival', label: 'car', zone: 'driveway', trackId: 3 },
			{ kind: 'arrival', label: 'car', zone: 'gate', trackId: 3 },
			{ kind: 'arrival', label: 'cat', zone: null, trackId: 4 },
			{ kind: 'departure', label: 'person', zone: null, trackId: 1, stayedSeconds: 40 },
			{ kind: 'stay', label: 'van', zone: 'gate', trackId: 2, stayedSeconds: 700 },
		]);
		expect(eventsOfLook(output, only('stay'))).toHaveLength(1);
		expect(eventsOfLook(output, only('look'))).toEqual([none]);
	});

	it('Any Change: only on a look with a change; every look is one event whatever happened', () => {
		expect(eventsOfLook({ comparison: { changed: false, changeByLabel: {} } }, only('change', 'look'))).toEqual([none]);
		expect(eventsOfLook({ comparison: { changed: false }, tracking: { arrivals: [{ trackId: 1, label: 'car', zones: [] }] } }, only('change', 'arrival'))).toEqual([
			{ kind: 'arrival', label: 'car', zone: null, trackId: 1 },
			{ kind: 'change', label: null, zone: null, trackId: null },
		]);
		expect(eventsOfLook({}, ALL)).toEqual([none]);
		expect(eventsOfLook({ comparison: 'x', tracking: ['x'] }, only('change'))).toEqual([]);
	});

	it('an event’s id: the state, the look’s number and what it is, empty parts kept in place', () => {
		expect(eventId('abc', 7, { kind: 'arrival', label: 'car', zone: 'driveway', trackId: 3 })).toBe('abc:7:arrival:car:driveway:3');
		expect(eventId('abc', 8, { kind: 'cameraBack', label: null, zone: null, trackId: null })).toBe('abc:8:cameraBack:::');
	});
});

describe('When the trigger looks', () => {
	it('ticks each second for seconds, each minute for minutes', () => {
		expect(tickExpression('seconds')).toBe('* * * * * *');
		expect(tickExpression('minutes')).toBe('0 * * * * *');
		expect(intervalMs(7, 'seconds')).toBe(7000);
		expect(intervalMs(2, 'minutes')).toBe(120_000);
	});

	it('backs off the interval × 2ⁿ up to a minute, never below the interval', () => {
		expect([0, 1, 2, 3, 6, 7, 20].map((failures) => waitAfter(1000, failures))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
		expect(waitAfter(120_000, 3)).toBe(120_000);
		expect(waitAfter(40_000, 1)).toBe(60_000);
	});

	it('is due within half a tick, and when the next look is further off than the longest wait (a clock set back)', () => {
		const now = 1_000_000;
		expect(isDue(now, now + 500, 5000, 'seconds')).toBe(true);
		expect(isDue(now, now + 501, 5000, 'seconds')).toBe(false);
		expect(isDue(now, now - 10_000, 5000, 'seconds')).toBe(true);
		expect(isDue(now, now + 60_000, 5000, 'seconds')).toBe(false);
		expect(isDue(now, now + 60_001, 5000, 'seconds')).toBe(true);
		expect(isDue(now, now + 30_000, 120_000, 'minutes')).toBe(true);
		expect(isDue(now, now + 30_001, 120_000, 'minutes')).toBe(false);
		expect(isDue(now, now + 120_000, 120_000, 'minutes')).toBe(false);
		expect(isDue(now, now + 120_001, 120_000, 'minutes')).toBe(true);
	});
});

describe('The deduplication key n8n 2.x drops a repeated execution by', () => {
	it('is the same for the same events of the same look, and another for other events or another look; it fits n8n’s 255 characters', () => {
		const key = deduplicationKey('abc', 3, ['abc:3:arrival:car:driveway:']);
		expect(key).toMatch(/^image-inference-trigger:abc:3:[0-9a-f]{1,8}$/);
		expect(deduplicationKey('abc', 3, ['abc:3:arrival:car:driveway:'])).toBe(key);
		expect(deduplicationKey('abc', 3, ['abc:3:departure:car:driveway:'])).not.toBe(key);
		expect(deduplicationKey('abc', 4, ['abc:3:arrival:car:driveway:'])).not.toBe(key);
		expect(deduplicationKey('abd', 3, ['abc:3:arrival:car:driveway:'])).not.toBe(key);
		expect(deduplicationKey('abc', 3, ['a', 'b'])).not.toBe(deduplicationKey('abc', 3, ['ab']));
		expect(deduplicationKey('abc', 3, [])).toBe('image-inference-trigger:abc:3:811c9dc5');
		expect(deduplicationKey('abc', 3, ['a'])).toBe('image-inference-trigger:abc:3:e40c292c');
		expect(deduplicationKey('0123456789ab', 2 ** 40, Array.from({ length: 500 }, (_, i) => `0123456789ab:${i}:arrival:${'label'.repeat(50)}:zone:`)).length).toBeLessThanOrEqual(255);
	});
});

describe('Events with zones and tracking, and ids with colons', () => {
	it('with zones, a tracked object in none of them is no event, as without tracking', () => {
		const output = {
			countsByZone: { driveway: {} },
			comparison: { changed: true, changeByLabel: { car: 1 }, zones: { driveway: { changeByLabel: {} } } },
			tracking: { arrivals: [{ trackId: 9, label: 'car', zones: [] }], departed: [{ trackId: 8, label: 'car', zones: [], stayedSeconds: 5 }], overstays: [] },
		};
		expect(eventsOfLook(output, only('arrival', 'departure'))).toEqual([]);
	});

	it('a colon or a percent sign in a label or zone is written so the id keeps its parts apart', () => {
		expect(eventId('abc', 1, { kind: 'arrival', label: 'a:b', zone: null, trackId: null })).toBe('abc:1:arrival:a%3Ab::');
		expect(eventId('abc', 1, { kind: 'arrival', label: 'a', zone: 'b:', trackId: null })).toBe('abc:1:arrival:a:b%3A:');
		expect(eventId('abc', 1, { kind: 'arrival', label: '50%', zone: '%3A', trackId: 2 })).toBe('abc:1:arrival:50%25:%253A:2');
	});
});

describe('A test run’s events when the look has none of the kinds picked', () => {
	const inView = { countsByLabel: { car: 2, person: 1, ghost: 0, odd: 'x' } };
	it('one event of the first kind picked per label in view, with how many; per zone with zones', () => {
		expect(sampleEventsOfLook(inView, only('look', 'departure', 'arrival'))).toEqual([
			{ kind: 'arrival', label: 'car', zone: null, trackId: null, count: 2 },
			{ kind: 'arrival', label: 'person', zone: null, trackId: null, count: 1 },
		]);
		expect(sampleEventsOfLook(inView, only('stay', 'departure'))).toEqual([
			{ kind: 'departure', label: 'car', zone: null, trackId: null, count: 2 },
			{ kind: 'departure', label: 'person', zone: null, trackId: null, count: 1 },
		]);
		const zoned = { countsByLabel: { car: 3 }, countsByZone: { driveway: { car: 1 }, street: { car: 2, bus: 0 }, broken: 'x' } };
		expect(sampleEventsOfLook(zoned, only('stay'))).toEqual([
			{ kind: 'stay', label: 'car', zone: 'driveway', trackId: null, count: 1 },
			{ kind: 'stay', label: 'car', zone: 'street', trackId: null, count: 2 },
		]);
	});

	it('Any Change and Every Look: one event, whatever is in view', () => {
		expect(sampleEventsOfLook({}, only('change', 'look'))).toEqual([{ kind: 'change', label: null, zone: null, trackId: null }]);
		expect(sampleEventsOfLook({}, only('look'))).toEqual([none]);
	});

	it('nothing in view, or nothing picked: no event', () => {
		expect(sampleEventsOfLook({ countsByLabel: {} }, only('arrival'))).toEqual([]);
		expect(sampleEventsOfLook({ countsByZone: { driveway: {} }, countsByLabel: { car: 1 } }, only('arrival'))).toEqual([]);
		expect(sampleEventsOfLook(inView, only())).toEqual([]);
	});
});
