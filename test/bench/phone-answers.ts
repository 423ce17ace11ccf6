/**
 * The reference server's own answers for the phone photos (detect + annotate, default options, the
 * synthetic model), asked once over HTTP and cached beside the photos as the exact answer bytes.
 * Decoding and re-encoding a 12–16 MB JPEG in pure JS takes the server seconds; the batch
 * benchmark replays these answers (see ./programmed-service) so that the node is what is measured.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

import { startReferenceServer } from '../reference-server';
import { SYNTHETIC_DETECT_MODEL } from './models';

export interface PhoneAnswer {
	/** The answer body exactly as the server sent it. */
	body: Buffer;
	detections: unknown[];
	/** The annotated image's bytes (decoded from the answer). */
	annotated: Buffer;
}

/** Named by the model, so answers from another model (or an older id) are never reused. */
export const answerFile = (photo: string) => photo.replace(/\.jpg$/, `.${SYNTHETIC_DETECT_MODEL.slice(0, 8)}.answer.json`);

export async function phoneAnswers(photos: string[], log: (line: string) => void = () => undefined): Promise<PhoneAnswer[]> {
	const missing = photos.filter((photo) => !existsSync(answerFile(photo)));
	if (missing.length) {
		const server = await startReferenceServer({ apiKey: 'bench-answers', defaultModels: 'synthetic' });
		try {
			for (const photo of missing) {
				const started = Date.now();
				const response = await fetch(`${server.url}/predict/detect/${SYNTHETIC_DETECT_MODEL}/`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
					body: JSON.stringify({ image: readFileSync(photo).toString('base64') }),
				});
				const body = Buffer.from(await response.arrayBuffer());
				if (response.status !== 200) throw new Error(`reference server answered ${response.status} for ${photo}: ${body.toString('utf8', 0, 300)}`);
				writeFileSync(`${answerFile(photo)}.partial`, body);
				renameSync(`${answerFile(photo)}.partial`, answerFile(photo));
				log(`answer for ${photo} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
			}
		} finally {
			await server.close();
		}
	}
	return photos.map((photo) => {
		const body = readFileSync(answerFile(photo));
		const parsed = JSON.parse(body.toString('utf8')) as { detections: unknown[]; image: string | null };
		if (!parsed.image) throw new Error(`the cached answer for ${photo} has no annotated image`);
		return { body, detections: parsed.detections, annotated: Buffer.from(parsed.image, 'base64') };
	});
}
