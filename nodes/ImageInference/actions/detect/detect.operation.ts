import type { IBinaryData, IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { DetectRequest, DetectResult } from '../../contract';
import { CONFIDENCE_BOUNDS, STROKE_WIDTH_BOUNDS, detectAnswerSchema, detectRequestSchema } from '../../contract';
import type { ImageInput, ImageSource } from '../../input/imageInput';
import type { ImageSize } from '../../input/imageSize';
import { originalBinary, readSizeFromWholeFile } from '../../input/imageInput';
import { readAnnotatedImage } from '../../output/annotatedImage';
import type { CropSettings, NodeDrawing, Privacy } from '../../output/drawnImage';
import { drawnAnnotatedImage, hiddenLabel, hiddenOriginal, objectCrops, orientationOf, readBlurLabels, withoutImageFiles } from '../../output/drawnImage';
import { aboutTheImage, outputItem, passedThroughBinaries } from '../../output/outputItem';
import { runsAsTool } from '../../output/toolResult';
import { readChoice, readFieldName, readOptionalBoolean, readOptionalNumber, readOptions } from '../../parameters/readers';
import type { Watch } from '../../pipeline/comparison';
import { readWatch, settingsFingerprint, settingsWithModel } from '../../pipeline/comparison';
import type { StoredPicture } from '../../pipeline/geometry';
import { servicePicture, unsettledOtherPicture, uprightSize } from '../../pipeline/geometry';
import { madeOncePer } from '../../pipeline/madeOnce';
import type { DetectionResults } from '../../pipeline/steps';
import { readDetectionOptions, runDetectionPipeline } from '../../pipeline/steps';
import { readTracking } from '../../pipeline/tracking';
import type { DetectionOptions, ZoneAndSizeOptions } from '../../pipeline/types';
import { checkSizeKnowable, needsImageSize, requireSize } from '../../pipeline/zones';
import { predict } from '../predict';
import type { ExecutionContext, ImagePlan, MakeOutputItems, Operation } from '../types';
import {
	DEFAULT_ANNOTATED_IMAGE_FIELD,
	DEFAULT_ORIGINAL_IMAGE_FIELD,
	DEFAULT_OUTPUT_IMAGES,
	DEFAULT_OUTPUT_ITEMS,
	OUTPUT_IMAGES,
	OUTPUT_ITEMS,
	detectProperties,
} from './detect.description';
import {
	ANNOTATED_BY,
	CROP_MIN_SIDE_BOUNDS,
	CROP_PADDING_BOUNDS,
	DEFAULT_ANNOTATED_BY,
	DEFAULT_CROP_FIELD,
	DEFAULT_CROP_MIN_SIDE,
	DEFAULT_CROP_PADDING,
	DEFAULT_HIDE_WITH,
	HIDE_WITH,
	DEFAULT_JPEG_QUALITY,
	DEFAULT_MAX_SIDE,
	DEFAULT_WHEN_NODE_CANNOT_DRAW,
	JPEG_QUALITY_BOUNDS,
	MAX_SIDE_BOUNDS,
	WHEN_NODE_CANNOT_DRAW,
} from './drawing.description';

type OutputImages = (typeof OUTPUT_IMAGES)[number];
type OutputItems = (typeof OUTPUT_ITEMS)[number];

export const description = updateDisplayOptions({ show: { operation: ['detect'] } }, detectProperties);

export interface DetectFields {
	request: Omit<DetectRequest, 'image'>;
	detections: DetectionOptions;
	outputItems: OutputItems;
	includeImagesWithoutObjects: boolean;
	/** Output binary field of each image kind the user wants. */
	imageFields: { annotated?: string; original?: string };
	/** How the node draws the annotated picture itself; absent when the service draws it (or none is wanted). */
	drawing?: NodeDrawing;
	/** Blur These Labels: what is hidden in every picture the node outputs. */
	privacy?: Privacy;
	/** Why nothing is blurred though Blur These Labels is set (its expression gave no label): a warning on every item. */
	notBlurred?: string;
	/** Crop Each Object (One Item per Object). */
	crops?: CropSettings;
	watch?: Watch;
}

export function prepare(this: IExecuteFunctions, itemIndex: number, imageSource: ImageSource): DetectFields {
	const options = readOptions.call(this, itemIndex);
	const request: Omit<DetectRequest, 'image'> = {};
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	const annotate = readOptionalBoolean.call(this, itemIndex, options, 'annotate', 'Annotate Image');
	const showProb = readOptionalBoolean.call(this, itemIndex, options, 'showConfidence', 'Show Confidence on Boxes');
	const strokeWidth = readOptionalNumber.call(this, itemIndex, options, 'strokeWidth', 'Box Stroke Width', STROKE_WIDTH_BOUNDS);
	const asTool = runsAsTool(this);
	// an agent's tool result carries no picture, so the service is not asked to draw one
	const imageFields = asTool ? {} : readImageFields.call(this, itemIndex, options, imageSource);
	const privacyRead = asTool ? undefined : readPrivacy.call(this, itemIndex, options, imageFields);
	const privacy = privacyRead && 'off' in privacyRead ? undefined : privacyRead;
	const drawing = imageFields.annotated ? readNodeDrawing.call(this, itemIndex, options, imageSource, showProb, privacy !== undefined) : undefined;
	if (confidence !== undefined) request.confidence = confidence;
	// no annotated picture is wanted from the service: it need not draw one
	if (drawing) request.annotate = drawing.serviceFallback;
	else if (annotate !== undefined || !imageFields.annotated) request.annotate = annotate ?? false;
	if (showProb !== undefined) request.show_prob = showProb;
	if (strokeWidth !== undefined) request.stroke_width = strokeWidth;
	const detections = readDetectionOptions.call(this, itemIndex, options);
	checkSizeKnowable.call(this, itemIndex, detections.zonesAndSizes, {
		url: imageSource === 'url',
		annotated: imageFields.annotated !== undefined && request.annotate !== false,
	});
	const watch = readWatchSettings(options, this, itemIndex, request.confidence ?? null, detections);
	// Under Continue, n8n's Retry On Fail runs the whole node again when output item 0 has json.error
	// (n8n-core dist/execution-engine/workflow-execute.js: 2.41.1 checkFailure in the retry loop,
	// 1.123.81 the loop after maxTries): the run it replaces has already written its looks, so the
	// rerun would compare with them and the arrivals that run saw would never be reported.
	if (watch && this.getNode().retryOnFail === true && this.continueOnFail()) {
		throw new NodeOperationError(this.getNode(), 'Compare With Previous Look does not run with Retry On Fail on under On Error Continue', {
			itemIndex,
			description:
				'Turn off Retry On Fail in this node’s Settings: after a failed first item n8n would run the whole node again, comparing with the looks of the run it replaces, and the arrivals that run saw would never be reported. The node’s own Options > Retries retries each image’s request.',
		});
	}
	const outputItems: OutputItems = asTool
		? 'image'
		: readChoice(this, itemIndex, this.getNodeParameter('outputItems', itemIndex, DEFAULT_OUTPUT_ITEMS), OUTPUT_ITEMS, 'Output Items');
	const crops = outputItems === 'object' ? readCrops.call(this, itemIndex, options, imageSource, imageFields) : undefined;
	return {
		request,
		detections,
		// an agent's tool gets one compact result per image, whatever Output Items says
		outputItems,
		includeImagesWithoutObjects:
			readOptionalBoolean.call(this, itemIndex, options, 'includeImagesWithoutObjects', 'Include Images Without Objects') ?? false,
		imageFields,
		...(drawing ? { drawing } : {}),
		...(privacy ? { privacy } : {}),
		...(privacyRead && 'off' in privacyRead ? { notBlurred: privacyRead.off } : {}),
		...(crops ? { crops } : {}),
		watch,
	};
}

/** Crop Each Object's settings, when it is on (checked before any request). */
function readCrops(this: IExecuteFunctions, itemIndex: number, options: IDataObject, imageSource: ImageSource, imageFields: DetectFields['imageFields']): CropSettings | undefined {
	if (!readOptionalBoolean.call(this, itemIndex, options, 'cropObjects', 'Crop Each Object')) return undefined;
	if (imageSource === 'url') {
		throw new NodeOperationError(this.getNode(), 'The node cannot crop the objects of an image URL: it never has the image’s file', {
			itemIndex,
			description: 'Turn Crop Each Object off, or download the image with HTTP Request first and pass it as a file.',
		});
	}
	const field = options.cropField === undefined ? DEFAULT_CROP_FIELD : readFieldName.call(this, itemIndex, options.cropField, 'Put Crop in Field');
	const taken = field === imageFields.annotated ? 'Annotated' : field === imageFields.original ? 'Original' : undefined;
	if (taken) {
		throw new NodeOperationError(this.getNode(), `The crop and the ${taken.toLowerCase()} image cannot both go into field "${field}"`, {
			itemIndex,
			description: `Give "Put Crop in Field" another name than "Put ${taken} Image in Field".`,
		});
	}
	return {
		padding: readOptionalNumber.call(this, itemIndex, options, 'cropPadding', 'Crop Padding', CROP_PADDING_BOUNDS) ?? DEFAULT_CROP_PADDING,
		minSide: readOptionalNumber.call(this, itemIndex, options, 'cropMinSide', 'Crop Min Side (Pixels)', CROP_MIN_SIDE_BOUNDS) ?? DEFAULT_CROP_MIN_SIDE,
		field,
	};
}

const HIDDEN_IN_BOTH_FRAMES = (orientation: number | undefined) =>
	`The photo is stored turned or mirrored (EXIF orientation ${orientation}) and the service’s answer does not say which way round it read it: in the pictures the node blurs, each box of Blur These Labels is hidden where it is either way.`;

/** Whether the item carries a picture the node blurred: the annotated picture, the original not passed on unblurred, or crops. */
const blursAPicture = (fields: DetectFields) =>
	fields.imageFields.annotated !== undefined || (fields.imageFields.original !== undefined && fields.privacy?.passUnblurredOriginal === false) || fields.crops !== undefined;

const BLUR_OFF_BY_EXPRESSION = 'Blur These Labels’ expression gave no label: nothing is blurred in this item’s pictures.';

/** Whether the node's option is an expression in the workflow (n8n stores one as text starting with "="). */
function optionByExpression(context: IExecuteFunctions, name: string): boolean {
	const options = context.getNode().parameters.options;
	const stored = options && typeof options === 'object' && !Array.isArray(options) ? (options as IDataObject)[name] : undefined;
	return typeof stored === 'string' && stored.startsWith('=');
}

/**
 * Blur These Labels and how, when set (checked before any request): with an annotated picture it
 * needs the node to draw. `off` when its expression gave no label.
 */
function readPrivacy(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	imageFields: DetectFields['imageFields'],
): Privacy | { off: string } | undefined {
	// only an option not added is off: one added and left empty is a mistake to say; an expression may turn it off, and the items say so
	if (!('hideLabels' in options)) return undefined;
	const labels = readBlurLabels.call(this, itemIndex, options.hideLabels);
	if (labels.length === 0 && optionByExpression(this, 'hideLabels')) return { off: BLUR_OFF_BY_EXPRESSION };
	if (labels.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Blur These Labels is empty', {
			itemIndex,
			description: 'Enter the labels to blur, separated by commas (e.g. "person, license-plate"), or remove the option.',
		});
	}
	if (imageFields.annotated !== undefined && (options.annotatedBy ?? DEFAULT_ANNOTATED_BY) !== 'node') {
		throw new NodeOperationError(this.getNode(), 'Blur These Labels needs Annotated Image Drawn By: Node', {
			itemIndex,
			description: 'The service’s picture shows every box it found, unblurred. Set Annotated Image Drawn By to Node, in the same Options.',
		});
	}
	return {
		labels,
		effect: readChoice(this, itemIndex, options.hideWith ?? DEFAULT_HIDE_WITH, HIDE_WITH, 'Hide With'),
		passUnblurredOriginal: readOptionalBoolean.call(this, itemIndex, options, 'passUnblurredOriginal', 'Pass On the Unblurred Original') ?? false,
	};
}

