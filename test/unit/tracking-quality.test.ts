import type { Label, LookTracks, SyntheticDetection, SyntheticSequence, Tracker } from '../bench/tracking-quality';
import { naiveTracker, nodeTracker, scoreTracking, syntheticSequence } from '../bench/tracking-quality';

const T0 = Date.parse('2026-11-27T08:00:00Z');
const MINUTE = 60_000;

/** A car (or person) with a 0.1 × 0.1 box at x, all at the same height, 0.1 apart or more. */
const seen = (objectId: number, x: number, label: Label = 'car'): SyntheticDetection => ({
	objectId,
	label,
	relativeBox: { x, y: 0.2, width: 0.1, height: 0.1 },
});

/** A hand-built sequence a minute a look; `moving`: the objects that count as moving. */
function sequenceOf(looks: SyntheticDetection[][], moving: number[] = []): SyntheticSequence {
	const labels = new Map(looks.flat().map((detection) => [detection.objectId, detection.label as Label]));
	return {
		start: T0,
		intervalMs: MINUTE,
		looks,
		objects: [...labels].map(([id, label]) => ({ id, label, moving: moving.includes(id), inBay: false })),
	};
}

/** A tracker that says what it is told: the track ids of each look, and the departures reported at each look (the drain looks included). */
function scripted(trackIds: number[][], departed: Record<number, LookTracks['departed']> = {}): Tracker {
	let look = 0;
	return (objects) => {
		const ids = trackIds[look] ?? [];
		expect(ids).toHaveLength(objects.length);
		const result = { trackIds: ids, departed: departed[look] ?? [] };
		look += 1;
		return result;
	};
}

describe('scoreTracking: ID switches (CLEAR-MOT IDSW)', () => {
	it('counts 1 when a track swaps its id with a newcomer: only the object already tracked changes id', () => {
		// A at 0.1 in 4 looks, B at 0.4 from look 2; at look 2 A takes id 2 and B gets A's id 1.
		const sequence = sequenceOf([[seen(1, 0.1)], [seen(1, 0.1)], [seen(1, 0.1), seen(2, 0.4)], [seen(1, 0.1), seen(2, 0.4)]]);
		const score = scoreTracking(sequence, scripted([[1], [1], [2, 1], [2, 1]]));
		// A: 1, 1, 2, 2 is one switch; B: 1, 1 none (its first id is not a switch).
		expect(score.idSwitches).toBe(1);
		expect(score.standingIdSwitches).toBe(1);
		expect(score.objectLooks).toBe(6);
		// A covered by ids 1 and 2: one extra fragment.
		expect(score.extraFragments).toBe(1);
		expect(score.fragmentedObjects).toBe(1);
	});

	it('counts a swap of two tracked objects once for each, and a swap and back twice for each', () => {
		const both = [seen(1, 0.1), seen(2, 0.4)];
		const sequence = sequenceOf([both, both, both, both], [2]);
		// A: 1, 1, 2, 2; B: 2, 2, 1, 1.
		const swapped = scoreTracking(sequence, scripted([[1, 2], [1, 2], [2, 1], [2, 1]]));
		expect(swapped.idSwitches).toBe(2);
		expect(swapped.standingIdSwitches).toBe(1);
		expect(swapped.extraFragments).toBe(2);
		// A: 1, 1, 2, 1; B: 2, 2, 1, 2: two switches each, still two ids each.
		const swappedBack = scoreTracking(sequence, scripted([[1, 2], [1, 2], [2, 1], [1, 2]]));
		expect(swappedBack.idSwitches).toBe(4);
		expect(swappedBack.standingIdSwitches).toBe(2);
		expect(swappedBack.standingObjectLooks).toBe(4);
		expect(swappedBack.extraFragments).toBe(2);
		expect(swappedBack.fragmentedObjects).toBe(2);
	});

	it('compares with the id of the last look the object was tracked in, not counting an untracked look', () => {
		const sequence = sequenceOf([[seen(1, 0.1)], [seen(1, 0.1)], [seen(1, 0.1)]]);
		const withIds = (looks: Array<Array<number | null>>): Tracker => {
			let look = 0;
			return () => ({ trackIds: looks[look++] ?? [], departed: [] });
		};
		// 1, untracked, 1: no switch; 1, untracked, 2: one switch, against the 1 before the untracked look.
		expect(scoreTracking(sequence, withIds([[1], [null], [1]]))).toMatchObject({ idSwitches: 0, untracked: 1, extraFragments: 0 });
		expect(scoreTracking(sequence, withIds([[1], [null], [2]]))).toMatchObject({ idSwitches: 1, untracked: 1, extraFragments: 1 });
	});
});

