import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ImageSize } from '../../input/imageSize';
import { readChoice } from '../../parameters/readers';
import { uprightBox, uprightSize } from '../../pipeline/geometry';
import { hiddenLabel, readBlurLabels } from '../../output/drawnImage';
import { hiddenPicture } from '../../picture/drawnPicture';
import type { PrivacyEffect } from '../../picture/privacy';
import { DEFAULT_HIDE_WITH, HIDE_WITH } from '../detect/drawing.description';
import type { AnnotationSource, LabelledAnnotation } from './annotations';

/** Upload to Project's Blur These Labels: the Detections' boxes of these labels hidden in the image sent. */
export interface UploadPrivacy {
	labels: string[];
	effect: PrivacyEffect;
}

/** The image as sent with Blur These Labels: upright, the boxes hidden, a JPEG; its annotations in its pixels. */
export interface BlurredUpload {
	bytes: Buffer;
	size: ImageSize;
	annotations: LabelledAnnotation[];
	hiddenBoxes: number;
}

const QUALITY_OF_BLURRED_UPLOAD = 92;

/** Blur These Labels and Hide With of Upload to Project, checked before any request. */
export function readUploadPrivacy(this: IExecuteFunctions, itemIndex: number, options: IDataObject, annotationSource: AnnotationSource): UploadPrivacy | undefined {
	// only an option not added is off: one added and left empty, or an expression that gives nothing, is a mistake to say
	if (!('hideLabels' in options)) return undefined;
	const labels = readBlurLabels.call(this, itemIndex, options.hideLabels);
	if (labels.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Blur These Labels is empty', {
			itemIndex,
			description: 'Enter the labels whose boxes are blurred in the uploaded image, separated by commas (e.g. "person, license-plate"), or remove the option.',
		});
	}
	if (annotationSource !== 'detections') {
		throw new NodeOperationError(this.getNode(), 'Blur These Labels needs Annotations: From Detections', {
			itemIndex,
			description: 'The boxes to blur are the Detections’ boxes of those labels. Set Annotations to From Detections, or remove Blur These Labels.',
		});
	}
	return { labels, effect: readChoice(this, itemIndex, options.hideWith ?? DEFAULT_HIDE_WITH, HIDE_WITH, 'Hide With') };
}

/**
 * The file with the boxes of Blur These Labels hidden, upright at its full size (a photo stored
 * turned is sent turned as people see it, so its annotations are moved into that picture); the
 * file itself when none of its boxes has those labels. An image the node cannot read is an item
 * error before anything is sent for it: it never goes up unblurred.
 */
export async function blurredForUpload(
	this: IExecuteFunctions,
	itemIndex: number,
	file: { bytes: Buffer; size: ImageSize },
	annotations: LabelledAnnotation[],
	privacy: UploadPrivacy,
): Promise<BlurredUpload | undefined> {
	const isHidden = hiddenLabel(privacy.labels);
	const { size } = file;
	const upright = uprightSize(size);
	const inUpright = annotations.map(({ label, annotation }) => {
		if (annotation.category !== 'bounding_box') return { label, annotation };
		const { x, y, width, height } = uprightBox({ x: annotation.left, y: annotation.top, width: annotation.width, height: annotation.height }, size);
		return { label, annotation: { ...annotation, left: x, top: y, width, height, metadata: { image: upright } } };
	});
	const hidden = inUpright.flatMap(({ label, annotation }) =>
		isHidden(label) && annotation.category === 'bounding_box'
			? [{ x: annotation.left / upright.width, y: annotation.top / upright.height, width: annotation.width / upright.width, height: annotation.height / upright.height }]
			: [],
	);
	if (hidden.length === 0) return undefined;
	const picture = await hiddenPicture(file.bytes, size.orientation, { boxes: hidden, effect: privacy.effect }, QUALITY_OF_BLURRED_UPLOAD);
	if (picture.unreadable !== undefined || picture.damaged) {
		const reason = picture.unreadable ?? 'the file is damaged (cut short or corrupt)';
		throw new NodeOperationError(this.getNode(), `The image cannot be blurred for the upload: ${reason}`, {
			itemIndex,
			description:
				'Nothing was sent for this image: it does not go up unblurred. Re-encode it as a plain JPEG or PNG (e.g. with an Edit Image node), or remove Blur These Labels.',
		});
	}
	return { bytes: picture.jpeg, size: { width: picture.size.width, height: picture.size.height }, annotations: inUpright, hiddenBoxes: hidden.length };
}