/** Detect's drawing options, when the node draws the annotated picture itself (checked before any request). */
function readNodeDrawing(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	imageSource: ImageSource,
	showConfidence: boolean | undefined,
	hides: boolean,
): NodeDrawing | undefined {
	const annotatedBy = readChoice(this, itemIndex, options.annotatedBy ?? DEFAULT_ANNOTATED_BY, ANNOTATED_BY, 'Annotated Image Drawn By');
	if (annotatedBy === 'service') return undefined;
	if (imageSource === 'url') {
		throw new NodeOperationError(this.getNode(), 'The node cannot draw the annotated picture of an image URL: it never has the image’s file', {
			itemIndex,
			description: 'Set Annotated Image Drawn By to Service, or download the image with HTTP Request first and pass it as a file.',
		});
	}
	const whenNodeCannotDraw = readChoice(this, itemIndex, options.whenNodeCannotDraw ?? DEFAULT_WHEN_NODE_CANNOT_DRAW, WHEN_NODE_CANNOT_DRAW, 'If the Node Cannot Draw');
	return {
		showConfidence: showConfidence ?? true,
		showZones: readOptionalBoolean.call(this, itemIndex, options, 'showZones', 'Show Zones on Image') ?? true,
		maxSide: readOptionalNumber.call(this, itemIndex, options, 'maxSide', 'Max Side (Pixels)', MAX_SIDE_BOUNDS) ?? DEFAULT_MAX_SIDE,
		quality: readOptionalNumber.call(this, itemIndex, options, 'jpegQuality', 'JPEG Quality', JPEG_QUALITY_BOUNDS) ?? DEFAULT_JPEG_QUALITY,
		// the service's picture shows what Blur These Labels hides: it is not asked for one
		serviceFallback: whenNodeCannotDraw === 'service' && !hides,
	};
}

