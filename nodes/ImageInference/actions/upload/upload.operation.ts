import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ImageInput, ImageSource } from '../../input/imageInput';
import { EDIT_IMAGE_TO_JPEG, databaseStoreField, readFileHeadWhole, resolveImage } from '../../input/imageInput';
import { ImageRefusedError } from '../../input/imageRefused';
import type { ImageSize } from '../../input/imageSize';
import { readImageSize } from '../../input/imageSize';
import { sniffImageType } from '../../input/imageType';
import { blurredFileName, withoutImageFiles } from '../../output/drawnImage';
import { asNodeError } from '../../output/failureItem';
import { outputItem, passedThroughBinaries } from '../../output/outputItem';
import { runsAsTool } from '../../output/toolResult';
import { readProjectId } from '../../parameters/projectId';
import { readOptionalBoolean, readOptions, readText } from '../../parameters/readers';
import type { ProjectType, RecordRequest, UploadContentType } from '../../projectContract';
import { UPLOAD_CONTENT_TYPES, annotationsAnswerSchema, createdAnswerSchema, projectPaths, uploadAnswerSchema } from '../../projectContract';
import type { CallSettings } from '../../transport';
import { mayHaveBeenDone, requestServiceCall } from '../../transport';
import type { ExecutionContext, ImagePlan, MakeOutputItems, Operation } from '../types';
import type { LabelledAnnotation, WantedAnnotations } from './annotations';
import { annotationsFor, readAnnotations, refusalFor } from './annotations';
import type { UploadPrivacy } from './blurredUpload';
import { blurredForUpload, readUploadPrivacy } from './blurredUpload';
import type { RecordState } from './ledger';
import { ProjectSession, postToProject } from './projectSession';
import { description } from './upload.description';

export interface UploadFields {
	projectId: string;
	batchName: string;
	annotations: WantedAnnotations;
	privacy?: UploadPrivacy;
}

/** A checked file (or its head): its bytes, its type and its stored pixel size (when its header gave it). */
interface UploadFile {
	bytes: Buffer;
	contentType: UploadContentType;
	size?: ImageSize;
}

const sessions = new WeakMap<ExecutionContext, ProjectSession>();

export function prepare(this: IExecuteFunctions, itemIndex: number, imageSource: ImageSource): UploadFields {
	// n8n's Retry On Fail runs the whole node again when it throws, or under Continue when output
	// item 0 has json.error (n8n-core dist/execution-engine/workflow-execute.js, runNode's retry loop:
	// 2.41.1 getRetryParams and the loop after it, 1.123.81 maxTries): every upload would be sent again
	if (this.getNode().retryOnFail === true) {
		throw new NodeOperationError(this.getNode(), 'Upload to Project does not run with Retry On Fail on', {
			itemIndex,
			description:
				'Turn off Retry On Fail in this node’s Settings: n8n would run the whole node again after a failure and upload every image of the execution again. The node’s own Options > Retries retries each call where that creates nothing twice.',
		});
	}
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
	const annotations = readAnnotations.call(this, itemIndex);
	const privacy = readUploadPrivacy.call(this, itemIndex, readOptions.call(this, itemIndex), annotations.source);
	return { projectId, batchName, annotations, ...(privacy ? { privacy } : {}) };
}

/**
 * Each image is checked before any request: JPEG or PNG, its size known, and every box inside it.
 * Only the file's head is read here (streamed from n8n's store, up to a JPEG's size however far
 * it lies); a file in the database store,
 * which reads whole whatever part is asked for, is checked once its bytes are read to be sent.
 */
export async function checkImage(this: IExecuteFunctions, plan: Pick<ImagePlan<UploadFields>, 'itemIndex' | 'image' | 'fields'>, imagesOfItem: number): Promise<void> {
	const { itemIndex, image } = plan;
	if (plan.fields.annotations.source === 'detections' && imagesOfItem > 1) {
		throw new NodeOperationError(this.getNode(), `Annotations From Detections takes one image per item: this item gives ${imagesOfItem}`, {
			itemIndex,
			description:
				'An item’s detections belong to one image. Upload right after Detect Objects (it gives one item per image), set Input Binary Field to one field, or set Annotations to None.',
		});
	}
	if (image.source !== 'binary' || databaseStoreField.call(this, itemIndex, image) !== undefined) return;
	const head = await readFileHeadWhole.call(this, itemIndex, image.field);
	const { size } = checkUploadFile.call(this, itemIndex, image, head.bytes, head.whole);
	if (size) annotationsFor(plan.fields.annotations, size, itemFailure(this, itemIndex));
}

