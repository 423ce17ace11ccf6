/**
 * The demo (`npm run demo`): runs examples/detect-objects-from-form-upload.json, as shipped, in
 * real n8n (the package installed as users install it) against the reference server, whose default
 * detection model is a real COCO object detector running offline, with the test photo car.jpg fed
 * in place of the form upload. The detector finds the car, so the example's IF on "car" takes its
 * true branch, and its Send Email node delivers the annotated photo to a local SMTP server the demo
 * starts on 127.0.0.1 (nothing leaves the machine); the demo prints what arrived there.
 * Writes, into demo-output/ (or argv[2]):
 *   car.annotated.jpg   the annotated image exactly as n8n holds it in the run data (boxes drawn)
 *   summary.json        detections, labelsCount, countsByLabel, totalDetections, the IF branch, the email delivered
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
	smtpCredential,
	startSmtpCapture,
	useCredential,
	useCredentialAndModels,
} from './lib';

async function main(): Promise<void> {
	if (!isBuilt()) throw new Error('run `npm run build` first (npm run demo does)');
	const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot, 'demo-output'));
	const version = process.env.N8N_E2E_VERSION ?? DEFAULT_N8N_VERSION;
	const started = Date.now();
	const server = await startReferenceServer({});
	const smtp = await startSmtpCapture();
	const home = await createN8nHome({ version });
	try {
		console.log(`[demo] n8n ${version}, user folder ${home.userFolder}; reference server ${server.url}`);
		await home.importCredentials([
			imageInferenceCredential('credDemo00000001', { baseUrl: server.url, apiKey: server.apiKey }),
			smtpCredential('credDemoSmtp0001', smtp.port, 'Local SMTP server (demo)'),
		]);
		console.log(`[demo] detection model: ${server.catalogue.find((model) => model.id === server.models.detect)?.name}`);
		const example = feedTriggerWithFile(
			useCredential(
				useCredentialAndModels(loadExample('detect-objects-from-form-upload.json'), {
					credentialId: 'credDemo00000001',
					detect: server.models.detect,
				}),
				'smtp',
				'credDemoSmtp0001',
			),
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
		const [mail] = smtp.messages;
		const notification = mail && {
			deliveredTo: `smtp://127.0.0.1:${smtp.port}`,
			from: mail.from?.text,
			to: Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : mail.to?.text,
			subject: mail.subject,
			text: mail.text?.trim(),
			attachments: mail.attachments.map((a) => ({ fileName: a.filename, mimeType: a.contentType, bytes: a.size })),
		};

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
			ifBranch: spotted ? 'true: Email the photo' : 'false: No car',
			email: notification ?? null,
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
				notification ? `\nEmail delivered to ${notification.deliveredTo} (${String(notification.to)}): "${String(notification.subject)}" — ${String(notification.text)}` : '',
				'',
			].join('\n'),
		);
		console.log(`[demo] detected ${String(detectedSummary)}: ${JSON.stringify(countsByLabel)}; IF "car": ${summary.ifBranch}`);
		if (notification) {
			const files = notification.attachments.map((a) => `${String(a.fileName)} (${a.mimeType}, ${a.bytes} bytes)`).join(', ');
			console.log(`[demo] email delivered to the local SMTP server ${notification.deliveredTo}, to ${String(notification.to)}`);
			console.log(`[demo]   subject: ${String(notification.subject)}`);
			console.log(`[demo]   text:    ${String(notification.text)}`);
			console.log(`[demo]   attached: ${files}`);
		} else if (spotted) {
			throw new Error('the IF took its true branch but no email arrived at the local SMTP server');
		}
		console.log(`[demo] annotated image: ${imagePath}`);
		console.log(`[demo] summary:         ${path.join(outDir, 'summary.json')} and summary.md`);
		console.log(`[demo] done in ${Math.round((Date.now() - started) / 1000)} s`);
	} finally {
		await home.dispose();
		await server.close();
		await smtp.close();
	}
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		console.error('[demo] failed:', e instanceof Error ? e.message : e);
		process.exit(1);
	},
);
