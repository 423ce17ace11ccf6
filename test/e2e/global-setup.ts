/**
 * Once per `jest --config test/e2e/jest.config.js` run: install (or find) every n8n version the
 * suites use, and `npm pack` the built package once ($N8N_E2E_TARBALL is read by every suite;
 * runInBand keeps them in this process).
 */
import { e2eVersions, ensureN8n } from './lib/install';
import { isBuilt, packPackage } from './lib/pack';

export default async function globalSetup(): Promise<void> {
	for (const v of e2eVersions()) ensureN8n(v);
	if (isBuilt()) packPackage();
	else process.stderr.write('[e2e] dist/ has no node yet: only the suites that need no package will pass\n');
}
