import type { INodeProperties } from 'n8n-workflow';

import { ImageInferenceTrigger } from '../../nodes/ImageInferenceTrigger/ImageInferenceTrigger.node';
import { EVENT_KINDS } from '../../nodes/ImageInferenceTrigger/look/events';
import { TRIGGER_OWN_OPTIONS } from '../../nodes/ImageInferenceTrigger/look/detectContext';

const { properties } = new ImageInferenceTrigger().description;
const field = (name: string) => properties.find((property) => property.name === name)!;
const options = field('options').options as INodeProperties[];

describe('The trigger’s form', () => {
	it('offers every event kind the trigger knows, and only those', () => {
		expect(field('events').options?.map((option) => (option as { value: string }).value)).toEqual([...EVENT_KINDS]);
	});

	it('has Detect’s options but those the trigger sets itself, and its own; none waits on Compare With Previous Look', () => {
		const names = options.map((option) => option.name);
		for (const setByTrigger of ['compareWithPreviousLook', 'watchKey', 'concurrency', 'includeImagesWithoutObjects']) expect(names).not.toContain(setByTrigger);
		for (const own of TRIGGER_OWN_OPTIONS) expect(names).toContain(own);
		for (const detect of ['zones', 'ignoreRegions', 'trackObjects', 'trackMinOverlap', 'cooldownMinutes', 'onlyLabels', 'confidence', 'retries']) expect(names).toContain(detect);
		expect(options.filter((option) => option.displayOptions?.show && 'compareWithPreviousLook' in option.displayOptions.show)).toEqual([]);
		expect(options.find((option) => option.name === 'trackMinOverlap')?.displayOptions).toEqual({ show: { trackObjects: [true] } });
		expect(options.find((option) => option.name === 'cooldownMinutes')).not.toHaveProperty('displayOptions');
		expect(names).toEqual([...names].sort((a, b) => options.find((o) => o.name === a)!.displayName.localeCompare(options.find((o) => o.name === b)!.displayName)));
	});

	it('asks for the camera login only with Camera Credential', () => {
		expect(new ImageInferenceTrigger().description.credentials).toEqual([
			{ name: 'imageInferenceApi', required: true },
			{ name: 'imageInferenceCameraApi', required: true, displayOptions: { show: { authentication: ['cameraApi'] } } },
		]);
	});
});
