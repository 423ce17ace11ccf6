/**
 * Draws the pictures of docs/notifications.md's side by side: one frame of the front-door camera
 * (test/watch/front-door.ts: a coat on the hook, a poster on the door, a cat, a visitor, a walker
 * and a car) as the service draws it (every box; drawn here by the reference server, which draws
 * as the service does), as the node draws it with examples/front-door.json's Detect options (only
 * what the zones count, the zones and the ignore region outlined), and the same with Blur These
 * Labels: person.
 *
 *   npx ts-node --transpile-only test/watch/draw-side-by-side.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/execute';
import type { ParameterValue } from '../harness/execute';
import { startReferenceServer } from '../reference-server';
import { annotate } from '../reference-server/annotate';
import { sha256 } from '../reference-server/faults';
import { decodeImage, encodeImage } from '../reference-server/image-codec';
import { cocoColour } from '../reference-server/models';
import { FRONT_DOOR_LOOKS, frontDoorAnswer, frontDoorFrame } from './front-door';

const ROOT = join(__dirname, '../..');

/** The example's Detect options, without its watch (this is one frame, not a look compared with another). */
function exampleDetectOptions(): IDataObject {
	const workflow = JSON.parse(readFileSync(join(ROOT, 'examples/front-door.json'), 'utf8')) as { nodes: Array<{ type: string; parameters: IDataObject }> };
	const detect = workflow.nodes.find((node) => node.type.endsWith('.imageInference') && node.parameters.operation === 'detect')!;
	const { compareWithPreviousLook, watchKey, cooldownMinutes, cooldownScope, ...options } = detect.parameters.options as IDataObject;
	return options;
}

async function main(): Promise<void> {
	const server = await startReferenceServer({});
	try {
		const frame = frontDoorFrame('car');
		server.addFault({ match: { kind: 'detect', imageSha256: sha256(frame) }, action: { type: 'status', status: 200, body: frontDoorAnswer('car') } });
		writeFileSync(join(ROOT, 'docs/pictures-service.jpg'), encodeImage(decodeImage(annotate(decodeImage(frame), FRONT_DOOR_LOOKS.car, { show_prob: true }, cocoColour)), 'jpeg'));
		const drawnByNode = async (extra: IDataObject, file: string) => {
			const run = await runNode({
				parameters: {
					operation: 'detect',
					modelId: server.models.detect,
					imageSource: 'binary',
					binaryPropertyName: 'data',
					options: { ...exampleDetectOptions(), ...extra } as ParameterValue,
				},
				items: [{ json: {}, binary: { data: { bytes: frame, fileName: 'front-door.jpg', mimeType: 'image/jpeg' } } }],
				credentials: { baseUrl: server.url, apiKey: server.apiKey },
			});
			writeFileSync(join(ROOT, file), run.bytes(run.items[0], 'annotated'));
		};
		await drawnByNode({}, 'docs/pictures-node.jpg');
		await drawnByNode({ hideLabels: 'person' }, 'docs/pictures-node-blurred.jpg');
	} finally {
		await server.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