/** Each options object's watch, read once: its threshold and the steps' options are read from the same options. */
const readWatchSettings = madeOncePer(
	(options: IDataObject, context: IExecuteFunctions, itemIndex: number, confidence: number | null, detections: DetectionOptions): Watch | undefined => {
		const read = readWatch.call(context, itemIndex, options);
		const zoneNames = detections.zonesAndSizes.zones.map((zone) => zone.name);
		const tracking = readTracking.call(context, itemIndex, options, read !== undefined, zoneNames);
		// a look taken under other settings counts other things: it is a new baseline, not a change
		return read && { ...read, settings: settingsFingerprint(confidence, detections), ...(tracking ? { tracking } : {}) };
	},
);

function readImageFields(this: IExecuteFunctions, itemIndex: number, options: IDataObject, imageSource: ImageSource): DetectFields['imageFields'] {
	const outputImages: OutputImages = readChoice(this, itemIndex, options.outputImages ?? DEFAULT_OUTPUT_IMAGES, OUTPUT_IMAGES, 'Output Images');
	const fields: DetectFields['imageFields'] = {};
	if (outputImages === 'annotated' || outputImages === 'both') {
		fields.annotated =
			options.annotatedImageField === undefined
				? DEFAULT_ANNOTATED_IMAGE_FIELD
				: readFieldName.call(this, itemIndex, options.annotatedImageField, 'Put Annotated Image in Field');
	}
	if (outputImages === 'original' || outputImages === 'both') {
		if (imageSource === 'url') {
			throw new NodeOperationError(this.getNode(), `Output Images "${outputImages}" needs the image itself, and an image URL does not give it to the node`, {
				itemIndex,
				description: 'Set Output Images to Annotated or None, or pass the image as a file (e.g. download it with HTTP Request first).',
			});
		}
		fields.original =
			options.originalImageField === undefined
				? DEFAULT_ORIGINAL_IMAGE_FIELD
				: readFieldName.call(this, itemIndex, options.originalImageField, 'Put Original Image in Field');
	}
	if (fields.annotated !== undefined && fields.annotated === fields.original) {
		throw new NodeOperationError(this.getNode(), `The annotated and the original image cannot both go into field "${fields.annotated}"`, {
			itemIndex,
			description: 'Give "Put Annotated Image in Field" and "Put Original Image in Field" different names.',
		});
	}
	return fields;
}

