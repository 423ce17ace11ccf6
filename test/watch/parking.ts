/**
 * A parking camera's scripted looks, for examples/parking-overstay.json's e2e test: each frame is
 * car.jpg with a mark of its own (so each has its own bytes), and the service's answer for it is
 * scripted (the reference server answers a frame's bytes with its detections). Two cars park side
 * by side in the no-parking bay and stay, a third drives through it, a person walking past hides
 * the first car for one look, then the cars leave one after the other. Boxes are in car.jpg's
 * pixels (676 × 380); the example's bay is the left half of the picture's lower part.
 */
import type { DetectedObject } from '../../nodes/ImageInference/contract';
import { CAMERA_CAR_BOX } from '../harness/images';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { CAR_JPG } from './frames';

/** Bottom centres (110, 330) and (240, 330): in the bay, side by side (a 10-pixel gap). */
const PARKED_FIRST = { label: 'car', confidence: 0.91, x: 50, y: 250, width: 120, height: 80 };
const PARKED_SECOND = { label: 'car', confidence: 0.88, x: 180, y: 252, width: 120, height: 78 };
/** Bottom centre (290, 300): in the bay for one look, driving through. */
const PASSING = { label: 'car', confidence: 0.9, x: 240, y: 230, width: 100, height: 70 };

export const PARKING_LOOKS = {
	empty: [],
	arriving: [PARKED_FIRST, PARKED_SECOND, PASSING],
	parked: [PARKED_FIRST, PARKED_SECOND],
	/** The first car hidden (a person walking past it), or gone. */
	secondOnly: [PARKED_SECOND],
} satisfies Record<string, DetectedObject[]>;

export type ParkingLook = keyof typeof PARKING_LOOKS;

/** The camera's sequence: the empty bay, the arrivals, a look where the first car is hidden, the cars leaving. */
export const PARKING_SCRIPT: ParkingLook[] = ['empty', 'arriving', 'parked', 'secondOnly', 'parked', 'parked', 'secondOnly', 'secondOnly', 'empty', 'empty'];

/** The columns of the Data Table the example records each stay in, as a user creates it. */
export const PARKING_STAYS_COLUMNS = [
	{ name: 'trackId', type: 'number' },
	{ name: 'label', type: 'string' },
	{ name: 'zone', type: 'string' },
	{ name: 'minutes', type: 'number' },
	{ name: 'arrivedAt', type: 'string' },
	{ name: 'leftAt', type: 'string' },
];

/**
 * car.jpg with the photo's own car copied, scaled, into each scripted car's box (so the boxes hold
 * cars), and a block of pixels in the top-left corner coloured by the look's place in the list.
 */
export function parkingFrame(look: ParkingLook): Buffer {
	const image = decodeImage(CAR_JPG);
	const photo = decodeImage(CAR_JPG);
	for (const box of PARKING_LOOKS[look]) {
		for (let y = 0; y < box.height; y++) {
			for (let x = 0; x < box.width; x++) {
				const from = ((CAMERA_CAR_BOX.y + Math.floor((y * CAMERA_CAR_BOX.height) / box.height)) * photo.width + CAMERA_CAR_BOX.x + Math.floor((x * CAMERA_CAR_BOX.width) / box.width)) * 4;
				photo.data.copy(image.data, ((box.y + y) * image.width + box.x + x) * 4, from, from + 4);
			}
		}
	}
	const shade = 40 + 50 * Object.keys(PARKING_LOOKS).indexOf(look);
	for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) image.data.fill(shade, (y * image.width + x) * 4, (y * image.width + x) * 4 + 3);
	return encodeImage(image, 'jpeg');
}

/** The service's answer for a look: its detections, their counts, and the frame as the annotated picture. */
export function parkingAnswer(look: ParkingLook): { detections: DetectedObject[]; labelsCount: Array<{ label: string; total: number }>; image: string } {
	const detections = PARKING_LOOKS[look];
	return { detections, labelsCount: detections.length ? [{ label: 'car', total: detections.length }] : [], image: parkingFrame(look).toString('base64') };
}
