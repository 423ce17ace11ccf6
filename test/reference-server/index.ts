/**
 * The reference server: a faithful local implementation of the prediction API's contract
 * (nodes/ImageInference/contract.ts validates its requests and its own answers). Its default
 * models run a real pretrained object detector offline (./detector.ts); synthetic colour models
 * stay available under their own ids (./models.ts). The project upload calls (./projects.ts) with
 * their storage on a port of its own (./storage.ts). Programmable faults for tests.
 * Binds 127.0.0.1 only; never keeps a process alive on its own.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';

import { listenOnLoopback } from '../harness/loopback';

import type { ClassifyResult, DetectResult, ErrorDetail, PredictionKind } from '../../nodes/ImageInference/contract';
import {
	API_KEY_HEADER,
	API_KEY_QUERY_PARAMETER,
	UNAUTHORIZED_MESSAGE,
	classifyRequestSchema,
	classifyResultSchema,
	detectRequestSchema,
	detectResultSchema,
} from '../../nodes/ImageInference/contract';
import type { FaultRule } from './faults';
import { FaultRegistry, sendFault, sha256 } from './faults';
import type { Detector } from './detector';
import { loadDetector } from './detector';
import type { DecodedImage } from './image-codec';
import { ImageDecodeError, decodeImage } from './image-codec';
import type { DefaultModels, HostedModel, ModelDescription } from './models';
import { MODEL_IDS, createModels, defaultModelIds, describeModel } from './models';
import type { ClassifyOptions, DetectOptions } from './predict';
import { decodeBase64 } from '../../nodes/ImageInference/input/base64';
import type { CallRoute, ProjectCall, ProjectState, ProjectType } from './projects';
import { Projects, matchCall } from './projects';
import type { Storage, StorageRequest } from './storage';
import { startStorage } from './storage';
import { badRequest, bodyIssues, imageDetail } from './validation';

export type { FaultAction, FaultCall, FaultRule } from './faults';
export { sha256 } from './faults';
export type { DefaultModels, ModelDescription } from './models';
export { MODEL_IDS } from './models';
export type { ProjectCall, ProjectRecord, ProjectState, ProjectType, ReceivedAnnotation } from './projects';
export { PROJECT_IDS } from './projects';
export type { StorageRequest } from './storage';

export interface ReferenceServerOptions {
	apiKey?: string;
	port?: number;
	latencyMs?: number;
	/**
	 * The models that answer as `models.detect` / `models.classify`: the real CenterNet pair
	 * (default), or the synthetic colour models for tests where predictions only add time.
	 */
	defaultModels?: DefaultModels;
	/**
	 * Load the object detector before answering (default: when the defaults are CenterNet's;
	 * `predict()` with a CenterNet model needs it). Otherwise it loads on the first request that
	 * needs it, and a server that only serves the synthetic models never loads it.
	 */
	preloadDetector?: boolean;
	/**
	 * `full` (default): every documented field. `sparse`: the shapes the official SDKs' tests and
	 * the docs show: detect without `labelsCount`, and without `image` when nothing was drawn;
	 * classify without `predictions`.
	 */
	answerShape?: AnswerShape;
}

export type AnswerShape = 'full' | 'sparse';

export interface RecordedRequest {
	method: string;
	path: string;
	/** Which project upload call it was (absent for predictions and unknown paths). */
	call?: ProjectCall;
	kind?: PredictionKind;
	modelId?: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status: number;
	at: number;
	/** When the answer was sent (absent for faults that never answer in full). */
	answeredAt?: number;
	/** How many requests were open on the server when this one arrived, itself included. */
	openOnArrival: number;
}

