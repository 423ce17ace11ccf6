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
		ledger.record('b1', { position: 0, itemIndex: 0, fileName: 'a.jpg', state: 'created', recordId: 'r0' });
		ledger.record('b1', { position: 2, itemIndex: 2, fileName: 'c.jpg', state: 'withoutAnnotations', recordId: 'r2' });
		ledger.record('b1', { position: 3, itemIndex: 3, fileName: 'd.jpg', state: 'annotationsMayExist', recordId: 'r3' });
		ledger.record('b1', { position: 4, itemIndex: 4, fileName: 'e.jpg', state: 'mayExist' });
		ledger.record('nowhere', { position: 5, itemIndex: 5, fileName: 'f.jpg', state: 'created', recordId: 'r5' });
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
		for (let item = 0; item < MAX_LISTED + 1; item++) ledger.record('b1', { position: item, itemIndex: item, fileName: `${item}.jpg`, state: 'created', recordId: `r${item}` });
		ledger.batch('p', 'b', 'b2');
		ledger.record('b2', { position: 99, itemIndex: 99, fileName: 'x.jpg', state: 'created', recordId: 'rx' });
		for (let batch = 3; batch <= MAX_LISTED + 2; batch++) ledger.batch('p', `n${batch}`, `b${batch}`);
		ledger.record(`b${MAX_LISTED + 2}`, { position: 100, itemIndex: 100, fileName: 'y.jpg', state: 'created', recordId: 'ry' });
		const said = ledger.describe();
		expect(said).toContain(`item ${MAX_LISTED - 1} "${MAX_LISTED - 1}.jpg" → record r${MAX_LISTED - 1}; batch b2 "b" in project p: …;`);
		expect(said).not.toContain(`r${MAX_LISTED}`);
		expect(said).toContain(`batch b${MAX_LISTED} "n${MAX_LISTED}" in project p: empty; and 3 more records, of items 20 and 99–100, and 2 more batches. ${RERUN}`);
		expect(said).not.toContain(`"n${MAX_LISTED + 1}"`);
	});

	it('one more record and one more batch are said as one', () => {
		const ledger = new UploadLedger();
		for (let batch = 1; batch <= MAX_LISTED + 1; batch++) ledger.batch('p', `n${batch}`, `b${batch}`);
		ledger.record(`b${MAX_LISTED + 1}`, { position: 7, itemIndex: 7, fileName: 'y.jpg', state: 'created', recordId: 'ry' });
		expect(ledger.describe()).toContain('; and 1 more record, of item 7, and 1 more batch. ');
		const batchesOnly = new UploadLedger();
		for (let batch = 1; batch <= MAX_LISTED + 1; batch++) batchesOnly.batch('p', `n${batch}`, `b${batch}`);
		expect(batchesOnly.describe()).toContain(`batch b${MAX_LISTED} "n${MAX_LISTED}" in project p: empty; and 1 more batch. `);
	});

	it('names the items whose records are not listed, so a rerun of the others duplicates nothing (24 photos, the 23rd refused)', () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'day', 'b1');
		for (let item = 0; item <= 21; item++) ledger.record('b1', { position: item, itemIndex: item, fileName: `${item}.jpg`, state: 'created', recordId: `r${item}` });
		const said = ledger.describe();
		expect(said).toContain('item 19 "19.jpg" → record r19; and 2 more records, of items 20–21. ');
		expect(said).not.toContain('item 20 "');
	});

	it('names unlisted items as ranges, in item order, across batches', () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'a', 'b1');
		ledger.batch('p', 'b', 'b2');
		for (let item = 0; item < MAX_LISTED; item++) ledger.record('b1', { position: item, itemIndex: item, fileName: 'x.jpg', state: 'created', recordId: `r${item}` });
		// records of items 40, 41, 42, 30, 45 (finishing order) in b2, and 31 in b1: none listed
		for (const item of [40, 41, 42, 30, 45]) ledger.record('b2', { position: item, itemIndex: item, fileName: 'x.jpg', state: 'created', recordId: `r${item}` });
		ledger.record('b1', { position: 31, itemIndex: 31, fileName: 'x.jpg', state: 'mayExist' });
		expect(ledger.describe()).toContain('; and 6 more records, of items 30–31, 40–42 and 45. ');
	});

	it(`names at most ${MAX_LISTED} ranges: the rest as one range that may hold items without a record`, () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'a', 'b1');
		for (let item = 0; item < MAX_LISTED; item++) ledger.record('b1', { position: item, itemIndex: item, fileName: 'x.jpg', state: 'created', recordId: `r${item}` });
		// unlisted: items 100, 102, 104, … (every other), MAX_LISTED + 2 of them: MAX_LISTED + 2 ranges of one item
		const unlisted = Array.from({ length: MAX_LISTED + 2 }, (_, index) => 100 + 2 * index);
		for (const item of unlisted) ledger.record('b1', { position: item, itemIndex: item, fileName: 'x.jpg', state: 'created', recordId: `r${item}` });
		const first = unlisted.slice(0, MAX_LISTED - 1).join(', ');
		// the last range covers items 138 to 142 (MAX_LISTED 20: 100 + 2 × 19 = 138, 100 + 2 × 21 = 142)
		expect(ledger.describe()).toContain(`; and ${MAX_LISTED + 2} more records, of items ${first} and 138–142 (some of these items may have added nothing). `);
		expect(MAX_LISTED).toBe(20);
	});

	it('lists a batch’s records by item, whatever order they finished in', () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'a', 'b1');
		ledger.record('b1', { position: 3, itemIndex: 3, fileName: 'd.jpg', state: 'created', recordId: 'r3' });
		ledger.record('b1', { position: 1, itemIndex: 1, fileName: 'b.jpg', state: 'created', recordId: 'r1' });
		ledger.record('b1', { position: 2, itemIndex: 2, fileName: 'c.jpg', state: 'mayExist' });
		expect(ledger.describe()).toContain('batch b1 "a" in project p: item 1 "b.jpg" → record r1, item 2 "c.jpg" → possibly a record (its answer was lost), item 3 "d.jpg" → record r3. ');
	});

	it('an item with two images: each image’s record listed, in its last state; the item named once among those not listed', () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'a', 'b1');
		for (let item = 0; item < MAX_LISTED; item++) ledger.record('b1', { position: item, itemIndex: item, fileName: 'x.jpg', state: 'created', recordId: `r${item}` });
		ledger.record('b1', { position: 30, itemIndex: 25, fileName: 'front.jpg', state: 'created', recordId: 'rf' });
		ledger.record('b1', { position: 31, itemIndex: 25, fileName: 'back.jpg', state: 'created', recordId: 'rb' });
		ledger.record('b1', { position: 31, itemIndex: 25, fileName: 'back.jpg', state: 'withoutAnnotations', recordId: 'rb' });
		expect(ledger.describe()).toContain('; and 2 more records, of item 25. ');
	});

	it('an item’s record noted twice (created, then without its annotations) is listed once, in its last state', () => {
		const ledger = new UploadLedger();
		ledger.batch('p', 'a', 'b1');
		ledger.record('b1', { position: 0, itemIndex: 0, fileName: 'a.jpg', state: 'created', recordId: 'r0' });
		ledger.record('b1', { position: 0, itemIndex: 0, fileName: 'a.jpg', state: 'withoutAnnotations', recordId: 'r0' });
		expect(ledger.describe()).toBe(`Before it stopped, this execution added batch b1 "a" in project p: item 0 "a.jpg" → record r0 without its annotations. ${RERUN}`);
	});
});