describe('scoreTracking: fragmented tracks', () => {
	it('counts each id past an object’s first as an extra fragment when every look gets new ids', () => {
		// A in looks 0, 1, 2; B in looks 0 and 2 (missing from look 1).
		const sequence = sequenceOf([[seen(1, 0.1), seen(2, 0.4)], [seen(1, 0.1)], [seen(1, 0.1), seen(2, 0.4)]]);
		let nextId = 1;
		const newIdEachLook: Tracker = (objects) => ({ trackIds: objects.map(() => nextId++), departed: [] });
		const score = scoreTracking(sequence, newIdEachLook);
		// A gets 1, 3, 4: 2 extra fragments, 2 switches; B gets 2, 5: 1 extra fragment, 1 switch.
		expect(score.extraFragments).toBe(3);
		expect(score.fragmentedObjects).toBe(2);
		expect(score.idSwitches).toBe(3);
		expect(score.objectLooks).toBe(5);
	});
});

describe('scoreTracking: stay durations', () => {
	// A seen in looks 0–4 of 6 (left, true stay 4 minutes = 240 s); B in looks 2–5 (still there at the last look, not scored).
	const sequence = sequenceOf([
		[seen(1, 0.1)],
		[seen(1, 0.1)],
		[seen(1, 0.1), seen(2, 0.4)],
		[seen(1, 0.1), seen(2, 0.4)],
		[seen(1, 0.1), seen(2, 0.4)],
		[seen(2, 0.4)],
	]);

	it('takes the stay of the track that covered most of the object’s looks', () => {
		// A is track 1 in looks 0–2 and track 9 in looks 3–4; track 1 departs at look 3 having stayed 120 s.
		const tracker = scripted([[1], [1], [1, 5], [9, 5], [9, 5], [5]], { 3: [{ trackId: 1, stayedSeconds: 120 }], 6: [{ trackId: 9, stayedSeconds: 60 }] });
		const score = scoreTracking(sequence, tracker);
		expect(score.staysScored).toBe(1);
		// |120 − 240| = 120 s: two intervals, not within one.
		expect(score.staysWithinInterval).toBe(0);
		expect(score.largestStayErrorIntervals).toBe(2);
		expect(score.staysMissing).toBe(0);
		// A is track 1 in look 0 only (stayed 0 s), track 9 in looks 1–4 (stayed 180 s): track 9 counts, |180 − 240| = 60 s.
		const later = scripted([[1], [9], [9, 5], [9, 5], [9, 5], [5]], { 1: [{ trackId: 1, stayedSeconds: 0 }], 6: [{ trackId: 9, stayedSeconds: 180 }] });
		expect(scoreTracking(sequence, later)).toMatchObject({ staysScored: 1, staysWithinInterval: 1, largestStayErrorIntervals: 1 });
	});

	it('counts a stay off by exactly one interval as within it, and a track that never departed as missing', () => {
		const ids = [[1], [1], [1, 2], [1, 2], [1, 2], [2]];
		const offByOne = scoreTracking(sequence, scripted(ids, { 6: [{ trackId: 1, stayedSeconds: 180 }] }));
		expect(offByOne.staysWithinInterval).toBe(1);
		expect(offByOne.largestStayErrorIntervals).toBe(1);
		const exact = scoreTracking(sequence, scripted(ids, { 6: [{ trackId: 1, stayedSeconds: 240 }] }));
		expect(exact.largestStayErrorIntervals).toBe(0);
		const never = scoreTracking(sequence, scripted(ids));
		expect(never.staysScored).toBe(1);
		expect(never.staysMissing).toBe(1);
		expect(never.staysWithinInterval).toBe(0);
	});

	it('reads the stays of the node’s tracker and of the naive one across a missed look', () => {
		// A in looks 0, 1 and 3 of 5 (missing from look 2): true stay 3 minutes = 180 s.
		const missedOnce = sequenceOf([[seen(1, 0.1)], [seen(1, 0.1)], [], [seen(1, 0.1)], []]);
		// The node keeps the track through one missed look: one track, stayed 180 s.
		const node = scoreTracking(missedOnce, nodeTracker(undefined, T0));
		expect(node).toMatchObject({ extraFragments: 0, idSwitches: 0, staysScored: 1, staysWithinInterval: 1, largestStayErrorIntervals: 0 });
		// The naive tracker ends track 1 at look 2 (stayed 60 s) and starts track 2 at look 3 (stayed 0 s); track 1 covered more looks:
		// |60 − 180| = 120 s, two intervals.
		const naive = scoreTracking(missedOnce, naiveTracker());
		expect(naive).toMatchObject({ extraFragments: 1, idSwitches: 1, staysScored: 1, staysWithinInterval: 0, largestStayErrorIntervals: 2 });
	});
});

