import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as classify from './actions/classify.operation';
import { imageSourceFields, modelIdField } from './actions/common.description';
import * as detect from './actions/detect.operation';
import { router } from './actions/router';
import { withImagesFromElsewhere } from './helpers/agentInputBinary';
import { runAsTool, runsAsTool, toolDescriptionProperty } from './helpers/toolOutput';

export class ImageInference implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Image Inference',
		name: 'imageInference',
		icon: { light: 'file:imageInference.svg', dark: 'file:imageInference.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] === "classify" ? "Classify Image" : "Detect Objects" }}',
		description: 'Detect objects in or classify images with your deployed computer-vision models',
		defaults: { name: 'Image Inference' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'imageInferenceApi', required: true }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Detect Objects',
						value: 'detect',
						action: 'Detect objects in an image',
						description: 'Find objects with bounding boxes, counts per label and an annotated image',
					},
					{
						name: 'Classify Image',
						value: 'classify',
						action: 'Classify an image',
						description: 'Get the image’s category and the confidence of each category',
					},
				],
				default: 'detect',
			},
			modelIdField,
			...imageSourceFields,
			...detect.description,
			...classify.description,
			toolDescriptionProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const context = withImagesFromElsewhere(this);
		if (runsAsTool(this)) return await runAsTool(this, async () => await router.call(context));
		return await router.call(context);
	}
}
