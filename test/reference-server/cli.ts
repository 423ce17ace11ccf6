/**
 * `npm run reference-server [-- --port 8787 --api-key KEY --latency 0 --answer-shape full|sparse --idle-minutes 30]`:
 * the reference server standalone, on 127.0.0.1, fully offline: a local inference server n8n can
 * be pointed at (credential Base URL = its URL). Prints its URL, API key, every model id with what
 * it is, the two demo projects for the upload calls (PROJECT_IDS) and the storage's URL (and the
 * same as one JSON line for scripts); stops on Ctrl-C or after the idle time without requests.
 */
import { PROJECT_IDS, startReferenceServer } from '.';

function flag(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

async function main() {
	const server = await startReferenceServer({
		port: Number(flag('port', '0')),
		apiKey: flag('api-key', 'reference-api-key'),
		latencyMs: Number(flag('latency', '0')),
		answerShape: flag('answer-shape', 'full') === 'sparse' ? 'sparse' : 'full',
	});
	server.addProject('object_detection', { id: PROJECT_IDS.detection, name: 'Demo detection project' });
	server.addProject('classification', { id: PROJECT_IDS.classification, name: 'Demo classification project' });
	const idleMs = Number(flag('idle-minutes', '30')) * 60_000;
	console.log(`Reference server (prediction API contract) listening on ${server.url}`);
	console.log(`  Base URL: ${server.url}`);
	console.log(`  API key:  ${server.apiKey}   (header X-API-Key or query api-key)`);
	console.log(`  object detector loaded in ${server.detectorLoadMs()} ms; no network needed`);
	console.log('  models:');
	for (const model of server.catalogue) {
		const isDefault = model.id === server.models[model.kind] ? ', default' : '';
		console.log(`    ${model.id}  ${model.kind}${isDefault}: ${model.name}`);
		console.log(`      ${model.description}`);
	}
	console.log(`  projects (upload calls; the upload URLs point to the storage at ${server.storage.url}, which takes no API key):`);
	for (const id of Object.values(PROJECT_IDS)) {
		const project = server.projects(id)!;
		console.log(`    ${id}  ${project.projectType}: ${project.name}`);
	}
	console.log(`  stops after ${idleMs / 60_000} idle minutes, or on Ctrl-C`);
	console.log(
		JSON.stringify({ url: server.url, apiKey: server.apiKey, models: server.models, catalogue: server.catalogue, projects: PROJECT_IDS, storageUrl: server.storage.url }),
	);

	const stop = () => void server.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	let lastSeen = 0;
	let idleSince = Date.now();
	setInterval(() => {
		const seen = server.requests.length + server.storage.requests.length;
		if (seen !== lastSeen) {
			lastSeen = seen;
			idleSince = Date.now();
		} else if (Date.now() - idleSince > idleMs) {
			console.log('idle: stopping');
			stop();
		}
	}, 5_000);
}

void main();
