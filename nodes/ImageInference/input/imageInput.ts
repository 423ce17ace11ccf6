import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { decodeBase64, normalizeBase64 } from './base64';
import { ImageRefusedError } from './imageRefused';
import type { ImageSize } from './imageSize';
import { readImageSize } from './imageSize';
import { readChoice, readText, truncate } from '../parameters/readers';
import type { PhoneImageFormat } from './imageType';
import { SUPPORTED_IMAGE_FORMATS, mimeTypeVerdict, phoneImageFormatOfMimeType, sniffImageType, sniffPhoneImageFormat } from './imageType';

/**
 * One image to send, as checked before any request (a file's bytes are not kept): where it comes
 * from, the name output files are derived from and, when the node has its bytes, its pixel size.
 */
export type ImageInput =
	| { source: 'binary'; field: string; fileName: string; size?: ImageSize }
	| { source: 'url'; url: string; fileName: string }
	| { source: 'base64'; data: string; fileName: string; size?: ImageSize };

/** A binary file "All Images on the Item" left out because it is not an image. */
export interface SkippedFile {
	field: string;
	fileName: string | null;
	mimeType: string | null;
}

/** Every image an item gives, in order, and what the item's files were. */
export interface ItemImages {
	images: ImageInput[];
	/** Non-image files left out by "All Images on the Item"; undefined for the other sources. */
	skippedFiles?: SkippedFile[];
	/**
	 * Whether each output item also carries the input item's other binary fields: true when the
	 * item gives one image from one named field, a URL or base64; with a
	 * field list or all images, each output item carries only its own image.
	 */
	passThrough: boolean;
}

export const IMAGE_SOURCES = ['binary', 'allImages', 'binaryExpression', 'url', 'base64'] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];
export const DEFAULT_IMAGE_SOURCE = 'binary';
export const DEFAULT_BINARY_FIELD = 'data';

/** Image Source, read once: it takes no expression (noDataExpression), so item 0's is every item's. */
export function readImageSource(this: IExecuteFunctions): ImageSource {
	return readChoice(this, 0, this.getNodeParameter('imageSource', 0, DEFAULT_IMAGE_SOURCE), IMAGE_SOURCES, 'Image Source');
}

/**
 * Reads and checks where the item's images come from; each binary file is opened to check it is an
 * image. `referencedField`: where Binary From Expression's file was put on the item.
 */
export async function readImageInputs(this: IExecuteFunctions, itemIndex: number, source: ImageSource, referencedField?: string): Promise<ItemImages> {
	if (source === 'url') {
		const url = readImageUrl.call(this, itemIndex);
		return { images: [{ source: 'url', url, fileName: fileNameFromUrl(url) }], passThrough: true };
	}
	if (source === 'base64') {
		const { data, size } = readBase64Image.call(this, itemIndex);
		return { images: [{ source: 'base64', data, fileName: 'image', size }], passThrough: true };
	}
	if (source === 'allImages') return await readAllImages.call(this, itemIndex);
	const fields = referencedField !== undefined ? [referencedField] : readFieldList.call(this, itemIndex);
	const binaries = this.getInputData()[itemIndex]?.binary ?? {};
	const missing = fields.filter((field) => !binaries[field]);
	if (missing.length) {
		const available = Object.keys(binaries);
		throw new ImageRefusedError(
			this.getNode(),
			`No ${binaryFieldsNamed(missing)} on this item`,
			{
				itemIndex,
				description: available.length
					? `The item has the binary field(s) ${quotedList(available)}. Set "Input Binary Field" to one of them, or use "All Images on the Item".`
					: 'The item has no binary data. Put a node that outputs a file (Form, Read Files, HTTP Request…) before this one, or use the URL or Base64 image source.',
			},
		);
	}
	const images: ImageInput[] = [];
	for (const field of fields) {
		const { fileName, size } = await checkImageFile.call(this, itemIndex, field);
		images.push({ source: 'binary', field, fileName, size });
	}
	return { images, passThrough: fields.length === 1 };
}

