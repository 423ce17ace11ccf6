/**
 * A front-door camera's scripted looks, for examples/front-door.json's e2e test: each frame is
 * car.jpg with a mark of its own (so each has its own bytes), and the service's answer for it is
 * scripted (the reference server answers a frame's bytes with its detections): things appear one
 * look after another, each one that a knob of the example keeps from being an alert, then a
 * visitor and a car. Boxes are in car.jpg's pixels (676 × 380); the example's zones are relative.
 */
import type { DetectedObject } from '../../nodes/ImageInference/contract';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { CAR_JPG } from './frames';

/** Bottom centre (195, 240): at the door, outside the poster; under the example's person minimum. */
const COAT_ON_THE_HOOK = { label: 'person', confidence: 0.45, x: 180, y: 150, width: 30, height: 90 };
/** Bottom centre (115, 220): in the example's ignore region, the poster on the door. */
const POSTER = { label: 'person', confidence: 0.9, x: 95, y: 140, width: 40, height: 80 };
/** Bottom centre (80, 330): on the doorstep; the door zone counts only people. */
const CAT = { label: 'cat', confidence: 0.9, x: 60, y: 300, width: 40, height: 30 };
/** Bottom centre (180, 320): at the door. */
export const VISITOR = { label: 'person', confidence: 0.92, x: 150, y: 120, width: 60, height: 200 };
/** Bottom centre (420, 270): in the driveway, which counts only cars. */
const WALKER = { label: 'person', confidence: 0.88, x: 400, y: 150, width: 40, height: 120 };
/** Bottom centre (525, 330): in the driveway. */
export const CAR = { label: 'car', confidence: 0.9, x: 450, y: 230, width: 150, height: 100 };

export const FRONT_DOOR_LOOKS = {
	empty: [],
	coat: [COAT_ON_THE_HOOK],
	poster: [COAT_ON_THE_HOOK, POSTER],
	cat: [COAT_ON_THE_HOOK, POSTER, CAT],
	visitor: [COAT_ON_THE_HOOK, POSTER, CAT, VISITOR],
	walker: [COAT_ON_THE_HOOK, POSTER, CAT, VISITOR, WALKER],
	car: [COAT_ON_THE_HOOK, POSTER, CAT, VISITOR, WALKER, CAR],
} satisfies Record<string, DetectedObject[]>;

export type FrontDoorLook = keyof typeof FRONT_DOOR_LOOKS;

/** car.jpg with a block of pixels in the top-left corner coloured by the look's place in the list. */
export function frontDoorFrame(look: FrontDoorLook): Buffer {
	const image = decodeImage(CAR_JPG);
	const shade = 30 * Object.keys(FRONT_DOOR_LOOKS).indexOf(look);
	for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) image.data.fill(shade, (y * image.width + x) * 4, (y * image.width + x) * 4 + 3);
	return encodeImage(image, 'jpeg');
}

/** The service's answer for a look: its detections, their counts, and the frame as the annotated picture. */
export function frontDoorAnswer(look: FrontDoorLook): { detections: DetectedObject[]; labelsCount: Array<{ label: string; total: number }>; image: string } {
	const detections = FRONT_DOOR_LOOKS[look];
	const totals = new Map<string, number>();
	for (const { label } of detections) totals.set(label, (totals.get(label) ?? 0) + 1);
	return { detections, labelsCount: [...totals].map(([label, total]) => ({ label, total })), image: frontDoorFrame(look).toString('base64') };
}
