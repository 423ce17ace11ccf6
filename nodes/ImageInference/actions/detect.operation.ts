import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { DetectRequest, DetectResult } from '../contract';
import { CONFIDENCE_BOUNDS, STROKE_WIDTH_BOUNDS, detectRequestSchema, detectAnswerSchema } from '../contract';
import { readAnnotatedImage } from '../helpers/annotatedImage';
import { MAX_OBJECTS_BOUNDS } from '../helpers/constants';
import type { DetectionFilter } from '../helpers/detections';
import { countLabels, countsByLabel, filterDetections, parseLabelList, summarizeCounts } from '../helpers/detections';
import { originalBinary } from '../helpers/imageInput';
import { imageFacts, passedThroughBinaries } from './outputItem';
import { runsAsTool } from '../helpers/toolOutput';
import { choiceOf, readFieldName, readOptionalBoolean, readOptionalNumber, readOptions, shownValue } from '../helpers/parameters';
import type { Watch } from '../helpers/previousLook';
import { compareWithPreviousLook, readWatch } from '../helpers/previousLook';
import type { PlaceOptions, PlacedZones } from '../helpers/zones';
import { checkSizeKnowable, countsByZone, keepsPlace, placeDetections, placeZones, readPlaceOptions, requireSize } from '../helpers/zones';
import { detectProperties } from './detect.description';
import { predict } from './predict';
import type { ExecutionContext, ImagePlan, Operation } from './types';

const OUTPUT_IMAGES = ['annotated', 'original', 'both', 'none'] as const;
type OutputImages = (typeof OUTPUT_IMAGES)[number];
const OUTPUT_ITEMS = ['image', 'object'] as const;
type OutputItems = (typeof OUTPUT_ITEMS)[number];

export const description = updateDisplayOptions({ show: { operation: ['detect'] } }, detectProperties);

export interface DetectFields {
	request: Omit<DetectRequest, 'image'>;
	filter: DetectionFilter;
	outputItems: OutputItems;
	includeImagesWithoutObjects: boolean;
	/** Output binary field of each image kind the user wants. */
	imageFields: { annotated?: string; original?: string };
	place: PlaceOptions;
	watch?: Watch;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): DetectFields {
	const options = readOptions.call(this, itemIndex);
	const request: Omit<DetectRequest, 'image'> = {};
	const confidence = readOptionalNumber.call(this, itemIndex, options, 'confidence', 'Confidence Threshold', CONFIDENCE_BOUNDS);
	const annotate = readOptionalBoolean.call(this, itemIndex, options, 'annotate', 'Annotate Image');
	const showProb = readOptionalBoolean.call(this, itemIndex, options, 'showConfidence', 'Show Confidence on Boxes');
	const strokeWidth = readOptionalNumber.call(this, itemIndex, options, 'strokeWidth', 'Box Stroke Width', STROKE_WIDTH_BOUNDS);
	// an agent's tool result carries no picture, so the service is not asked to draw one
	const imageFields = runsAsTool(this) ? {} : readImageFields.call(this, itemIndex, options);
	if (confidence !== undefined) request.confidence = confidence;
	// no annotated picture is wanted: the service need not draw one
	if (annotate !== undefined || !imageFields.annotated) request.annotate = annotate ?? false;
	if (showProb !== undefined) request.show_prob = showProb;
	if (strokeWidth !== undefined) request.stroke_width = strokeWidth;
	const place = readPlaceOptions.call(this, itemIndex, options);
	checkSizeKnowable.call(this, itemIndex, place, {
		url: this.getNodeParameter('imageSource', itemIndex, 'binary') === 'url',
		annotated: imageFields.annotated !== undefined && request.annotate !== false,
	});
	return {
		request,
		filter: readFilter.call(this, itemIndex, options),
		// an agent's tool gets one compact result per image, whatever Output Items says
		outputItems: runsAsTool(this)
			? 'image'
			: (readChoice.call(this, itemIndex, this.getNodeParameter('outputItems', itemIndex, 'image'), OUTPUT_ITEMS, 'Output Items') as OutputItems),
		includeImagesWithoutObjects:
			readOptionalBoolean.call(this, itemIndex, options, 'includeImagesWithoutObjects', 'Include Images Without Objects') ?? false,
		imageFields,
		place,
		watch: readWatch.call(this, itemIndex, options),
	};
}

function readFilter(this: IExecuteFunctions, itemIndex: number, options: IDataObject): DetectionFilter {
	const filter: DetectionFilter = {};
	const only = parseLabelList(options.onlyLabels);
	if (only !== undefined) {
		if (only.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Only These Labels is empty', {
				itemIndex,
				description: 'Enter the labels to keep, separated by commas (e.g. "person, dog"), or remove the option to keep all objects.',
			});
		}
		filter.onlyLabels = only;
	}
	const ignore = parseLabelList(options.ignoreLabels);
	if (ignore?.length) filter.ignoreLabels = ignore;
	const maxObjects = readOptionalNumber.call(this, itemIndex, options, 'maxObjects', 'Max Objects', MAX_OBJECTS_BOUNDS);
	if (maxObjects !== undefined) filter.maxObjects = maxObjects;
	return filter;
}

