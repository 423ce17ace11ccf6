import { anchorPoint, insideBoundedPolygon } from './geometry';
import type { DetectionStep } from './types';
import { seenBox } from './zones';

/** Ignore Regions: objects whose anchor (the zones' anchor rule) is in a region are left out. */
export const ignoreRegions: DetectionStep = {
	key: 'ignoreRegions',
	name: 'Ignore Regions',
	keep(detections, image, { zonesAndSizes: { anchor } }) {
		const regions = image.ignoreRegions;
		if (!regions) return detections;
		return detections.filter((detection) => {
			const point = anchorPoint(seenBox(detection, image), anchor);
			return !regions.some((region) => insideBoundedPolygon(point, region));
		});
	},
};