/** `"a", "b"`: names as messages quote them. */
export function quotedList(names: string[]): string {
	return names.map((name) => `"${name}"`).join(', ');
}

/** `binary field "a"` or `binary fields "a", "b"`. */
export function binaryFieldsNamed(names: string[]): string {
	return `binary field${names.length === 1 ? '' : 's'} ${quotedList(names)}`;
}

/** Input Binary Field's names, from a comma-separated text or (from an expression) a list. */
export function parseFieldList(raw: unknown): string[] {
	const text = Array.isArray(raw) ? raw.join(',') : raw;
	return typeof text === 'string' ? text.split(',').map((name) => name.trim()).filter(Boolean) : [];
}

/** "data" or "attachment_0, attachment_2": the names in order, each once. */
function readFieldList(this: IExecuteFunctions, itemIndex: number): string[] {
	const description = 'Enter the name of a binary field, for example "data", or several separated by commas; or use "All Images on the Item".';
	const raw = this.getNodeParameter('binaryPropertyName', itemIndex, DEFAULT_BINARY_FIELD);
	const names = parseFieldList(Array.isArray(raw) ? raw : readText.call(this, itemIndex, raw, 'Input Binary Field', description));
	if (names.length === 0) throw new NodeOperationError(this.getNode(), 'Input Binary Field is empty', { itemIndex, description });
	return [...new Set(names)];
}

/** Every binary field whose bytes are an image, in the item's field order; the others are listed. */
async function readAllImages(this: IExecuteFunctions, itemIndex: number): Promise<ItemImages> {
	const binaries = this.getInputData()[itemIndex]?.binary ?? {};
	const images: ImageInput[] = [];
	const skippedFiles: SkippedFile[] = [];
	const whySkipped: string[] = [];
	let phoneFormat: PhoneImageFormat | undefined;
	for (const [field, binary] of Object.entries(binaries)) {
		const fileName = binary.fileName ?? field;
		const inDatabase = inDatabaseStore(binary);
		const declared = inDatabase ? mimeTypeVerdict(binary.mimeType) : 'unknown';
		const knownEmpty = inDatabase && binary.bytes === 0;
		if (declared === 'image' && !knownEmpty) {
			images.push({ source: 'binary', field, fileName });
			continue;
		}
		const head = declared === 'unknown' && !knownEmpty ? await readFileHead.call(this, itemIndex, field) : Buffer.alloc(0);
		if (head.length > 0 && sniffImageType(head)) {
			images.push({ source: 'binary', field, fileName, size: readImageSize(head) });
			continue;
		}
		const skipped: SkippedFile = { field, fileName: binary.fileName ?? null, mimeType: binary.mimeType ?? null };
		skippedFiles.push(skipped);
		const format = sniffPhoneImageFormat(head) ?? phoneImageFormatOfMimeType(binary.mimeType);
		phoneFormat ??= format;
		if (knownEmpty || (declared === 'unknown' && head.length === 0)) whySkipped.push(`${describeFile(skipped)} is empty (0 bytes)`);
		else if (format) whySkipped.push(`${describeFile(skipped)} is ${format}`);
		else whySkipped.push(`${describeFile(skipped)} is not ${SUPPORTED_IMAGE_FORMATS}`);
	}
	if (images.length === 0) {
		throw new ImageRefusedError(this.getNode(), 'No image on this item', {
			itemIndex,
			description: skippedFiles.length
				? `Of the item's binary fields, ${whySkipped.join('; ')}.${phoneFormat ? ` ${HOW_TO_CONVERT}` : ''}`
				: 'The item has no binary data. Put a node that outputs files (Form, Gmail, Read Files…) before this one, or use the URL or Base64 image source.',
		});
	}
	return { images, skippedFiles, passThrough: false };
}

