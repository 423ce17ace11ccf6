import type { IDataObject, INodeType, INodeTypeDescription, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { detect } from '../ImageInference/actions/detect/detect.operation';
import { readModelId } from '../ImageInference/parameters/modelId';
import { readRequestSettings } from '../ImageInference/parameters/requestSettings';
import { tickExpression } from './look/cadence';
import { CameraWatch, eventItems, lookOnce } from './look/cameraWatch';
import { detectContext } from './look/detectContext';
import { sampleEventsOfLook } from './look/events';
import { CAMERA_CREDENTIAL_TYPE, readCameraLogin, readTriggerSettings } from './look/settings';
import { keepLooksOf, readTriggerState } from './look/triggerState';
import { triggerProperties } from './trigger.description';

/** A tiny PNG standing in for the snapshot while Detect's settings are checked at activation (nothing is sent). */
const SETTINGS_CHECK_PICTURE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

/** Detect's own checks of its settings (model, zones, filters, tracking…), as a refused activation whose message says what to fix. */
function checkDetectSettings(trigger: ITriggerFunctions): void {
	const context = detectContext(trigger, { snapshot: { bytes: SETTINGS_CHECK_PICTURE, mimeType: 'image/png', extension: 'png' }, staticData: {} });
	try {
		readModelId.call(context, 0);
		readRequestSettings.call(context, 0);
		detect.prepare.call(context, 0, 'binary');
	} catch (error) {
		if (!(error instanceof NodeOperationError)) throw new NodeOperationError(trigger.getNode(), error as Error);
		const fix = error.description ? `: ${error.description}` : '';
		throw new NodeOperationError(trigger.getNode(), `${error.message}${fix}`, { description: error.description ?? undefined });
	}
}

/** Execute step's error for a look with nothing to show: what the model found, and where it was left out. */
function nothingInView(trigger: ITriggerFunctions, output: IDataObject): NodeOperationError {
	const found = Array.isArray(output.detections) ? output.detections.length : 0;
	const zones = output.countsByZone !== null && typeof output.countsByZone === 'object' ? Object.keys(output.countsByZone) : [];
	const why =
		found > 0 && zones.length > 0
			? `The model found ${found} object${found === 1 ? '' : 's'} in the camera’s picture, none of them in your zones (${zones.join(', ')}). Put something in a zone, or check the zones’ points and Zone Anchor Point,`
			: 'The camera gave a picture and the model looked at it, but no object your settings keep is in it. Put something in front of the camera, or lower the Confidence Threshold,';
	return new NodeOperationError(trigger.getNode(), 'Nothing in view to make a test event from', {
		description: `${why} and run it again; or pick Every Look in Start On as well to see looks with nothing in them.`,
	});
}

export class ImageInferenceTrigger implements INodeType {
	// Stryker disable all: read by n8n's editor and engine, checked in real n8n by the e2e tests (docs/testing.md)
	description: INodeTypeDescription = {
		displayName: 'Image Inference Trigger',
		name: 'imageInferenceTrigger',
		icon: { light: 'file:imageInferenceTrigger.svg', dark: 'file:imageInferenceTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "every " + $parameter["lookEvery"] + " " + ($parameter["lookEveryUnit"] === "minutes" ? "minute" : "second") + ($parameter["lookEvery"] === 1 ? "" : "s") }}',
		description: 'Watches a camera’s snapshots with your object detection model and starts the workflow when something arrives, leaves or stays too long',
		eventTriggerDescription: 'Waiting for the camera to show an event',
		activationMessage: 'The trigger now looks at the camera and starts the workflow on the events you chose.',
		defaults: { name: 'Image Inference Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'imageInferenceApi', required: true },
			{ name: CAMERA_CREDENTIAL_TYPE, required: true, displayOptions: { show: { authentication: ['cameraApi'] } } },
		],
		properties: triggerProperties,
	};
	// Stryker restore all

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const settings = readTriggerSettings(this);
		checkDetectSettings(this);
		await readCameraLogin(this, settings);
		const staticData = this.getWorkflowStaticData('node');

		if (this.getMode() === 'manual') {
			// Execute step in the editor: one look on a copy of the state; nothing is kept, as n8n's pollers keep nothing in manual mode
			const manualTriggerFunction = async () => {
				const copy = JSON.parse(JSON.stringify(staticData)) as IDataObject;
				keepLooksOf(copy, settings);
				const state = readTriggerState(copy);
				const result = await lookOnce(this, settings, copy, { looks: 0 });
				const events = result.events.length ? result.events : sampleEventsOfLook(result.output.json, settings.events);
				if (events.length === 0) throw nothingInView(this, result.output.json);
				const items = await eventItems(this, events, result.output, { stateId: state.id, look: state.looks + 1, prefix: 'test:' }, new Date().toISOString());
				this.emit([items]);
			};
			return { manualTriggerFunction };
		}

		// made now, so n8n saves it with the activation: every later event id starts with it
		keepLooksOf(staticData, settings);
		const watch = new CameraWatch(this, settings, staticData);
		this.helpers.registerCron({ expression: tickExpression(settings.unit) }, async () => await watch.tick());
		return { closeFunction: async () => watch.stop() };
	}
}
