import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { DetectedObject } from '../contract';
import { truncate } from '../parameters/readers';
import type { TrackingResult } from '../pipeline/tracking';
import type { FailureFields } from './failureItem';
import { failureFields, toolFailure } from './failureItem';

/**
 * What an AI Agent gets back when the node runs as its tool: compact JSON the model can reason
 * about, bounded in size whatever the image holds. No binary (the annotated image stays out: an
 * agent cannot look at it, and n8n would only drop it) and no base64.
 */

/** The most detections a tool result lists; the rest are counted, not listed. */
export const MAX_TOOL_DETECTIONS = 25;
/** The most labels a tool result counts by name; the rest are summed up as one number. */
export const MAX_TOOL_LABELS = 25;
/** The most stays over their limit, and the most departures, a tool result lists (Track Objects Across Looks). */
export const MAX_TOOL_STAYS = 10;
/** The most classification predictions a tool result lists. */
export const MAX_TOOL_PREDICTIONS = 10;
/** Labels and categories longer than this are cut (a service could send any text). */
export const MAX_TOOL_LABEL_LENGTH = 64;
/** No tool result item is longer than this as JSON (characters). */
export const MAX_TOOL_RESULT_CHARS = 4096;

/** Whether this execution is an AI Agent's tool call (n8n runs the `…Tool` variant of the node). */
export function runsAsTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool') || context.isToolExecution?.() === true;
}

/**
 * Runs the node for an agent: its output made compact. On Error as the editor shows it decides a
 * failure: Stop Workflow (also what the editor shows when nothing is stored) throws it, as any
 * node does; either Continue setting returns it to the agent as `{error, description, status}`.
 */
export async function runAsTool(
	context: IExecuteFunctions,
	run: () => Promise<INodeExecutionData[][]>,
): Promise<INodeExecutionData[][]> {
	if (!returnsErrorsToAgent(context.getNode().onError)) return toToolOutput(await run());
	try {
		return toToolOutput(await run());
	} catch (error) {
		const itemIndex = (error as { context?: { itemIndex?: number } }).context?.itemIndex ?? 0;
		return [[{ json: toolFailure(failureFields(error)), pairedItem: { item: itemIndex } }]];
	}
}

/** Whether On Error is one of the Continue settings (n8n's editor shows Stop Workflow for none). */
function returnsErrorsToAgent(onError: string | undefined): boolean {
	return onError === 'continueRegularOutput' || onError === 'continueErrorOutput';
}

/** The node's output as an agent gets it: every item compact, json only, pairing kept. */
function toToolOutput(output: INodeExecutionData[][]): INodeExecutionData[][] {
	return output.map((items) =>
		items.map((item) => ({ json: compactForTool(item.json), pairedItem: item.pairedItem })),
	);
}

/** One item's json made compact: an error item, an upload, a detection result or a classification (the node outputs no other kind). */
function compactForTool(json: IDataObject): IDataObject {
	if (json.error && typeof json.error === 'object') return toolFailure(json.error as unknown as FailureFields);
	// an upload: what it created, and nothing else an item could carry
	if (json.upload && typeof json.upload === 'object') return { upload: json.upload };
	return Array.isArray(json.detections) ? compactDetections(json) : compactClassification(json);
}

