/**
 * Draws docs/watching-tracks.jpg: two looks of examples/parking-overstay.json's scripted camera
 * (test/watch/parking.ts), a minute apart each, tracked by the node's own tracker with the
 * example's bay and its default settings: above, the second look (cars 1 and 2 park side by side,
 * car 3 drives through the bay); below, the fifth (car 1 back with its id after a look in which
 * it was hidden, car 3 gone). Each box carries its trackId and how long it has been seen.
 *
 *   npx ts-node --transpile-only test/watch/draw-tracks.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Point } from '../../nodes/ImageInference/pipeline/geometry';
import { anchorPoint, insidePolygon, toPixels } from '../../nodes/ImageInference/pipeline/geometry';
import type { DetectionTrack } from '../../nodes/ImageInference/pipeline/tracking';
import { defaultTrackingSettings, newTrackingState, trackObjects } from '../../nodes/ImageInference/pipeline/tracking';
import { parsePoints } from '../../nodes/ImageInference/pipeline/zones';
import type { Rgb } from '../reference-server/draw';
import { drawLabel, strokeAround } from '../reference-server/draw';
import type { RgbaImage } from '../reference-server/image-codec';
import { decodeImage } from '../reference-server/image-codec';
import { outline, shade, writeStacked } from './drawing';
import { PARKING_LOOKS, PARKING_SCRIPT, parkingFrame } from './parking';

const BAY_COLOUR: Rgb = [255, 221, 0];
const TRACK_COLOURS: Rgb[] = [
	[0, 114, 178],
	[213, 94, 0],
	[0, 158, 115],
];
const SHOWN = [1, 4];
const CAPTIONS = ['look 2 - cars 1 and 2 park - car 3 drives through', 'look 5 - car 1 keeps its id after a look hidden'];

function main(): void {
	const example = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'parking-overstay.json'), 'utf8')) as {
		nodes: Array<{ name: string; parameters: { options?: { zones?: { zone: Array<{ name: string; points: string }> } } } }>;
	};
	const bay = example.nodes.find((node) => node.name === 'Watch the no-parking bay')!.parameters.options!.zones!.zone[0];
	const size = decodeImage(parkingFrame('empty'));
	const bayPixels = toPixels(parsePoints(bay.points, 'relative') as Point[], size);
	const state = newTrackingState(0);
	const settings = defaultTrackingSettings('UTC', true);
	const panels: RgbaImage[] = [];
	PARKING_SCRIPT.forEach((look, index) => {
		// the example counts only the cars whose bottom centre is in the bay (Only Objects in Zones)
		const cars = PARKING_LOOKS[look].filter((car) => insidePolygon(anchorPoint(car, 'bottomCenter'), bayPixels));
		const objects = cars.map((car) => ({
			label: car.label,
			relativeBox: { x: car.x / size.width, y: car.y / size.height, width: car.width / size.width, height: car.height / size.height },
			zones: [bay.name],
		}));
		const { detections } = trackObjects(state, objects, settings, index * 60_000);
		if (SHOWN.includes(index)) panels.push(panel(look, cars, detections, bayPixels, bay.name, CAPTIONS[SHOWN.indexOf(index)]));
	});
	writeStacked(panels, join(__dirname, '..', '..', 'docs', 'watching-tracks.jpg'));
}

function panel(
	look: keyof typeof PARKING_LOOKS,
	cars: Array<{ x: number; y: number; width: number; height: number }>,
	tracks: DetectionTrack[],
	bay: Point[],
	bayName: string,
	caption: string,
): RgbaImage {
	const picture = decodeImage(parkingFrame(look));
	shade(picture, bay, BAY_COLOUR, 0.25);
	outline(picture, bay, BAY_COLOUR, 2);
	drawLabel(picture, bayName, Math.round(bay[3][0]) + 4, Math.round(bay[3][1]) - 26, 2, BAY_COLOUR, [0, 0, 0]);
	cars.forEach((car, index) => {
		const { trackId, seenForSeconds } = tracks[index];
		const colour = TRACK_COLOURS[((trackId ?? 1) - 1) % TRACK_COLOURS.length];
		strokeAround(picture, { x: car.x, y: car.y, width: car.width, height: car.height }, 3, colour);
		drawLabel(picture, `car ${trackId}`, car.x, car.y - 22, 2, colour, [255, 255, 255]);
		drawLabel(picture, `${Math.round((seenForSeconds ?? 0) / 60)} min`, car.x, car.y + car.height + 2, 2, colour, [255, 255, 255]);
	});
	drawLabel(picture, caption, 8, 8, 2, [0, 0, 0], [255, 255, 255]);
	return picture;
}

main();
