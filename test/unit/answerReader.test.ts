import { randomBytes } from 'node:crypto';

import { AnswerReader } from '../../nodes/ImageInference/transport/answerReader';

/** Feeds `text` in chunks of `size` bytes, as a network stream would. */
function lift(text: string, size: number) {
	const reader = new AnswerReader();
	const bytes = Buffer.from(text);
	for (let start = 0; start < bytes.length; start += size) reader.push(bytes.subarray(start, start + size));
	return reader.end();
}

describe('AnswerReader', () => {
	const picture = randomBytes(10_000);
	const answer = {
		detections: [{ label: 'image', confidence: 0.9, x: 1, y: 2, width: 3, height: 4, note: 'say "image": "x"' }],
		image: picture.toString('base64'),
		labelsCount: [{ label: 'image', total: 1 }],
	};

	it.each([1, 3, 7, 64, 4096, 1_000_000])('lifts the top-level image in chunks of %i bytes and keeps the rest', (size) => {
		const { text, picture: image } = lift(JSON.stringify(answer, null, size % 2 ? 2 : undefined), size);
		expect(image).toEqual({ valid: true, bytes: picture });
		expect(JSON.parse(text)).toEqual({ ...answer, image: '' });
	});

	it('decodes into the spare buffer it is given (the sent body) when it is large enough, else into its own', () => {
		const text = Buffer.from(JSON.stringify(answer));
		const run = (spare: Buffer, chunk = 1000) => {
			const reader = new AnswerReader(text.length, spare);
			for (let start = 0; start < text.length; start += chunk) reader.push(text.subarray(start, start + chunk));
			return reader.end().picture as { valid: true; bytes: Buffer };
		};
		const roomy = Buffer.alloc(Math.ceil((text.length * 3) / 4));
		const reused = run(roomy);
		expect(reused.bytes).toEqual(picture);
		expect(reused.bytes.buffer).toBe(roomy.buffer);
		// a spare a byte shorter than three quarters of the answer (the most its image can decode to)
		// is left alone, even pushed in chunks whose first groups would fit
		const small = Buffer.alloc(roomy.length - 1);
		const own = run(small, 40);
		expect(own.bytes).toEqual(picture);
		expect(own.bytes.buffer).not.toBe(small.buffer);
		expect(small.equals(Buffer.alloc(small.length))).toBe(true);
	});

	it('leaves a null image, nested "image" keys and other strings alone', () => {
		const body = { image: null, nested: { image: 'abcd' }, list: ['image', { image: 'x' }] };
		const { text, picture: image } = lift(JSON.stringify(body), 5);
		expect(image).toBeUndefined();
		expect(JSON.parse(text)).toEqual(body);
	});

	it.each([
		['not base64 at all', '%%% not base64 %%%'],
		['an escape inside', 'AAAA\\/AAA'],
		['padding in the middle', 'AA==AAAA'],
		['a dangling symbol', 'AAAAA'],
	])('flags %s as invalid', (_, value) => {
		const { text, picture: image } = lift(`{"image":"${value}","detections":[]}`, 3);
		expect(image).toEqual({ valid: false });
		expect(JSON.parse(text)).toEqual({ image: '', detections: [] });
	});

	it('accepts unpadded base64 and an empty string', () => {
		expect(lift('{"image":"AAE"}', 2).picture).toEqual({ valid: true, bytes: Buffer.from([0, 1]) });
		expect(lift('{"image":""}', 2).picture).toEqual({ valid: true, bytes: Buffer.alloc(0) });
	});

	it.each([1, 2, 5, 9, 64])('drops a data:image/…;base64, prefix, in chunks of %i bytes', (size) => {
		const { text, picture: image } = lift(JSON.stringify({ ...answer, image: `data:image/png;base64,${picture.toString('base64')}` }), size);
		expect(image).toEqual({ valid: true, bytes: picture });
		expect(JSON.parse(text)).toEqual({ ...answer, image: '' });
	});

	it('flags a data: prefix that is not base64, and keeps short images that only look like one', () => {
		expect(lift('{"image":"data:image/png,AAAA"}', 3).picture).toEqual({ valid: false });
		// a media type that runs into other text before the comma
		expect(lift('{"image":"data:image/png;base64x,QUFB"}', 4).picture).toEqual({ valid: false });
		expect(lift(`{"image":"data:${'x'.repeat(400)}"}`, 7).picture).toEqual({ valid: false });
		expect(lift('{"image":"da"}', 1).picture).toEqual({ valid: true, bytes: Buffer.from('da', 'base64') });
		expect(lift('{"image":"dataAAAA"}', 2).picture).toEqual({ valid: true, bytes: Buffer.from('dataAAAA', 'base64') });
	});

	it.each([1, 2, 3, 4, 5])('lifts a picture of %i bytes: every padding base64 can end with', (length) => {
		const bytes = randomBytes(length);
		for (const size of [1, 3, 64]) {
			expect(lift(JSON.stringify({ image: bytes.toString('base64'), detections: [] }), size).picture).toEqual({ valid: true, bytes });
		}
	});

	it.each([1, 2, 3, 5])('reads strings with escaped quotes and backslashes before the image as strings, in chunks of %i bytes', (size) => {
		const before = {
			note: 'he said "image": "QUFB" \\ and left',
			height: 'a 5" tall image',
			'say "image"': 'x\\',
			path: 'C:\\image\\',
			list: ['"image":"QUFB"', { image: 'QUFB' }],
		};
		const body = { ...before, image: picture.toString('base64'), after: 'a "quoted" \\ word' };
		const { text, picture: image } = lift(JSON.stringify(body), size);
		expect(image).toEqual({ valid: true, bytes: picture });
		expect(JSON.parse(text)).toEqual({ ...body, image: '' });
	});

	it('keeps text after the image that only looks like another image key', () => {
		const body = { image: 'QUFB', note: '","image":"QkJC', more: { image: 'Q0ND' }, tail: '\\"image\\":' };
		for (const size of [1, 4, 1000]) {
			const { text, picture: image } = lift(JSON.stringify(body), size);
			expect(image).toEqual({ valid: true, bytes: Buffer.from('AAA') });
			expect(JSON.parse(text)).toEqual({ ...body, image: '' });
		}
	});

	it('does not take a backslash later in the same chunk for one inside the image', () => {
		const { picture: image } = lift(JSON.stringify({ image: 'QUFB', note: 'a \\ b "c"' }), 1_000);
		expect(image).toEqual({ valid: true, bytes: Buffer.from('AAA') });
	});

	it('reports a body cut off inside the image as invalid', () => {
		expect(lift('{"image":"AAAA', 2).picture).toEqual({ valid: false });
	});
});

