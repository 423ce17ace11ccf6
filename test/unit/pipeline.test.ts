import type { IDataObject } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { DetectedObject } from '../../nodes/ImageInference/contract';
import { readLabelMinimums } from '../../nodes/ImageInference/pipeline/labelMinimums';
import { parseLabelList } from '../../nodes/ImageInference/pipeline/labels';
import { DETECTION_STEPS, readDetectionOptions, runDetectionPipeline } from '../../nodes/ImageInference/pipeline/steps';
import type { DetectionOptions, LabelMinimums } from '../../nodes/ImageInference/pipeline/types';
import { failureOf, readerContext } from '../node/setup';

const box = (label: string, confidence: number, x = 0) => ({ label, confidence, x, y: 0, width: 1, height: 1 });
const noZones: DetectionOptions['zonesAndSizes'] = { zones: [], units: 'pixels', anchor: 'center', onlyInZones: false };

/** The service's detections through the pipeline, size unknown, as the node runs it. */
function run(detections: DetectedObject[], options: Partial<DetectionOptions>, labelsCount: Array<{ label: string; total: number }> = []) {
	const { results, leftOut } = runDetectionPipeline({ detections, image: null, labelsCount }, undefined, { zonesAndSizes: noZones, ...options });
	return { kept: results.detections.map(({ relativeBox, ...detection }) => detection), results, leftOut };
}

