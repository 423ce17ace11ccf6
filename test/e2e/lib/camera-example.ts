/**
 * A camera example (examples/watch-a-camera.json, examples/front-door.json) activated in real n8n:
 * its credentials point at the reference server and an SMTP capture, its Schedule Trigger ("Every
 * minute") fires every few seconds and its HTTP Request ("Get the snapshot") asks a stand-in
 * camera; anything else is the example as shipped, unless `adjust` changes it.
 *
 * Exports (stable):
 *   activateCameraExample({version, file, server, smtpPort, snapshotUrl, intervalSeconds, adjust?, home?})
 *        → {home, rest, workflowId}: the example imported, activated (published on n8n 2.x), n8n
 *        started and its owner logged in
 */
import type { ReferenceServer } from '../../reference-server';
import { loadExample, useCredential, useCredentialAndModels } from './examples';
import { createN8nHome, type N8nHome } from './n8n';
import { RestClient } from './rest';
import { smtpCredential } from './smtp';
import { imageInferenceCredential, type WorkflowJson } from './workflow';

export async function activateCameraExample(options: {
	version: string;
	file: string;
	server: ReferenceServer;
	smtpPort: number;
	snapshotUrl: string;
	intervalSeconds: number;
	adjust?: (workflow: WorkflowJson) => void;
	/** An n8n home prepared before (its owner set up, say): the example goes into it. */
	home?: N8nHome;
}): Promise<{ home: N8nHome; rest: RestClient; workflowId: string }> {
	const home = options.home ?? (await createN8nHome({ version: options.version }));
	await home.importCredentials([
		imageInferenceCredential('credCamera000001', { baseUrl: options.server.url, apiKey: options.server.apiKey }),
		smtpCredential('credCameraSmtp01', options.smtpPort),
	]);
	const example = useCredential(useCredentialAndModels(loadExample(options.file), { credentialId: 'credCamera000001', detect: options.server.models.detect }), 'smtp', 'credCameraSmtp01');
	const workflow: WorkflowJson = JSON.parse(JSON.stringify(example));
	workflow.nodes.find((node) => node.name === 'Every minute')!.parameters.rule = { interval: [{ field: 'seconds', secondsInterval: options.intervalSeconds }] };
	workflow.nodes.find((node) => node.name === 'Get the snapshot')!.parameters.url = options.snapshotUrl;
	options.adjust?.(workflow);
	const [workflowId] = await home.importWorkflows(workflow);
	if (home.install.major >= 2) await home.cli(['publish:workflow', `--id=${workflowId}`]);
	else await home.cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
	const n8n = await home.start();
	return { home, rest: await RestClient.setupOwner(n8n.url), workflowId };
}
