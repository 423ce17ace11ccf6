import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { ClassifyResult } from '../contract';
import type { SkippedFile } from '../input/imageInput';
import type { ImageSize } from '../input/imageSize';
import type { LeftOutCounts } from '../pipeline/steps';
import { DETECTION_STEPS } from '../pipeline/steps';

/**
 * Above this many pixels a photo gets a hint to resize it first. The service is sent the file as
 * base64 (4/3 of its bytes) and, for Detect with an annotated image, sends a picture of the same
 * size back; it decodes every pixel, while a vision model looks at the image at a few hundred to
 * about 1,300 pixels a side. A 12-megapixel phone photo (4032 × 3024, a 3–6 MB JPEG) makes a
 * 4–8 MB body each way, seconds on an ordinary uplink; at 1920 pixels on the long side the same
 * photo is about 2.8 megapixels and a few hundred kilobytes. 10 megapixels lets 4K frames
 * (8.3 megapixels) through and catches phone and camera photos.
 */
export const LARGE_IMAGE_PIXELS = 10_000_000;
/** The long side suggested for Edit Image's Resize. */
export const SUGGESTED_LONG_SIDE = 1920;

const MAX_LISTED = 8;

interface ImageNote {
	itemIndex: number;
	position: number;
}

/** The image a hint is about, as the router plans it. */
export interface HintedImage extends ImageNote {
	image: { fileName: string };
	skippedFiles?: SkippedFile[];
}

/**
 * What surprised a run, collected while the images are sent and given to n8n once, after all of
 * them: one hint per kind, naming the items it concerns. A plain successful run collects nothing.
 * Hint texts carry parameter values, counts, file names and sizes, never the credential.
 */
export class ExecutionHints {
	private readonly nothingFound: Array<ImageNote & { confidence?: number }> = [];
	private readonly filtered: Array<ImageNote & { found: number; leftOut: LeftOutCounts; drawnByNode: boolean }> = [];
	private readonly classifyFiltered: Array<ImageNote & { given: number; kept: number; category: 'kept' | 'replaced' | 'none' }> = [];
	private readonly skippedFiles = new Map<number, SkippedFile[]>();
	private readonly largeImages: Array<ImageNote & { fileName: string; size: ImageSize }> = [];
	private readonly firstLooks: Array<ImageNote & { key: string }> = [];
	private readonly unkeptLooks: ImageNote[] = [];
	private readonly warningsWithoutItems: Array<ImageNote & { warnings: string[] }> = [];

	constructor(private readonly keySentAs: unknown) {}

	/** Every image the service answered for: its item's skipped files and its pixel size. */
	image(plan: HintedImage, size: ImageSize | undefined): void {
		if (plan.skippedFiles?.length) this.skippedFiles.set(plan.itemIndex, plan.skippedFiles);
		if (size && size.width * size.height > LARGE_IMAGE_PIXELS) {
			this.largeImages.push({ itemIndex: plan.itemIndex, position: plan.position, fileName: plan.image.fileName, size });
		}
	}

	/** The service found nothing in the image at this threshold (undefined: the model's default). */
	nothing(plan: HintedImage, confidence: number | undefined): void {
		this.nothingFound.push({ itemIndex: plan.itemIndex, position: plan.position, confidence });
	}

	/** The node's own steps left out some of the objects the service found. */
	leftOut(plan: HintedImage, found: number, leftOut: LeftOutCounts, drawnByNode = false): void {
		if (Object.values(leftOut).every((count) => count === 0)) return;
		this.filtered.push({ itemIndex: plan.itemIndex, position: plan.position, found, leftOut, drawnByNode });
	}

	/** Classify's Minimum Confidence per Label left out some of the service's predictions, or its category. */
	predictionsLeftOut(plan: HintedImage, given: ClassifyResult, kept: { category: string | null; predictions: unknown[] }): void {
		const category = kept.category === null ? 'none' : kept.category === given.category ? 'kept' : 'replaced';
		if (kept.predictions.length === given.predictions.length && category === 'kept') return;
		this.classifyFiltered.push({ itemIndex: plan.itemIndex, position: plan.position, given: given.predictions.length, kept: kept.predictions.length, category });
	}

	/**
	 * A look of Compare With Previous Look: a key's first, or one n8n will not keep. n8n saves a
	 * workflow's static data after a run only when its mode is not `manual` (the execution
	 * lifecycle hooks' `isManualMode` test, packages/cli/src/execution-lifecycle/execution-lifecycle-hooks.ts,
	 * in 1.123.81 and 2.41.1), so a manual run's look is gone when the run ends.
	 */
	look(plan: HintedImage, key: string, first: boolean, kept: boolean): void {
		const note = { itemIndex: plan.itemIndex, position: plan.position };
		if (first) this.firstLooks.push({ ...note, key });
		if (!kept) this.unkeptLooks.push(note);
	}

