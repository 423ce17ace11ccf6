/**
 * The project upload calls, as the official Python SDK makes them (epigos/core/uploader.py): read
 * the project, create a batch, ask for an upload URL, put the file in the storage (./storage.ts),
 * create the dataset record, create the labels, create the annotations. Each call is checked
 * against what the earlier ones created, so a client that skips or garbles a step is refused.
 */
import { randomUUID } from 'node:crypto';

import { z } from 'zod';

import type { ErrorBody, ErrorDetail } from '../../nodes/ImageInference/contract';
import { readImageSize } from '../../nodes/ImageInference/input/imageSize';
import { UPLOAD_CONTENT_TYPES } from '../../nodes/ImageInference/projectContract';
import { sha256 } from './faults';
import { sniffFormat } from './image-codec';
import type { Storage } from './storage';
import { badRequest, bodyIssues } from './validation';

export type ProjectType = 'object_detection' | 'classification';
export type ProjectCall = 'project' | 'batch' | 'upload' | 'record' | 'labels' | 'annotations';

/** The projects `npm run reference-server` creates. */
export const PROJECT_IDS = {
	detection: '3f6c2a1e-8d4b-4e7a-9c15-d2b0a7e4f801',
	classification: '9b1e4d7c-2a6f-4c83-b5e0-6f8d3a2c1b47',
} as const;

export const WORKSPACE_ID = '5d0f8a3b-7c1e-4b92-a6d4-0e9c2f7b3a18';

interface ImageMetadata {
	image: { width: number; height: number };
}

export type ReceivedAnnotation =
	| {
			annotation: { category: 'bounding_box'; left: number; top: number; width: number; height: number; metadata: ImageMetadata };
			label_id: string;
	  }
	| { annotation: { category: 'category'; metadata: ImageMetadata }; label_id: string };

export interface ProjectRecord {
	id: string;
	name: string;
	batchId: string;
	width: number;
	height: number;
	contentType: string;
	size: number;
	source: string;
	/** Of the bytes in the storage. */
	sha256: string;
	annotations: ReceivedAnnotation[];
}

export interface ProjectState {
	id: string;
	name: string;
	workspaceId: string;
	projectType: ProjectType;
	batches: Array<{ id: string; name: string }>;
	labels: Array<{ id: string; name: string }>;
	records: ProjectRecord[];
}

export interface CallRoute {
	call: ProjectCall;
	projectId?: string;
}

const ROUTES: Array<[method: string, path: RegExp, call: ProjectCall]> = [
	['GET', /^\/projects\/([^/]+)\/$/, 'project'],
	['POST', /^\/projects\/([^/]+)\/batches\/$/, 'batch'],
	['POST', /^\/upload\/$/, 'upload'],
	['POST', /^\/projects\/([^/]+)\/datasets\/records\/$/, 'record'],
	['POST', /^\/projects\/([^/]+)\/annotations\/labels\/$/, 'labels'],
	['POST', /^\/projects\/([^/]+)\/annotations\/$/, 'annotations'],
];

