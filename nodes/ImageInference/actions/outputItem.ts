import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ImageSize } from '../helpers/imageSize';
import type { ImagePlan } from './types';

/** Which image an output item is about: its field, file name and pixel size, and the item's skipped files. */
export function imageFacts(plan: ImagePlan<unknown>, size: ImageSize | undefined): IDataObject {
	const { image } = plan;
	return {
		...(image.source === 'binary' ? { field: image.field } : {}),
		fileName: image.fileName,
		imageWidth: size?.width ?? null,
		imageHeight: size?.height ?? null,
		...(plan.skippedFiles ? { skippedFiles: plan.skippedFiles as unknown as IDataObject[] } : {}),
	};
}

/** The input item's binary fields an output item carries on (see ItemImages.passThrough). */
export function passedThroughBinaries(this: IExecuteFunctions, plan: ImagePlan<unknown>): IBinaryKeyData {
	return plan.passThrough ? { ...(this.getInputData()[plan.itemIndex].binary ?? {}) } : {};
}
