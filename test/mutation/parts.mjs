// The parts of the full mutation run (full-run.mjs; each run by part.config.mjs).
import base from '../../stryker.config.mjs';

const SRC = 'nodes/ImageInference';

// About a thousand mutants or fewer each (each part's time: docs/testing.md); the
// last part takes every file of stryker.config.mjs's `mutate` that no other part names, so a new
// file is never left out.
export const PARTS = {
	// the contract and what reads and maps answers: quick to kill (the core run's ground)
	contract: [`${SRC}/{contract,transport/errors,transport/retry,transport/body}.ts`, 'credentials/**/*.ts'],
	// sending requests: many mutants here make a request wait or loop until StrykerJS's timeout
	requests: [`${SRC}/transport/{index,liftImage}.ts`],
	'image-input': [`${SRC}/helpers/{imageInput,imageSize,imageType,agentInputBinary,base64}.ts`],
	'watch-and-tool': [`${SRC}/helpers/{zones,geometry,previousLook,readAhead,toolOutput,annotatedImage,detections,pool}.ts`],
	'actions-and-rest': [],
};

// Reports of a part (HTML, JSON) are not tracked; its results are: a full run takes longer than a
// session on this machine, and parts kept only in the untracked reports/ were lost with the machine.
export const PARTS_DIR = 'reports/mutation/parts';
export const PART_RESULTS_DIR = 'test/mutation/parts';

/** Where a part keeps its incremental file (its results, which the merge reads; committed). */
export const partFile = (part) => `${PART_RESULTS_DIR}/${part}.json`;

export function partMutate(name) {
	if (!(name in PARTS)) throw new Error(`MUTATION_PART must be one of: ${Object.keys(PARTS).join(', ')}`);
	if (PARTS[name].length) return PARTS[name];
	const named = Object.values(PARTS).flat();
	return [...base.mutate, ...named.map((pattern) => `!${pattern}`)];
}

