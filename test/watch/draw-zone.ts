/**
 * Draws docs/watching-zone.jpg: the watch example's driveway zone over the annotated pictures the
 * reference server returns for two camera frames (test/watch/frames.ts): the car in the driveway
 * (counted) above, the car further along the road (boxed by the service, not counted) below. Each
 * box's bottom-centre anchor is marked: white when it lies in the zone, black when not.
 *
 *   npx ts-node --transpile-only test/watch/draw-zone.ts
 */
import { join } from 'node:path';

import type { Point } from '../../nodes/ImageInference/pipeline/geometry';
import { anchorPoint, insidePolygon, toPixels } from '../../nodes/ImageInference/pipeline/geometry';
import { parsePoints } from '../../nodes/ImageInference/pipeline/zones';
import { startReferenceServer } from '../reference-server';
import type { Rgb } from '../reference-server/draw';
import { drawLabel, fillRect } from '../reference-server/draw';
import { decodeImage } from '../reference-server/image-codec';
import type { FrameName } from './frames';
import { outline, shade, writeStacked } from './drawing';
import { DRIVEWAY, frame } from './frames';

const ZONE_COLOUR: Rgb = [255, 221, 0];

async function main(): Promise<void> {
	const server = await startReferenceServer({});
	try {
		const panels = (['carInZone', 'carOutsideZone'] as FrameName[]).map((name) => {
			const answer = server.predict('detect', frame(name), {});
			const picture = decodeImage(Buffer.from(answer.image!, 'base64'));
			const zone = toPixels(parsePoints(DRIVEWAY, 'relative') as Point[], picture);
			shade(picture, zone, ZONE_COLOUR, 0.25);
			outline(picture, zone, ZONE_COLOUR, 2);
			drawLabel(picture, 'driveway', Math.round(zone[3][0]), Math.round(zone[3][1]) + 4, 2, ZONE_COLOUR, [0, 0, 0]);
			for (const detection of answer.detections) {
				const anchor = anchorPoint(detection, 'bottomCenter');
				const inside = insidePolygon(anchor, zone);
				fillRect(picture, Math.round(anchor[0]) - 3, Math.round(anchor[1]) - 3, 7, 7, [0, 0, 0]);
				fillRect(picture, Math.round(anchor[0]) - 2, Math.round(anchor[1]) - 2, 5, 5, inside ? [255, 255, 255] : [0, 0, 0]);
			}
			const caption = name === 'carInZone' ? 'in the driveway: counted' : 'outside the zone: drawn but not counted';
			drawLabel(picture, caption, 8, picture.height - 30, 2, [0, 0, 0], [255, 255, 255]);
			return picture;
		});
		writeStacked(panels, join(__dirname, '..', '..', 'docs', 'watching-zone.jpg'));
	} finally {
		await server.close();
	}
}

void main();
