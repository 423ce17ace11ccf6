/**
 * The demo (`npm run demo`): runs examples/detect-objects-from-form-upload.json, as shipped, in
 * real n8n (the package installed as users install it) against the reference server, whose default
 * detection model is a real COCO object detector running offline, with the test photo car.jpg fed
 * in place of the form upload. The detector finds the car, so the example's IF on "car" takes its
 * true branch and composes the notification. Writes, into demo-output/ (or argv[2]):
 *   car.annotated.jpg   the annotated image exactly as n8n holds it in the run data (boxes drawn)
 *   summary.json        detections, labelsCount, countsByLabel, totalDetections, the IF branch, the notification
 *   summary.md          the same for a person
 */
import * as fs from 'fs';
import * as path from 'path';
import { startReferenceServer } from '../reference-server';
import {
	createN8nHome,
	DEFAULT_N8N_VERSION,
	feedTriggerWithFile,
	fixture,
	imageInferenceCredential,
	isBuilt,
	loadExample,
	nodeItems,
	readBinary,
	repoRoot,
	useCredentialAndModels,
} from './lib';

async function main(): Promise<void> {
	if (!isBuilt()) throw new Error('run `npm run build` first (npm run demo does)');
	const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot, 'demo-output'));
	const version = process.env.N8N_E2E_VERSION ?? DEFAULT_N8N_VERSION;
	const started = Date.now();
	const server = await startReferenceServer({});
	const home = await createN8nHome({ version });
	try {
		console.log(`[demo] n8n ${version}, user folder ${home.userFolder}; reference server ${server.url}`);
		await home.importCredentials(imageInferenceCredential('credDemo00000001', { baseUrl: server.url, apiKey: server.apiKey }));
		console.log(`[demo] detection model: ${server.catalogue.find((model) => model.id === server.models.detect)?.name}`);
		const example = feedTriggerWithFile(
			useCredentialAndModels(loadExample('detect-objects-from-form-upload.json'), {
				credentialId: 'credDemo00000001',
				detect: server.models.detect,
			}),
			'Upload a photo',
			fixture('car.jpg'),
			'Photo',
		);
		const [id] = await home.importWorkflows(example);
		console.log('[demo] running the workflow in n8n…');
		const res = await home.execute(id);
		if (!res.ok || !res.run) throw new Error(`the workflow failed in n8n: ${res.error}`);
		const [detected] = nodeItems(res.run, 'Detect objects');
		const annotated = detected.binary?.annotated;
		if (!annotated) throw new Error('n8n run data has no annotated image');
		const spotted = nodeItems(res.run, 'Car spotted?', { output: 0 }).length > 0;
		const notification = spotted ? nodeItems(res.run, 'Compose notification')[0]?.json : undefined;

		fs.mkdirSync(outDir, { recursive: true });
		const imagePath = path.join(outDir, annotated.fileName ?? 'annotated.jpg');
		fs.writeFileSync(imagePath, readBinary(home, annotated));
		const { detections, labelsCount, countsByLabel, totalDetections, summary: detectedSummary, field, fileName, imageWidth, imageHeight } =
			detected.json as Record<string, unknown>;
		const summary = {
			n8nVersion: version,
			workflow: 'examples/detect-objects-from-form-upload.json',
			input: { field, fileName, imageWidth, imageHeight },
			annotatedImage: path.basename(imagePath),
			annotatedImageMimeType: annotated.mimeType,
			summary: detectedSummary,
			totalDetections,
			countsByLabel,
			labelsCount,
			detections,
			ifBranch: spotted ? 'true: Compose notification' : 'false: No car',
			notification,
		};
		fs.writeFileSync(path.join(outDir, 'summary.json'), JSON.stringify(summary, null, 2));
		const rows = (detections as Array<Record<string, number | string>>).map(
			(d) => `| ${d.label} | ${Number(d.confidence).toFixed(3)} | ${d.x} | ${d.y} | ${d.width} | ${d.height} |`,
		);
		fs.writeFileSync(
			path.join(outDir, 'summary.md'),
			[
				`# Image Inference demo (n8n ${version})`,
				'',
				`Input: ${String(fileName)} (${String(imageWidth)} × ${String(imageHeight)}, field "${String(field)}") → annotated: ${path.basename(imagePath)} (${annotated.mimeType})`,
				'',
				`Detected: ${String(detectedSummary)} (${String(totalDetections)} in all)`,
				'',
				`Counts by label: ${Object.entries(countsByLabel as Record<string, number>).map(([l, n]) => `${l} ${n}`).join(', ')}`,
				'',
				'| label | confidence | x | y | width | height |',
				'|---|---|---|---|---|---|',
				...rows,
				'',
				`IF (count of "car" > 0) branch: ${summary.ifBranch}`,
				notification ? `\nNotification: ${String(notification.subject)} — ${String(notification.text)}` : '',
				'',
			].join('\n'),
		);
		console.log(`[demo] detected ${String(detectedSummary)}: ${JSON.stringify(countsByLabel)}; IF "car": ${summary.ifBranch}`);
		console.log(`[demo] annotated image: ${imagePath}`);
		console.log(`[demo] summary:         ${path.join(outDir, 'summary.json')} and summary.md`);
		console.log(`[demo] done in ${Math.round((Date.now() - started) / 1000)} s`);
	} finally {
		await home.dispose();
		await server.close();
	}
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		console.error('[demo] failed:', e instanceof Error ? e.message : e);
		process.exit(1);
	},
);
