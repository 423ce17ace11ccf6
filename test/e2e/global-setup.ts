/**
 * Once per `jest --config test/e2e/jest.config.js` run: install (or find) every n8n version the
 * suites use, and `npm pack` the built package once ($N8N_E2E_TARBALL is read by every suite;
 * runInBand keeps them in this process). Every version asked for ($N8N_E2E_VERSIONS, or 2.x and
 * 1.x) is required: one that cannot be installed fails the run, with its one-line reason.
 */
import { e2eVersions, ensureN8n } from './lib/install';
import { isBuilt, packPackage } from './lib/pack';

export default async function globalSetup(): Promise<void> {
	const failures = requireVersions(e2eVersions(), ensureN8n);
	if (failures.length) throw new Error(`n8n could not be installed, so the e2e run fails:\n${failures.join('\n')}`);
	process.env.N8N_E2E_VERSIONS = e2eVersions().join(',');
	process.stderr.write(`[e2e] n8n versions: ${e2eVersions().join(', ')}\n`);
	if (isBuilt()) packPackage();
	else process.stderr.write('[e2e] dist/ has no node yet: only the suites that need no package will pass\n');
}

/** Installs each version; returns one line per version that failed (`n8n 1.2.3: <first line of the reason>`). */
export function requireVersions(versions: string[], install: (version: string) => unknown): string[] {
	const failures: string[] = [];
	for (const version of versions) {
		try {
			install(version);
		} catch (error) {
			const reason = (error instanceof Error ? error.message : String(error)).trim().split('\n')[0];
			failures.push(`n8n ${version}: ${reason}`);
		}
	}
	return failures;
}
