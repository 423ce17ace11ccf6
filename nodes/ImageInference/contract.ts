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

const TRAILING_SLASHES = /\/+$/;

/** The base URL as configured, without trailing slashes (the spec's paths start with one). */
export function normalizeBaseUrl(baseUrl: unknown): string {
	const text = typeof baseUrl === 'string' && baseUrl.trim() !== '' ? baseUrl.trim() : DEFAULT_BASE_URL;
	return text.replace(TRAILING_SLASHES, '');
}

/** The same normalisation as an n8n expression over the credential (for its test request). */
export const BASE_URL_EXPRESSION = `={{$credentials.baseUrl && $credentials.baseUrl.trim() ? $credentials.baseUrl.trim().replace(${TRAILING_SLASHES.toString()}, "") : "${DEFAULT_BASE_URL}"}}`;

export type PredictionKind = 'detect' | 'classify';

/** `{base_url}/predict/{kind}/{model_id}/`, trailing slash kept as the service defines it. */
export function predictPath(kind: PredictionKind, modelId: string): string {
	return `/predict/${kind}/${modelId}/`;
}

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * A model ID as the By ID mode takes it: one UUID and nothing else (spaces around it allowed).
 * Written as text because n8n's editor builds `^…$` around a mode's validation regex.
 */
export const MODEL_ID_REGEX = `\\s*${UUID}\\s*`;

/**
 * A link that names a model (By URL mode): the model's ID is the UUID that stands right after
 * `models/` (or `model/`, the dashboard's link), after `predict/detect/` or `predict/classify/`
 * (the service's own address), or as a query's `model=` or `id=`, and is followed by `/`, `?`,
 * `&`, `#` or the end; other UUIDs in the link (a workspace, a project, a model version after
 * the model) are passed over. Its one capturing group is the ID, as n8n's `extractValue` expects.
 */
export const MODEL_URL_REGEX = `\\s*(?:https?://)?[^\\s/?#]+(?=[^\\s#]*?(?:/models?/|/predict/(?:detect|classify)/|[?&](?:model|id)=)(${UUID})(?=[/?#&]|\\s*$))\\S*\\s*`;
/** The forms MODEL_URL_REGEX reads, as messages list them. */
export const MODEL_URL_FORMS = '…/models/<model ID> (the dashboard), …/predict/detect/<model ID>/ or …/predict/classify/<model ID>/ (the API), or ?model=<model ID>';
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
 * ObjectDetectionResult as the spec documents it. The reference server holds its full answers
 * to `.strict()` of it; the node reads answers with the tolerant `detectAnswerSchema`.
 */
export const detectResultSchema = z.object({
	detections: z.array(detectedObjectSchema),
	image: z.string().nullable(),
	labelsCount: z.array(labelCountSchema),
});
export type DetectResult = z.infer<typeof detectResultSchema>;

/**
 * How the node reads a detection answer: only `detections` is required, as the official SDKs
 * read it (the Python SDK's mocks have no `labelsCount`, and no `image` when not annotated).
 * A missing `labelsCount` is empty: the node counts labels from the detections in any case, and
 * uses the service's list only for their order (countLabels). A missing `image` is no picture.
 * Unknown fields are ignored.
 */
export const detectAnswerSchema = z
	.object({
		detections: z.array(detectedObjectSchema),
		image: z.string().nullable().optional(),
		labelsCount: z.array(labelCountSchema).optional(),
	})
	.transform(
		(answer): DetectResult => ({
			detections: answer.detections,
			image: answer.image ?? null,
			labelsCount: answer.labelsCount ?? [],
		}),
	);

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

/**
 * How the node reads a classification answer: `category` and `confidence` are required (the
 * public docs mark only these); a missing `predictions` is the one prediction given.
 */
export const classifyAnswerSchema = z
	.object({
		category: z.string(),
		confidence: z.number(),
		predictions: z.array(classPredictionSchema).optional(),
	})
	.transform(
		(answer): ClassifyResult => ({
			category: answer.category,
			confidence: answer.confidence,
			predictions: answer.predictions ?? [{ category: answer.category, confidence: answer.confidence }],
		}),
	);

const ERROR_LOCATIONS = ['query', 'body', 'path', 'header'] as const;

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
