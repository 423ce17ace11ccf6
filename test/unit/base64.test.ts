import { decodeBase64, normalizeBase64 } from '../../nodes/ImageInference/input/base64';

/** Base64 as users paste it into Image (Base64): what is read as which bytes, and what is refused. */
describe('decodeBase64', () => {
	const bytes = (text: string) => [...(decodeBase64(text) ?? Buffer.from('refused'))];

	it.each([
		['no padding', 'AAEC', [0, 1, 2]],
		['one padding sign', 'AAE=', [0, 1]],
		['two padding signs', 'AA==', [0]],
		['a last group without its one padding sign', 'AAE', [0, 1]],
		['a last group without its two padding signs', 'AAECAw', [0, 1, 2, 3]],
		['a data: URL with line breaks and spaces around it', ' \n data:image/png;base64,AAEC\r\nAwQF \n', [0, 1, 2, 3, 4, 5]],
	])('reads %s', (_, text, expected) => {
		expect(bytes(text)).toEqual(expected);
	});

	it.each([
		['an empty text', ''],
		['only white space', ' \n '],
		['a length one past a whole group', 'AAECA'],
		['padding on a text whose length is not a whole group', 'AE='],
		['three padding signs', 'A==='],
		['a character outside the alphabet', 'AA*C'],
		['a data: prefix alone', 'data:image/png;base64,'],
		['a data: prefix in the middle of the text', 'AAEC data:image/png;base64,AwQF'],
	])('refuses %s', (_, text) => {
		expect(decodeBase64(text)).toBeUndefined();
	});

	it('normalizes to the form the service expects: no prefix, no white space', () => {
		expect(normalizeBase64(' data:image/jpeg;base64,AA\nEC ')).toBe('AAEC');
	});
});
