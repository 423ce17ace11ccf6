// One part of the full mutation run (test/mutation/full-run.mjs): the files of the part named by
// MUTATION_PART, against every unit and integration test, as stryker.config.mjs sets them. The
// part's checkpoint is its own incremental file (parts.mjs `partFile`), which StrykerJS writes
// when the part ends and full-run.mjs merges into the committed baseline.
import base from '../../stryker.config.mjs';
import { PARTS_DIR, partFile, partMutate } from './parts.mjs';

const part = process.env.MUTATION_PART ?? '';

export default {
	...base,
	mutate: partMutate(part),
	incremental: true,
	incrementalFile: partFile(part),
	// The part's score is not the one that counts: full-run.mjs judges the merged report.
	thresholds: { ...base.thresholds, break: null },
	htmlReporter: { fileName: `${PARTS_DIR}/${part}.html` },
	jsonReporter: { fileName: `${PARTS_DIR}/${part}.report.json` },
};