export function matchCall(method: string | undefined, path: string): CallRoute | undefined {
	for (const [routeMethod, pattern, call] of ROUTES) {
		const match = method === routeMethod ? pattern.exec(path) : null;
		if (match) return { call, projectId: match[1] === undefined ? undefined : safeDecode(match[1]) };
	}
	return undefined;
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

export interface CallAnswer {
	status: number;
	body: unknown;
}

const FORMAT_OF = { 'image/jpeg': 'jpeg', 'image/png': 'png' } as const;
/** How far a box may stick out of the image (rounding of scaled boxes). */
const BOX_TOLERANCE_PX = 0.5;

const batchSchema = z.object({ name: z.string().min(1) });
const uploadSchema = z.object({ name: z.string().min(1), content_type: z.enum(UPLOAD_CONTENT_TYPES) });
const pixels = z.number().int().positive();
const recordSchema = z.object({
	name: z.string().min(1),
	batchId: z.string(),
	height: pixels,
	width: pixels,
	contentType: z.enum(UPLOAD_CONTENT_TYPES),
	size: pixels,
	source: z.string(),
});
const labelsSchema = z.array(z.object({ name: z.string().min(1) }));
const annotationsSchema = z.object({ dataset_record_id: z.string(), annotations: z.array(z.unknown()) });
const metadataSchema = z.object({ image: z.object({ width: pixels, height: pixels }).strict() }).strict();
const boxSchema = z
	.object({
		annotation: z
			.object({
				category: z.literal('bounding_box'),
				left: z.number().finite(),
				top: z.number().finite(),
				width: z.number().finite().positive(),
				height: z.number().finite().positive(),
				metadata: metadataSchema,
			})
			.strict(),
		label_id: z.string(),
	})
	.strict();
const categorySchema = z
	.object({ annotation: z.object({ category: z.literal('category'), metadata: metadataSchema }).strict(), label_id: z.string() })
	.strict();
const BODY_SCHEMAS: Record<ProjectCall, z.ZodTypeAny | undefined> = {
	project: undefined,
	batch: batchSchema,
	upload: uploadSchema,
	record: recordSchema,
	labels: labelsSchema,
	annotations: annotationsSchema,
};
const ANNOTATION_CATEGORY = { object_detection: 'bounding_box', classification: 'category' } as const;

const notFound: CallAnswer = { status: 404, body: { detail: 'Not Found' } };
const refused = (pointer: string, type: string, message: string): CallAnswer => ({
	status: 400,
	body: badRequest([{ location: 'body', type, pointer, message }]),
});
const invalid = (error: z.ZodError, under = ''): ErrorBody =>
	badRequest(bodyIssues(error).map((detail): ErrorDetail => ({ ...detail, pointer: `${under}${detail.pointer === '/' && under ? '' : detail.pointer}` })));

export class Projects {
	private readonly projects = new Map<string, ProjectState>();

	constructor(private readonly storage: Storage) {}

	add(projectType: ProjectType, options: { id?: string; name?: string } = {}): string {
		const id = options.id ?? randomUUID();
		if (this.projects.has(id)) throw new Error(`project ${id} exists already`);
		const name = options.name ?? `Reference ${projectType === 'object_detection' ? 'detection' : 'classification'} project`;
		this.projects.set(id, { id, name, workspaceId: WORKSPACE_ID, projectType, batches: [], labels: [], records: [] });
		return id;
	}

	/** A copy of what the project holds. */
	state(id: string): ProjectState | undefined {
		const project = this.projects.get(id);
		return project && structuredClone(project);
	}

	/** The answer to a call whose key was accepted: the body is validated first, then the project looked up. */
	answer(route: CallRoute, body: unknown): CallAnswer {
		const parsed = BODY_SCHEMAS[route.call]?.safeParse(body);
		if (parsed && !parsed.success) return { status: 400, body: invalid(parsed.error) };
		if (route.call === 'upload') {
			const { name, content_type } = parsed!.data as z.infer<typeof uploadSchema>;
			return { status: 201, body: this.storage.presign(name, content_type) };
		}
		const project = this.projects.get(route.projectId ?? '');
		if (!project) return notFound;
		switch (route.call) {
			case 'project':
				return { status: 200, body: { id: project.id, name: project.name, workspaceId: project.workspaceId, projectType: project.projectType } };
			case 'batch': {
				const batch = { id: randomUUID(), name: (parsed!.data as z.infer<typeof batchSchema>).name };
				project.batches.push(batch);
				return { status: 201, body: { ...batch, projectId: project.id } };
			}
			case 'record':
				return this.createRecord(project, parsed!.data as z.infer<typeof recordSchema>);
			case 'labels':
				return { status: 201, body: (parsed!.data as z.infer<typeof labelsSchema>).map(({ name }) => this.label(project, name)) };
			case 'annotations':
				return this.annotate(project, parsed!.data as z.infer<typeof annotationsSchema>);
			default:
				throw new Error(`no call ${route.call}`);
		}
	}

	private createRecord(project: ProjectState, body: z.infer<typeof recordSchema>): CallAnswer {
		if (!project.batches.some((batch) => batch.id === body.batchId)) {
			return refused('/batchId', 'value_error.batch', `batch ${body.batchId} is not a batch of project ${project.id}`);
		}
		const upload = this.storage.upload(body.source);
		if (!upload) return refused('/source', 'value_error.source', `source ${body.source} is not a uri handed out by POST /upload/`);
		if (!upload.stored) return refused('/source', 'value_error.source', `nothing was PUT to the upload URL of ${body.source}`);
		const { bytes, contentType } = upload.stored;
		if (body.size !== bytes.length) return refused('/size', 'value_error.size', `size ${body.size} is not the ${bytes.length} bytes uploaded`);
		if (body.contentType !== contentType) {
			return refused('/contentType', 'value_error.content_type', `contentType ${body.contentType} is not the ${contentType} uploaded`);
		}
		const image = sniffFormat(bytes) === FORMAT_OF[body.contentType] ? readImageSize(bytes) : undefined;
		if (!image) return refused('/source', 'value_error.image', `the bytes uploaded to ${body.source} are not a ${body.contentType} image`);
		for (const side of ['width', 'height'] as const) {
			if (body[side] !== image[side]) {
				const actual = `${image[side]} px (it is ${image.width} × ${image.height})`;
				return refused(`/${side}`, `value_error.${side}`, `${side} ${body[side]} is not the uploaded image's ${actual}`);
			}
		}
		const record: ProjectRecord = { id: randomUUID(), ...body, sha256: sha256(bytes), annotations: [] };
		project.records.push(record);
		const { sha256: _fingerprint, annotations, ...answer } = record;
		return { status: 201, body: { ...answer, annotations: [...annotations] } };
	}

	/** A name already in the project keeps its id; names are compared as written. */
	private label(project: ProjectState, name: string): { id: string; name: string } {
		let label = project.labels.find((known) => known.name === name);
		if (!label) {
			label = { id: randomUUID(), name };
			project.labels.push(label);
		}
		return { ...label };
	}

	/** All or nothing: one refused annotation refuses the call, and none is stored. */
	private annotate(project: ProjectState, body: z.infer<typeof annotationsSchema>): CallAnswer {
		const record = project.records.find((candidate) => candidate.id === body.dataset_record_id);
		if (!record) return refused('/dataset_record_id', 'value_error.record', `record ${body.dataset_record_id} is not a record of project ${project.id}`);
		const category = ANNOTATION_CATEGORY[project.projectType];
		const accepted: ReceivedAnnotation[] = [];
		for (const [index, annotation] of body.annotations.entries()) {
			const at = `/annotations/${index}`;
			const given = (annotation as { annotation?: { category?: unknown } } | null)?.annotation?.category;
			if (given !== category) {
				const takes = `project ${project.id} (${project.projectType}) takes only ${category} annotations`;
				return refused(`${at}/annotation/category`, 'value_error.category', `${takes}, not ${JSON.stringify(given) ?? 'none'}`);
			}
			const parsed = (category === 'bounding_box' ? boxSchema : categorySchema).safeParse(annotation);
			if (!parsed.success) return { status: 400, body: invalid(parsed.error, at) };
			const { annotation: shape, label_id } = parsed.data;
			if (!project.labels.some((label) => label.id === label_id)) {
				return refused(`${at}/label_id`, 'value_error.label', `label ${label_id} is not a label of project ${project.id}`);
			}
			const { width, height } = shape.metadata.image;
			if (width !== record.width || height !== record.height) {
				const message = `metadata.image ${width} × ${height} is not the record's ${record.width} × ${record.height}`;
				return refused(`${at}/annotation/metadata/image`, 'value_error.metadata', message);
			}
			if (shape.category === 'bounding_box') {
				const outside =
					shape.left < -BOX_TOLERANCE_PX ||
					shape.top < -BOX_TOLERANCE_PX ||
					shape.left + shape.width > record.width + BOX_TOLERANCE_PX ||
					shape.top + shape.height > record.height + BOX_TOLERANCE_PX;
				if (outside) {
					const box = `left ${shape.left}, top ${shape.top}, width ${shape.width}, height ${shape.height}`;
					return refused(`${at}/annotation`, 'value_error.box', `the box (${box}) is not inside the ${record.width} × ${record.height} image`);
				}
			}
			accepted.push(parsed.data);
		}
		record.annotations.push(...accepted);
		return { status: 201, body: accepted.map(() => ({ id: randomUUID() })) };
	}
}
