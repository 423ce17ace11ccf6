/**
 * Once per `jest --config test/e2e/jest.config.js` run: install (or find) every n8n version the
 * suites use, and `npm pack` the built package once ($N8N_E2E_TARBALL is read by every suite;
 * runInBand keeps them in this process). Without $N8N_E2E_VERSIONS the run covers 2.x and 1.x; if
 * 1.x cannot be installed there, it is dropped with the reason printed (2.x failing is an error).
 */
import { DEFAULT_N8N_VERSION, e2eVersions, ensureN8n, LEGACY_N8N_VERSION } from './lib/install';
import { isBuilt, packPackage } from './lib/pack';

export default async function globalSetup(): Promise<void> {
	const explicit = !!process.env.N8N_E2E_VERSIONS;
	const usable: string[] = [];
	for (const v of e2eVersions()) {
		try {
			ensureN8n(v);
			usable.push(v);
		} catch (e) {
			if (explicit || v !== LEGACY_N8N_VERSION) throw e;
			process.stderr.write(`[e2e] n8n ${v} could not be installed, running ${DEFAULT_N8N_VERSION} only: ${String(e)}\n`);
		}
	}
	process.env.N8N_E2E_VERSIONS = usable.join(',');
	process.stderr.write(`[e2e] n8n versions: ${usable.join(', ')}\n`);
	if (isBuilt()) packPackage();
	else process.stderr.write('[e2e] dist/ has no node yet: only the suites that need no package will pass\n');
}
