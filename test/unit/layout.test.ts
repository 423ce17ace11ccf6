import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The node's files import each other without a circle (type imports included): each can be read on its own. */
const root = resolve(__dirname, '..', '..');
const sources = ['nodes', 'credentials'].flatMap((folder) => filesUnder(join(root, folder))).filter((file) => file.endsWith('.ts'));

function filesUnder(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
	);
}

function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/^import\s[^;]*?from\s+'(\.[^']*)';/gms)].map((match) => match[1]);
	return specifiers.map((specifier) => {
		const target = resolve(dirname(file), specifier);
		return sources.find((source) => source === `${target}.ts` || source === join(target, 'index.ts')) ?? `${target} (not found)`;
	});
}

/** The first circle found by a depth-first walk, as the files along it; undefined when there is none. */
export function findCircle(graph: Map<string, string[]>): string[] | undefined {
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (file: string): string[] | undefined => {
		if (state.get(file) === 'done') return undefined;
		if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
		state.set(file, 'open');
		path.push(file);
		for (const next of graph.get(file) ?? []) {
			const circle = visit(next);
			if (circle) return circle;
		}
		path.pop();
		state.set(file, 'done');
		return undefined;
	};
	for (const file of graph.keys()) {
		const circle = visit(file);
		if (circle) return circle;
	}
	return undefined;
}

describe("the node's layout", () => {
	const graph = new Map(sources.map((file) => [file, importsOf(file)]));

	it('every relative import names a file of the node', () => {
		expect([...graph.values()].flat().filter((target) => target.endsWith('(not found)'))).toEqual([]);
	});

	it('has no circle of imports', () => {
		expect(findCircle(graph)?.map((file) => relative(root, file))).toBeUndefined();
	});

	it('finds a circle when there is one (the check itself)', () => {
		const circle = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a']],
			['d', []],
		]);
		expect(findCircle(circle)).toEqual(['a', 'b', 'c', 'a']);
		expect(findCircle(new Map([['a', ['b']], ['b', []]]))).toBeUndefined();
	});
});
