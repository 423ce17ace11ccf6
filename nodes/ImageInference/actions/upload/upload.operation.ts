import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ImageInput, ImageSource } from '../../input/imageInput';
import { EDIT_IMAGE_TO_JPEG, resolveImage } from '../../input/imageInput';
import { ImageRefusedError } from '../../input/imageRefused';
import type { ImageSize } from '../../input/imageSize';
import { readImageSize } from '../../input/imageSize';
import { sniffImageType } from '../../input/imageType';
import { asNodeError } from '../../output/failureItem';
import { outputItem, passedThroughBinaries } from '../../output/outputItem';
import { runsAsTool } from '../../output/toolResult';
import { readProjectId } from '../../parameters/projectId';
import { readOptionalBoolean, readOptions, readText } from '../../parameters/readers';
import type { RecordRequest, UploadContentType } from '../../projectContract';
import { UPLOAD_CONTENT_TYPES, annotationsAnswerSchema, createdAnswerSchema, projectPaths, uploadAnswerSchema } from '../../projectContract';
import type { CallSettings } from '../../transport';
import { requestServiceCall } from '../../transport';
import type { ExecutionContext, ImagePlan, MakeOutputItems, Operation } from '../types';
import type { LabelledAnnotation, WantedAnnotations } from './annotations';
import { annotationsFor, readAnnotations, refusalFor } from './annotations';
import { ProjectSession, projectNotFound } from './projectSession';
import { description } from './upload.description';

export interface UploadFields {
	projectId: string;
	batchName: string;
	annotations: WantedAnnotations;
}

/** A checked file: its bytes as uploaded, its type and its stored pixel size. */
interface UploadFile {
	bytes: Buffer;
	contentType: UploadContentType;
	size: ImageSize;
}

const sessions = new WeakMap<ExecutionContext, ProjectSession>();

export function prepare(this: IExecuteFunctions, itemIndex: number, imageSource: ImageSource): UploadFields {
	if (runsAsTool(this) && readOptionalBoolean.call(this, itemIndex, readOptions.call(this, itemIndex), 'allowAsTool', 'Allow as Agent Tool') !== true) {
		throw new NodeOperationError(this.getNode(), 'Upload to Project does not run as an agent’s tool unless allowed', {
			itemIndex,
			description: 'An agent should not fill a dataset on its own. To allow it, turn on Options > Allow as Agent Tool in this tool’s settings.',
		});
	}
	if (imageSource === 'url' || imageSource === 'base64') {
		throw new NodeOperationError(this.getNode(), `Upload to Project takes image files, not ${imageSource === 'url' ? 'a URL' : 'base64 text'}`, {
			itemIndex,
			description: 'Set Image Source to Binary File, All Images on the Item or Binary From Expression (an HTTP Request node with Response Format File downloads an image as a file).',
		});
	}
	const projectId = readProjectId.call(this, itemIndex);
	const batchDescription = 'Enter the name of the batch the images are filed under in the project, for example "From n8n".';
	const batchName = readText.call(this, itemIndex, this.getNodeParameter('batchName', itemIndex, ''), 'Batch Name', batchDescription).trim();
	if (batchName === '') throw new NodeOperationError(this.getNode(), 'Batch Name is empty', { itemIndex, description: batchDescription });
	return { projectId, batchName, annotations: readAnnotations.call(this, itemIndex) };
}

/** Each image is checked before any request: JPEG or PNG, its size known, and every box inside it. */
export async function checkImage(this: IExecuteFunctions, plan: Pick<ImagePlan<UploadFields>, 'itemIndex' | 'image' | 'fields'>, imagesOfItem: number): Promise<void> {
	if (plan.fields.annotations.source === 'detections' && imagesOfItem > 1) {
		throw new NodeOperationError(this.getNode(), `Annotations From Detections takes one image per item: this item gives ${imagesOfItem}`, {
			itemIndex: plan.itemIndex,
			description:
				'An item’s detections belong to one image. Upload right after Detect Objects (it gives one item per image), set Input Binary Field to one field, or set Annotations to None.',
		});
	}
	const file = await readUploadFile.call(this, plan.itemIndex, plan.image);
	annotationsFor(plan.fields.annotations, file.size, itemFailure(this, plan.itemIndex));
}

