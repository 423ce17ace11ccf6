/**
 * The package as users get it: `npm pack` of the built clone, installed into an n8n user folder
 * exactly like n8n's community-package installer does it.
 *
 * Exports (stable):
 *   PACKAGE_NAME = 'n8n-nodes-image-inference'
 *   NODE_TYPE = 'n8n-nodes-image-inference.imageInference', TOOL_NODE_TYPE = NODE_TYPE + 'Tool'
 *   CREDENTIAL_TYPE = 'imageInferenceApi'
 *   isBuilt(): boolean                         dist/ has the node and the credential
 *   packPackage(): string                      path of the tarball (once per jest run: memoised in
 *                                              $N8N_E2E_TARBALL); requires `npm run build` first
 *   installPackage(userFolder, {tarball?, style?})  install into <userFolder>/.n8n/nodes the way n8n's
 *                                              community installer does (default 'pack', as 2.x and 1.123 do)
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cacheRoot, repoRoot } from './paths';

export const PACKAGE_NAME = 'n8n-nodes-image-inference';
export const NODE_TYPE = `${PACKAGE_NAME}.imageInference`;
export const TOOL_NODE_TYPE = `${NODE_TYPE}Tool`;
export const CREDENTIAL_TYPE = 'imageInferenceApi';

export function isBuilt(): boolean {
	return (
		fs.existsSync(path.join(repoRoot, 'dist/nodes/ImageInference/ImageInference.node.js')) &&
		fs.existsSync(path.join(repoRoot, 'dist/credentials/ImageInferenceApi.credentials.js'))
	);
}

export function packPackage(): string {
	const known = process.env.N8N_E2E_TARBALL;
	if (known && fs.existsSync(known)) return known;
	if (!isBuilt()) throw new Error('dist/ is missing the node or the credential: run `npm run build` first');
	const dest = path.join(cacheRoot, 'packs', `${Date.now()}-${process.pid}`);
	fs.mkdirSync(dest, { recursive: true });
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], {
		cwd: repoRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>;
	const tarball = path.join(dest, path.basename(filename));
	process.env.N8N_E2E_TARBALL = tarball;
	return tarball;
}

/**
 * Mirrors n8n's CommunityPackagesService.
 *  - 'pack' (what n8n 2.40.7 and 1.123.81 both do, packages/cli/src/modules/community-packages/
 *    community-packages.service.ts downloadPackage; n8n runs `npm pack name@version` first): unpack the tarball into <nodes>/node_modules/<name>, drop devDependencies,
 *    peerDependencies and optionalDependencies from its package.json, run `npm install --audit=false
 *    --fund=false --bin-links=false --install-strategy=shallow --ignore-scripts=true
 *    --package-lock=false` inside it, and record the dependency in <nodes>/package.json.
 *  - 'npm' (older n8n): `npm install --omit=dev --omit=peer --ignore-scripts <tarball>` in <nodes>
 *    (the folder n8n gives a package.json {name:'installed-nodes', private:true, dependencies:{}}).
 * Returns the installed package folder.
 */
export function installPackage(
	userFolder: string,
	opts: { tarball?: string; style?: 'pack' | 'npm' } = {},
): string {
	const tarball = opts.tarball ?? packPackage();
	const style = opts.style ?? 'pack';
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(pkgJson)) {
		fs.writeFileSync(pkgJson, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	const quiet: { stdio: Array<'ignore' | 'pipe'>; encoding: 'utf8' } = { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' };
	if (style === 'npm') {
		execFileSync(
			'npm',
			['install', '--omit=dev', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball],
			{ ...quiet, cwd: nodesDir },
		);
		return pkgDir;
	}
	fs.rmSync(pkgDir, { recursive: true, force: true });
	fs.mkdirSync(pkgDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1'], quiet);
	const manifestPath = path.join(pkgDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		fs.readFileSync(manifestPath, 'utf8'),
	) as Record<string, unknown> & { version: string };
	void devDependencies, peerDependencies, optionalDependencies;
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ ...quiet, cwd: pkgDir },
	);
	const nodesPkg = JSON.parse(fs.readFileSync(pkgJson, 'utf8')) as { dependencies?: Record<string, string> };
	nodesPkg.dependencies = { ...nodesPkg.dependencies, [PACKAGE_NAME]: manifest.version };
	fs.writeFileSync(pkgJson, JSON.stringify(nodesPkg, null, 2));
	return pkgDir;
}