/** prepare → predict → (every image of the execution answered) the detection pipeline → the output items. */
export async function execute(this: IExecuteFunctions, plan: ImagePlan<DetectFields>, context: ExecutionContext): Promise<MakeOutputItems> {
	const { fields } = plan;
	const { result, picture } = await predict.call(this, { ...plan, fields: fields.request }, context, {
		kind: 'detect',
		requestSchema: detectRequestSchema,
		resultSchema: detectAnswerSchema,
		beforeSending: async (image) => await learnSizeBeforeSending.call(this, plan.itemIndex, image, fields.detections.zonesAndSizes),
	});

	const passedThrough = passedThroughBinaries.call(this, plan.itemIndex, plan.passThrough);
	// the item's own pictures, unblurred, do not go on with Blur These Labels
	const binary = fields.privacy && !fields.privacy.passUnblurredOriginal ? withoutImageFiles(passedThrough, plan.image) : passedThrough;
	const warnings: string[] = fields.notBlurred ? [fields.notBlurred] : [];
	let annotatedSize: ImageSize | undefined;
	let servicePictureFile: IBinaryData | undefined;
	if (fields.imageFields.annotated) {
		const annotated = await readAnnotatedImage.call(this, result.image, picture, plan.image.fileName);
		// the node's own picture replaces the service's, which it keeps only to fall back on, when the user chose that: a
		// picture sent unasked (annotate false) is dropped, for it shows every box and nothing blurred
		if (fields.drawing) servicePictureFile = fields.drawing.serviceFallback ? annotated.binary : undefined;
		else if (annotated.binary) binary[fields.imageFields.annotated] = annotated.binary;
		if (annotated.warning) warnings.push(annotated.warning);
		annotatedSize = annotated.size;
	}
	const sent = plan.image.source === 'url' ? undefined : plan.image.size;
	const boxesIn = servicePicture(sent, annotatedSize);
	const size = boxesIn && uprightSize(boxesIn);
	// a picture sent unasked (annotate false) settles nothing: it may be the input sent back as it came
	const otherPicture = fields.privacy && unsettledOtherPicture(sent, boxesIn, fields.request.annotate === false ? undefined : annotatedSize);
	// with Blur These Labels, the original goes on blurred: made once the answer's boxes are placed
	if (fields.imageFields.original && (!fields.privacy || fields.privacy.passUnblurredOriginal)) {
		const original = await originalBinary.call(this, plan.itemIndex, plan.image);
		if (original) binary[fields.imageFields.original] = original;
	}
	requireSize.call(this, plan.itemIndex, fields.detections.zonesAndSizes, size, 'afterAnswer');
	return async () => await detectOutput.call(this, plan, context, { result, boxesIn, size, binary, warnings, servicePictureFile, otherPicture });
}

