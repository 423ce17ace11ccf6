/**
 * Minimum Confidence per Label as users write it: what they typed either works as they meant it or
 * fails the item saying what to fix; it is never read as a label no detection carries.
 */
import type { IDataObject } from 'n8n-workflow';

import { readLabelMinimums } from '../../nodes/ImageInference/pipeline/labelMinimums';
import { failureOf, readerContext } from '../node/setup';

const read = (value: unknown) => readLabelMinimums.call(readerContext(), 4, { minConfidenceByLabel: value as IDataObject });
const failure = async (value: unknown) => await failureOf((async () => read(value))());
const FORMAT = 'Write each entry as label: minimum (a number from 0 to 1), separated by commas, with * for every other label, e.g. "person: 0.7, car: 0.4, *: 0.3".';
const refusal = (message: string) => ({ message: `Minimum Confidence per Label: ${message}`, description: FORMAT, itemIndex: 4, httpCode: undefined });

describe('Minimum Confidence per Label, written as JSON or with other separators', () => {
	it('a label in quotes, as JSON writes it, is the label inside them; so is a minimum', () => {
		expect(read('"person": 0.7')).toEqual({ labelMinimums: { byLabel: [['person', 0.7]] } });
		expect(read("'person': '0.7', \"*\": \"0.2\"")).toEqual({ labelMinimums: { byLabel: [['person', 0.7]], others: 0.2 } });
		expect(read('“person”: 0.7, ‘car’: 0.4')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4]] } });
		expect(read({ '"person"': '"0.5"', car: 0.4 })).toEqual({ labelMinimums: { byLabel: [['person', 0.5], ['car', 0.4]] } });
		// backticks, as Markdown shows a label
		expect(read('`person`: 0.7, `*`: `0.2`')).toEqual({ labelMinimums: { byLabel: [['person', 0.7]], others: 0.2 } });
	});

	it('JSON-like text in braces reads as its entries', () => {
		expect(read('{"person": 0.7, "car": 0.4, "*": 0.1}')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4]], others: 0.1 } });
		expect(read(' {person: 0.7} ')).toEqual({ labelMinimums: { byLabel: [['person', 0.7]] } });
	});

	it('entries separated by semicolons or on lines of their own are entries, as by commas', () => {
		expect(read('person: 0.7; car: 0.5')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.5]] } });
		expect(read('person: 0.7\ncar: 0.5\r\n*: 0.2\n')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.5]], others: 0.2 } });
	});

	it('each item of a list from an expression is one entry: a label with a comma in it, as ImageNet’s, stays whole', async () => {
		expect(read(['tench, Tinca tinca: 0.5', 'goldfish, Carassius auratus: 0.4'])).toEqual({
			labelMinimums: { byLabel: [['tench, Tinca tinca', 0.5], ['goldfish, Carassius auratus', 0.4]] },
		});
		expect(read(['"great white shark, white shark": 0.6'])).toEqual({ labelMinimums: { byLabel: [['great white shark, white shark', 0.6]] } });
		// two entries in one item are refused, not read as one label
		expect(await failure(['person: 0.7; car: 0.5', 'dog: 0.3'])).toEqual(
			refusal('"person: 0.7; car: 0.5" holds more than one entry: separate the entries with commas, or give each its own item in a list'),
		);
	});

	it('a decimal comma fails the item saying to write a decimal point, in a text or a list', async () => {
		const decimalComma = (minimum: string, fixed: string) => refusal(`the minimum "${minimum}" has a decimal comma: write it with a decimal point (${fixed}); commas separate the entries`);
		expect(await failure('person: 0,7')).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure('car: 0.5, person: 0,75, dog: 0.2')).toEqual(decimalComma('0,75', '0.75'));
		expect(await failure('person: 0,7; car: 0.5')).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure('person: 0,7\ncar: 0.5')).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure('person: 0,7 \r\ncar: 0.5')).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure(['person: -0,5'])).toEqual(decimalComma('-0,5', '-0.5'));
		expect(await failure('{person: 1,0}')).toEqual(decimalComma('1,0', '1.0'));
		expect(await failure(['person: 0,7'])).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure(['person: "0,7"'])).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure('"person": "0,7"')).toEqual(decimalComma('0,7', '0.7'));
		expect(await failure("{'person': '0,75', 'car': 0.5}")).toEqual(decimalComma('0,75', '0.75'));
		for (const quoted of ['„0,7“', '«0,7»', '‚0,7‘', '「0,7」']) expect(await failure(`person: ${quoted}`)).toEqual(decimalComma('0,7', '0.7'));
		// a comma between entries is no decimal comma: "7" is a label here
		expect(read('person: 0,7: 0.5')).toEqual({ labelMinimums: { byLabel: [['person', 0], ['7', 0.5]] } });
		expect(read('person: 0, 7: 0.5')).toEqual({ labelMinimums: { byLabel: [['person', 0], ['7', 0.5]] } });
	});

	it('labels in guillemets or corner brackets are the label inside them; one left open fails the item', async () => {
		expect(read('«person»: 0.7, ‹car›: 0.4, »dog«: 0.3')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4], ['dog', 0.3]] } });
		expect(read('「person」: 0.7; 『car』: 0.4; „bus“: 0.2; ‚van‘: 0.1')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4], ['bus', 0.2], ['van', 0.1]] } });
		for (const label of ['«person', 'person»', '「person', 'person」', '『person', 'person』', '‹person', 'person›', '„person', '‚person']) {
			expect(await failure(`${label}: 0.7`)).toEqual(
				refusal(`the label ${JSON.stringify(label)} starts or ends with a quote or a bracket: write each label as the service spells it, e.g. person: 0.7`),
			);
		}
	});

	it('a label no model gives is no error; a label with a colon in it still reads to its last colon', () => {
		expect(read('dinosaur: 0.5')).toEqual({ labelMinimums: { byLabel: [['dinosaur', 0.5]] } });
		expect(read('time: 12:00: 1')).toEqual({ labelMinimums: { byLabel: [['time: 12:00', 1]] } });
	});

	it('a label given twice with the same minimum counts once; with two minimums it fails the item naming both', async () => {
		expect(read('person: 0.7, "person": 0.7')).toEqual({ labelMinimums: { byLabel: [['person', 0.7]] } });
		expect(read('*: 0.2; *: 0.2')).toEqual({ labelMinimums: { byLabel: [], others: 0.2 } });
		expect(await failure('person: 0.7; person: 0.5')).toEqual(refusal('"person" is given twice, with 0.7 and 0.5'));
		expect(await failure({ person: 0.7, '"person"': 0.5 })).toEqual(refusal('"person" is given twice, with 0.7 and 0.5'));
		expect(await failure('*: 0.2, *: 0.3')).toEqual(refusal('"*" is given twice, with 0.2 and 0.3'));
	});

	it('an empty label, in quotes or not, fails the item', async () => {
		expect(await failure('"": 0.5')).toEqual(refusal('an entry has no label before its colon'));
		expect(await failure("person: 0.7, '  ': 0.5")).toEqual(refusal('an entry has no label before its colon'));
	});

	it('a quote or bracket left at a label’s start or end fails the item instead of naming a label nothing has', async () => {
		const stray = (label: string) => refusal(`the label ${JSON.stringify(label)} starts or ends with a quote or a bracket: write each label as the service spells it, e.g. person: 0.7`);
		for (const label of ['"person', 'person"', "'person", "person'", '`person', 'person`', '“person', 'person”', '‘person', 'person’', '{person', 'person}', '[person', 'person]', '"person\'', '“person“', '"']) {
			expect(await failure(`${label}: 0.7`)).toEqual(stray(label));
		}
		// the braces come off only as a pair around the whole text
		expect(await failure('{person: 0.7, car: 0.4')).toEqual(stray('{person'));
		expect(await failure('person: 0.7}')).toEqual(refusal('the minimum for "person" must be a number from 0 to 1, got "0.7}"'));
	});

	it('two entries without a separator between them fail the item instead of making one label of them', async () => {
		expect(await failure('person: 0.7 car: 0.4')).toEqual(refusal('"person: 0.7 car: 0.4" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		expect(await failure('person:.5 car: 0.4')).toEqual(refusal('"person:.5 car: 0.4" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		expect(await failure('person: 1. car: 0.4')).toEqual(refusal('"person: 1. car: 0.4" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		expect(await failure('person: -0 cat: 0.4')).toEqual(refusal('"person: -0 cat: 0.4" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		expect(await failure('person: 0.7car: 0.5')).toEqual(refusal('"person: 0.7car: 0.5" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		expect(await failure('person: 1car: 0.5')).toEqual(refusal('"person: 1car: 0.5" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		// colons between the entries
		expect(await failure('person:0.7:car:0.5')).toEqual(refusal('"person:0.7:car: 0.5" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		expect(await failure('person: 0.7 : car: 0.5')).toEqual(refusal('"person: 0.7 : car: 0.5" holds more than one entry: separate the entries with commas, or give each its own item in a list'));
		// a number followed by a colon, a digit, a dot or nothing ends no entry
		expect(read('time: 12:00: 1, v: 1.2.3: 0.5')).toEqual({ labelMinimums: { byLabel: [['time: 12:00', 1], ['v: 1.2.3', 0.5]] } });
	});

	it('entries written as a list, with a dash or a bullet before each, fail the item instead of naming labels nothing has', async () => {
		const listed = (label: string) => refusal(`the label ${JSON.stringify(label)} starts with a list’s mark: write each entry as label: minimum, on a line of its own or separated by commas (or the label in quotes if it is spelled so)`);
		expect(await failure('- person: 0.7\n- car: 0.5')).toEqual(listed('- person'));
		expect(await failure('person: 0.7\n• car: 0.5')).toEqual(listed('• car'));
		expect(await failure('* car: 0.5')).toEqual(listed('* car'));
		expect(await failure('1. person: 0.7\n2. car: 0.5')).toEqual(listed('1. person'));
		expect(await failure('person: 0.7\n12) car: 0.5')).toEqual(listed('12) car'));
		// a label may still hold a dash, and * alone is every other label
		expect(read('t-shirt: 0.5, -: 0.2, *: 0.1')).toEqual({ labelMinimums: { byLabel: [['t-shirt', 0.5], ['-', 0.2]], others: 0.1 } });
		// and digits: a number and a dot without a space after them are no list's mark
		expect(read('1.5 ton truck: 0.5, 3.car: 0.4')).toEqual({ labelMinimums: { byLabel: [['1.5 ton truck', 0.5], ['3.car', 0.4]] } });
	});

	it('a label written as a pattern fails the item instead of matching nothing: labels are matched exactly', async () => {
		const pattern = (label: string) => refusal(`the label ${JSON.stringify(label)} is a pattern: labels are matched exactly as the service spells them, and * alone sets every other label (write the label in quotes if it is spelled so)`);
		expect(await failure('*car: 0.5')).toEqual(pattern('*car'));
		expect(await failure('person: 0.7, vehicle*: 0.5')).toEqual(pattern('vehicle*'));
		expect(await failure('"*": 0.3, **: 0.2')).toEqual(pattern('**'));
		// a star inside a label is the label's own
		expect(read('5*star: 0.5, *: 0.2')).toEqual({ labelMinimums: { byLabel: [['5*star', 0.5]], others: 0.2 } });
	});

	it('a label in quotes, or a key or item from an expression, is exact: a list’s mark or a star in it is the label’s own', () => {
		const exact = { labelMinimums: { byLabel: [['1. FC Köln', 0.6], ['V*', 0.5], ['- person', 0.4]] } };
		expect(read('"1. FC Köln": 0.6, "V*": 0.5, \'- person\': 0.4')).toEqual(exact);
		expect(read({ '1. FC Köln': 0.6, 'V*': 0.5, '- person': 0.4 })).toEqual(exact);
		expect(read(['1. FC Köln: 0.6', 'V*: 0.5', '- person: 0.4'])).toEqual(exact);
	});

	it('a minimum outside 0–1 still fails the item, quoted or not', async () => {
		expect(await failure('"person": "1.5"')).toEqual(refusal('the minimum for "person" must be a number from 0 to 1, got "\\"1.5\\""'));
		expect(await failure('person: -0.1')).toEqual(refusal('the minimum for "person" must be a number from 0 to 1, got "-0.1"'));
	});
});