function describeFile(file: SkippedFile): string {
	const details = [file.fileName, file.mimeType].filter((part): part is string => part !== null);
	return `"${file.field}"${details.length ? ` (${details.join(', ')})` : ''}`;
}

/** A HEIC or AVIF image refused before any upload: what it is, and how to convert it in n8n. */
function phoneFormatNotSent(node: INode, itemIndex: number, subject: string, format: PhoneImageFormat, description: string): ImageRefusedError {
	return new ImageRefusedError(node, `${subject} is ${format}, which the node does not send`, { itemIndex, description });
}

/** How n8n turns an image into a JPEG, as a message tells it. */
export const EDIT_IMAGE_TO_JPEG =
	'an Edit Image node before this one (Operation: Resize, Width and Height 4096, Resize Option: Only if Larger, and under Options, Format: jpeg)';

/** What to do with a HEIC or AVIF photo, in n8n. */
const HOW_TO_CONVERT = `The node does not send HEIC or AVIF: convert the photo to JPEG first with ${EDIT_IMAGE_TO_JPEG}, or set the phone to save JPEG (iPhone: Settings > Camera > Formats > Most Compatible).`;

function readImageUrl(this: IExecuteFunctions, itemIndex: number): string {
	const description = 'Enter a full address starting with https:// (or http://) that the service can download.';
	const text = readText.call(this, itemIndex, this.getNodeParameter('imageUrl', itemIndex, ''), 'Image URL', description).trim();
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw new ImageRefusedError(
			this.getNode(),
			text === '' ? 'Image URL is empty' : `Image URL "${truncate(text, 80)}" is not an http(s) address`,
			{ itemIndex, description },
		);
	}
	return text;
}

function readBase64Image(this: IExecuteFunctions, itemIndex: number): { data: string; size?: ImageSize } {
	const description =
		'Pass the image’s base64 text; a "data:image/…;base64," prefix and line breaks are fine. For a file from a previous node, use the Binary File image source.';
	const data = normalizeBase64(readText.call(this, itemIndex, this.getNodeParameter('imageBase64', itemIndex, ''), 'Base64 Image', description));
	const fail = (message: string) => new ImageRefusedError(this.getNode(), message, { itemIndex, description });
	if (data === '') throw fail('Base64 Image is empty');
	const bytes = decodeBase64(data);
	if (!bytes) throw fail('Base64 Image is not valid base64');
	if (!sniffImageType(bytes)) {
		const format = sniffPhoneImageFormat(bytes);
		if (format) throw phoneFormatNotSent(this.getNode(), itemIndex, 'Base64 Image', format, HOW_TO_CONVERT);
		throw fail(`Base64 Image does not decode to an image (${SUPPORTED_IMAGE_FORMATS})`);
	}
	return { data, size: readImageSize(bytes) };
}

/**
 * A binary file kept in n8n's binary data store (filesystem, database or S3), with its exact size
 * in bytes (`bytes` in n8n 2.x, the store's metadata in 1.x); undefined for a file held in memory.
 */
export async function storedFile(this: IExecuteFunctions, itemIndex: number, field: string): Promise<{ id: string; size: number } | undefined> {
	const binary = this.getInputData()[itemIndex].binary?.[field];
	if (!binary?.id) return undefined;
	if (typeof binary.bytes === 'number') return { id: binary.id, size: binary.bytes };
	try {
		const { fileSize } = await this.helpers.getBinaryMetadata(binary.id);
		return typeof fileSize === 'number' ? { id: binary.id, size: fileSize } : undefined;
	} catch {
		return undefined;
	}
}

/** Turns a checked image into the request's `image`; a binary file is read here, when its request is sent. */
export async function resolveImage(this: IExecuteFunctions, itemIndex: number, input: ImageInput): Promise<Buffer | string> {
	if (input.source === 'url') return input.url;
	if (input.source === 'base64') return input.data;
	return await this.helpers.getBinaryDataBuffer(itemIndex, input.field);
}

