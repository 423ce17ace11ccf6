// The parts of the full mutation run (full-run.mjs; each run by part.config.mjs).
import base from '../../stryker.config.mjs';

const SRC = 'nodes/ImageInference';

// About a thousand mutants or fewer each (about an hour of this machine's two cores at most); the
// last part takes every file of stryker.config.mjs's `mutate` that no other part names, so a new
// file is never left out.
export const PARTS = {
	// the contract and what reads and maps answers: quick to kill (the core run's ground)
	contract: [
		`${SRC}/contract.ts`,
		`${SRC}/transport/errors.ts`,
		`${SRC}/transport/retry.ts`,
		`${SRC}/transport/body.ts`,
		'credentials/**/*.ts',
	],
	// sending requests: many mutants here make a request wait or loop until StrykerJS's timeout
	requests: [`${SRC}/transport/index.ts`, `${SRC}/transport/liftImage.ts`],
	'image-input': [
		`${SRC}/helpers/imageInput.ts`,
		`${SRC}/helpers/imageSize.ts`,
		`${SRC}/helpers/imageType.ts`,
		`${SRC}/helpers/agentInputBinary.ts`,
		`${SRC}/helpers/base64.ts`,
	],
	'watch-and-tool': [
		`${SRC}/helpers/zones.ts`,
		`${SRC}/helpers/geometry.ts`,
		`${SRC}/helpers/previousLook.ts`,
		`${SRC}/helpers/readAhead.ts`,
		`${SRC}/helpers/toolOutput.ts`,
		`${SRC}/helpers/annotatedImage.ts`,
		`${SRC}/helpers/detections.ts`,
		`${SRC}/helpers/pool.ts`,
	],
	'actions-and-rest': [],
};

export function partMutate(name) {
	if (!(name in PARTS)) throw new Error(`MUTATION_PART must be one of: ${Object.keys(PARTS).join(', ')}`);
	if (PARTS[name].length) return PARTS[name];
	const named = Object.values(PARTS).flat();
	return [...base.mutate, ...named.map((pattern) => `!${pattern}`)];
}

