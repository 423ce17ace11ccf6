/**
 * Zones in shapes n8n never hands the node from a workflow it resolved (its getNodeParameters
 * turns a zone list given as text into one empty zone per character, and fails on a null list
 * before the node runs), which the reader still takes: a runner other than n8n's may pass them.
 */
import type { IDataObject } from 'n8n-workflow';

import { readZoneAndSizeOptions } from '../../nodes/ImageInference/pipeline/zones';
import { failureOf, readerContext } from '../node/setup';

const read = (options: IDataObject) => readZoneAndSizeOptions.call(readerContext(), 1, options);

describe('the zone list in a shape n8n does not give', () => {
	it('a list that is text fails the item, saying how zones are added', async () => {
		expect(await failureOf((async () => read({ zones: { zone: 'driveway' } }))())).toMatchObject({
			message: 'Zones must be a list of named zones',
			description: 'Add each zone with Add Zone: a name and its points.',
			itemIndex: 1,
		});
	});

	it('a null list, or none, is no zone', () => {
		expect(read({ zones: { zone: null } }).zones).toEqual([]);
		expect(read({ zones: null }).zones).toEqual([]);
		expect(read({ zones: {} }).zones).toEqual([]);
	});
});
