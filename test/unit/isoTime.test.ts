import { isoTime } from '../../nodes/ImageInference/pipeline/isoTime';

describe('isoTime: a time as ISO text', () => {
	it('writes what Date writes, to the millisecond', () => {
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 29, 21))).toBe('2026-11-28T11:40:29.021Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 5, 7))).toBe('2026-11-28T11:40:05.007Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 59, 999))).toBe('2026-11-28T11:40:59.999Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 41, 0, 0))).toBe('2026-11-28T11:41:00.000Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 10, 100))).toBe('2026-11-28T11:40:10.100Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 10, 10))).toBe('2026-11-28T11:40:10.010Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 10, 9))).toBe('2026-11-28T11:40:10.009Z');
		expect(isoTime(Date.UTC(2026, 10, 28, 11, 40, 10, 99))).toBe('2026-11-28T11:40:10.099Z');
	});

	it('agrees with Date across minutes, years, before 1970 and at the ends of what Date holds', () => {
		const times = [0, 1, -1, 999, 1000, 59_999, 60_000, -60_000, -60_001, 951_782_399_999, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001, 8.64e15, -8.64e15];
		// a minute's every second, the minute after, and back: the minute's text is made anew each time it changes
		for (let ms = 1_764_330_000_000; ms < 1_764_330_130_000; ms += 997) times.push(ms);
		times.push(1_764_330_000_000, 1_764_330_000_001);
		for (const ms of times) expect([ms, isoTime(ms)]).toEqual([ms, new Date(ms).toISOString()]);
	});

	it('writes a fraction of a millisecond as Date does, and refuses what Date refuses', () => {
		expect(isoTime(1.9)).toBe('1970-01-01T00:00:00.001Z');
		expect(isoTime(-0.5)).toBe(new Date(-0.5).toISOString());
		for (const ms of [8.64e15 + 1, -8.64e15 - 1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => isoTime(ms)).toThrow(RangeError);
	});

	it('asks Date once a minute', () => {
		const toISOString = jest.spyOn(Date.prototype, 'toISOString');
		try {
			const minute = Date.UTC(2030, 0, 1, 8, 15);
			expect([isoTime(minute + 1_000), isoTime(minute + 2_345), isoTime(minute + 59_999)]).toEqual(['2030-01-01T08:15:01.000Z', '2030-01-01T08:15:02.345Z', '2030-01-01T08:15:59.999Z']);
			expect(toISOString).toHaveBeenCalledTimes(1);
			expect(isoTime(minute + 60_000)).toBe('2030-01-01T08:16:00.000Z');
			expect(toISOString).toHaveBeenCalledTimes(2);
			// the last millisecond Date holds is in a minute like any other
			expect([isoTime(8.64e15), isoTime(8.64e15)]).toEqual(['+275760-09-13T00:00:00.000Z', '+275760-09-13T00:00:00.000Z']);
			expect(toISOString).toHaveBeenCalledTimes(3);
		} finally {
			toISOString.mockRestore();
		}
	});
});