describe('the records of one name that other items made in a batch', () => {
	const ledger = new UploadLedger();
	ledger.batch('p', 'a', 'b1');
	ledger.batch('p', 'b', 'b2');
	ledger.record('b1', { position: 4, itemIndex: 4, fileName: 'data.jpg', state: 'created', recordId: 'r4' });
	ledger.record('b1', { position: 0, itemIndex: 0, fileName: 'data.jpg', state: 'withoutAnnotations', recordId: 'r0' });
	ledger.record('b1', { position: 2, itemIndex: 2, fileName: 'data.jpg', state: 'mayExist' });
	ledger.record('b1', { position: 3, itemIndex: 3, fileName: 'other.jpg', state: 'created', recordId: 'r3' });
	ledger.record('b2', { position: 5, itemIndex: 5, fileName: 'data.jpg', state: 'created', recordId: 'r5' });
	ledger.record('b1', { position: 1, itemIndex: 1, fileName: 'data.jpg', state: 'mayExist' });

	it('by item, with their ids, leaving out the asking item, other names and other batches', () => {
		expect(ledger.sameName('b1', 'data.jpg', 1)).toBe('record r0 (item 0), possibly one of item 2 (its answer was lost) and record r4 (item 4)');
	});
	it('none', () => {
		expect(ledger.sameName('b1', 'none.jpg', 1)).toBeUndefined();
		expect(ledger.sameName('b9', 'data.jpg', 1)).toBeUndefined();
	});
	it(`at most ${MAX_LISTED}, the rest counted`, () => {
		const many = new UploadLedger();
		many.batch('p', 'a', 'b1');
		for (let item = 0; item < MAX_LISTED + 3; item++) many.record('b1', { position: item, itemIndex: item, fileName: 'data.jpg', state: 'created', recordId: `r${item}` });
		const said = many.sameName('b1', 'data.jpg', 0)!;
		expect(said).toMatch(/^record r1 \(item 1\), record r2 \(item 2\), /);
		expect(said).toContain(`record r${MAX_LISTED} (item ${MAX_LISTED}) and 2 more`);
		expect(said).not.toContain(`r${MAX_LISTED + 1} `);
	});
});

describe('the label names a stopped execution sent', () => {
	it('with nothing else: running it again adds no label twice', () => {
		const ledger = new UploadLedger();
		ledger.labels('p', ['car', 'dog']);
		expect(ledger.describe()).toBe(
			'Before it stopped, this execution sent the label names "car" and "dog" to project p (added where the project lacked it), and added no image. Running it again adds no label twice: a name the project has keeps its id.',
		);
	});

	it('with batches, and at most MAX_LISTED names per project, the rest counted', () => {
		const ledger = new UploadLedger();
		ledger.labels('p', Array.from({ length: MAX_LISTED + 2 }, (_, index) => `l${index}`));
		ledger.labels('q', ['cat']);
		ledger.batch('p', 'a', 'b1');
		const names = Array.from({ length: MAX_LISTED }, (_, index) => `"l${index}"`).join(', ');
		expect(ledger.describe()).toBe(
			`Before it stopped, this execution sent the label names ${names} and 2 more to project p, the label name "cat" to project q (added where the project lacked it), and added batch b1 "a" in project p: empty. ${RERUN}`,
		);
	});
});

