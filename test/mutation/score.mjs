// A mutation score as StrykerJS counts it: killed and timed-out mutants are detected; survivors
// and mutants no test reaches are not; the rest (compile and runtime errors, ignored) do not count.
export const DETECTED = new Set(['Killed', 'Timeout']);
export const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** How many of the mutants were detected, of how many that count, and the score in per cent (null when none count). */
export function mutationScore(mutants) {
	const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
	const scored = detected + mutants.filter((mutant) => UNDETECTED.has(mutant.status)).length;
	return { detected, scored, percent: scored ? (100 * detected) / scored : null };
}