/**
 * One labels call per project and execution: it gets every name the execution's images that passed
 * their checks give for that project (an image in the database store is checked when it is read,
 * so its names are sent though it may be refused then; the stopping error says what was sent).
 */
export function startExecution(this: IExecuteFunctions, plans: Array<ImagePlan<UploadFields>>, context: ExecutionContext): void {
	const annotationsWanted = new Map<string, WantedAnnotations[]>();
	for (const { fields } of plans) {
		const wanted = annotationsWanted.get(fields.projectId) ?? annotationsWanted.set(fields.projectId, []).get(fields.projectId)!;
		wanted.push(fields.annotations);
	}
	sessions.set(context, new ProjectSession(this, context.serviceUrl, annotationsWanted));
}

/** The execution stops at a failed image (On Error "Stop Workflow"): its error says what the execution added. */
export function whenStopped(this: IExecuteFunctions, error: NodeApiError | NodeOperationError, context: ExecutionContext): void {
	const note = sessions.get(context)!.ledger.describe();
	error.description = [error.description, note].filter(Boolean).join(' ');
}

/**
 * The SDK's calls for one image: the project's type (once), the labels (once, before anything is
 * created for any image), the batch (once per name), where to put the file, the file itself (to
 * storage, without the key), its record and its annotations. What exists when a call fails is
 * said in the item's error; a call that creates something is not sent again when it may have
 * been done, and its error says it may have been.
 */