	/** The warnings of an image that gave no output item (One Item per Object without objects): said in a hint, not lost. */
	warningsWithoutItem(plan: HintedImage, warnings: string[]): void {
		if (warnings.length > 0) this.warningsWithoutItems.push({ itemIndex: plan.itemIndex, position: plan.position, warnings });
	}

	list(): NodeExecutionHint[] {
		return [
			this.nothingHint(),
			this.filteredHint(),
			this.classifyFilteredHint(),
			this.skippedHint(),
			this.largeHint(),
			this.firstLookHint(),
			this.unkeptHint(),
			this.warningsWithoutItemsHint(),
			this.keyHint(),
		].filter(
			(hint): hint is NodeExecutionHint => hint !== undefined,
		);
	}

	/**
	 * Gives the hints to n8n's output panel. `addExecutionHints` is in n8n-core's ExecuteContext
	 * (execution-engine/node-execution-context/execute-context.js) in 1.123 and 2.41 alike, and n8n
	 * keeps the hints only when execute() returns; a context without it (another runner) gets none.
	 */
	addTo(context: IExecuteFunctions): void {
		const hints = this.list();
		if (hints.length && typeof context.addExecutionHints === 'function') context.addExecutionHints(...hints);
	}

	private nothingHint(): NodeExecutionHint | undefined {
		if (!this.nothingFound.length) return undefined;
		const byThreshold = new Map<string, number[]>();
		for (const note of sorted(this.nothingFound)) {
			const threshold = note.confidence === undefined ? "the model's default Confidence Threshold (the option is not set)" : `Confidence Threshold ${note.confidence}`;
			byThreshold.set(threshold, [...(byThreshold.get(threshold) ?? []), note.itemIndex]);
		}
		const at = [...byThreshold].map(([threshold, items]) => (byThreshold.size > 1 ? `${threshold} for ${itemList(items)}` : threshold));
		return outputHint(
			`Nothing was detected in ${imageCount(this.nothingFound.length)} (${itemList(this.nothingFound.map((note) => note.itemIndex))}) at ${joinWords(at)}. ` +
				'A lower Confidence Threshold (Options) may find what the model is less sure of.',
		);
	}

	private filteredHint(): NodeExecutionHint | undefined {
		if (!this.filtered.length) return undefined;
		const total = (key: string) => this.filtered.reduce((sum, note) => sum + (note.leftOut[key] ?? 0), 0);
		const byFilter = DETECTION_STEPS.map((step) => [step.name, total(step.key)] as const).filter(([, count]) => count > 0);
		const removed = byFilter.reduce((sum, [, count]) => sum + count, 0);
		const found = this.filtered.reduce((sum, note) => sum + note.found, 0);
		return outputHint(
			`${capitalized(joinWords(byFilter.map(([name]) => name)))} left out ${removed} of the ${found} objects the service found ` +
				`(${itemList(this.filtered.map((note) => note.itemIndex))})` +
				(byFilter.length > 1 ? `: ${byFilter.map(([name, count]) => `${name} ${count}`).join(', ')}` : '') +
				(this.filtered.every((note) => note.drawnByNode)
					? '. Counts, summary and the annotated image (drawn by the node) are of the objects kept.'
					: '. Counts and summary are of the objects kept; the annotated image still shows every object the service drew.'),
		);
	}

	private classifyFilteredHint(): NodeExecutionHint | undefined {
		if (!this.classifyFiltered.length) return undefined;
		const sum = (count: (note: (typeof this.classifyFiltered)[number]) => number) => this.classifyFiltered.reduce((total, note) => total + count(note), 0);
		const itemsWhere = (category: string) => this.classifyFiltered.filter((note) => note.category === category).map((note) => note.itemIndex);
		const replaced = itemsWhere('replaced');
		const none = itemsWhere('none');
		return outputHint(
			`Minimum Confidence per Label left out ${sum((note) => note.given - note.kept)} of the ${sum((note) => note.given)} predictions the service gave ` +
				`(${itemList(this.classifyFiltered.map((note) => note.itemIndex))})` +
				(replaced.length ? `; the service's category was under its minimum, so the category is the most confident prediction kept (${itemList(replaced)})` : '') +
				(none.length ? `; no prediction met its minimum, so category and confidence are null (${itemList(none)})` : '') +
				'.',
		);
	}

