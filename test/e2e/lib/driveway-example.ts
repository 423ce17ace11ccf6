/**
 * examples/driveway-to-telegram.json pointed at stand-ins: the trigger's camera at a stand-in
 * camera, its Image Inference credential and model at the reference server, the Telegram
 * credential at a stand-in; Look Every 1 second instead of 5, only to keep tests short.
 *
 * Exports (stable):
 *   DRIVEWAY_TRIGGER            the trigger's name in the example
 *   drivewayAtStandIns({cameraUrl, credentialId, modelId, telegramCredentialId}) → WorkflowJson
 */
import { loadExample, useCredential } from './examples';
import type { WorkflowJson } from './workflow';

export const DRIVEWAY_TRIGGER = 'Image Inference Trigger';

export function drivewayAtStandIns(o: { cameraUrl: string; credentialId: string; modelId: string; telegramCredentialId: string }): WorkflowJson {
	const workflow = useCredential(JSON.parse(JSON.stringify(loadExample('driveway-to-telegram.json'))) as WorkflowJson, 'telegramApi', o.telegramCredentialId);
	const trigger = workflow.nodes.find((node) => node.name === DRIVEWAY_TRIGGER)!;
	trigger.parameters.cameraUrl = o.cameraUrl;
	(trigger.parameters.modelId as { value: string }).value = o.modelId;
	// the only change beyond where things are: a look a second instead of every 5, to keep the test short
	trigger.parameters.lookEvery = 1;
	trigger.credentials = { imageInferenceApi: { id: o.credentialId, name: `Image Inference ${o.credentialId}` } };
	return workflow;
}
