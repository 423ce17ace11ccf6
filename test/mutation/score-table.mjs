// The score table of docs/testing.md (Scores), from the committed baseline: each part of
// parts.mjs, then its files, then the whole node. `node test/mutation/score-table.mjs` prints it.
import { readFileSync } from 'node:fs';

import { BASELINE } from './baseline.mjs';
import { PARTS, inPart } from './parts.mjs';
import { mutationScore } from './score.mjs';

const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];
const number = (value) => value.toLocaleString('en-GB');
const shown = (file) => `\`${file.replace(/^nodes\/ImageInference\//, '')}\``;

/** A row: a part's and the whole node's in bold, the whole node's score with its counts. */
function row(name, mutants, kind) {
	const { detected, scored, percent } = mutationScore(mutants);
	const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
	const errors = mutants.length - STATUSES.reduce((sum, status) => sum + count(status), 0);
	const score = `${(percent ?? 100).toFixed(2)} %`;
	const cells = kind === 'file' ? [name, score] : [`**${name}**`, `**${score}**${kind === 'whole' ? ` (${number(detected)} of ${number(scored)})` : ''}`];
	return `| ${cells[0]} | ${number(mutants.length)} | ${cells[1]} | ${STATUSES.map((status) => number(count(status))).join(' | ')} | ${number(errors)} |`;
}

const { files } = JSON.parse(readFileSync(BASELINE, 'utf8'));
const lines = [
	'| Part, file | Mutants | Score | Killed | Timed out | Survived | No test reached | Errors |',
	'| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const part of Object.keys(PARTS)) {
	const inThisPart = Object.keys(files)
		.filter((file) => inPart(part, file))
		.sort();
	lines.push(row(part, inThisPart.flatMap((file) => files[file].mutants), 'part'));
	for (const file of inThisPart) lines.push(row(shown(file), files[file].mutants, 'file'));
}
lines.push(row('the whole node', Object.values(files).flatMap((file) => file.mutants), 'whole'));
console.log(lines.join('\n'));
