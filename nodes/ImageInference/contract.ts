/**
 * The service's public interface (the Epigos AI prediction API, interface version 0.1.0) as
 * zod schemas: the one description of requests, results and error bodies, used by the node to
 * check what it sends and receives and by the test reference server to validate requests.
 */
import { z } from 'zod';

export const DEFAULT_BASE_URL = 'https://api.epigos.ai';
export const API_KEY_HEADER = 'X-API-Key';
export const API_KEY_QUERY_PARAMETER = 'api-key';
export const UNAUTHORIZED_MESSAGE = 'Invalid or missing credentials';

/** The base URL as configured, without trailing slashes (the spec's paths start with one). */
export function normalizeBaseUrl(baseUrl: unknown): string {
	const text = typeof baseUrl === 'string' && baseUrl.trim() !== '' ? baseUrl.trim() : DEFAULT_BASE_URL;
	return text.replace(/\/+$/, '');
}

export const PREDICTION_KINDS = ['detect', 'classify'] as const;
export type PredictionKind = (typeof PREDICTION_KINDS)[number];

/** `{base_url}/predict/{kind}/{model_id}/`, trailing slash kept as the service defines it. */
export function predictPath(kind: PredictionKind, modelId: string): string {
	return `/predict/${kind}/${modelId}/`;
}

export const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export const CONFIDENCE_BOUNDS = { min: 0, max: 1 } as const;
export const STROKE_WIDTH_BOUNDS = { min: 1, max: 5 } as const;

const confidence = z.number().min(CONFIDENCE_BOUNDS.min).max(CONFIDENCE_BOUNDS.max);

/** ObjectDetectionIn. Additional properties are disallowed. */
export const detectRequestSchema = z
	.object({
		image: z.string().min(1),
		confidence: confidence.optional(),
		annotate: z.boolean().optional(),
		show_prob: z.boolean().nullable().optional(),
		stroke_width: z.number().min(STROKE_WIDTH_BOUNDS.min).max(STROKE_WIDTH_BOUNDS.max).nullable().optional(),
	})
	.strict();
export type DetectRequest = z.infer<typeof detectRequestSchema>;

/** The classification body: `image` is specified; further fields are not, so none is refused. */
export const classifyRequestSchema = z
	.object({
		image: z.string().min(1),
		confidence: confidence.optional(),
	})
	.passthrough();
export type ClassifyRequest = z.infer<typeof classifyRequestSchema>;

export const detectedObjectSchema = z.object({
	label: z.string(),
	confidence: z.number(),
	x: z.number(),
	y: z.number(),
	width: z.number(),
	height: z.number(),
});
export type DetectedObject = z.infer<typeof detectedObjectSchema>;

export const labelCountSchema = z.object({
	label: z.string(),
	total: z.number(),
});
export type LabelCount = z.infer<typeof labelCountSchema>;

/**
 * ObjectDetectionResult. The spec disallows additional properties, but it is "still in
 * development": the node reads with this (unknown fields are ignored, not fatal) while the
 * reference server holds itself to `.strict()` of it.
 */
export const detectResultSchema = z.object({
	detections: z.array(detectedObjectSchema),
	image: z.string().nullable(),
	labelsCount: z.array(labelCountSchema),
});
export type DetectResult = z.infer<typeof detectResultSchema>;

export const classPredictionSchema = z.object({
	category: z.string(),
	confidence: z.number(),
});

export const classifyResultSchema = z.object({
	category: z.string(),
	confidence: z.number(),
	predictions: z.array(classPredictionSchema),
});
export type ClassifyResult = z.infer<typeof classifyResultSchema>;

export const ERROR_LOCATIONS = ['query', 'body', 'path', 'header'] as const;

export const errorDetailSchema = z.object({
	location: z.enum(ERROR_LOCATIONS),
	type: z.string(),
	pointer: z.string(),
	message: z.string(),
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The error body of 400 (bad_request) and 401 (unauthorized). */
export const errorBodySchema = z.object({
	type: z.literal('error'),
	code: z.string(),
	status: z.number().int(),
	message: z.string(),
	details: z.array(errorDetailSchema),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Zod issues as one line a user can act on: `detections[0].confidence: Expected number, received string`. */
export function describeIssues(error: z.ZodError): string {
	return error.issues
		.map((issue) => {
			const where = issue.path.reduce<string>(
				(acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
				'',
			);
			return `${where || '(body)'}: ${issue.message}`;
		})
		.join('; ');
}
