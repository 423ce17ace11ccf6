// Every unit and integration test file as one jest test file, for mutation runs only
// (test/mutation/jest.config.js). Jest gives each test file a module registry of its own, so a
// mutant reached by k files paid k loads of the node and n8n-workflow (some 700 modules, about a
// second each time); here it pays one. Each file's tests sit under its path, so their names stay
// unique and say where they are. Test files keep no state between them beyond their own modules.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const TEST_ROOT = join(__dirname, '..');
const FOLDERS = ['unit', 'node', 'reference-server', 'release'];

for (const folder of FOLDERS) {
	for (const name of readdirSync(join(TEST_ROOT, folder)).filter((file) => file.endsWith('.test.ts')).sort()) {
		const path = join(TEST_ROOT, folder, name);
		describe(relative(TEST_ROOT, path), () => {
			const t = Date.now(); require(path); if (process.env.TIME_LOAD) console.log(`${Date.now() - t} ms ${relative(TEST_ROOT, path)}`);
		});
	}
}