describe('naiveTracker', () => {
	it('continues the nearest centre of the same label however far, and ends an object missing from a look', () => {
		const tracker = naiveTracker();
		const car = (x: number) => ({ label: 'car', relativeBox: { x, y: 0.2, width: 0.1, height: 0.1 } });
		expect(tracker([car(0.1), car(0.5)], T0).trackIds).toEqual([1, 2]);
		// 0.45 is nearer 0.5 than 0.1; the far car at 0.9 still continues track 1.
		expect(tracker([car(0.9), car(0.45)], T0 + MINUTE).trackIds).toEqual([1, 2]);
		const third = tracker([car(0.45)], T0 + 2 * MINUTE);
		expect(third.trackIds).toEqual([2]);
		expect(third.departed).toEqual([{ trackId: 1, stayedSeconds: 60 }]);
		expect(tracker([{ label: 'person', relativeBox: { x: 0.45, y: 0.2, width: 0.1, height: 0.1 } }], T0 + 3 * MINUTE)).toEqual({
			trackIds: [3],
			departed: [{ trackId: 2, stayedSeconds: 120 }],
		});
	});
});

describe('syntheticSequence', () => {
	it('is the same for the same seed and different for another', () => {
		const options = { looks: 50, maxObjects: 10 };
		expect(syntheticSequence({ ...options, seed: 3 })).toEqual(syntheticSequence({ ...options, seed: 3 }));
		expect(syntheticSequence({ ...options, seed: 4 })).not.toEqual(syntheticSequence({ ...options, seed: 3 }));
	});

	it('keeps to the most objects, inside the image, missing for one look at a time, standing boxes fixed without jitter', () => {
		const sequence = syntheticSequence({ seed: 5, looks: 200, maxObjects: 20, jitter: 0, occlusionShare: 0.1 });
		const moving = new Set(sequence.objects.filter((object) => object.moving).map((object) => object.id));
		const looksOf = new Map<number, number[]>();
		const boxesOf = new Map<number, Set<string>>();
		sequence.looks.forEach((look, index) => {
			expect(look.length).toBeLessThanOrEqual(20);
			for (const { objectId, relativeBox: box } of look) {
				expect(box.x).toBeGreaterThanOrEqual(0);
				expect(box.y).toBeGreaterThanOrEqual(0);
				expect(box.x + box.width).toBeLessThanOrEqual(1);
				expect(box.y + box.height).toBeLessThanOrEqual(1);
				if (!looksOf.has(objectId)) looksOf.set(objectId, []);
				looksOf.get(objectId)?.push(index);
				boxesOf.set(objectId, (boxesOf.get(objectId) ?? new Set()).add(JSON.stringify(box)));
			}
		});
		let missedLooks = 0;
		for (const [objectId, looks] of looksOf) {
			for (let index = 1; index < looks.length; index++) {
				expect(looks[index] - looks[index - 1]).toBeLessThanOrEqual(2);
				if (looks[index] - looks[index - 1] === 2) missedLooks++;
			}
			if (!moving.has(objectId)) expect(boxesOf.get(objectId)?.size).toBe(1);
		}
		expect(missedLooks).toBeGreaterThan(0);
		expect(moving.size).toBeGreaterThan(0);
	});
});

describe('the node’s tracker on generated looks', () => {
	it('switches no standing object’s id without jitter, with cars in touching bays', () => {
		const sequence = syntheticSequence({ seed: 7, looks: 200, maxObjects: 20, jitter: 0 });
		// The hard case is there: two parked cars whose boxes touch, in the same look.
		const touches = (a: SyntheticDetection, b: SyntheticDetection) =>
			a.label === 'car' && b.label === 'car' && a.relativeBox.y === b.relativeBox.y && Math.abs(a.relativeBox.x + a.relativeBox.width - b.relativeBox.x) < 1e-9;
		const touching = sequence.looks.some((look) => look.some((a) => look.some((b) => touches(a, b))));
		expect(touching).toBe(true);
		const score = scoreTracking(sequence, nodeTracker(undefined, sequence.start));
		expect(score.standingObjectLooks).toBeGreaterThan(0);
		expect(score.standingIdSwitches).toBe(0);
	});

	it('fragments fewer tracks than the naive tracker when objects go missing for a look', () => {
		const sequence = syntheticSequence({ seed: 11, looks: 200, maxObjects: 20, occlusionShare: 0.1 });
		const node = scoreTracking(sequence, nodeTracker(undefined, sequence.start));
		const naive = scoreTracking(sequence, naiveTracker());
		expect(naive.extraFragments).toBeGreaterThan(node.extraFragments);
	});
});
