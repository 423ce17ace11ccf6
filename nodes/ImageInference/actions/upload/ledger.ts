/** What one execution's uploads put into projects, so an execution that stops can say what a rerun would add again. */

/** The most records, and the most batches, the stopping error lists by name; the rest are counted. */
export const MAX_LISTED = 20;

export type RecordState = 'created' | 'withoutAnnotations' | 'annotationsMayExist' | 'mayExist';

interface LedgerRecord {
	/** The image's place among the execution's images (an item may give several). */
	position: number;
	itemIndex: number;
	fileName: string;
	state: RecordState;
	recordId?: string;
}

interface LedgerBatch {
	projectId: string;
	name: string;
	/** Undefined for a batch whose creation may have happened (its answer was lost). */
	batchId?: string;
	records: LedgerRecord[];
}

const STATE_TEXT: Record<RecordState, (record: LedgerRecord) => string> = {
	created: (record) => `record ${record.recordId}`,
	withoutAnnotations: (record) => `record ${record.recordId} without its annotations`,
	annotationsMayExist: (record) => `record ${record.recordId}, its annotations possibly`,
	mayExist: () => 'possibly a record (its answer was lost)',
};

export class UploadLedger {
	private readonly batches: LedgerBatch[] = [];
	private readonly labelsSent: Array<{ projectId: string; names: string[] }> = [];

	/** The label names a labels call sent to a project: the project has each of them once it is answered. */
	labels(projectId: string, names: string[]): void {
		this.labelsSent.push({ projectId, names });
	}

	/** A batch the execution created, or (without its id) one it may have created. */
	batch(projectId: string, name: string, batchId?: string): void {
		this.batches.push({ projectId, name, batchId, records: [] });
	}

	/** What exists of one image's upload in a batch the ledger holds; a later note of the same image replaces the earlier. */
	record(batchId: string, record: LedgerRecord): void {
		const records = this.batches.find((batch) => batch.batchId === batchId)?.records;
		if (!records) return;
		const noted = records.findIndex((known) => known.position === record.position);
		if (noted === -1) records.push(record);
		else records[noted] = record;
	}

	/**
	 * The records named `fileName` that images other than the one at `position` made (or may have
	 * made) in the batch, by item, at most MAX_LISTED of them named: so the user can tell which of
	 * that name is this image's. Undefined when there are none.
	 */
	sameName(batchId: string, fileName: string, position: number): string | undefined {
		const records = this.batches.find((batch) => batch.batchId === batchId)?.records ?? [];
		const others = byItem(records.filter((record) => record.fileName === fileName && record.position !== position));
		if (others.length === 0) return undefined;
		const named = others
			.slice(0, MAX_LISTED)
			.map((record) => (record.recordId === undefined ? `possibly one of item ${record.itemIndex} (its answer was lost)` : `record ${record.recordId} (item ${record.itemIndex})`));
		if (others.length > MAX_LISTED) return `${named.join(', ')} and ${others.length - MAX_LISTED} more`;
		return inWords(named);
	}

	/** The stopping error's note: every batch and its records by item, bounded in length; the items of records not listed are named as ranges. */
	describe(): string {
		if (this.batches.length === 0 && this.labelsSent.length === 0) return 'This execution added nothing to any project before it stopped.';
		const labels = this.labelsSent.map(({ projectId, names }) => {
			const quoted = names.slice(0, MAX_LISTED).map((name) => JSON.stringify(name));
			const said = names.length > MAX_LISTED ? `${quoted.join(', ')} and ${names.length - MAX_LISTED} more` : inWords(quoted);
			return `the label name${names.length === 1 ? '' : 's'} ${said} to project ${projectId}`;
		});
		const sent = labels.length ? `sent ${labels.join(', ')} (added where the project lacked it), and ` : '';
		if (this.batches.length === 0) return `Before it stopped, this execution ${sent}added no image. Running it again adds no label twice: a name the project has keeps its id.`;
		let recordsLeft = MAX_LISTED;
		const itemsNotListed: number[] = [];
		const listed = this.batches.slice(0, MAX_LISTED).map((batch) => {
			const name = batch.batchId === undefined ? `possibly a batch "${batch.name}" (its answer was lost)` : `batch ${batch.batchId} "${batch.name}"`;
			const records = byItem(batch.records);
			const shown = records.slice(0, recordsLeft);
			recordsLeft -= shown.length;
			itemsNotListed.push(...records.slice(shown.length).map((record) => record.itemIndex));
			const said = shown.map((record) => `item ${record.itemIndex} "${record.fileName}" → ${STATE_TEXT[record.state](record)}`);
			return `${name} in project ${batch.projectId}: ${said.length ? said.join(', ') : batch.records.length ? '…' : 'empty'}`;
		});
		const batchesNotListed = this.batches.length - listed.length;
		for (const batch of this.batches.slice(MAX_LISTED)) itemsNotListed.push(...batch.records.map((record) => record.itemIndex));
		const recordsNotListed = itemsNotListed.length;
		const moreRecords = recordsNotListed ? `${recordsNotListed} more record${recordsNotListed === 1 ? '' : 's'}, of ${itemRanges(itemsNotListed)}` : '';
		const moreBatches = batchesNotListed ? `${batchesNotListed} more batch${batchesNotListed === 1 ? '' : 'es'}` : '';
		const more = moreRecords && moreBatches ? `${moreRecords}, and ${moreBatches}` : moreRecords || moreBatches;
		return (
			`Before it stopped, this execution ${sent}added ${listed.join('; ')}${more ? `; and ${more}` : ''}. ` +
			'Running the execution again uploads these again: delete them in the dashboard first, or run again only the items not listed.'
		);
	}
}

function byItem(records: LedgerRecord[]): LedgerRecord[] {
	return [...records].sort((a, b) => a.itemIndex - b.itemIndex);
}

/** "a", "a and b", "a, b and c". */
function inWords(parts: string[]): string {
	return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
}

/**
 * Item indexes as ranges: "item 7", "items 20–21", "items 30–31, 40–42 and 45". At most MAX_LISTED
 * ranges: the last one then runs to the last item, and may hold items that added nothing.
 */
function itemRanges(items: number[]): string {
	const sorted = [...new Set(items)].sort((a, b) => a - b);
	const ranges: Array<[number, number]> = [];
	for (const item of sorted) {
		const last = ranges[ranges.length - 1];
		if (last && last[1] === item - 1) last[1] = item;
		else ranges.push([item, item]);
	}
	const kept = ranges.slice(0, MAX_LISTED);
	const overflow = ranges.length > MAX_LISTED;
	if (overflow) kept[MAX_LISTED - 1] = [kept[MAX_LISTED - 1][0], sorted[sorted.length - 1]];
	const said = inWords(kept.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`)));
	return `item${sorted.length === 1 ? '' : 's'} ${said}${overflow ? ' (some of these items may have added nothing)' : ''}`;
}