	private skippedHint(): NodeExecutionHint | undefined {
		if (!this.skippedFiles.size) return undefined;
		const entries = [...this.skippedFiles].sort(([a], [b]) => a - b);
		const files = entries.flatMap(([itemIndex, skipped]) => skipped.map((file) => ({ itemIndex, file })));
		const listed = files
			.slice(0, MAX_LISTED)
			.map(({ itemIndex, file }) => `${file.fileName ?? 'a file'} (field ${file.field}, item ${itemIndex})`);
		const more = files.length > MAX_LISTED ? ` and ${files.length - MAX_LISTED} more` : '';
		return outputHint(
			`All Images on the Item skipped ${files.length} ${files.length === 1 ? 'file that is' : 'files that are'} not an image: ` +
				`${listed.join(', ')}${more}. Each output item of those items lists them in skippedFiles.`,
		);
	}

	private largeHint(): NodeExecutionHint | undefined {
		if (!this.largeImages.length) return undefined;
		const images = sorted(this.largeImages);
		const listed = images
			.slice(0, MAX_LISTED)
			.map(({ itemIndex, fileName, size }) => `${fileName} in item ${itemIndex}, ${size.width} × ${size.height}`);
		const more = images.length > MAX_LISTED ? ` and ${images.length - MAX_LISTED} more` : '';
		return outputHint(
			`${images.length === 1 ? 'One image is' : `${images.length} images are`} over ${LARGE_IMAGE_PIXELS / 1_000_000} megapixels ` +
				`(${listed.join('; ')}${more}), which makes the service call slow: the whole file is uploaded (and an annotated picture as large comes back). ` +
				`Resize first with n8n's Edit Image node (Operation Resize, Width and Height ${SUGGESTED_LONG_SIDE}, Resize Option Only if Larger).`,
		);
	}

	private firstLookHint(): NodeExecutionHint | undefined {
		if (!this.firstLooks.length) return undefined;
		const keys = [...new Set(sorted(this.firstLooks).map((look) => `"${look.key}"`))];
		const shown = keys.slice(0, MAX_LISTED).concat(keys.length > MAX_LISTED ? [`${keys.length - MAX_LISTED} more`] : []);
		return outputHint(
			`Compare With Previous Look: the first look for Watch Key${keys.length === 1 ? '' : 's'} ${joinWords(shown)} (${itemList(this.firstLooks.map((look) => look.itemIndex))}), ` +
				'so there was nothing to compare with and comparison.changed is false; the next look compares with this one.',
		);
	}

	private unkeptHint(): NodeExecutionHint | undefined {
		if (!this.unkeptLooks.length) return undefined;
		return outputHint(
			`Compare With Previous Look: this is a manual run, and n8n keeps a workflow's static data only for runs of the active workflow, so the looks of ${itemList(this.unkeptLooks.map((look) => look.itemIndex))} were not kept: ` +
				'the next look compares with the last one an active run kept. Activate the workflow to watch the place.',
		);
	}

	private warningsWithoutItemsHint(): NodeExecutionHint | undefined {
		if (!this.warningsWithoutItems.length) return undefined;
		const notes = sorted(this.warningsWithoutItems);
		return {
			type: 'warning',
			location: 'outputPane',
			message:
				`One Item per Object gave no output item for ${imageCount(notes.length)} without objects (Include Images Without Objects is off), so ${notes.length === 1 ? 'its' : 'their'} warnings are given here: ` +
				notes.map((note) => `item ${note.itemIndex}: ${note.warnings.join(' ')}`).join('; '),
		};
	}

	private keyHint(): NodeExecutionHint | undefined {
		if (this.keySentAs !== 'query') return undefined;
		return {
			type: 'warning',
			location: 'outputPane',
			message:
				'The credential sends the API key as a query parameter (Send API Key As), so the key is part of every request URL and may end up in proxy and server logs. Prefer the header unless your network strips it.',
		};
	}
}

function outputHint(message: string): NodeExecutionHint {
	return { type: 'info', location: 'outputPane', message };
}

function sorted<T extends ImageNote>(notes: T[]): T[] {
	return [...notes].sort((a, b) => a.itemIndex - b.itemIndex || a.position - b.position);
}

function imageCount(count: number): string {
	return count === 1 ? '1 image' : `${count} images`;
}

/** "item 0", "items 0 and 2", "items 0, 1, … 7 and 4 more": each item once, in order. */
export function itemList(itemIndexes: number[]): string {
	const items = [...new Set(itemIndexes)].sort((a, b) => a - b);
	const shown = items.slice(0, MAX_LISTED).map(String);
	if (items.length > MAX_LISTED) shown.push(`${items.length - MAX_LISTED} more`);
	return `${items.length === 1 ? 'item' : 'items'} ${joinWords(shown)}`;
}

function joinWords(words: readonly string[]): string {
	return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