export interface ReferenceServer {
	url: string;
	apiKey: string;
	/** Every hosted model's id; `detect` and `classify` are this server's defaults (see defaultModels). */
	models: { detect: string; classify: string } & typeof MODEL_IDS;
	/** Every hosted model: id, kind, name and what it is. */
	catalogue: ModelDescription[];
	/** Another id for the default model of that kind (answers the same; faults can target it alone). */
	registerModel(kind: PredictionKind, id?: string): string;
	setLatency(ms: number): void;
	/**
	 * Holds every prediction's answer until `count` requests are open at once, so a test can see a
	 * client's concurrency however slowly the client prepares its requests. Held answers go out once
	 * that many are open, or after `boundMs` from the first held one (so a client that never opens
	 * that many is answered, and the test sees how many it did open). One use: later requests are
	 * not held.
	 */
	holdAnswersUntilOpen(count: number, boundMs: number): void;
	/** Answers any held answers now and holds no more. */
	stopHoldingAnswers(): void;
	/** Resolves once this many more requests have arrived, counting from the call. */
	whenRequests(count: number): Promise<void>;
	setAnswerShape(shape: AnswerShape): void;
	addFault(rule: FaultRule): void;
	clearFaults(): void;
	/** How often each fault rule fired, in the order added. */
	faultsFired(): number[];
	/** Serves the image at a URL of its own; `path` (as written, e.g. "photos/front%20door.jpg") ends the URL. */
	hostImage(bytes: Buffer, contentType: string, path?: string): string;
	/** Creates a project for the upload calls; its id (a random UUID unless given). */
	addProject(type: ProjectType, options?: { id?: string; name?: string }): string;
	/** A copy of what a project holds: its batches, labels, and records with their annotations. */
	projects(id: string): ProjectState | undefined;
	/** The storage the upload URLs point to: a server of its own, without API key; every request it got, and what was stored for an `s3://` uri. */
	storage: { url: string; requests: StorageRequest[]; upload: Storage['upload'] };
	requests: RecordedRequest[];
	/**
	 * What the server answers for these image bytes and options (a copy), by the default model of
	 * the kind or the model given. Synchronous: the detector is loaded at start (preloadDetector).
	 */
	predict(kind: 'detect', bytes: Buffer, options: DetectOptions, modelId?: string): DetectResult;
	predict(kind: 'classify', bytes: Buffer, options: ClassifyOptions, modelId?: string): ClassifyResult;
	predict(kind: PredictionKind, bytes: Buffer, options: DetectOptions | ClassifyOptions, modelId?: string): DetectResult | ClassifyResult;
	/** How long loading the detector took (ms), once loaded. */
	detectorLoadMs(): number | undefined;
	close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREDICT_PATH = /^\/predict\/(detect|classify)\/([^/]+)\/$/;
const IMAGE_PATH = /^\/_test\/images\/([0-9a-f-]+)(?:\/.*)?$/;
const MAX_BODY_BYTES = 200 * 1024 * 1024;
const MAX_RECORDED = 5_000;
const DECODE_CACHE_SIZE = 32;
/** Decoded rasters are big (a 25 MB PNG is ~35 MB of RGBA): the cache also stays under this many bytes. */
const DECODE_CACHE_BYTES = 512 * 1024 * 1024;

class HttpAnswer {
	constructor(
		readonly status: number,
		readonly body: unknown,
	) {}
}

/** Serialized results, so a repeated prediction costs no re-serialization of its image. */
const serialized = new WeakMap<object, string>();

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
	let text = typeof body === 'object' && body !== null ? serialized.get(body) : undefined;
	if (text === undefined) {
		text = JSON.stringify(body);
		if (typeof body === 'object' && body !== null) serialized.set(body, text);
	}
	response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
	response.end(text);
};

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
	const apiKey = options.apiKey ?? `ref-${randomUUID()}`;
	const defaultModels = options.defaultModels ?? 'centernet';
	const defaults = defaultModelIds(defaultModels);
	let detector: Detector | undefined;
	const detectorReady = async () => {
		detector ??= await loadDetector();
	};
	if (options.preloadDetector ?? defaultModels === 'centernet') await detectorReady();
	const hosted = createModels(() => {
		if (!detector) throw new Error('the object detector is not loaded yet');
		return detector;
	});
	const catalogue = [...hosted.values()].map(describeModel);
	const models = new Map<string, HostedModel>(hosted);
	const faults = new FaultRegistry();
	const storage = await startStorage(faults);
	const projects = new Projects(storage);
	const hostedImages = new Map<string, { bytes: Buffer; contentType: string }>();
	const decoded = new Map<string, DecodedImage>();
	let decodedBytes = 0;
	const requests: RecordedRequest[] = [];
	let arrived = 0;
	let open = 0;
	const arrivalWaiters: Array<{ count: number; resolve: () => void }> = [];
	let latencyMs = options.latencyMs ?? 0;
	let gate: { count: number; boundMs: number; release: () => void; released: Promise<void>; timer?: NodeJS.Timeout } | undefined;
	const openGate = () => {
		if (!gate) return;
		clearTimeout(gate.timer);
		gate.release();
		gate = undefined;
	};
	const heldByGate = async (): Promise<void> => {
		if (!gate) return;
		if (open >= gate.count) return openGate();
		gate.timer ??= setTimeout(openGate, gate.boundMs).unref();
		await gate.released;
	};
	let answerShape: AnswerShape = options.answerShape ?? 'full';

	const decodeCached = (bytes: Buffer, key = sha256(bytes)): DecodedImage => {
		const hit = decoded.get(key);
		if (hit) return hit;
		const image = decodeImage(bytes);
		decoded.set(key, image);
		decodedBytes += image.data.length;
		while (decoded.size > 1 && (decoded.size > DECODE_CACHE_SIZE || decodedBytes > DECODE_CACHE_BYTES)) {
			const oldest = decoded.keys().next().value!;
			decodedBytes -= decoded.get(oldest)!.data.length;
			decoded.delete(oldest);
		}
		return image;
	};

	/**
	 * Predictions are pure functions of model, image and options: cached by the image's hash and
	 * the options that change the answer, so a repeated image costs neither inference nor drawing.
	 */
	const results = new Map<string, DetectResult | ClassifyResult>();
	function predict(model: HostedModel, bytes: Buffer, opts: DetectOptions | ClassifyOptions): DetectResult | ClassifyResult {
		const { confidence, annotate, show_prob, stroke_width } = opts as DetectOptions;
		const fingerprint = sha256(bytes);
		const key = `${model.id}:${fingerprint}:${JSON.stringify(model.kind === 'detect' ? [confidence, annotate, show_prob, stroke_width] : [confidence])}`;
		const hit = results.get(key);
		if (hit) return hit;
		const input = { sha256: fingerprint, decoded: () => decodeCached(bytes, fingerprint) };
		const result =
			model.kind === 'detect'
				? detectResultSchema.strict().parse(model.detect(input, opts as DetectOptions))
				: classifyResultSchema.strict().parse(model.classify(input, opts as ClassifyOptions));
		results.set(key, result);
		if (results.size > DECODE_CACHE_SIZE) results.delete(results.keys().next().value!);
		return result;
	}

	function modelFor(kind: PredictionKind, modelId: string = defaults[kind]): HostedModel {
		const model = models.get(modelId.toLowerCase());
		if (!model || model.kind !== kind) throw new Error(`no ${kind} model ${modelId}`);
		return model;
	}

	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			if (response.headersSent) return void response.destroy();
			if (error instanceof HttpAnswer) return json(response, error.status, error.body);
			json(response, 500, { detail: `reference server error: ${error instanceof Error ? error.message : String(error)}` });
		});
	});
	// Node's default of 5 s is shorter than the pause between two tests on a loaded machine: a
	// client reusing a connection the server was closing has its request reset (and retried).
	server.keepAliveTimeout = 65_000;

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const image = IMAGE_PATH.exec(url.pathname);
		if (request.method === 'GET' && image) {
			const file = hostedImages.get(image[1]);
			if (!file) return json(response, 404, { detail: 'Not Found' });
			response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length });
			return void response.end(file.bytes);
		}

		const route = PREDICT_PATH.exec(url.pathname);
		const callRoute = route ? undefined : matchCall(request.method, url.pathname);
		const record: RecordedRequest = {
			method: request.method ?? '',
			path: url.pathname,
			call: callRoute?.call,
			kind: route?.[1] as PredictionKind | undefined,
			modelId: route?.[2],
			query: Object.fromEntries(url.searchParams),
			headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
			body: undefined,
			status: 0,
			at: Date.now(),
			openOnArrival: ++open,
		};
		response.once('close', () => open--);
		if (requests.length >= MAX_RECORDED) requests.shift();
		requests.push(record);
		arrived++;
		for (const waiter of arrivalWaiters.filter(({ count }) => count <= arrived)) {
			arrivalWaiters.splice(arrivalWaiters.indexOf(waiter), 1);
			waiter.resolve();
		}
		const answer = (status: number, body: unknown, headers?: Record<string, string>) => {
			record.status = status;
			record.answeredAt = Date.now();
			json(response, status, body, headers);
		};

		if (!callRoute && (!route || request.method !== 'POST')) return answer(404, { detail: 'Not Found' });

		const headerKey = request.headers[API_KEY_HEADER.toLowerCase()];
		const queryKey = url.searchParams.get(API_KEY_QUERY_PARAMETER);
		if (headerKey !== apiKey && queryKey !== apiKey) {
			request.resume();
			return answer(401, { type: 'error', code: 'unauthorized', status: 401, message: UNAUTHORIZED_MESSAGE, details: [] });
		}

		const raw = await readBody(request).catch((error: unknown) => error);
		if (raw instanceof HttpAnswer) return answer(raw.status, raw.body);
		if (!Buffer.isBuffer(raw)) throw raw;
		let body: unknown;
		let bodyError: ErrorDetail | undefined;
		if (raw.length === 0) {
			bodyError = { location: 'body', type: 'value_error.missing', pointer: callRoute ? '/' : '/image', message: 'field required' };
		} else {
			try {
				body = JSON.parse(raw.toString('utf8'));
			} catch {
				bodyError = { location: 'body', type: 'value_error.jsondecode', pointer: '/', message: 'Expecting value: the body is not valid JSON' };
			}
		}
		record.body = body ?? raw.toString('utf8').slice(0, 200);
		if (callRoute) return projectCall(callRoute, body, bodyError, response, record, answer);
		const kind = route![1] as PredictionKind;
		const modelId = route![2];

		const imageField = (body as { image?: unknown } | undefined)?.image;
		const fingerprint = typeof imageField === 'string' && faults.matchesOnImage() ? imageFingerprint(imageField) : undefined;
		const fault = faults.take({ kind, modelId, imageSha256: fingerprint });
		if (fault?.type === 'delay') await delay(fault.ms);
		await heldByGate();
		if (latencyMs > 0) await delay(latencyMs);
		if (fault && fault.type !== 'delay' && fault.type !== 'bad-annotated-image' && fault.type !== 'extra-field') {
			return sendFault(fault, response, record);
		}

		try {
			const result = await predictRequest(kind, modelId, body, bodyError);
			if (fault?.type === 'bad-annotated-image' && 'detections' in result) {
				return answer(200, { ...result, image: '%%% this is not base64 %%%' });
			}
			if (fault?.type === 'extra-field') return answer(200, { ...result, modelVersion: '2026.11' });
			return answer(200, answerShape === 'sparse' ? sparse(result) : result);
		} catch (error) {
			if (error instanceof HttpAnswer) return answer(error.status, error.body);
			throw error;
		}
	}

	async function predictRequest(kind: PredictionKind, modelId: string, body: unknown, bodyError?: ErrorDetail) {
		if (kind === 'detect' && !UUID.test(modelId)) {
			throw new HttpAnswer(400, badRequest([{ location: 'path', type: 'type_error.uuid', pointer: 'model_id', message: 'value is not a valid uuid' }]));
		}
		// the body is validated before the model is looked up, as a web framework validates a request
		// before its handler runs: a body without an image is a 400 whatever the model
		if (bodyError) throw new HttpAnswer(400, badRequest([bodyError]));
		const schema = kind === 'detect' ? detectRequestSchema : classifyRequestSchema;
		const parsed = schema.safeParse(kind === 'detect' ? withSnakeCaseOptions(body) : body);
		if (!parsed.success) throw new HttpAnswer(400, badRequest(bodyIssues(parsed.error)));
		const model = models.get(modelId.toLowerCase());
		if (model?.kind !== kind) throw new HttpAnswer(404, { detail: 'Not Found' });
		const bytes = await loadImage(parsed.data.image);
		if (model.usesDetector) await detectorReady();
		try {
			return predict(model, bytes, parsed.data as DetectOptions);
		} catch (error) {
			if (error instanceof ImageDecodeError) throw new HttpAnswer(400, badRequest([imageDetail(error.message)]));
			throw error;
		}
	}

	async function projectCall(
		callRoute: CallRoute,
		body: unknown,
		bodyError: ErrorDetail | undefined,
		response: ServerResponse,
		record: RecordedRequest,
		answer: (status: number, body: unknown) => void,
	): Promise<void> {
		const fault = faults.take({ call: callRoute.call });
		if (fault?.type === 'delay') await delay(fault.ms);
		if (latencyMs > 0) await delay(latencyMs);
		if (fault && fault.type !== 'delay') return sendFault(fault, response, record);
		// a GET has no body to refuse
		if (bodyError && callRoute.call !== 'project') return answer(400, badRequest([bodyError]));
		const result = projects.answer(callRoute, body);
		answer(result.status, result.body);
	}

	async function loadImage(image: string): Promise<Buffer> {
		if (/^https?:\/\//i.test(image)) {
			let url: URL;
			try {
				url = new URL(image);
			} catch {
				throw new HttpAnswer(400, badRequest([imageDetail('invalid image URL', 'value_error.url')]));
			}
			if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && !url.hostname.startsWith('127.')) {
				throw new HttpAnswer(400, badRequest([imageDetail(`could not download the image from ${url.host}`, 'value_error.url.unreachable')]));
			}
			const downloaded = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
			if (!downloaded?.ok) {
				throw new HttpAnswer(400, badRequest([imageDetail(`could not download the image (${downloaded?.status ?? 'no answer'})`, 'value_error.url.unreachable')]));
			}
			return Buffer.from(await downloaded.arrayBuffer());
		}
		const bytes = decodeBase64(image);
		if (!bytes) throw new HttpAnswer(400, badRequest([imageDetail('image is neither a valid URL nor valid base64', 'value_error.base64')]));
		return bytes;
	}

	const listening = await listenOnLoopback(server, options.port ?? 0);
	const { url } = listening;

	return {
		url,
		apiKey,
		models: { ...defaults, ...MODEL_IDS },
		catalogue,
		registerModel(kind, id = randomUUID()) {
			models.set(id.toLowerCase(), modelFor(kind));
			return id;
		},
		setAnswerShape: (shape) => {
			answerShape = shape;
		},
		setLatency: (ms) => {
			latencyMs = ms;
		},
		holdAnswersUntilOpen: (count, boundMs) => {
			openGate();
			let release = () => {};
			const released = new Promise<void>((resolve) => (release = resolve));
			gate = { count, boundMs, release, released };
		},
		stopHoldingAnswers: openGate,
		whenRequests: (count) =>
			count <= 0 ? Promise.resolve() : new Promise<void>((resolve) => arrivalWaiters.push({ count: arrived + count, resolve })),
		addFault: (rule) => faults.add(rule),
		clearFaults: () => faults.clear(),
		faultsFired: () => faults.firedCounts(),
		hostImage(bytes, contentType, path) {
			const id = randomUUID();
			hostedImages.set(id, { bytes, contentType });
			return `${url}/_test/images/${id}${path === undefined ? '' : `/${path}`}`;
		},
		addProject: (type, opts) => projects.add(type, opts),
		projects: (id) => projects.state(id),
		storage: { url: storage.url, requests: storage.requests, upload: (uri: string) => storage.upload(uri) },
		requests,
		// A copy: the cached result is also what the server answers (and its serialization is cached).
		predict: ((kind: PredictionKind, bytes: Buffer, opts: DetectOptions | ClassifyOptions, modelId?: string) =>
			structuredClone(predict(modelFor(kind, modelId), bytes, opts))) as ReferenceServer['predict'],
		detectorLoadMs: () => detector?.loadMs,
		close: async () => {
			await Promise.all([listening.close(), storage.close()]);
		},
	};
}

