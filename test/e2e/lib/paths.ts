/**
 * Where things are, resolved from this file (never from the working directory).
 *
 * Exports (stable):
 *   repoRoot            the package clone (the folder with package.json)
 *   fixturesDir         <repoRoot>/test/fixtures (car.jpg, dog.jpg, with their attribution)
 *   fixture(name)       absolute path of one fixture image
 *   examplesDir         <repoRoot>/examples (importable example workflows)
 *   cacheRoot           where n8n installs and packed tarballs live (outside the clone):
 *                       $N8N_E2E_CACHE or $XDG_CACHE_HOME/n8n-nodes-image-inference or ~/.cache/...
 *   installScript       test/e2e/install-n8n.sh
 */
import * as os from 'os';
import * as path from 'path';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const fixturesDir = path.join(repoRoot, 'test', 'fixtures');
export const fixture = (name: string): string => path.join(fixturesDir, name);
export const examplesDir = path.join(repoRoot, 'examples');
export const cacheRoot =
	process.env.N8N_E2E_CACHE ??
	path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'n8n-nodes-image-inference');
export const installScript = path.join(repoRoot, 'test', 'e2e', 'install-n8n.sh');
