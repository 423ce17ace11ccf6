import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MAX_TOOL_LABELS, MAX_TOOL_RESULT_CHARS, runAsTool } from '../../nodes/ImageInference/output/toolResult';

// The compact result of one Detect item, as an agent gets it (runAsTool on the node's output):
// cases the reference server cannot easily be made to produce through a whole run.
const asTool = { getNode: () => ({ type: 'n8n-nodes-image-inference.imageInferenceTool', onError: 'stopWorkflow' }) } as unknown as IExecuteFunctions;
const compact = async (json: IDataObject) => (await runAsTool(asTool, async () => [[{ json, pairedItem: { item: 0 } }]]))[0][0].json;

describe('the tool result of a Detect item', () => {
	it(`past ${MAX_TOOL_LABELS} labels, the most frequent are counted by name whatever order they came in; the rest are summed`, async () => {
		// 30 labels, the least frequent first: label 0 once … label 29 thirty times
		const countsByLabel = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`label ${i}`, i + 1]));
		const result = await compact({ detections: [], countsByLabel });
		expect(result.countsByLabel).toEqual(Object.fromEntries(Array.from({ length: MAX_TOOL_LABELS }, (_, i) => [`label ${i + 5}`, i + 6])));
		expect(result.otherLabels).toEqual({ labels: 5, detections: 1 + 2 + 3 + 4 + 5 });
	});

	it(`with no detection left to drop, zones give way only past ${MAX_TOOL_RESULT_CHARS} characters`, async () => {
		// 20 zones of 8 labels each: the length is set by the last zone's name (one character each)
		const labels = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`kind of object ${i}`, 1]));
		const zonesNamed = (lastNameLength: number) =>
			Object.fromEntries(Array.from({ length: 20 }, (_, i) => [i === 19 ? 'z'.repeat(lastNameLength) : `zone ${i} `.padEnd(28, 'x'), labels]));
		const whole = (lastNameLength: number) => ({ totalDetections: 0, countsByLabel: {}, countsByZone: zonesNamed(lastNameLength), detections: [], detectionsNotListed: 0 });
		const exact = Array.from({ length: 64 }, (_, i) => i + 1).find((length) => JSON.stringify(whole(length)).length === MAX_TOOL_RESULT_CHARS);
		expect(exact).toBeDefined();

		expect(await compact({ detections: [], countsByLabel: {}, countsByZone: zonesNamed(exact!) })).toEqual(whole(exact!));
		const over = await compact({ detections: [], countsByLabel: {}, countsByZone: zonesNamed(exact! + 1) });
		expect(Object.keys(over.countsByZone as object)).toHaveLength(19);
		expect(over.zonesNotListed).toBe(1);
	});
});
