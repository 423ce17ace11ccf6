import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ImageInput, SkippedFile } from '../input/imageInput';
import type { Size } from '../pipeline/geometry';

/** Which image an output item is about: its field, file name and pixel size as people see it, and the item's skipped files. */
export function aboutTheImage(image: ImageInput, size: Size | undefined, skippedFiles: SkippedFile[] | undefined): IDataObject {
	return {
		...(image.source === 'binary' ? { field: image.field } : {}),
		fileName: image.fileName,
		imageWidth: size?.width ?? null,
		imageHeight: size?.height ?? null,
		...(skippedFiles ? { skippedFiles: skippedFiles as unknown as IDataObject[] } : {}),
	};
}

/** The input item's binary fields an output item carries on (see ItemImages.passThrough). */
export function passedThroughBinaries(this: IExecuteFunctions, itemIndex: number, passThrough: boolean): IBinaryKeyData {
	return passThrough ? { ...(this.getInputData()[itemIndex].binary ?? {}) } : {};
}

/** An output item paired with its input item; it gets its own binary entries (n8n may rewrite an item's binary metadata in place). */
export function outputItem(json: IDataObject, binary: IBinaryKeyData, itemIndex: number): INodeExecutionData {
	const files = Object.entries(binary);
	return {
		json,
		...(files.length ? { binary: Object.fromEntries(files.map(([field, data]) => [field, { ...data }])) } : {}),
		pairedItem: { item: itemIndex },
	};
}
