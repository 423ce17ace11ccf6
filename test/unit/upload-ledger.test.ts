import { MAX_LISTED, UploadLedger } from '../../nodes/ImageInference/actions/upload/ledger';

const RERUN = 'Running the execution again uploads these again: delete them in the dashboard first, or run again only the items not listed.';

describe('what a stopped execution says it added', () => {
	it('nothing', () => {
		expect(new UploadLedger().describe()).toBe('This execution added nothing to any project before it stopped.');
	});

	it('each batch with its records by item, in every state, and a batch that may exist', () => {
		const ledger = new UploadLedger();
		ledger.batch('p1', 'morning', 'b1');
		ledger.batch('p1', 'evening', 'b2');
		ledger.batch('p2', 'night');
		ledger.record('b1', { itemIndex: 0, fileName: 'a.jpg', state: 'created', recordId: 'r0' });
		ledger.record('b1', { itemIndex: 2, fileName: 'c.jpg', state: 'withoutAnnotations', recordId: 'r2' });
		ledger.record('b1', { itemIndex: 3, fileName: 'd.jpg', state: 'annotationsMayExist', recordId: 'r3' });
		ledger.record('b1', { itemIndex: 4, fileName: 'e.jpg', state: 'mayExist' });
		ledger.record('nowhere', { itemIndex: 5, fileName: 'f.jpg', state: 'created', recordId: 'r5' });
		expect(ledger.describe()).toBe(
			'Before it stopped, this execution added batch b1 "morning" in project p1: item 0 "a.jpg" → record r0, item 2 "c.jpg" → record r2 without its annotations, ' +
				'item 3 "d.jpg" → record r3, its annotations possibly, item 4 "e.jpg" → possibly a record (its answer was lost); ' +
				'batch b2 "evening" in project p1: empty; possibly a batch "night" (its answer was lost) in project p2: empty. ' +
				RERUN,
		);
	});

	it(`lists at most ${MAX_LISTED} records and ${MAX_LISTED} batches, counting the rest`, () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'a', 'b1');
		for (let item = 0; item < MAX_LISTED + 1; item++) ledger.record('b1', { itemIndex: item, fileName: `${item}.jpg`, state: 'created', recordId: `r${item}` });
		ledger.batch('p', 'b', 'b2');
		ledger.record('b2', { itemIndex: 99, fileName: 'x.jpg', state: 'created', recordId: 'rx' });
		for (let batch = 3; batch <= MAX_LISTED + 2; batch++) ledger.batch('p', `n${batch}`, `b${batch}`);
		ledger.record(`b${MAX_LISTED + 2}`, { itemIndex: 100, fileName: 'y.jpg', state: 'created', recordId: 'ry' });
		const said = ledger.describe();
		expect(said).toContain(`item ${MAX_LISTED - 1} "${MAX_LISTED - 1}.jpg" → record r${MAX_LISTED - 1}; batch b2 "b" in project p: …;`);
		expect(said).not.toContain(`r${MAX_LISTED}`);
		expect(said).toContain(`batch b${MAX_LISTED} "n${MAX_LISTED}" in project p: empty; and 3 more records and 2 more batches. ${RERUN}`);
		expect(said).not.toContain(`"n${MAX_LISTED + 1}"`);
	});

	it('one more record and one more batch are said as one', () => {
		const ledger = new UploadLedger();
		for (let batch = 1; batch <= MAX_LISTED + 1; batch++) ledger.batch('p', `n${batch}`, `b${batch}`);
		ledger.record(`b${MAX_LISTED + 1}`, { itemIndex: 7, fileName: 'y.jpg', state: 'created', recordId: 'ry' });
		expect(ledger.describe()).toContain('; and 1 more record and 1 more batch. ');
		const batchesOnly = new UploadLedger();
		for (let batch = 1; batch <= MAX_LISTED + 1; batch++) batchesOnly.batch('p', `n${batch}`, `b${batch}`);
		expect(batchesOnly.describe()).toContain(`batch b${MAX_LISTED} "n${MAX_LISTED}" in project p: empty; and 1 more batch. `);
	});
});
