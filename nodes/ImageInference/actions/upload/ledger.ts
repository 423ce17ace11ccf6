/** What one execution's uploads put into projects, so an execution that stops can say what a rerun would add again. */

/** The most records, and the most batches, the stopping error lists by name; the rest are counted. */
export const MAX_LISTED = 20;

export type RecordState = 'created' | 'withoutAnnotations' | 'annotationsMayExist' | 'mayExist';

interface LedgerRecord {
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

	/** A batch the execution created, or (without its id) one it may have created. */
	batch(projectId: string, name: string, batchId?: string): void {
		this.batches.push({ projectId, name, batchId, records: [] });
	}

	/** What exists of one image's upload in a batch the ledger holds. */
	record(batchId: string, record: LedgerRecord): void {
		this.batches.find((batch) => batch.batchId === batchId)?.records.push(record);
	}

	/** The stopping error's note: every batch and record, by item, bounded in length. */
	describe(): string {
		if (this.batches.length === 0) return 'This execution added nothing to any project before it stopped.';
		let recordsLeft = MAX_LISTED;
		let recordsNotListed = 0;
		const listed = this.batches.slice(0, MAX_LISTED).map((batch) => {
			const name = batch.batchId === undefined ? `possibly a batch "${batch.name}" (its answer was lost)` : `batch ${batch.batchId} "${batch.name}"`;
			const shown = batch.records.slice(0, recordsLeft);
			recordsLeft -= shown.length;
			recordsNotListed += batch.records.length - shown.length;
			const records = shown.map((record) => `item ${record.itemIndex} "${record.fileName}" → ${STATE_TEXT[record.state](record)}`);
			return `${name} in project ${batch.projectId}: ${records.length ? records.join(', ') : batch.records.length ? '…' : 'empty'}`;
		});
		const batchesNotListed = this.batches.length - listed.length;
		for (const batch of this.batches.slice(MAX_LISTED)) recordsNotListed += batch.records.length;
		const more = [
			recordsNotListed ? `${recordsNotListed} more record${recordsNotListed === 1 ? '' : 's'}` : '',
			batchesNotListed ? `${batchesNotListed} more batch${batchesNotListed === 1 ? '' : 'es'}` : '',
		].filter(Boolean);
		return (
			`Before it stopped, this execution added ${listed.join('; ')}${more.length ? `; and ${more.join(' and ')}` : ''}. ` +
			'Running the execution again uploads these again: delete them in the dashboard first, or run again only the items not listed.'
		);
	}
}
