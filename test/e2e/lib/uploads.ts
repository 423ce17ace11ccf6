/**
 * Uploads posted at once to a webhook that answers with a file (queue-mode e2e and benchmark).
 *
 *   postUploads(url, uploads, count): Promise<UploadResult[]>   `count` POSTs all at once, upload
 *       i being uploads[i % uploads.length] named `<name>-<i>.jpg`; every one resolves (status 0
 *       and the error as body when the request itself failed), with its time since the first.
 */
export interface Upload {
	name: string;
	bytes: Buffer;
}

export interface UploadResult {
	i: number;
	name: string;
	/** Index into `uploads` of what was sent. */
	input: number;
	status: number;
	headers: Headers;
	body: Buffer;
	ms: number;
}

export async function postUploads(url: string, uploads: Upload[], count: number): Promise<UploadResult[]> {
	const started = Date.now();
	return await Promise.all(
		Array.from({ length: count }, async (_, i) => {
			const input = i % uploads.length;
			const name = uploads[input].name.replace(/\.jpg$/, `-${i}.jpg`);
			try {
				const res = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'image/jpeg', 'content-disposition': `attachment; filename="${name}"` },
					body: uploads[input].bytes,
					signal: AbortSignal.timeout(300_000),
				});
				const body = Buffer.from(await res.arrayBuffer());
				return { i, name, input, status: res.status, headers: res.headers, body, ms: Date.now() - started };
			} catch (e) {
				return { i, name, input, status: 0, headers: new Headers(), body: Buffer.from(String(e)), ms: Date.now() - started };
			}
		}),
	);
}