/** A fault's `imageSha256`: of the decoded bytes for base64 images, of the text for URLs. */
function imageFingerprint(image: string): string {
	if (/^https?:\/\//i.test(image)) return sha256(image);
	return sha256(decodeBase64(image) ?? image);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		size += (chunk as Buffer).length;
		// Past the limit the rest is drained, not kept, so the client still gets the 413.
		if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
	}
	if (size > MAX_BODY_BYTES) throw new HttpAnswer(413, { detail: 'Request body too large' });
	return Buffer.concat(chunks);
}

/** An answer in the sparser shapes real clients read: only what the SDKs and docs show. */
function sparse(result: DetectResult | ClassifyResult): object {
	if ('detections' in result) return result.image === null ? { detections: result.detections } : { detections: result.detections, image: result.image };
	return { category: result.category, confidence: result.confidence };
}

/**
 * The official TypeScript SDK sends its drawing options in camelCase (`showProb`, `strokeWidth`,
 * by default on every detect call); the Python SDK and the spec use snake_case. Both are taken,
 * snake_case first; any other unknown field is still refused.
 */
function withSnakeCaseOptions(body: unknown): unknown {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
	const { showProb, strokeWidth, ...rest } = body as Record<string, unknown>;
	return {
		...('showProb' in body && !('show_prob' in body) ? { show_prob: showProb } : {}),
		...('strokeWidth' in body && !('stroke_width' in body) ? { stroke_width: strokeWidth } : {}),
		...rest,
	};
}
