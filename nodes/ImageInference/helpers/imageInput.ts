import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { decodeBase64, normalizeBase64 } from './base64';
import { readFieldName, truncate } from './parameters';
import { SUPPORTED_IMAGE_FORMATS, sniffImageType } from './imageType';

/** Where an item's image comes from, as checked before any request (a file's bytes are not kept). */
export type ImageInput =
	| { source: 'binary'; field: string }
	| { source: 'url'; url: string }
	| { source: 'base64'; data: string };

/**
 * What the request's `image` carries: the file's bytes (sent base64-encoded) or the text the
 * user gave (a URL or base64); plus the name to derive output file names from.
 */
export interface ResolvedImage {
	image: Buffer | string;
	fileName: string;
}

/** Reads and checks where the item's image comes from; a binary file is opened to check it is an image. */
export async function readImageInput(this: IExecuteFunctions, itemIndex: number): Promise<ImageInput> {
	const source = this.getNodeParameter('imageSource', itemIndex, 'binary') as string;
	if (source === 'url') {
		return { source, url: readImageUrl.call(this, itemIndex) };
	}
	if (source === 'base64') {
		return { source, data: readBase64Image.call(this, itemIndex) };
	}
	const field = readFieldName.call(
		this,
		itemIndex,
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
		'Input Binary Field',
	);
	const binaries = this.getInputData()[itemIndex]?.binary ?? {};
	if (!binaries[field]) {
		const available = Object.keys(binaries);
		throw new NodeOperationError(this.getNode(), `No binary field "${field}" on this item`, {
			itemIndex,
			description: available.length
				? `The item has the binary field(s) ${available.map((name) => `"${name}"`).join(', ')}. Set "Input Binary Field" to one of them.`
				: 'The item has no binary data. Put a node that outputs a file (Form, Read Files, HTTP Request…) before this one, or use the URL or Base64 image source.',
		});
	}
	await readImageFile.call(this, itemIndex, field);
	return { source: 'binary', field };
}

function readImageUrl(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('imageUrl', itemIndex, '');
	const text = typeof raw === 'string' ? raw.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw new NodeOperationError(
			this.getNode(),
			text === '' ? 'Image URL is empty' : `Image URL "${truncate(text, 80)}" is not an http(s) address`,
			{ itemIndex, description: 'Enter a full address starting with https:// (or http://) that the service can download.' },
		);
	}
	return text;
}

function readBase64Image(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('imageBase64', itemIndex, '');
	const data = normalizeBase64(typeof raw === 'string' ? raw : '');
	const fail = (message: string) =>
		new NodeOperationError(this.getNode(), message, {
			itemIndex,
			description:
				'Pass the image’s base64 text; a "data:image/…;base64," prefix and line breaks are fine. For a file from a previous node, use the Binary File image source.',
		});
	if (data === '') throw fail('Base64 Image is empty');
	const bytes = decodeBase64(data);
	if (!bytes) throw fail('Base64 Image is not valid base64');
	if (!sniffImageType(bytes)) {
		throw fail(`Base64 Image does not decode to an image (${SUPPORTED_IMAGE_FORMATS})`);
	}
	return data;
}

/** Turns the checked input into the request's `image`; binary files are read here, one item at a time. */
export async function resolveImage(
	this: IExecuteFunctions,
	itemIndex: number,
	input: ImageInput,
): Promise<ResolvedImage> {
	if (input.source === 'url') {
		return { image: input.url, fileName: fileNameFromUrl(input.url) };
	}
	if (input.source === 'base64') {
		return { image: input.data, fileName: 'image' };
	}
	const { bytes, fileName } = await readImageFile.call(this, itemIndex, input.field);
	return { image: bytes, fileName };
}

async function readImageFile(
	this: IExecuteFunctions,
	itemIndex: number,
	field: string,
): Promise<{ bytes: Buffer; fileName: string }> {
	const binary = this.getInputData()[itemIndex].binary![field];
	const fileName = binary.fileName ?? field;
	const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, field);
	if (bytes.length === 0) {
		throw new NodeOperationError(this.getNode(), `The file in binary field "${field}" is empty`, {
			itemIndex,
			description: `"${fileName}" has 0 bytes. Check the node that produced it.`,
		});
	}
	if (!sniffImageType(bytes)) {
		throw new NodeOperationError(this.getNode(), `The file in binary field "${field}" is not an image`, {
			itemIndex,
			description: `"${fileName}"${binary.mimeType ? ` (${binary.mimeType})` : ''} is not ${SUPPORTED_IMAGE_FORMATS}. Pass an image file.`,
		});
	}
	return { bytes, fileName };
}

function fileNameFromUrl(url: string): string {
	const last = new URL(url).pathname.split('/').filter(Boolean).pop();
	if (!last) return 'image';
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}
