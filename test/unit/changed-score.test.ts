import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** test/mutation/changed-score.mjs on two reports of the mutation-testing-report schema. */
const SCRIPT = join(__dirname, '..', 'mutation', 'changed-score.mjs');

type Mutant = { id: string; mutatorName: string; replacement: string; status: string; location: { start: { line: number; column: number }; end: { line: number; column: number } } };
const mutant = (id: string, line: number, status: string): Mutant => ({
	id,
	mutatorName: 'EqualityOperator',
	replacement: '<=',
	status,
	location: { start: { line, column: 3 }, end: { line, column: 9 } },
});
const report = (files: Record<string, { source: string; mutants: Mutant[] }>) => ({ schemaVersion: '1', thresholds: { high: 95, low: 90 }, files });

const BEFORE = ['function a() {', '  return 1 < 2;', '}', 'function b() {', '  return 3 < 4;', '}'].join('\n');
// b() moved above a() unchanged, a() edited on its line 2, one line added at the end
const AFTER = ['function b() {', '  return 3 < 4;', '}', 'function a() {', '  return 1 <= 2;', '}', 'const c = 5 > 6;'].join('\n');

function score(baseline: object, current: object) {
	const dir = mkdtempSync(join(tmpdir(), 'changed-score-'));
	try {
		writeFileSync(join(dir, 'baseline.json'), JSON.stringify(baseline));
		writeFileSync(join(dir, 'report.json'), JSON.stringify(current));
		const run = spawnSync(process.execPath, [SCRIPT, join(dir, 'report.json'), join(dir, 'baseline.json')], { encoding: 'utf8' });
		return { status: run.status, output: run.stdout + run.stderr };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe('the mutation score of the changed code (what CI checks against the baseline)', () => {
	const baseline = report({ 'nodes/x.ts': { source: BEFORE, mutants: [mutant('1', 2, 'Killed'), mutant('2', 5, 'Survived')] } });

	it('counts only the mutants on new or edited lines: a survivor on moved code is not the change’s', () => {
		const current = report({
			'nodes/x.ts': { source: AFTER, mutants: [mutant('1', 2, 'Survived'), mutant('2', 5, 'Killed'), mutant('3', 7, 'Timeout')] },
		});
		const { status, output } = score(baseline, current);
		expect(output).toContain('100.00 % (2 of 2 mutants detected; threshold 90 %)');
		expect(status).toBe(0);
	});

	it('fails under the threshold and names each survivor on a changed line', () => {
		const current = report({
			'nodes/x.ts': { source: AFTER, mutants: [mutant('2', 5, 'Survived'), mutant('3', 7, 'NoCoverage'), mutant('4', 2, 'Killed')] },
		});
		const { status, output } = score(baseline, current);
		expect(output).toContain('0.00 % (0 of 2 mutants detected');
		expect(output).toContain('Survived: nodes/x.ts:5:3 EqualityOperator → "<="');
		expect(output).toContain('NoCoverage: nodes/x.ts:7:3');
		expect(output).not.toContain('nodes/x.ts:2:3');
		expect(status).toBe(1);
	});

	it('counts a mutant the baseline detected and this run did not, on code that only moved: a test that killed it was weakened', () => {
		// b()'s mutant: killed in the baseline at line 5, a survivor now that b() moved to line 2
		const killedBefore = report({ 'nodes/x.ts': { source: BEFORE, mutants: [mutant('1', 2, 'Killed'), mutant('2', 5, 'Killed')] } });
		const current = report({ 'nodes/x.ts': { source: AFTER, mutants: [mutant('2', 2, 'Survived'), mutant('1', 5, 'Killed')] } });
		const { status, output } = score(killedBefore, current);
		expect(output).toContain('50.00 % (1 of 2 mutants detected');
		expect(output).toContain('Survived: nodes/x.ts:2:3 EqualityOperator → "<=" (detected in the baseline: a test that killed it changed or is gone)');
		expect(status).toBe(1);

		// the same file unchanged, the same mutant killed before and surviving now
		const same = score(killedBefore, report({ 'nodes/x.ts': { source: BEFORE, mutants: [mutant('1', 2, 'Killed'), mutant('2', 5, 'Survived')] } }));
		expect(same.output).toContain('0.00 % (0 of 1 mutants detected');
		expect(same.status).toBe(1);

		// a survivor in the baseline that still survives on unchanged code is not the change's
		expect(score(baseline, baseline).status).toBe(0);
	});

	it('tells apart mutants that share a start, a mutator and a replacement by their ends (`a && b` → true, `a` → true)', () => {
		const whole = { ...mutant('1', 2, 'Killed'), location: { start: { line: 2, column: 3 }, end: { line: 2, column: 15 } } };
		const left = { ...mutant('2', 2, 'Survived'), location: { start: { line: 2, column: 3 }, end: { line: 2, column: 9 } } };
		const both = report({ 'nodes/x.ts': { source: BEFORE, mutants: [whole, left] } });
		const { status, output } = score(both, both);
		expect(output).toContain('none detected there and not now');
		expect(status).toBe(0);
	});

	it('takes every mutant of a file the baseline does not have, and passes when nothing changed', () => {
		const unchanged = score(baseline, baseline);
		expect(unchanged.output).toContain('no mutant on a line changed');
		expect(unchanged.status).toBe(0);

		const added = score(baseline, report({ ...baseline.files, 'nodes/y.ts': { source: 'const y = 1 < 2;', mutants: [mutant('5', 1, 'Survived'), mutant('6', 1, 'CompileError')] } }));
		expect(added.output).toContain('0.00 % (0 of 1 mutants detected');
		expect(added.status).toBe(1);
	});
});