/** What an image's answer gives its output: the service's result, the picture its boxes are in, the output's files. */
interface AnsweredImage {
	result: DetectResult;
	boxesIn: StoredPicture | undefined;
	size: ImageSize | undefined;
	binary: IBinaryKeyData;
	warnings: string[];
	/** The service's picture, when the node draws its own and falls back on it. */
	servicePictureFile?: IBinaryData;
	/** With Blur These Labels, the other picture the boxes may be in when their frame is a guess (a turned or mirrored photo). */
	otherPicture?: StoredPicture;
}

/** The answer through the detection pipeline (and the watch key's comparison), into the image's output items. */
async function detectOutput(this: IExecuteFunctions, plan: ImagePlan<DetectFields>, context: ExecutionContext, answered: AnsweredImage): Promise<INodeExecutionData[]> {
	const { fields } = plan;
	const { result, boxesIn, size, binary, warnings } = answered;
	const watch = fields.watch && { watch: { ...fields.watch, settings: settingsWithModel(fields.watch.settings, plan.modelId) }, store: this.getWorkflowStaticData('node'), now: Date.now() };
	const { results, placed, leftOut, warnings: zoneWarnings, comparison, tracking } = runDetectionPipeline(result, boxesIn, fields.detections, watch);
	warnings.push(...zoneWarnings);
	context.hints.image(plan, size);
	if (result.detections.length === 0) context.hints.nothing(plan, fields.request.confidence);
	if (comparison) context.hints.look(plan, comparison.key, comparison.previousSeenAt === null, this.getMode() !== 'manual');

	if (!size) warnings.push('The image’s size is unknown (an image URL without the annotated picture): relativeBox is null');
	const hide = fields.privacy && { labels: fields.privacy.labels, effect: fields.privacy.effect, placed, ...(answered.otherPicture ? { otherPicture: answered.otherPicture } : {}) };
	if (hide?.otherPicture && blursAPicture(fields) && placed.map((detection) => detection.label).some(hiddenLabel(hide.labels))) {
		warnings.push(HIDDEN_IN_BOTH_FRAMES(orientationOf(plan.image)));
	}
	let drawnByNode = false;
	if (fields.drawing && fields.imageFields.annotated) {
		const marks = { results, zonesAndSizes: fields.detections.zonesAndSizes, size };
		const drawn = await drawnAnnotatedImage.call(this, plan.itemIndex, plan.image, { ...fields.drawing, hide }, marks, answered.servicePictureFile);
		if (drawn.binary) binary[fields.imageFields.annotated] = drawn.binary;
		if (drawn.warning) warnings.push(drawn.warning);
		drawnByNode = drawn.byNode === true;
	}
	// the hint says which picture shows only the objects kept: the node's, not the service's it fell back on
	context.hints.leftOut(plan, result.detections.length, leftOut, drawnByNode);
	if (hide && fields.imageFields.original && fields.privacy?.passUnblurredOriginal === false) {
		const original = await hiddenOriginal.call(this, plan.itemIndex, plan.image, hide);
		if (original.binary) binary[fields.imageFields.original] = original.binary;
		if (original.warning) warnings.push(original.warning);
	}
	let crops: Array<IBinaryData | undefined> = [];
	if (fields.crops && results.detections.length > 0) {
		const cropped = await objectCrops.call(this, plan.itemIndex, plan.image, results.detections, fields.crops, hide);
		crops = cropped.crops;
		warnings.push(...cropped.warnings);
	}
	const aboutImage: IDataObject = {
		...aboutTheImage(plan.image, size, plan.skippedFiles),
		...(warnings.length ? { warnings } : {}),
		// the pipeline made both for this item alone: the output takes them as they are
		...(comparison ? { comparison: comparison as unknown as IDataObject } : {}),
		...(tracking ? { tracking: tracking as unknown as IDataObject } : {}),
	};
	const items = detectOutputItems(results, aboutImage, binary, plan.itemIndex, fields, crops);
	if (items.length === 0) context.hints.warningsWithoutItem(plan, warnings);
	return items;
}