describe('what happens to the detections', () => {
	const detections = [box('car', 0.6), box('person', 0.9), box('car', 0.95), box('Dog', 0.5)];

	it('keeps only the named labels, exactly as spelled', () => {
		expect(run(detections, { onlyLabels: ['car', 'dog'] }).kept).toEqual([box('car', 0.6), box('car', 0.95)]);
	});

	it('ignores the named labels', () => {
		expect(run(detections, { ignoreLabels: ['car'] }).kept).toEqual([box('person', 0.9), box('Dog', 0.5)]);
	});

	it('leaves out objects under their label’s minimum confidence, the rest under the minimum of every other label; labels as spelled', () => {
		const minimums = (byLabel: Array<[string, number]>, others?: number) => ({ labelMinimums: { byLabel, ...(others !== undefined ? { others } : {}) } });
		expect(run(detections, minimums([['car', 0.7]])).kept).toEqual([box('person', 0.9), box('car', 0.95), box('Dog', 0.5)]);
		// a minimum is kept at exactly its value; "dog" is not "Dog"
		expect(run(detections, minimums([['car', 0.6], ['dog', 0.9]], 0.9)).kept).toEqual([box('car', 0.6), box('person', 0.9), box('car', 0.95)]);
		expect(run(detections, minimums([], 0.92)).kept).toEqual([box('car', 0.95)]);
		expect(run(detections, minimums([['person', 1]])).leftOut).toMatchObject({ labelMinimums: 1 });
	});

	it('applies the minimums before Max Objects: the most confident object under its minimum does not take a place', () => {
		const { kept, leftOut } = run(detections, { labelMinimums: { byLabel: [['car', 0.99]] }, maxObjects: 1 });
		expect(kept).toEqual([box('person', 0.9)]);
		expect(leftOut).toMatchObject({ labelMinimums: 2, maxObjects: 1 });
	});

	it('keeps the most confident first with Max Objects, after the label filters', () => {
		expect(run(detections, { maxObjects: 2 }).kept).toEqual([box('car', 0.95), box('person', 0.9)]);
		expect(run(detections, { ignoreLabels: ['person'], maxObjects: 2 }).kept).toEqual([box('car', 0.95), box('car', 0.6)]);
	});

	it('runs its steps in one order, and says how many objects each step left out (what the output panel’s hint reports)', () => {
		expect(DETECTION_STEPS.map((step) => step.key)).toEqual(['labelMinimums', 'onlyLabels', 'ignoreLabels', 'ignoreRegions', 'zonesAndSizes', 'maxObjects']);
		// the truck is outside the only zone (pixels 0–10), the low cars are the least confident
		const many = [...detections, box('car', 0.3), box('truck', 0.7), box('car', 0.2, 50)];
		const inZone = { ...noZones, onlyInZones: true, zones: [{ name: 'near', points: [[0, 0], [10, 0], [10, 10], [0, 10]] as Array<[number, number]> }] };
		// the truck is also under its minimum, the person under the other labels' one: each is left out by the first step it fails
		const labelMinimums: LabelMinimums = { byLabel: [['truck', 0.8], ['car', 0]], others: 0.95 };
		// and the far car, outside the zone, is in an ignore region: left out by the region, the step before the zones
		const ignoringFarCar = { ...inZone, ignoreRegions: [[[40, 0], [60, 0], [60, 10], [40, 10]] as Array<[number, number]>] };
		const { kept, leftOut } = run(many, { labelMinimums, onlyLabels: ['car', 'person', 'Dog'], ignoreLabels: ['person'], zonesAndSizes: ignoringFarCar, maxObjects: 2 });
		expect(kept).toEqual([
			{ ...box('car', 0.95), zones: ['near'] },
			{ ...box('car', 0.6), zones: ['near'] },
		]);
		expect(leftOut).toEqual({ labelMinimums: 3, onlyLabels: 0, ignoreLabels: 0, ignoreRegions: 1, zonesAndSizes: 0, maxObjects: 1 });
		expect(run(many, { onlyLabels: ['car', 'person', 'Dog'], ignoreLabels: ['person'], zonesAndSizes: inZone, maxObjects: 2 }).leftOut).toEqual({
			labelMinimums: 0,
			onlyLabels: 1,
			ignoreLabels: 1,
			ignoreRegions: 0,
			zonesAndSizes: 1,
			maxObjects: 2,
		});
		expect(run(many, {}).leftOut).toEqual({ labelMinimums: 0, onlyLabels: 0, ignoreLabels: 0, ignoreRegions: 0, zonesAndSizes: 0, maxObjects: 0 });
	});

	it('docs/watching.md lists the steps in the order the node runs them', () => {
		const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'watching.md'), 'utf8');
		const section = doc.slice(doc.indexOf('### The order'));
		const listed = [...section.matchAll(/^\d+\. \*\*([^*]+)\*\*/gm)].map((match) => match[1]);
		// the service's threshold comes first, the counts last; the node's steps in between
		expect(listed.slice(1, -1)).toEqual(DETECTION_STEPS.map((step) => step.name));
	});

	it('counts what is kept in the service’s label order; nothing kept is a summary too', () => {
		const { results } = run(detections, { ignoreLabels: ['Dog'] }, [
			{ label: 'person', total: 1 },
			{ label: 'car', total: 2 },
			{ label: 'Dog', total: 1 },
		]);
		expect(results.labelsCount).toEqual([
			{ label: 'person', total: 1 },
			{ label: 'car', total: 2 },
		]);
		expect(results.countsByLabel).toEqual({ person: 1, car: 2 });
		expect(results.totalDetections).toBe(3);
		expect(results.summary).toBe('1 person, 2 car');
		expect(run([], {}).results.summary).toBe('nothing detected');
	});

	it('reads a label list from text or from an array', () => {
		expect(parseLabelList(' car, person ,,car ')).toEqual(['car', 'person']);
		expect(parseLabelList(['car', ' dog '])).toEqual(['car', 'dog']);
		expect(parseLabelList(undefined)).toBeUndefined();
		expect(parseLabelList(' , ')).toEqual([]);
		// an expression that resolved to nothing filters nothing; a number is a label
		expect(parseLabelList(null)).toBeUndefined();
		expect(parseLabelList(7)).toEqual(['7']);
	});
});

