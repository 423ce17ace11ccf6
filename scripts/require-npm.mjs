// Fails, saying why, when the npm on PATH is older than the version given (the publish workflow
// needs 11.5.1 or later for trusted publishing).  usage: node scripts/require-npm.mjs 11.5.1
import { execFileSync } from 'node:child_process';

const wanted = process.argv[2];
const found = execFileSync('npm', ['--version']).toString().trim();
const parts = (version) => version.split(/[.-]/).slice(0, 3).map(Number);
const [a, b] = [parts(found), parts(wanted)];
const older = a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
if (!wanted || older) {
	console.error(`npm ${found} is too old: publishing with trusted publishing needs npm ${wanted ?? '(a version)'} or later`);
	process.exit(1);
}
console.log(`npm ${found} (${wanted} or later needed)`);
