/**
 * The service's calls that put an image with annotations into a project, as the official Python
 * SDK makes them (epigos-python 2.1.0: epigos/core/project.py, epigos/core/uploader.py). Answers
 * are read as leniently as the SDK reads them: only the fields it reads are required, anything
 * else is let through.
 */
import { z } from 'zod';

export const PROJECT_TYPES = { detection: 'object_detection', classification: 'classification' } as const;
export type ProjectType = (typeof PROJECT_TYPES)[keyof typeof PROJECT_TYPES];

/** The content types the SDK uploads. */
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

/** A project ID as By ID takes it: the dashboard's IDs are UUIDs, but any plain token is let through. */
export const PROJECT_ID_REGEX = '\\s*[A-Za-z0-9][A-Za-z0-9_-]*\\s*';
/** A dashboard link to a project: its ID stands right after `projects/`. One capturing group, for n8n's extractValue. */
export const PROJECT_URL_REGEX = '\\s*(?:https?://)?[^\\s/?#]+[^\\s#]*?/projects/([A-Za-z0-9][A-Za-z0-9_-]*)(?=[/?#]|\\s*$)\\S*\\s*';

export const projectPaths = {
	project: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/`,
	batches: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/batches/`,
	upload: () => '/upload/',
	records: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/datasets/records/`,
	labels: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/annotations/labels/`,
	annotations: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/annotations/`,
};

/** An id the service gives: text, or a number read as text. */
const id = z.union([z.string().min(1), z.number().transform(String)]);

export const projectAnswerSchema = z.object({ projectType: z.string() }).passthrough();
export const createdAnswerSchema = z.object({ id }).passthrough();
export const uploadAnswerSchema = z.object({ uploadUrl: z.string().url(), uri: z.string().min(1) }).passthrough();
export const labelsAnswerSchema = z.array(z.object({ id, name: z.string() }).passthrough());
/** The SDK keeps this answer as the record's annotations without reading into it. */
export const annotationsAnswerSchema = z.unknown();

export interface RecordRequest {
	name: string;
	batchId: string;
	height: number;
	width: number;
	contentType: UploadContentType;
	size: number;
	source: string;
}

/** A box in the uploaded image's pixels, its top-left corner at `left`, `top`. */
export interface PixelBox {
	left: number;
	top: number;
	width: number;
	height: number;
}

export type AnnotationRequest = {
	annotation:
		| ({ category: 'bounding_box'; metadata: { image: { width: number; height: number } } } & PixelBox)
		| { category: 'category'; metadata: { image: { width: number; height: number } } };
	label_id: string;
};