/**
 * The file's pixel size read from the whole file, for one whose first bytes did not give it (a
 * JPEG with a large Exif block before its frame, a TIFF whose directory follows its pixels).
 */
export async function readSizeFromWholeFile(this: IExecuteFunctions, itemIndex: number, field: string): Promise<ImageSize | undefined> {
	return readImageSize(await this.helpers.getBinaryDataBuffer(itemIndex, field));
}

/** The original image as an output binary: the input's own file, or the decoded base64; none for a URL. */
export async function originalBinary(
	this: IExecuteFunctions,
	itemIndex: number,
	input: ImageInput,
): Promise<IBinaryData | undefined> {
	if (input.source === 'binary') return { ...this.getInputData()[itemIndex].binary![input.field] };
	if (input.source === 'url') return undefined;
	const bytes = decodeBase64(input.data)!;
	const type = sniffImageType(bytes)!;
	return await this.helpers.prepareBinaryData(bytes, `${input.fileName}.${type.extension}`, type.mimeType);
}

/**
 * How much of a file is read to check it: enough to recognise its type and reach its size in the
 * header (a JPEG's can sit behind EXIF, ICC and thumbnail data). A JPEG whose size lies further
 * (extended XMP in a portrait photo) is read on, in doubling steps, until its size or its end.
 */
export const FILE_HEAD_BYTES = 256 * 1024;

/**
 * A binary file's first bytes (FILE_HEAD_BYTES, or up to a JPEG's size). A file in n8n's binary
 * store (filesystem or database mode) is streamed and only its head read, so a batch of large
 * photos is not read whole just to be checked; a file held in memory (n8n's default mode in 1.x)
 * has only its head decoded from its base64.
 */
export async function readFileHead(this: IExecuteFunctions, itemIndex: number, field: string): Promise<Buffer> {
	return (await readFileHeadWhole.call(this, itemIndex, field)).bytes;
}

/** readFileHead, and whether the bytes are the whole file. */
export async function readFileHeadWhole(this: IExecuteFunctions, itemIndex: number, field: string): Promise<{ bytes: Buffer; whole: boolean }> {
	const binary = this.getInputData()[itemIndex].binary![field];
	if (!binary.id) {
		if (typeof binary.data !== 'string') return { bytes: await this.helpers.getBinaryDataBuffer(itemIndex, field), whole: true };
		return await readHead(base64Chunks(binary.data));
	}
	const stream = await this.helpers.getBinaryStream(binary.id, FILE_HEAD_BYTES);
	try {
		return await readHead(stream);
	} finally {
		stream.destroy();
	}
}

/**
 * The first FILE_HEAD_BYTES of the chunks; for a JPEG whose size is not in them, the first 2, 4, 8 …
 * times that, until its size is in them or the file ends (then whole).
 */
async function readHead(chunks: AsyncIterable<unknown> | Iterable<Buffer>): Promise<{ bytes: Buffer; whole: boolean }> {
	let read: Buffer[] = [];
	let length = 0;
	let checkAt = FILE_HEAD_BYTES;
	for await (const chunk of chunks) {
		read.push(chunk as Buffer);
		length += (chunk as Buffer).length;
		if (length < checkAt) continue;
		const head = Buffer.concat(read);
		if (!jpegSizeFurther(head.subarray(0, checkAt))) return { bytes: head.subarray(0, checkAt), whole: false };
		read = [head];
		checkAt *= 2;
	}
	return { bytes: Buffer.concat(read), whole: true };
}

/** A JPEG whose header read so far does not give its size. */
function jpegSizeFurther(head: Buffer): boolean {
	return head[0] === 0xff && head[1] === 0xd8 && readImageSize(head) === undefined;
}