describe('Minimum Confidence per Label, read', () => {
	const context = readerContext();
	const read = (value: unknown) => readLabelMinimums.call(context, 1, { minConfidenceByLabel: value as IDataObject });
	const failure = async (value: unknown) => await failureOf((async () => read(value))());
	const format = 'Write each entry as label: minimum (a number from 0 to 1), separated by commas, with * for every other label, e.g. "person: 0.7, car: 0.4, *: 0.3".';

	it('reads label: minimum pairs from text, * for every other label; the last colon separates', () => {
		expect(read(' person: 0.7 , car:0.4,*: .3,, ')).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4]], others: 0.3 } });
		expect(read('time: 12:00: 1')).toEqual({ labelMinimums: { byLabel: [['time: 12:00', 1]] } });
		expect(read('Person: 0, person: 1')).toEqual({ labelMinimums: { byLabel: [['Person', 0], ['person', 1]] } });
	});

	it('reads an object or a list from an expression; nothing set or blank is no minimum', () => {
		expect(read({ person: 0.7, car: '0.4', '*': 0 })).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4]], others: 0 } });
		expect(read(['person: 0.7', ' car: 0.4 '])).toEqual({ labelMinimums: { byLabel: [['person', 0.7], ['car', 0.4]] } });
		expect(read(undefined)).toEqual({});
		expect(read(null)).toEqual({});
		expect(read(' , ')).toEqual({});
		expect(read({})).toEqual({});
	});

	it('a minimum outside 0–1 or not a number, a label given twice, an entry without a colon or a label fails the item saying how to write it', async () => {
		const cases: Array<[unknown, string]> = [
			['person: 1.5', 'the minimum for "person" must be a number from 0 to 1, got "1.5"'],
			['person: -0.1', 'the minimum for "person" must be a number from 0 to 1, got "-0.1"'],
			['person: high', 'the minimum for "person" must be a number from 0 to 1, got "high"'],
			['person:', 'the minimum for "person" must be a number from 0 to 1, got ""'],
			[{ person: true }, 'the minimum for "person" must be a number from 0 to 1, got true'],
			[{ person: 2 }, 'the minimum for "person" must be a number from 0 to 1, got 2'],
			['person: 0.7, car: 0.4, person: 0.5', '"person" is given twice, with 0.7 and 0.5'],
			['*: 0.2, *: 0.3', '"*" is given twice, with 0.2 and 0.3'],
			['person 0.7', '"person 0.7" is not label: minimum'],
			[[7], '7 is not label: minimum'],
			[': 0.5', 'an entry has no label before its colon'],
			[7, '7 is not a list of label: minimum'],
		];
		for (const [value, message] of cases) {
			expect(await failure(value)).toEqual({ message: `Minimum Confidence per Label: ${message}`, description: format, itemIndex: 1 });
		}
	});
});

describe('the options of a workflow saved before the per-label, region, zone-rule and shape options', () => {
	const context = readerContext();

	it('are read once for items with the same options, and anew for an item with others or in another run', () => {
		const first = readDetectionOptions.call(context, 0, { onlyLabels: 'car' });
		expect(readDetectionOptions.call(context, 1, { onlyLabels: 'car' })).toBe(first);
		const other = readDetectionOptions.call(context, 2, { onlyLabels: 'dog' });
		expect(other.onlyLabels).toEqual(['dog']);
		expect(readDetectionOptions.call(context, 3, { onlyLabels: 'car' })).toEqual(first);
		const anotherRun = readerContext();
		expect(readDetectionOptions.call(anotherRun, 0, { onlyLabels: 'dog' })).not.toBe(other);
	});

	it('read the same, so the settings a watch key’s counts were taken under match, and its next look is compared, not a new baseline', () => {
		// the JSON Compare With Previous Look fingerprints (detect.operation.ts), as such a workflow's options give it
		const saved = (options: IDataObject) => JSON.stringify(readDetectionOptions.call(context, 0, options));
		expect(saved({})).toBe('{"zonesAndSizes":{"zones":[],"units":"relative","anchor":"center","onlyInZones":false}}');
		expect(saved({ onlyLabels: 'car', zones: { zone: [{ name: 'driveway', points: '0,0 1,0 1,1' }] }, minObjectSize: 0.002, maxObjects: 5 })).toBe(
			'{"onlyLabels":["car"],"zonesAndSizes":{"zones":[{"name":"driveway","points":[[0,0],[1,0],[1,1]]}],"units":"relative","anchor":"center","onlyInZones":false,"minSize":0.002},"maxObjects":5}',
		);
	});
});
