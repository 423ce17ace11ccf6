/**
 * examples/driveway-to-telegram.json in an n8n home, pointed at stand-ins: the trigger's camera at
 * a stand-in camera, its Image Inference credential and model at the reference server, the
 * Telegram credential at a Bot API stand-in; Look Every 1 second instead of 5, only to keep tests
 * short. Not activated.
 *
 * Exports (stable):
 *   DRIVEWAY_TRIGGER            the trigger's name in the example
 *   importDriveway(home, {service, cameraUrl, telegram}) → the workflow's id, with its two credentials imported
 */
import type { ReferenceServer } from '../../reference-server';
import { loadExample, useCredential } from './examples';
import type { N8nHome } from './n8n';
import type { TelegramBotApi } from './telegram-bot-api';
import { imageInferenceCredential, type WorkflowJson } from './workflow';

export const DRIVEWAY_TRIGGER = 'Image Inference Trigger';

const CREDENTIAL_ID = 'credDriveway0001';
const TELEGRAM_CREDENTIAL_ID = 'credDrivewayTg01';

export async function importDriveway(home: N8nHome, o: { service: ReferenceServer; cameraUrl: string; telegram: TelegramBotApi }): Promise<string> {
	await home.importCredentials([
		imageInferenceCredential(CREDENTIAL_ID, { baseUrl: o.service.url, apiKey: o.service.apiKey }),
		{ id: TELEGRAM_CREDENTIAL_ID, name: 'Telegram stand-in', type: 'telegramApi', data: { accessToken: o.telegram.token, baseUrl: o.telegram.url } },
	]);
	const workflow = useCredential(JSON.parse(JSON.stringify(loadExample('driveway-to-telegram.json'))) as WorkflowJson, 'telegramApi', TELEGRAM_CREDENTIAL_ID);
	const trigger = workflow.nodes.find((node) => node.name === DRIVEWAY_TRIGGER)!;
	trigger.parameters.cameraUrl = o.cameraUrl;
	(trigger.parameters.modelId as { value: string }).value = o.service.models.syntheticDetect;
	// the only change beyond where things are: a look a second instead of every 5, to keep the test short
	trigger.parameters.lookEvery = 1;
	trigger.credentials = { imageInferenceApi: { id: CREDENTIAL_ID, name: `Image Inference ${CREDENTIAL_ID}` } };
	const [workflowId] = await home.importWorkflows(workflow);
	return workflowId;
}
