import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { LiftedImage } from '../transport/liftImage';
import { decodeBase64 } from './base64';
import { sniffImageType } from './imageType';

/** `street.jpg` + jpeg -> `street.annotated.jpg`; the extension follows the returned bytes. */
export function annotatedFileName(inputFileName: string, extension: string): string {
	const base = inputFileName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'image';
	return `${base}.annotated.${extension}`;
}

/**
 * The result's annotated image as an n8n binary, checked to be a real image first; none when the
 * service sent `null` (or an empty string). `lifted` holds the bytes the transport decoded while
 * the answer streamed in; `image` is the result's field as parsed.
 */
export async function toAnnotatedBinary(
	this: IExecuteFunctions,
	itemIndex: number,
	image: string | null,
	lifted: LiftedImage | undefined,
	inputFileName: string,
	attempts: number,
): Promise<IBinaryData | undefined> {
	if (image === null) return undefined;
	const bytes = lifted ? (lifted.valid ? lifted.bytes : undefined) : decodeBase64(image);
	if (bytes?.length === 0) return undefined;
	const type = bytes ? sniffImageType(bytes) : undefined;
	if (!bytes || !type) {
		throw new NodeApiError(
			this.getNode(),
			{ code: 'invalid_annotated_image', status: 200, attempts },
			{
				itemIndex,
				message: bytes
					? 'The service returned an annotated image that is not a recognisable image'
					: 'The service returned an annotated image that is not valid base64',
				description:
					'The detections were received but the annotated picture could not be read. Turn off "Annotate Image" to get the detections without it, or try again later.',
			},
		);
	}
	return await this.helpers.prepareBinaryData(bytes, annotatedFileName(inputFileName, type.extension), type.mimeType);
}
