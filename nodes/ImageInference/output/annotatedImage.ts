import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { decodeBase64 } from '../input/base64';
import type { ImageSize } from '../input/imageSize';
import { readImageSize } from '../input/imageSize';
import { sniffImageType } from '../input/imageType';
import type { AnswerPicture } from '../transport/answerReader';

/** The input's file name without its extension, the start of every file the node makes of it: `street.png` -> `street`. */
export function fileNameBase(inputFileName: string): string {
	return inputFileName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'image';
}

/** `street.jpg` + jpeg -> `street.annotated.jpg`: the service's picture takes the extension of its bytes, the node's is always `jpg`. */
export function annotatedFileName(inputFileName: string, extension: string): string {
	return `${fileNameBase(inputFileName)}.annotated.${extension}`;
}

/** The returned annotated picture: a file and its size, nothing (none was sent), or why it could not be read. */
export type AnnotatedImage =
	| { binary: IBinaryData; size?: ImageSize; warning?: undefined }
	| { binary?: undefined; size?: undefined; warning?: string };

/**
 * The result's annotated image as an n8n binary, checked to be a real image first. `picture` holds
 * the bytes the transport decoded while the answer streamed in; `image` is the result's field as
 * parsed. A picture that cannot be read is a warning, not a failure: the detections stand.
 */
export async function readAnnotatedImage(
	this: IExecuteFunctions,
	image: string | null,
	picture: AnswerPicture | undefined,
	inputFileName: string,
): Promise<AnnotatedImage> {
	if (image === null) return {};
	const bytes = picture ? (picture.valid ? picture.bytes : undefined) : decodeBase64(image);
	if (bytes?.length === 0) return {};
	if (!bytes) {
		return { warning: 'The service returned an annotated image that is not valid base64; the item has no annotated image.' };
	}
	const type = sniffImageType(bytes);
	if (!type) {
		return {
			warning: 'The service returned an annotated image that is not a recognisable image file; the item has no annotated image.',
		};
	}
	const binary = await this.helpers.prepareBinaryData(bytes, annotatedFileName(inputFileName, type.extension), type.mimeType);
	return { binary, size: readImageSize(bytes) };
}