describe('AnswerReader with the answer size known', () => {
	it('decodes straight into one buffer, and still flags what is not base64', () => {
		const picture = randomBytes(300_000);
		const text = JSON.stringify({ detections: [], image: picture.toString('base64'), labelsCount: [] });
		const reader = new AnswerReader(Buffer.byteLength(text));
		const bytes = Buffer.from(text);
		for (let start = 0; start < bytes.length; start += 65_536) reader.push(bytes.subarray(start, start + 65_536));
		expect(reader.end().picture).toEqual({ valid: true, bytes: picture });

		const broken = new AnswerReader(40);
		broken.push(Buffer.from('{"image":"AAAA%%%%AAAA"}'));
		expect(broken.end().picture).toEqual({ valid: false });
	});

	it.each(['', 'data:image/jpeg;base64,'])('decodes the picture while it streams in, not at the end (image %j)', (prefix) => {
		const picture = randomBytes(30_000);
		const text = Buffer.from(JSON.stringify({ detections: [], image: prefix + picture.toString('base64') }));
		const spare = Buffer.alloc(Math.ceil((text.length * 3) / 4));
		const reader = new AnswerReader(text.length, spare);
		// the answer so far ends 100 characters into the picture's base64
		const soFar = text.indexOf('"image"') + '"image":"'.length + prefix.length + 100;
		reader.push(text.subarray(0, soFar));
		expect(spare.subarray(0, 72).equals(picture.subarray(0, 72))).toBe(true);
		reader.push(text.subarray(soFar));
		expect(reader.end().picture).toEqual({ valid: true, bytes: picture });
	});

	it.each([0, -1, Number.NaN])('takes a size of %p as unknown', (size) => {
		const reader = new AnswerReader(size);
		reader.push(Buffer.from('{"image":"QUFB"}'));
		expect(reader.end().picture).toEqual({ valid: true, bytes: Buffer.from('AAA') });
	});

	it('falls back to collecting chunks when the size given was too small', () => {
		const picture = randomBytes(3_000);
		const reader = new AnswerReader(100);
		reader.push(Buffer.from(JSON.stringify({ image: picture.toString('base64') })));
		expect(reader.end().picture).toEqual({ valid: true, bytes: picture });
	});
});
