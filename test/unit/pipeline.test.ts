import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { DetectedObject } from '../../nodes/ImageInference/contract';
import { parseLabelList } from '../../nodes/ImageInference/pipeline/labels';
import { DETECTION_STEPS, runDetectionPipeline } from '../../nodes/ImageInference/pipeline/steps';
import type { DetectionOptions } from '../../nodes/ImageInference/pipeline/types';

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

	it('keeps the most confident first with Max Objects, after the label filters', () => {
		expect(run(detections, { maxObjects: 2 }).kept).toEqual([box('car', 0.95), box('person', 0.9)]);
		expect(run(detections, { ignoreLabels: ['person'], maxObjects: 2 }).kept).toEqual([box('car', 0.95), box('car', 0.6)]);
	});

	it('runs its steps in one order, and says how many objects each step left out (what the output panel’s hint reports)', () => {
		expect(DETECTION_STEPS.map((step) => step.key)).toEqual(['onlyLabels', 'ignoreLabels', 'zonesAndSizes', 'maxObjects']);
		// the truck is outside the only zone (pixels 0–10), the low cars are the least confident
		const many = [...detections, box('car', 0.3), box('truck', 0.7), box('car', 0.2, 50)];
		const inZone = { ...noZones, onlyInZones: true, zones: [{ name: 'near', points: [[0, 0], [10, 0], [10, 10], [0, 10]] as Array<[number, number]> }] };
		const { kept, leftOut } = run(many, { onlyLabels: ['car', 'person', 'Dog'], ignoreLabels: ['person'], zonesAndSizes: inZone, maxObjects: 2 });
		expect(kept).toEqual([
			{ ...box('car', 0.95), zones: ['near'] },
			{ ...box('car', 0.6), zones: ['near'] },
		]);
		expect(leftOut).toEqual({ onlyLabels: 1, ignoreLabels: 1, zonesAndSizes: 1, maxObjects: 2 });
		expect(run(many, {}).leftOut).toEqual({ onlyLabels: 0, ignoreLabels: 0, zonesAndSizes: 0, maxObjects: 0 });
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
