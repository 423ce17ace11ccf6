import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { classify } from './actions/classify/classify.operation';
import { imageSourceFields, modelIdFields } from './actions/common.description';
import { detect } from './actions/detect/detect.operation';
import { router } from './actions/router';
import { projectAndSourceDescription } from './actions/upload/upload.description';
import { uploadToProject } from './actions/upload/upload.operation';
import { toolDescriptionProperties } from './actions/tool.description';
import { runAsTool, runsAsTool } from './output/toolResult';

export class ImageInference implements INodeType {
	// Stryker disable all: read by n8n's editor and engine, checked in real n8n by the e2e tests (docs/testing.md)
	description: INodeTypeDescription = {
		displayName: 'Image Inference',
		name: 'imageInference',
		icon: { light: 'file:imageInference.svg', dark: 'file:imageInference.dark.svg' },
		group: ['transform'],
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ $parameter["operation"] === "classify" ? "Classify Image" : $parameter["operation"] === "uploadToProject" ? "Upload to Project" : "Detect Objects" }}',
		description: 'Detect objects in or classify images with your deployed computer-vision models',
		defaults: { name: 'Image Inference' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'imageInferenceApi', required: true }],
		// read by n8n's AI workflow builder to pick and wire the node (n8n-workflow's IBuilderHint)
		builderHint: {
			searchHint:
				"Runs the user's own deployed computer-vision model (Epigos AI) on images: Detect Objects (labels, confidences, boxes, counts per label, a summary and an annotated picture) or Classify Image (category and confidence). " +
				'Input: one or more images per item, as a binary file from a previous node (Form Trigger upload, HTTP Request with Response Format File, e-mail attachments, Google Drive), a publicly reachable image URL, or base64 text. ' +
				"Output per image: detections (label, confidence, x, y, width, height), countsByLabel (e.g. expr('{{ $json.countsByLabel.person }}')), totalDetections, summary (e.g. '2 car, 1 person') and the annotated image in binary field data. " +
				'Needs a Model ID (the UUID of a deployed model) and the Image Inference API credential.',
			relatedNodes: [
				{ nodeType: 'n8n-nodes-base.formTrigger', relationHint: 'Collects a photo upload; Input Binary Field is the name of its file field' },
				{ nodeType: 'n8n-nodes-base.httpRequest', relationHint: 'Downloads an image as a file (Response Format File) for Image Source Binary File' },
				{
					nodeType: 'n8n-nodes-base.editImage',
					relationHint: 'Before: resize large photos (Resize, 1920 by 1920, Only if Larger). After: crop each object of One Item per Object with its x, y, width and height',
				},
				{ nodeType: 'n8n-nodes-base.if', relationHint: "Branches on the result, e.g. expr('{{ $json.countsByLabel.person > 0 }}')" },
				{ nodeType: 'n8n-nodes-base.emailSend', relationHint: 'Sends the summary with the annotated image attached (Attachments: data)' },
				{ nodeType: 'n8n-nodes-base.telegram', relationHint: 'Sends the annotated image (Send Photo with Binary File on, field data) and the summary as caption' },
				{
					nodeType: '@n8n/n8n-nodes-langchain.agent',
					relationHint: 'Can use this node as a tool to count or classify what is in an image; the tool result has the counts per label (and per zone) and the most confident detections, or the category, not the picture',
				},
			],
		},
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
					{
						name: 'Upload to Project',
						value: 'uploadToProject',
						action: 'Upload an image to a project',
						description: 'Add the image to a project’s dataset, with its boxes or its label as annotations, to train the next model',
					},
				],
				default: 'detect',
			},
			...modelIdFields,
			...projectAndSourceDescription,
			...imageSourceFields,
			...detect.description,
			...classify.description,
			...uploadToProject.description,
			...toolDescriptionProperties,
		],
	};
	// Stryker restore all

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (runsAsTool(this)) return await runAsTool(this, async () => await router.call(this));
		return await router.call(this);
	}
}
