import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { decodeBase64 } from '../input/base64';
import type { ImageInput } from '../input/imageInput';
import { resolveImage } from '../input/imageInput';
import type { DrawingSettings, PictureMarks } from '../picture/drawnPicture';
import { drawPicture, zoneMarks } from '../picture/drawnPicture';
import type { Size } from '../pipeline/geometry';
import type { DetectionResults } from '../pipeline/steps';
import type { ZoneAndSizeOptions } from '../pipeline/types';

/** How the node draws its own annotated picture (Detect's drawing options, read before any request). */
export interface NodeDrawing extends DrawingSettings {
	/** Carry the service's picture when the node cannot draw (the service is then asked for one). */
	serviceFallback: boolean;
}

/** `street.png` -> `street.annotated.jpg`: the node's picture is always a JPEG. */
function drawnFileName(inputFileName: string): string {
	return `${inputFileName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'image'}.annotated.jpg`;
}

/** The image's own bytes (a file, or decoded base64); an image URL gives the node none. */
async function imageBytes(this: IExecuteFunctions, itemIndex: number, image: ImageInput): Promise<Uint8Array | undefined> {
	if (image.source === 'url') return undefined;
	const resolved = await resolveImage.call(this, itemIndex, image);
	return typeof resolved === 'string' ? decodeBase64(resolved) : resolved;
}

/**
 * The node's own annotated picture of an image: the kept detections (with their tracks), the
 * zones and Ignore Regions, on the image's own file; or the service's picture (`fallback`, when
 * the user chose it) or none, with a warning saying why. Never throws: the detections, counts
 * and the comparison with the previous look stand whatever becomes of the picture.
 */
export async function drawnAnnotatedImage(
	this: IExecuteFunctions,
	itemIndex: number,
	image: ImageInput,
	drawing: NodeDrawing,
	marks: { results: DetectionResults; zonesAndSizes: ZoneAndSizeOptions; size: Size | undefined },
	fallback: IBinaryData | undefined,
): Promise<{ binary?: IBinaryData; warning?: string }> {
	const cannot = (reason: string) => ({
		...(fallback ? { binary: fallback } : {}),
		warning: `The node could not draw the annotated picture: ${reason}; the item carries ${fallback ? 'the service’s picture' : 'no annotated image'}.`,
	});
	try {
		const bytes = await imageBytes.call(this, itemIndex, image);
		if (!bytes) return cannot('an image URL gives the node no file to draw on');
		// zones in pixels need the image's size; without it only zones in fractions are drawn
		const places = marks.size || marks.zonesAndSizes.units === 'relative' ? zoneMarks(marks.zonesAndSizes, marks.size ?? { width: 1, height: 1 }) : { zones: [], ignoreRegions: [] };
		const pictureMarks: PictureMarks = { detections: marks.results.detections, ...places };
		const orientation = image.source === 'url' ? undefined : image.size?.orientation;
		const drawn = await drawPicture(bytes, orientation, pictureMarks, drawing);
		if (drawn.unreadable !== undefined) return cannot(drawn.unreadable);
		const binary = await this.helpers.prepareBinaryData(drawn.jpeg, drawnFileName(image.fileName), 'image/jpeg');
		return drawn.damaged ? { binary, warning: 'The image’s file is damaged: the node drew on as much of it as could be decoded (the rest is grey).' } : { binary };
	} catch (error) {
		return cannot(`${(error as Error).message || String(error)}`);
	}
}
