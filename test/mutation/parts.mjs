// The parts of the full mutation run (full-run.mjs runs each with part.config.mjs). A part is a
// set of source files; each is a StrykerJS run of its own, so a full run that is stopped keeps
// the parts it finished, and a part can be run alone.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import base from '../../stryker.config.mjs';

const SRC = 'nodes/ImageInference';

// About a thousand mutants each, the trigger's 1,320 the most (each part's time: docs/testing.md). The last part takes
// every file of stryker.config.mjs's `mutate` that no other part names, so a new file is never
// left out.
export const PARTS = {
	// the contract and what reads and maps answers
	contract: [`${SRC}/{contract,transport/errors,transport/retry,transport/body}.ts`, 'credentials/**/*.ts'],
	// sending requests: many mutants here make a request wait or loop until StrykerJS's timeout
	requests: [`${SRC}/transport/{index,answerReader,pool}.ts`],
	'image-input': [`${SRC}/input/*.ts`],
	// the watch state: every mutant here runs the model-based test of the watch state (about 1 s), so it is the slowest part
	'watch-state': [`${SRC}/pipeline/{comparison,tracking}.ts`],
	'watch-and-tool': [`${SRC}/{pipeline,output}/*.ts`, `!${SRC}/pipeline/{comparison,tracking}.ts`],
	// the node's own pictures: the codec's glue, drawing, turning, shrinking, blurring, cropping
	picture: [`${SRC}/picture/**/*.ts`],
	// the Image Inference Trigger: its own tests only count for it (environment.js)
	trigger: ['nodes/ImageInferenceTrigger/**/*.ts', '!nodes/**/*.description.ts'],
	'actions-and-rest': [],
};

// A part's reports (HTML, JSON) and its checkpoint (its StrykerJS incremental file, the part's
// results so far) live in the untracked reports/; the committed result is the merged baseline.
export const PARTS_DIR = 'reports/mutation/parts';

/** A part's checkpoint: its StrykerJS incremental file, which full-run.mjs merges. */
export const partFile = (part) => `${PARTS_DIR}/${part}.incremental.json`;

/** The parts a name gives: one part, or several joined by commas (one StrykerJS run, one dry run). */
export function partsOf(name) {
	const parts = [...new Set(String(name ?? '').split(','))];
	const unknown = parts.filter((part) => !(part in PARTS));
	if (unknown.length) throw new Error(`a part must be one of: ${Object.keys(PARTS).join(', ')} (several joined by commas)`);
	return parts;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every TypeScript file under nodes/ and credentials/, as reports name them (relative to the project). */
function sourceFiles() {
	return ['nodes', 'credentials'].flatMap((folder) => readdirSync(`${ROOT}${folder}`, { recursive: true }).map((file) => `${folder}/${file}`)).filter((file) => file.endsWith('.ts'));
}

/**
 * The `mutate` patterns of a part, as StrykerJS reads them (a leading `!` leaves files out); for
 * several parts, the files of each by name (one part's `!` would take out another's files).
 */
const groupFiles = new Map();
export function partMutate(name) {
	const parts = partsOf(name);
	if (parts.length > 1) {
		const key = parts.join(',');
		if (!groupFiles.has(key)) groupFiles.set(key, sourceFiles().filter((file) => parts.some((part) => inPart(part, file))));
		return groupFiles.get(key);
	}
	if (PARTS[parts[0]].length) return PARTS[parts[0]];
	// the files another part takes in (its own exclusions leave them to a part that names them)
	const named = Object.values(PARTS).flat().filter((pattern) => !pattern.startsWith('!'));
	return [...base.mutate, ...named.map((pattern) => `!${pattern}`)];
}

// The glob matcher StrykerJS itself matches `mutate` patterns with (its dependency, not ours).
const { minimatch } = createRequire(createRequire(import.meta.url).resolve('@stryker-mutator/core'))('minimatch');

/**
 * Whether a source file (a path relative to the project, as reports name it) belongs to a part:
 * the patterns in order, a match setting it in and a `!` match taking it out, as StrykerJS does.
 */
export function inPart(name, file) {
	let inside = false;
	for (const pattern of partMutate(name)) {
		if (pattern.startsWith('!')) {
			if (minimatch(file, pattern.slice(1))) inside = false;
		} else if (minimatch(file, pattern)) {
			inside = true;
		}
	}
	return inside;
}