/** One labels call per project and execution: it gets every name the execution's items give for that project. */
export function startExecution(this: IExecuteFunctions, plans: Array<ImagePlan<UploadFields>>, context: ExecutionContext): void {
	const labelsNeeded = new Map<string, Set<string>>();
	for (const { fields } of plans) {
		const names = labelsNeeded.get(fields.projectId) ?? labelsNeeded.set(fields.projectId, new Set()).get(fields.projectId)!;
		const { annotations } = fields;
		if (annotations.source === 'classificationLabel') names.add(annotations.label);
		if (annotations.source === 'detections') for (const box of annotations.boxes) names.add(box.label);
	}
	sessions.set(context, new ProjectSession(this, context.serviceUrl, labelsNeeded));
}

/**
 * The SDK's calls for one image: the project's type (once), the batch (once per name), where to
 * put the file, the file itself (to storage, without the key), its record, the labels (once) and
 * its annotations. What exists when a later call fails is said in the item's error.
 */
export async function execute(this: IExecuteFunctions, plan: ImagePlan<UploadFields>, context: ExecutionContext): Promise<MakeOutputItems> {
	const session = sessions.get(context)!;
	const { itemIndex, fields } = plan;
	const { projectId } = fields;
	const call: CallSettings = { itemIndex, settings: plan.settings, redact: context.redact };
	const service = { host: context.serviceUrl, answeredBy: projectNotFound(projectId) };

	const file = await readUploadFile.call(this, itemIndex, plan.image);
	const annotations = annotationsFor(fields.annotations, file.size, itemFailure(this, itemIndex));
	const projectType = await session.projectType(projectId, call);
	const refusal = refusalFor(fields.annotations, projectType, projectId);
	if (refusal) throw new NodeOperationError(this.getNode(), refusal.message, { itemIndex, description: refusal.description });
	const batchId = await session.batchId(projectId, fields.batchName, call);

	const name = uploadName(plan.image.fileName, file.contentType);
	const { value: place } = await requestServiceCall.call(this, {
		...call,
		...service,
		method: 'POST',
		url: projectPaths.upload(),
		body: async () => Buffer.from(JSON.stringify({ name, content_type: file.contentType })),
		resultSchema: uploadAnswerSchema,
	});
	const nothingCreated = `Nothing was added to the project for this image${batchIdNote(batchId)}; running the item again uploads it.`;
	await halfway(
		this,
		itemIndex,
		requestServiceCall.call(this, {
			...call,
			method: 'PUT',
			url: place.uploadUrl,
			withoutCredential: true,
			body: async () => file.bytes,
			contentType: file.contentType,
			host: new URL(place.uploadUrl).origin,
			answeredBy: { who: 'The storage', notFound: { message: 'The storage URL the service handed out was not found', description: 'Try again.' } },
		}),
		'The image could not be put into the project’s storage',
		nothingCreated,
	);
	const record: RecordRequest = {
		name,
		batchId,
		height: file.size.height,
		width: file.size.width,
		contentType: file.contentType,
		size: file.bytes.length,
		source: place.uri,
	};
	const { value: created } = await halfway(
		this,
		itemIndex,
		requestServiceCall.call(this, {
			...call,
			...service,
			method: 'POST',
			url: projectPaths.records(projectId),
			body: async () => Buffer.from(JSON.stringify(record)),
			resultSchema: createdAnswerSchema,
		}),
		`The image was stored (${place.uri}) but its record was not created`,
		nothingCreated,
	);
	const recordId = created.id;
	if (annotations.length > 0) await annotate.call(this, { plan, session, call, service, recordId, batchId, annotations });

	const json = {
		...this.getInputData()[itemIndex].json,
		upload: { projectId, projectType, batchId, batchName: fields.batchName, recordId, fileName: name, width: record.width, height: record.height, size: record.size, contentType: record.contentType, annotationCount: annotations.length },
	};
	const items = [outputItem(json, passedThroughBinaries.call(this, itemIndex, true), itemIndex)];
	return () => items;
}