export async function execute(this: IExecuteFunctions, plan: ImagePlan<UploadFields>, context: ExecutionContext): Promise<MakeOutputItems> {
	const session = sessions.get(context)!;
	const { itemIndex, fields } = plan;
	const { projectId } = fields;
	const call: CallSettings = { itemIndex, settings: plan.settings, redact: context.redact };
	const project = { serviceUrl: context.serviceUrl, projectId };

	const bytes = await readWholeFile.call(this, plan, context);
	const given = checkUploadFile.call(this, itemIndex, plan.image, bytes, true);
	const givenAnnotations = annotationsFor(fields.annotations, given.size!, itemFailure(this, itemIndex));
	// hidden before anything is sent for the image: it never goes up unblurred
	const blurred = fields.privacy && (await blurredForUpload.call(this, itemIndex, { bytes, size: given.size! }, givenAnnotations, fields.privacy));
	const file: UploadFile = blurred ? { bytes: blurred.bytes, contentType: 'image/jpeg', size: blurred.size } : given;
	const size = file.size!;
	const annotations = blurred ? blurred.annotations : givenAnnotations;
	const projectType = await explained(this, itemIndex, session.projectType(projectId, call), { whatExists: 'Nothing was added to any project for this image.' });
	const refusal = refusalFor(fields.annotations, projectType, projectId);
	if (refusal) throw new NodeOperationError(this.getNode(), refusal.message, { itemIndex, description: refusal.description });
	const labelIds =
		annotations.length > 0 ? await resolveLabels.call(this, session, projectId, projectType, annotations, call) : await session.labelsAnswered(projectId, projectType, call);
	// the labels call adds names to the project's labels before anything else is created
	const nothingElse = labelIds ? ' but its label names, to the project’s labels where it lacked them' : '';
	const batchId = await explained(this, itemIndex, session.batchId(projectId, fields.batchName, call), {
		whatExists: `Nothing was added to the project for this image${nothingElse}; running the item again uploads it.`,
		ifMaybeDone: {
			failed: `Batch "${fields.batchName}" may have been created in project ${projectId}, but its answer was lost`,
			whatExists: 'No image was put in it. Running the item again creates another batch: delete the empty one in the dashboard if it is there.',
		},
	});

	const nothingCreated = `Nothing was added to the project for this image${batchIdNote(batchId)}${nothingElse}; running the item again uploads it.`;
	const name = blurred ? blurredFileName(plan.image.fileName) : uploadName(plan.image.fileName, file.contentType);
	const { value: place } = await explained(
		this,
		itemIndex,
		postToProject.call(this, call, project, { url: projectPaths.upload(), payload: { name, content_type: file.contentType }, resultSchema: uploadAnswerSchema }),
		{ whatExists: nothingCreated },
	);
	await explained(
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
		{ failed: 'The image could not be put into the project’s storage', whatExists: nothingCreated },
	);
	const record: RecordRequest = {
		name,
		batchId,
		height: size.height,
		width: size.width,
		contentType: file.contentType,
		size: file.bytes.length,
		source: place.uri,
	};
	const recordFor = (state: RecordState, recordId?: string) => session.ledger.record(batchId, { position: plan.position, itemIndex, fileName: name, state, recordId });
	const { value: created } = await explained(
		this,
		itemIndex,
		postToProject.call(this, call, project, { url: projectPaths.records(projectId), payload: record, resultSchema: createdAnswerSchema, creates: true }),
		{
			failed: `The image was stored (${place.uri}) but its record was not created`,
			whatExists: nothingCreated,
			ifMaybeDone: {
				failed: `The image was stored (${place.uri}) and its record may have been created in batch ${batchId}, but its answer was lost`,
				whatExists: () => recordMayExist(batchId, projectId, name, session.ledger.sameName(batchId, name, plan.position)),
				then: () => recordFor('mayExist'),
			},
		},
	);
	const recordId = created.id;
	recordFor('created', recordId);
	if (labelIds) {
		const without = `Record ${recordId} was created in batch ${batchId} without its ${annotations.length} annotation${annotations.length === 1 ? '' : 's'}`;
		await explained(
			this,
			itemIndex,
			postToProject.call(this, call, project, {
				url: projectPaths.annotations(projectId),
				payload: { dataset_record_id: recordId, annotations: annotations.map(({ label, annotation }) => ({ annotation, label_id: labelIds.get(label) })) },
				resultSchema: annotationsAnswerSchema,
				creates: true,
			}),
			{
				failed: `${without}: the annotations call failed`,
				whatExists: `Add them in the dashboard, or delete record ${recordId} there before running the item again: a rerun creates a second record.`,
				then: () => recordFor('withoutAnnotations', recordId),
				ifMaybeDone: {
					failed: `Record ${recordId} was created in batch ${batchId}, and its ${annotations.length} annotation${annotations.length === 1 ? '' : 's'} may have been too, but the answer was lost`,
					whatExists: `Open record ${recordId} in the dashboard: if its annotations are there, nothing is left to do; if not, add them there, or delete the record before running the item again (a rerun creates a second record).`,
					then: () => recordFor('annotationsMayExist', recordId),
				},
			},
		);
	}

	const upload = { projectId, projectType, batchId, batchName: fields.batchName, recordId, fileName: name, width: record.width, height: record.height, size: record.size, contentType: record.contentType, annotationCount: annotations.length, ...(fields.privacy ? { blurredBoxes: blurred?.hiddenBoxes ?? 0 } : {}) };
	// an agent reads the item's json as the tool's result: the input's fields (an `error` among them) would read as this upload's
	const json = runsAsTool(this) ? { upload } : { ...withoutError(this.getInputData()[itemIndex].json), upload };
	const passedThrough = passedThroughBinaries.call(this, itemIndex, true);
	// with Blur These Labels the item's pictures do not go on unblurred either
	const items = [outputItem(json, fields.privacy ? withoutImageFiles(passedThrough, plan.image) : passedThrough, itemIndex)];
	return () => items;
}

/** The ids of the labels an image's annotations name, asked for before anything is created for any image of the execution. */
async function resolveLabels(
	this: IExecuteFunctions,
	session: ProjectSession,
	projectId: string,
	projectType: ProjectType,
	annotations: LabelledAnnotation[],
	call: CallSettings,
): Promise<Map<string, string>> {
	const whatExists = 'Nothing was added to the project for this image (a label the call made, if any, keeps its id when the item runs again); running the item again uploads it.';
	const labelIds = await explained(this, call.itemIndex, session.labelIds(projectId, projectType, call), { failed: 'The labels could not be created', whatExists });
	const missing = annotations.find(({ label }) => !labelIds.has(label));
	if (missing) {
		throw new NodeOperationError(this.getNode(), `The service did not return an id for the label "${missing.label}"`, { itemIndex: call.itemIndex, description: whatExists });
	}
	return labelIds;
}

/** The file's bytes, read once, when its upload starts: from the database store through the execution's read-ahead. */
async function readWholeFile(this: IExecuteFunctions, plan: ImagePlan<UploadFields>, context: ExecutionContext): Promise<Buffer> {
	if (databaseStoreField.call(this, plan.itemIndex, plan.image) !== undefined) return await context.databaseFiles.read(plan.position);
	return (await resolveImage.call(this, plan.itemIndex, plan.image)) as Buffer;
}

