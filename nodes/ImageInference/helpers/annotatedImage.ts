import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { sniffImageType } from './imageType';

const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `street.jpg` + jpeg -> `street.annotated.jpg`; the extension follows the returned bytes. */
export function annotatedFileName(inputFileName: string, extension: string): string {
	const base = inputFileName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'image';
	return `${base}.annotated.${extension}`;
}

/** The result's base64 `image` as an n8n binary, checked to be a real image first. */
export async function toAnnotatedBinary(
	this: IExecuteFunctions,
	itemIndex: number,
	base64: string,
	inputFileName: string,
	attempts: number,
): Promise<IBinaryData> {
	const data = base64.replace(/^data:[^,]*?;base64,/i, '').replace(/\s+/g, '');
	const bytes = STRICT_BASE64.test(data) && data.length % 4 !== 1 ? Buffer.from(data, 'base64') : undefined;
	const type = bytes && bytes.length > 0 ? sniffImageType(bytes) : undefined;
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