function compactDetections(json: IDataObject): IDataObject {
	const all = (json.detections as DetectedObject[])
		.map((detection) => ({
			label: truncate(String(detection.label), MAX_TOOL_LABEL_LENGTH),
			confidence: round(detection.confidence),
			x: round(detection.x),
			y: round(detection.y),
			width: round(detection.width),
			height: round(detection.height),
		}))
		.sort((a, b) => b.confidence - a.confidence);
	const counts = mostFirst(json.countsByLabel as Record<string, number>);
	const listedCounts = listedLabelCounts(counts);
	const otherLabels = counts.slice(MAX_TOOL_LABELS);
	const zones = compactZoneCounts(json.countsByZone as Record<string, Record<string, number>> | undefined);
	const stays = compactStays(json.tracking as TrackingResult | undefined);

	const build = (listed: number, zonesListed: number, staysListed: number): IDataObject => ({
		totalDetections: all.length,
		countsByLabel: listedCounts,
		...(otherLabels.length
			? { otherLabels: { labels: otherLabels.length, detections: otherLabels.reduce((sum, [, count]) => sum + count, 0) } }
			: {}),
		...(zones ? { countsByZone: Object.fromEntries(zones.slice(0, zonesListed)) } : {}),
		...(zones && zonesListed < zones.length ? { zonesNotListed: zones.length - zonesListed } : {}),
		detections: all.slice(0, listed),
		detectionsNotListed: all.length - listed,
		...(stays
			? {
					overstays: stays.overstays.slice(0, staysListed),
					departed: stays.departed.slice(0, staysListed),
					staysNotListed: Math.max(0, stays.overstays.length - staysListed) + Math.max(0, stays.departed.length - staysListed),
				}
			: {}),
	});
	let listed = Math.min(all.length, MAX_TOOL_DETECTIONS);
	let zonesListed = zones?.length ?? 0;
	let staysListed = Math.min(Math.max(stays?.overstays.length ?? 0, stays?.departed.length ?? 0), MAX_TOOL_STAYS);
	let result = build(listed, zonesListed, staysListed);
	// detections give way first, then stays, then zones: the counts are what an agent is asked about most
	while (listed > 0 && JSON.stringify(result).length > MAX_TOOL_RESULT_CHARS) result = build(--listed, zonesListed, staysListed);
	while (staysListed > 0 && JSON.stringify(result).length > MAX_TOOL_RESULT_CHARS) result = build(listed, zonesListed, --staysListed);
	while (zonesListed > 0 && JSON.stringify(result).length > MAX_TOOL_RESULT_CHARS) result = build(listed, --zonesListed, staysListed);
	return result;
}

/** Track Objects Across Looks' stays over their limit and departures, in minutes, names cut; undefined without tracking. */
function compactStays(tracking: TrackingResult | undefined): { overstays: IDataObject[]; departed: IDataObject[] } | undefined {
	if (!tracking) return undefined;
	const minutes = (seconds: number) => Math.round(seconds / 6) / 10;
	const zone = (name: string | null) => (name === null ? null : truncate(name, MAX_TOOL_LABEL_LENGTH));
	return {
		overstays: tracking.overstays.map((stay) => ({
			trackId: stay.trackId,
			label: truncate(stay.label, MAX_TOOL_LABEL_LENGTH),
			zone: zone(stay.zone),
			minutes: minutes(stay.stayedSeconds),
			new: !stay.alreadyReported,
		})),
		departed: tracking.departed.map((departure) => ({
			trackId: departure.trackId,
			label: truncate(departure.label, MAX_TOOL_LABEL_LENGTH),
			minutes: minutes(departure.stayedSeconds),
		})),
	};
}

/** Label counts per zone, names cut, each zone's labels as many as countsByLabel lists at most. */
function compactZoneCounts(value: Record<string, Record<string, number>> | undefined): Array<[string, Record<string, number>]> | undefined {
	if (!value) return undefined;
	return Object.entries(value).map(([zone, counts]) => [
		truncate(zone, MAX_TOOL_LABEL_LENGTH),
		listedLabelCounts(mostFirst(counts)),
	]);
}

/** Label counts, the largest first. */
function mostFirst(counts: Record<string, number>): Array<[string, number]> {
	return Object.entries(counts).sort((a, b) => b[1] - a[1]);
}

/** The first MAX_TOOL_LABELS of sorted counts by name, names cut. */
function listedLabelCounts(sorted: Array<[string, number]>): Record<string, number> {
	return Object.fromEntries(sorted.slice(0, MAX_TOOL_LABELS).map(([label, count]) => [truncate(label, MAX_TOOL_LABEL_LENGTH), count]));
}

function compactClassification(json: IDataObject): IDataObject {
	const predictions = (json.predictions as Array<{ category: string; confidence: number }>)
		.map((prediction) => ({ category: truncate(String(prediction.category), MAX_TOOL_LABEL_LENGTH), confidence: round(prediction.confidence) }))
		.sort((a, b) => b.confidence - a.confidence);
	return {
		// null when no prediction met Minimum Confidence per Label
		category: json.category === null ? null : truncate(String(json.category), MAX_TOOL_LABEL_LENGTH),
		confidence: json.confidence === null ? null : round(json.confidence as number),
		predictions: predictions.slice(0, MAX_TOOL_PREDICTIONS),
		predictionsNotListed: Math.max(0, predictions.length - MAX_TOOL_PREDICTIONS),
	};
}

/** Four decimals are plenty for a confidence or a coordinate, and keep the JSON short. */
function round(value: number): number {
	return Math.round(value * 10_000) / 10_000;
}