/**
 * A file (or its head) checked: JPEG or PNG (the formats the SDK uploads), with the size its header
 * gives. `whole`: the bytes are the whole file, so a size they do not give is not to be found.
 */
function checkUploadFile(this: IExecuteFunctions, itemIndex: number, image: ImageInput, bytes: Buffer, whole: boolean): UploadFile {
	const type = sniffImageType(bytes);
	const field = image.source === 'binary' ? `"${image.field}"` : '';
	if (!type || !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.mimeType)) {
		throw new ImageRefusedError(this.getNode(), `The file in binary field ${field} is ${type ? type.extension.toUpperCase() : 'not an image'}: projects take JPEG and PNG`, {
			itemIndex,
			description: `Convert it with ${EDIT_IMAGE_TO_JPEG}.`,
		});
	}
	const size = readImageSize(bytes);
	if (!size && whole) {
		throw new ImageRefusedError(this.getNode(), `The size of the image in binary field ${field} cannot be read from its header`, {
			itemIndex,
			description: 'The record needs the image’s width and height. Re-encode it with an Edit Image node before this one.',
		});
	}
	return { bytes, contentType: type.mimeType as UploadContentType, size };
}

/**
 * The input's json with its `error` field as `inputError`: an item with `error` reads as a failure
 * (to n8n's Retry On Fail and error branches, and to people), so only a failed upload carries one.
 */
function withoutError(json: IDataObject): IDataObject {
	if (!('error' in json)) return json;
	const { error, ...rest } = json;
	return { ...rest, inputError: error };
}

/** The name the file is uploaded as: its own, with the extension of its type when it has none of it. */
function uploadName(fileName: string, contentType: UploadContentType): string {
	const extensions = contentType === 'image/png' ? ['png'] : ['jpg', 'jpeg'];
	const extension = fileName.split('.').pop()!.toLowerCase();
	return fileName.includes('.') && extensions.includes(extension) ? fileName : `${fileName}.${extensions[0]}`;
}

/**
 * Where to look for a record whose answer was lost. Other images of the execution may have put
 * records of the same name in the batch (photos without a file name are all "data.jpg"): those are
 * named, so only this image's is deleted.
 */
export function recordMayExist(batchId: string, projectId: string, name: string, othersOfName: string | undefined): string {
	const where = `Look in batch ${batchId} of project ${projectId} in the dashboard for a record named "${name}" before running the item again`;
	if (othersOfName === undefined) return `${where}: if it is there, running the item again makes a second one, so delete it first or leave this item out.`;
	return (
		`${where}. Other images of this execution have that name too: ${othersOfName} (and any record another image’s output names). ` +
		'A record of that name beyond those is this item’s: running the item again makes a second one, so delete it first or leave this item out.'
	);
}

function batchIdNote(batchId: string): string {
	return ` (batch ${batchId} exists, empty unless other images went into it)`;
}

function itemFailure(context: IExecuteFunctions, itemIndex: number) {
	return (message: string, description: string): never => {
		throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
	};
}

/** How a step's failure reads: what failed, what exists and what to do, and (for a call that creates something) how it reads when it may have been done. */
interface StepFailure {
	/** Put before the call's own message; none leaves the message as it is. */
	failed?: string;
	/** A function when what exists is known only at the failure (what other images did meanwhile). */
	whatExists: string | (() => string);
	/** Notes in the ledger what exists after the failure. */
	then?: () => void;
	ifMaybeDone?: Omit<StepFailure, 'ifMaybeDone'>;
}

/** The step's result, or its failure as the item's error saying what failed, what exists and what to do. */
async function explained<T>(context: IExecuteFunctions, itemIndex: number, step: Promise<T>, failure: StepFailure): Promise<T> {
	try {
		return await step;
	} catch (error) {
		const said = (mayHaveBeenDone(error) && failure.ifMaybeDone) || failure;
		said.then?.();
		const shown = asNodeError(context.getNode(), error, itemIndex);
		if (said.failed) shown.message = `${said.failed}: ${shown.message}`;
		const whatExists = typeof said.whatExists === 'function' ? said.whatExists() : said.whatExists;
		shown.description = [whatExists, shown.description].filter(Boolean).join(' ');
		throw shown;
	}
}

export const uploadToProject: Operation<UploadFields> = { description, readsModel: false, prepare, checkImage, startExecution, whenStopped, execute };
