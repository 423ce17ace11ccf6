import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { asNodeError } from '../../output/failureItem';

import type { ProjectType } from '../../projectContract';
import { PROJECT_TYPES, createdAnswerSchema, labelsAnswerSchema, projectAnswerSchema, projectPaths } from '../../projectContract';
import type { CallSettings } from '../../transport';
import { mayHaveBeenDone, requestServiceCall } from '../../transport';
import type { WantedAnnotations } from './annotations';
import { refusalFor } from './annotations';
import { UploadLedger } from './ledger';

/**
 * What one execution asks of each project once, whichever item asks first and however many ask at
 * once: its type, each batch by name, and the ids of every label the execution's items name (one
 * labels call per project, with all the names). A failed call fails every item that needed it, each
 * as its own item's error.
 */
export class ProjectSession {
	private readonly projects = new Map<string, Promise<ProjectType>>();
	private readonly batches = new Map<string, Promise<string>>();
	private readonly labels = new Map<string, Promise<Map<string, string>>>();
	/** What the execution's uploads put into the projects. */
	readonly ledger = new UploadLedger();

	/**
	 * @param annotationsWanted the annotations of every image of the execution that passed its checks, per project, in item order
	 */
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly serviceUrl: string,
		private readonly annotationsWanted: Map<string, WantedAnnotations[]>,
	) {}

	async projectType(projectId: string, call: CallSettings): Promise<ProjectType> {
		return await once(this.context, this.projects, projectId, call.itemIndex, async () => {
			const { value } = await requestServiceCall.call(this.context, {
				...call,
				method: 'GET',
				url: projectPaths.project(projectId),
				resultSchema: projectAnswerSchema,
				host: this.serviceUrl,
				answeredBy: projectNotFound(projectId),
			});
			const type = Object.values(PROJECT_TYPES).find((known) => known === value.projectType);
			if (!type) {
				throw new NodeOperationError(this.context.getNode(), `Project ${projectId} is of type "${value.projectType}", which the node does not upload to`, {
					itemIndex: call.itemIndex,
					description: 'Upload to Project takes object detection and classification projects.',
				});
			}
			return type;
		});
	}

	async batchId(projectId: string, name: string, call: CallSettings): Promise<string> {
		return await once(this.context, this.batches, JSON.stringify([projectId, name]), call.itemIndex, async () => {
			try {
				const { value } = await postToProject.call(this.context, call, { serviceUrl: this.serviceUrl, projectId }, {
					url: projectPaths.batches(projectId),
					payload: { name },
					resultSchema: createdAnswerSchema,
					creates: true,
				});
				this.ledger.batch(projectId, name, value.id);
				return value.id;
			} catch (error) {
				if (mayHaveBeenDone(error)) this.ledger.batch(projectId, name);
				throw asNodeError(this.context.getNode(), error, call.itemIndex);
			}
		});
	}

	/**
	 * The ids of the project's labels this execution names, created (or found, for names the project
	 * has) in one call. Sent again after a lost answer: a name the project has keeps its id (the SDK
	 * relies on it, creating the labels it names on every upload), so a second call adds nothing.
	 */
	async labelIds(projectId: string, projectType: ProjectType, call: CallSettings): Promise<Map<string, string>> {
		return await once(this.context, this.labels, projectId, call.itemIndex, async () => {
			const names = this.namesFor(projectId, projectType);
			this.ledger.labels(projectId, names);
			const { value } = await postToProject.call(this.context, call, { serviceUrl: this.serviceUrl, projectId }, {
				url: projectPaths.labels(projectId),
				payload: names.map((name) => ({ name })),
				resultSchema: labelsAnswerSchema,
			});
			return new Map(value.map((label: { id: string; name: string }) => [label.name, label.id]));
		});
	}

	/**
	 * For an image without annotations: waits for the project's labels call, when the execution
	 * makes one, whatever its answer (the image needs no label id), so nothing is created in a
	 * project before its labels call is answered, whichever image comes first.
	 */
	async labelsAnswered(projectId: string, projectType: ProjectType, call: CallSettings): Promise<undefined> {
		if (this.namesFor(projectId, projectType).length > 0) await this.labelIds(projectId, projectType, call).catch(() => undefined);
		return undefined;
	}

	/** The label names of the execution's images for a project (startExecution listed every project); an image the project's type refuses gives none. */
	private namesFor(projectId: string, projectType: ProjectType): string[] {
		return labelNames(this.annotationsWanted.get(projectId)!.filter((wanted) => refusalFor(wanted, projectType, projectId) === undefined));
	}
}

/** The label names annotations give, each once, in first-seen order. */
function labelNames(wanted: WantedAnnotations[]): string[] {
	const names = new Set<string>();
	for (const annotations of wanted) {
		if (annotations.source === 'classificationLabel') names.add(annotations.label);
		if (annotations.source === 'detections') for (const box of annotations.boxes) names.add(box.label);
	}
	return [...names];
}

/**
 * A JSON POST to a project's call through the credential. `creates`: the call makes something the
 * service keeps (a batch, a record, annotations), so it is not sent again when it may have been done.
 */
export async function postToProject<TSchema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	call: CallSettings,
	project: { serviceUrl: string; projectId: string },
	request: { url: string; payload: unknown; resultSchema: TSchema; creates?: boolean },
) {
	return await requestServiceCall.call(this, {
		...call,
		method: 'POST',
		url: request.url,
		body: async () => Buffer.from(JSON.stringify(request.payload)),
		resultSchema: request.resultSchema,
		host: project.serviceUrl,
		answeredBy: projectNotFound(project.projectId),
		idempotent: request.creates !== true,
	});
}

/** How a 404 from a project's calls reads. */
export function projectNotFound(projectId: string) {
	return {
		notFound: {
			message: `Project ${projectId} was not found`,
			description: 'Check the Project: its ID is in the project’s link in the dashboard (…/projects/<ID>), and the credential’s API key must belong to the project’s workspace.',
		},
	};
}

/**
 * The one promise for `key`: made by `start` the first time, shared by every later caller. Its
 * failure is each caller's own: an error of the caller's item, with the same message and status.
 */
async function once<T>(context: IExecuteFunctions, promises: Map<string, Promise<T>>, key: string, itemIndex: number, start: () => Promise<T>): Promise<T> {
	let promise = promises.get(key);
	if (!promise) {
		promise = start();
		promises.set(key, promise);
	}
	try {
		return await promise;
	} catch (error) {
		const shown = asNodeError(context.getNode(), error, itemIndex);
		const options = { itemIndex, message: shown.message, description: shown.description ?? undefined };
		if (shown instanceof NodeApiError) throw new NodeApiError(context.getNode(), shown.errorResponse ?? {}, { ...options, httpCode: shown.httpCode ?? undefined });
		throw new NodeOperationError(context.getNode(), shown.message, options);
	}
}
