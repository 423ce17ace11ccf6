import { countLabels, filterDetections, parseLabelList, summarizeCounts } from '../../nodes/ImageInference/helpers/detections';

const box = (label: string, confidence: number) => ({ label, confidence, x: 0, y: 0, width: 1, height: 1 });

describe('detection filters', () => {
	const detections = [box('car', 0.6), box('person', 0.9), box('car', 0.95), box('Dog', 0.5)];

	it('keeps only the named labels, exactly as spelled', () => {
		expect(filterDetections(detections, { onlyLabels: ['car', 'dog'] }).kept).toEqual([box('car', 0.6), box('car', 0.95)]);
	});

	it('ignores the named labels', () => {
		expect(filterDetections(detections, { ignoreLabels: ['car'] }).kept).toEqual([box('person', 0.9), box('Dog', 0.5)]);
	});

	it('keeps the most confident first with Max Objects, after the label filters', () => {
		expect(filterDetections(detections, { maxObjects: 2 }).kept).toEqual([box('car', 0.95), box('person', 0.9)]);
		expect(filterDetections(detections, { ignoreLabels: ['person'], maxObjects: 2 }).kept).toEqual([box('car', 0.95), box('car', 0.6)]);
	});

	it('says how many objects each filter left out, in the order they apply (what the output panel’s hint reports)', () => {
		const many = [...detections, box('car', 0.3), box('truck', 0.7), box('car', 0.2)];
		const { kept, removed } = filterDetections(many, {
			onlyLabels: ['car', 'person', 'Dog'],
			ignoreLabels: ['person'],
			keep: (detection) => detection.confidence >= 0.3,
			maxObjects: 2,
		});
		expect(kept).toEqual([box('car', 0.95), box('car', 0.6)]);
		expect(removed).toEqual({ onlyLabels: 1, ignoreLabels: 1, zonesAndSizes: 1, maxObjects: 2 });
		expect(filterDetections(many, {}).removed).toEqual({ onlyLabels: 0, ignoreLabels: 0, zonesAndSizes: 0, maxObjects: 0 });
	});

	it('counts what is kept in the service’s label order; nothing kept is a summary too', () => {
		const counts = countLabels(filterDetections(detections, { ignoreLabels: ['Dog'] }).kept, [
			{ label: 'person', total: 1 },
			{ label: 'car', total: 2 },
			{ label: 'Dog', total: 1 },
		]);
		expect(counts).toEqual([
			{ label: 'person', total: 1 },
			{ label: 'car', total: 2 },
		]);
		expect(summarizeCounts(counts)).toBe('1 person, 2 car');
		expect(summarizeCounts(countLabels([], []))).toBe('nothing detected');
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
