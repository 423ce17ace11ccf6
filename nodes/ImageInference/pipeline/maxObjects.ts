import type { DetectionStep } from './types';

export const MAX_OBJECTS_BOUNDS = { min: 1, max: 10_000, integer: true } as const;

/** Max Objects: the most confident this many, most confident first. */
export const maxObjects: DetectionStep = {
	key: 'maxObjects',
	name: 'Max Objects',
	keep(detections, _image, { maxObjects: most }) {
		if (most === undefined) return detections;
		return [...detections].sort((a, b) => b.confidence - a.confidence).slice(0, most);
	},
};