async function annotate(
	this: IExecuteFunctions,
	job: {
		plan: ImagePlan<UploadFields>;
		session: ProjectSession;
		call: CallSettings;
		service: Pick<Parameters<typeof requestServiceCall>[0], 'host' | 'answeredBy'>;
		recordId: string;
		batchId: string;
		annotations: LabelledAnnotation[];
	},
): Promise<void> {
	const { plan, session, call, service, recordId, batchId, annotations } = job;
	const projectId = plan.fields.projectId;
	const without = `Record ${recordId} was created in batch ${batchId} without its ${annotations.length} annotation${annotations.length === 1 ? '' : 's'}`;
	const what = `Add them in the dashboard, or delete record ${recordId} there before running the item again: a rerun creates a second record.`;
	const labelIds = await halfway(this, call.itemIndex, session.labelIds(projectId, call), `${without}: the labels could not be created`, what);
	const missing = annotations.find(({ label }) => !labelIds.has(label));
	if (missing) {
		throw new NodeOperationError(this.getNode(), `${without}: the service did not return an id for the label "${missing.label}"`, { itemIndex: call.itemIndex, description: what });
	}
	await halfway(
		this,
		call.itemIndex,
		requestServiceCall.call(this, {
			...call,
			...service,
			method: 'POST',
			url: projectPaths.annotations(projectId),
			body: async () =>
				Buffer.from(JSON.stringify({ dataset_record_id: recordId, annotations: annotations.map(({ label, annotation }) => ({ annotation, label_id: labelIds.get(label) })) })),
			resultSchema: annotationsAnswerSchema,
		}),
		`${without}: the annotations call failed`,
		what,
	);
}

/** The file's bytes, checked: JPEG or PNG (the formats the SDK uploads) with a size its header gives. */
async function readUploadFile(this: IExecuteFunctions, itemIndex: number, image: ImageInput): Promise<UploadFile> {
	const bytes = (await resolveImage.call(this, itemIndex, image)) as Buffer;
	const type = sniffImageType(bytes);
	const field = image.source === 'binary' ? `"${image.field}"` : '';
	if (!type || !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.mimeType)) {
		throw new ImageRefusedError(this.getNode(), `The file in binary field ${field} is ${type ? type.extension.toUpperCase() : 'not an image'}: projects take JPEG and PNG`, {
			itemIndex,
			description: `Convert it with ${EDIT_IMAGE_TO_JPEG}.`,
		});
	}
	const size = readImageSize(bytes);
	if (!size) {
		throw new ImageRefusedError(this.getNode(), `The size of the image in binary field ${field} cannot be read from its header`, {
			itemIndex,
			description: 'The record needs the image’s width and height. Re-encode it with an Edit Image node before this one.',
		});
	}
	return { bytes, contentType: type.mimeType as UploadContentType, size };
}

/** The name the file is uploaded as: its own, with the extension of its type when it has none of it. */
function uploadName(fileName: string, contentType: UploadContentType): string {
	const extensions = contentType === 'image/png' ? ['png'] : ['jpg', 'jpeg'];
	const extension = fileName.split('.').pop()!.toLowerCase();
	return fileName.includes('.') && extensions.includes(extension) ? fileName : `${fileName}.${extensions[0]}`;
}

function batchIdNote(batchId: string): string {
	return ` (batch ${batchId} exists, empty unless other images went into it)`;
}

function itemFailure(context: IExecuteFunctions, itemIndex: number) {
	return (message: string, description: string): never => {
		throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
	};
}

/** A failure after something was created: the message says what failed, the description what exists and what to do. */
async function halfway<T>(context: IExecuteFunctions, itemIndex: number, call: Promise<T>, failed: string, whatExists: string): Promise<T> {
	try {
		return await call;
	} catch (error) {
		const shown = asNodeError(context.getNode(), error, itemIndex);
		shown.message = `${failed}: ${shown.message}`;
		shown.description = [whatExists, shown.description].filter(Boolean).join(' ');
		throw shown;
	}
}

export const uploadToProject: Operation<UploadFields> = { description, readsModel: false, prepare, checkImage, startExecution, execute };
