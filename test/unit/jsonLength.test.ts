/**
 * jsonLength counts what JSON.stringify would write, for every kind of value a look can hold and
 * the ones it cannot; JSON.stringify itself is the expected value.
 */
import { jsonLength } from '../../nodes/ImageInference/pipeline/jsonLength';

describe('jsonLength: the length of JSON.stringify without writing it', () => {
	const expectSame = (value: unknown) => expect([value, jsonLength(value)]).toEqual([value, JSON.stringify(value).length]);

	it.each([
		0, -0, 1, -1, 9, 10, 99, 100, 1_764_000_000_000, Number.MAX_SAFE_INTEGER, 2 ** 60, 1e20, 99_999_999_999_999_990_000, 1e21, -1e21, 1e300,
		0.5, 0.1234, 0.12, 0.1, -0.0012, 1.0001, 12.3456, 0.0001, 0.00001, 1e-7, 5e-324, 1 / 3, 2 / 3, 0.1 + 0.2, 123_456_789.1234, 999_999_999.9999, 1_000_000_000.5,
		NaN, Infinity, -Infinity,
	])('the number %p', (value) => expectSame(value));

	it('every number of at most four decimals that a box or a time holds, and their neighbours', () => {
		for (let tenThousandths = -20_000; tenThousandths <= 20_000; tenThousandths++) {
			const value = tenThousandths / 10_000;
			if (jsonLength(value) !== JSON.stringify(value).length) expectSame(value);
			const near = value + 1e-9;
			if (jsonLength(near) !== JSON.stringify(near).length) expectSame(near);
		}
		let seed = 11;
		const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
		for (let draw = 0; draw < 20_000; draw++) {
			const value = Math.round(next() * 10 ** (1 + Math.floor(next() * 12))) / 10 ** Math.floor(next() * 6);
			if (jsonLength(value) !== JSON.stringify(value).length) expectSame(value);
		}
	});

	it.each(['', 'car', 'a "quoted" label', 'back\\slash', 'line\nbreak\ttab', '\u0001', 'é', '漢字', '👍', '\ud800', '\u2028'])('the text %p', (value) => expectSame(value));

	it('true, false and null', () => {
		expectSame(true);
		expectSame(false);
		expectSame(null);
	});

	it('lists: empty, nested, with what JSON writes as null', () => {
		expectSame([]);
		expectSame([1, 'a', [2, [3, []]], {}]);
		expectSame([undefined, () => 1, Symbol('s'), null]);
		// eslint-disable-next-line no-sparse-arrays
		expectSame([1, , 3]);
	});

	it('records: empty, nested, with fields JSON leaves out', () => {
		expectSame({});
		expectSame({ a: 1, b: { c: [1, 2], d: {} } });
		expectSame({ a: undefined, b: () => 1, c: Symbol('s'), d: 1 });
		expectSame({ only: undefined });
		expectSame({ '': 0, 'with "quotes"': 'x', 'é': true });
	});

	it('values written by their own toJSON or as other objects', () => {
		expectSame(new Date(Date.UTC(2026, 10, 28)));
		expectSame({ toJSON: () => ({ replaced: true }) });
		expectSame({ at: new Date(0), list: [new Date(1)] });
		expectSame(Object.assign(Object.create(null) as object, { a: 1 }));
		expectSame(new Map([[1, 2]]));
	});

	it('a look as the static data keeps it, with 50 tracks', () => {
		const tracks = Array.from({ length: 50 }, (_, index) => ({
			id: index + 1,
			label: index % 2 ? 'car' : 'person',
			box: [index / 50, 0.5 + index / 1000, 0.0812, 0.1],
			firstSeen: 1_764_000_000_000 + index,
			lastSeen: 1_764_000_060_000,
			seenLooks: 1,
			missedLooks: 0,
			arrived: index % 3 === 0,
			zones: index % 4 ? { 'no-parking': 1_764_000_000_000 } : {},
			overstaysReported: index % 5 ? [] : ['', 'no-parking'],
		}));
		expectSame({
			seenAt: '2026-11-28T01:00:00.000Z',
			counts: { car: 25, person: 25 },
			zones: { 'no-parking': { car: 12 } },
			cooldowns: { '["arrival","no-parking","car"]': '2026-11-28T00:58:00.000Z' },
			settings: 'b88e305d',
			tracking: { nextId: 51, tracks, arrivals: { since: 1_764_000_000_000, byLabel: { car: 25 }, byZone: {} } },
		});
	});

	it('nothing written is no length: undefined and a function alone', () => {
		expect(jsonLength(undefined)).toBe(0);
		expect(jsonLength(() => 1)).toBe(0);
	});

	it('a look of numbers, texts, lists and records is counted without writing any of it', () => {
		const look = {
			seenAt: '2026-11-28T01:00:00.000Z',
			counts: { car: 2, 'a "quoted" label': 1 },
			done: true,
			nothing: null,
			tracking: { nextId: 12, tracks: [{ id: 3, box: [0.1234, 0.5, 0.08, 1], firstSeen: 1_764_000_000_000, zones: {}, seen: [-0.0012, 12.3456, 7] }] },
		};
		const written = JSON.stringify(look).length;
		const stringify = jest.spyOn(JSON, 'stringify');
		try {
			expect(jsonLength(look)).toBe(written);
			expect(stringify).not.toHaveBeenCalled();
		} finally {
			stringify.mockRestore();
		}
	});

	it('texts are counted from their characters, each escape as JSON writes it, without writing them', () => {
		const texts = ['', 'car', 'a "quoted" \\ label', 'line\nbreak\ttab\r\b\f', '\u0000\u0001\u001f', 'café 🚗', '\ud800 alone', 'alone \udc00', '\udbff\udfff', '\udc00\ud800'];
		const written = texts.map((text) => JSON.stringify(text).length);
		const stringify = jest.spyOn(JSON, 'stringify');
		try {
			expect(texts.map((text) => jsonLength(text))).toEqual(written);
			expect(stringify).not.toHaveBeenCalled();
		} finally {
			stringify.mockRestore();
		}
	});

});
