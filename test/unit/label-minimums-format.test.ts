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
	});

	it('JSON-like text in braces reads as its entries', () => {
		expect(read('{"person": 0.7, "car": 0.4, "*": 0.1}')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4]], others: 0.1 } });
		expect(read(' {person: 0.7} ')).toEqual({ labelMinimums: { byLabel: [['person', 0.7]] } });
	});

	it('entries separated by semicolons or on lines of their own are entries, as by commas', () => {
		expect(read('person: 0.7; car: 0.5')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.5]] } });
		expect(read('person: 0.7\ncar: 0.5\r\n*: 0.2\n')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.5]], others: 0.2 } });
		expect(read(['person: 0.7; car: 0.5', 'dog: 0.3'])).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.5], ['dog', 0.3]] } });
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
		for (const label of ['"person', 'person"', "'person", "person'", '“person', 'person”', '‘person', 'person’', '{person', 'person}', '[person', 'person]', '"person\'', '“person“', '"']) {
			expect(await failure(`${label}: 0.7`)).toEqual(stray(label));
		}
		// the braces come off only as a pair around the whole text
		expect(await failure('{person: 0.7, car: 0.4')).toEqual(stray('{person'));
		expect(await failure('person: 0.7}')).toEqual(refusal('the minimum for "person" must be a number from 0 to 1, got "0.7}"'));
	});

	it('two entries without a separator between them fail the item instead of making one label of them', async () => {
		expect(await failure('person: 0.7 car: 0.4')).toEqual(refusal('"person: 0.7 car: 0.4" holds more than one entry: separate the entries with commas'));
		expect(await failure('person:.5 car: 0.4')).toEqual(refusal('"person:.5 car: 0.4" holds more than one entry: separate the entries with commas'));
		expect(await failure('person: 1. car: 0.4')).toEqual(refusal('"person: 1. car: 0.4" holds more than one entry: separate the entries with commas'));
		expect(await failure('person: -0 cat: 0.4')).toEqual(refusal('"person: -0 cat: 0.4" holds more than one entry: separate the entries with commas'));
	});

	it('a minimum outside 0–1 still fails the item, quoted or not', async () => {
		expect(await failure('"person": "1.5"')).toEqual(refusal('the minimum for "person" must be a number from 0 to 1, got "\\"1.5\\""'));
		expect(await failure('person: -0.1')).toEqual(refusal('the minimum for "person" must be a number from 0 to 1, got "-0.1"'));
	});
});