/**
 * An image whose size relative zones or object sizes need is not sent until the node knows it: a
 * file's is read from the whole file when its first bytes did not give it; else the image is refused unsent.
 */
async function learnSizeBeforeSending(this: IExecuteFunctions, itemIndex: number, image: ImageInput, options: ZoneAndSizeOptions): Promise<void> {
	if (image.source === 'url' || image.size || !needsImageSize(options)) return;
	if (image.source === 'binary') image.size = await readSizeFromWholeFile.call(this, itemIndex, image.field);
	requireSize.call(this, itemIndex, options, image.size, 'beforeSending');
}

/** One item for the image, or one per object (Output Items), each with its crop when Crop Each Object is on. */
function detectOutputItems(
	results: DetectionResults,
	aboutImage: IDataObject,
	binary: IBinaryKeyData,
	itemIndex: number,
	fields: DetectFields,
	crops: ReadonlyArray<IBinaryData | undefined>,
): INodeExecutionData[] {
	if (fields.outputItems === 'image') return [outputItem({ ...results, ...aboutImage }, binary, itemIndex)];
	const objectCount = results.detections.length;
	if (objectCount === 0) return fields.includeImagesWithoutObjects ? [outputItem({ objectCount: 0, ...aboutImage }, binary, itemIndex)] : [];
	return results.detections.map((detection, objectIndex) => {
		const crop = crops[objectIndex];
		const files = crop && fields.crops ? { ...binary, [fields.crops.field]: crop } : binary;
		return outputItem({ ...detection, objectIndex, objectCount, ...aboutImage }, files, itemIndex);
	});
}

export const detect: Operation<DetectFields> = { description, readsModel: true, prepare, execute };