function readImageFields(this: IExecuteFunctions, itemIndex: number, options: IDataObject): DetectFields['imageFields'] {
	const outputImages: OutputImages = readChoice.call(this, itemIndex, options.outputImages ?? 'annotated', OUTPUT_IMAGES, 'Output Images') as OutputImages;
	const fields: DetectFields['imageFields'] = {};
	if (outputImages === 'annotated' || outputImages === 'both') {
		fields.annotated =
			options.annotatedImageField === undefined
				? 'data'
				: readFieldName.call(this, itemIndex, options.annotatedImageField, 'Put Annotated Image in Field');
	}
	if (outputImages === 'original' || outputImages === 'both') {
		if (this.getNodeParameter('imageSource', itemIndex, 'binary') === 'url') {
			throw new NodeOperationError(this.getNode(), `Output Images "${outputImages}" needs the image itself, and an image URL does not give it to the node`, {
				itemIndex,
				description: 'Set Output Images to Annotated or None, or pass the image as a file (e.g. download it with HTTP Request first).',
			});
		}
		fields.original =
			options.originalImageField === undefined
				? 'original'
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

function readChoice<T extends string>(
	this: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	choices: readonly T[],
	label: string,
): T {
	const choice = choiceOf(value, choices);
	if (choice !== undefined) return choice;
	throw new NodeOperationError(this.getNode(), `${label} must be one of ${choices.join(', ')}, got ${shownValue(value)}`, {
		itemIndex,
		description: `Choose one in the list, or make the expression that sets "${label}" give one of them.`,
	});
}

export async function execute(
	this: IExecuteFunctions,
	plan: ImagePlan<DetectFields>,
	context: ExecutionContext,
): Promise<INodeExecutionData[]> {
	const { fields } = plan;
	const { result, liftedImage } = await predict.call(this, { ...plan, fields: fields.request }, context, {
		kind: 'detect',
		requestSchema: detectRequestSchema,
		resultSchema: detectAnswerSchema,
	});
	const binary = passedThroughBinaries.call(this, plan);
	const warnings: string[] = [];
	let size = plan.image.source === 'url' ? undefined : plan.image.size;
	if (fields.imageFields.annotated) {
		const annotated = await readAnnotatedImage.call(this, result.image, liftedImage, plan.image.fileName);
		if (annotated.binary) binary[fields.imageFields.annotated] = annotated.binary;
		if (annotated.warning) warnings.push(annotated.warning);
		size ??= annotated.size;
	}
	if (fields.imageFields.original) {
		const original = await originalBinary.call(this, plan.itemIndex, plan.image);
		if (original) binary[fields.imageFields.original] = original;
	}
	const facts: IDataObject = { ...imageFacts(plan, size), ...(warnings.length ? { warnings } : {}) };
	requireSize.call(this, plan.itemIndex, fields.place, size);
	const placed = placeZones(fields.place, size);
	const { results, removed } = describeDetections(result, fields.filter, placed);
	context.hints.image(plan, size);
	if (result.detections.length === 0) context.hints.nothing(plan, fields.request.confidence);
	context.hints.removed(plan, result.detections.length, removed);
	if (!size) facts.warnings = [...warnings, 'The image’s size is unknown (an image URL without the annotated picture): relativeBox is null'];
	if (fields.watch) {
		const counts = { counts: results.countsByLabel, ...(results.countsByZone ? { zones: results.countsByZone } : {}) };
		facts.comparison = { ...compareWithPreviousLook(this.getWorkflowStaticData('node'), fields.watch, counts, Date.now()) };
	}
	const item = (json: IDataObject): INodeExecutionData => ({
		json,
		...(Object.keys(binary).length ? { binary: copyBinaries(binary) } : {}),
		pairedItem: { item: plan.itemIndex },
	});

	if (fields.outputItems === 'image') return [item({ ...results, ...facts })];
	const objectCount = results.detections.length;
	if (objectCount === 0) return fields.includeImagesWithoutObjects ? [item({ objectCount: 0, ...facts })] : [];
	return results.detections.map((detection, objectIndex) => item({ ...detection, objectIndex, objectCount, ...facts }));
}

/** The result without its image, filtered as the user asked, with counts and a summary of what was kept. */
function describeDetections(result: DetectResult, filter: DetectionFilter, placed: PlacedZones) {
	const place = placed.place;
	const placeFilters = place.onlyInZones || place.minSize !== undefined || place.maxSize !== undefined;
	const { kept, removed } = filterDetections(result.detections, placeFilters ? { ...filter, keep: (detection) => keepsPlace(placed, detection) } : filter);
	const detections = placeDetections(placed, kept);
	const labelsCount = countLabels(detections, result.labelsCount);
	return {
		results: {
			detections,
			labelsCount,
			countsByLabel: countsByLabel(labelsCount),
			...(placed.polygons.length ? { countsByZone: countsByZone(placed, detections) } : {}),
			totalDetections: detections.length,
			summary: summarizeCounts(labelsCount),
		},
		removed,
	};
}

/** Each output item gets its own binary entries (n8n may rewrite an item's binary metadata in place). */
function copyBinaries(binary: IBinaryKeyData): IBinaryKeyData {
	return Object.fromEntries(Object.entries(binary).map(([field, data]) => [field, { ...data }]));
}

export const detect: Operation<DetectFields> = { description, prepare, execute };