/** Base64 text decoded FILE_HEAD_BYTES at a time (4 characters hold 3 bytes). */
function* base64Chunks(text: string): Generator<Buffer> {
	const step = 4 * Math.ceil(FILE_HEAD_BYTES / 3);
	for (let start = 0; start < text.length; start += step) yield Buffer.from(text.slice(start, start + step), 'base64');
}

/**
 * Opens a named field's file to check it is a non-empty image, and reads its size. A file in a
 * store that reads whole is checked by what the item says of it here (its mime type and size),
 * and by its bytes when its request is built (checkImageBytes).
 */
async function checkImageFile(
	this: IExecuteFunctions,
	itemIndex: number,
	field: string,
): Promise<{ fileName: string; size?: ImageSize }> {
	const binary = this.getInputData()[itemIndex].binary![field];
	const fileName = binary.fileName ?? field;
	if (inDatabaseStore(binary)) {
		if (binary.bytes === 0) throw emptyFile(this.getNode(), itemIndex, field, fileName);
		if (mimeTypeVerdict(binary.mimeType) === 'not an image') throw notAnImage(this.getNode(), itemIndex, field, binary);
		return { fileName };
	}
	const bytes = await readFileHead.call(this, itemIndex, field);
	return { fileName, size: checkImageBytes.call(this, itemIndex, field, bytes) };
}

/** A file's bytes (or its head) checked to be a non-empty image: its pixel size, when its header gives it. */
export function checkImageBytes(this: IExecuteFunctions, itemIndex: number, field: string, bytes: Buffer): ImageSize | undefined {
	const binary = this.getInputData()[itemIndex].binary![field];
	if (bytes.length === 0) throw emptyFile(this.getNode(), itemIndex, field, binary.fileName ?? field);
	if (!sniffImageType(bytes)) throw notAnImage(this.getNode(), itemIndex, field, binary, bytes);
	return readImageSize(bytes);
}

function emptyFile(node: INode, itemIndex: number, field: string, fileName: string): ImageRefusedError {
	return new ImageRefusedError(node, `The file in binary field "${field}" is empty`, {
		itemIndex,
		description: `"${fileName}" has 0 bytes. Check the node that produced it.`,
	});
}

function notAnImage(node: INode, itemIndex: number, field: string, binary: IBinaryData, bytes?: Buffer): ImageRefusedError {
	const format = (bytes && sniffPhoneImageFormat(bytes)) ?? phoneImageFormatOfMimeType(binary.mimeType);
	if (format) {
		const file = `"${binary.fileName ?? field}"${binary.mimeType ? ` (${binary.mimeType})` : ''}`;
		return phoneFormatNotSent(node, itemIndex, `The file in binary field "${field}"`, format, `${file} is ${format === 'AVIF' ? 'an' : 'a'} ${format} photo. ${HOW_TO_CONVERT}`);
	}
	return new ImageRefusedError(node, `The file in binary field "${field}" is not an image`, {
		itemIndex,
		description: `"${binary.fileName ?? field}"${binary.mimeType ? ` (${binary.mimeType})` : ''} is not ${SUPPORTED_IMAGE_FORMATS}. Pass an image file, or use "All Images on the Item" to skip files that are not images.`,
	});
}

/**
 * n8n's database store reads a whole file whenever any part of it is read. A file there is read
 * once, when its request is built, and that one read is both checked and sent; the other stores
 * (filesystem, S3, Azure) stream a file's head for the check and the file into the body.
 */
function inDatabaseStore(binary: IBinaryData): boolean {
	return binary.id !== undefined && binary.id.split(':')[0] === 'database';
}

/** The binary field of an image whose file is in n8n's database store; undefined for any other image. */
export function databaseStoreField(this: IExecuteFunctions, itemIndex: number, image: ImageInput): string | undefined {
	if (image.source !== 'binary') return undefined;
	const binary = this.getInputData()[itemIndex].binary?.[image.field];
	return binary !== undefined && inDatabaseStore(binary) ? image.field : undefined;
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
