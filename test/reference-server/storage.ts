/**
 * The object storage behind the project upload calls: presigned PUT URLs as `POST /upload/` hands
 * them out, on a server of its own (another port, as the real bucket is another host). It takes no
 * API key and records every request whole, so tests can see what reached it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';

import { listenOnLoopback } from '../harness/loopback';

import type { FaultRegistry } from './faults';
import { sendFault } from './faults';

export const BUCKET = 'reference-bucket';

export interface StorageRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** Every header as it came, names in lower case. */
	headers: Record<string, string>;
	bodyBytes: number;
	status: number;
}

export interface StoredObject {
	bytes: Buffer;
	contentType: string;
}

/** A presigned upload: where, for which content type, and what was PUT there (once it was). */
export interface Upload {
	key: string;
	contentType: string;
	signature: string;
	stored?: StoredObject;
}

export interface Storage {
	url: string;
	requests: StorageRequest[];
	presign(name: string, contentType: string): { uploadUrl: string; uri: string };
	/** The upload a `s3://` uri was handed out for. */
	upload(uri: string): Upload | undefined;
	close(): Promise<void>;
}

const MAX_OBJECT_BYTES = 50 * 1024 * 1024;
const MAX_RECORDED = 5_000;
const EXPIRES_SECONDS = 3600;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function startStorage(faults: FaultRegistry): Promise<Storage> {
	const uploads = new Map<string, Upload>();
	const requests: StorageRequest[] = [];

	const server = createServer((request, response) => {
		handle(request, response).catch(() => response.destroy());
	});
	server.keepAliveTimeout = 65_000;

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const record: StorageRequest = {
			method: request.method ?? '',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
			bodyBytes: 0,
			status: 0,
		};
		if (requests.length >= MAX_RECORDED) requests.shift();
		requests.push(record);
		const answer = (status: number, code: string, message: string) => {
			record.status = status;
			const requestId = randomBytes(8).toString('hex').toUpperCase();
			const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>${requestId}</RequestId></Error>`;
			response.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
			response.end(body);
		};

		const chunks: Buffer[] = [];
		for await (const chunk of request) {
			record.bodyBytes += (chunk as Buffer).length;
			if (record.bodyBytes <= MAX_OBJECT_BYTES) chunks.push(chunk as Buffer);
		}
		if (request.method !== 'PUT') return answer(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');

		const fault = faults.take({ call: 'storage' });
		if (fault?.type === 'delay') await delay(fault.ms);
		else if (fault) return sendFault(fault, response, record);

		let key: string;
		try {
			key = decodeURIComponent(url.pathname.slice(`/${BUCKET}/`.length));
		} catch {
			key = '';
		}
		const upload = url.pathname.startsWith(`/${BUCKET}/`) ? uploads.get(key) : undefined;
		const contentType = request.headers['content-type'];
		const refusal = !upload
			? `no upload was handed out for ${url.pathname}`
			: url.searchParams.get('X-Amz-Signature') !== upload.signature
				? 'the X-Amz-Signature is not the one handed out'
				: contentType !== upload.contentType
					? `Content-Type ${contentType === undefined ? 'missing' : `"${contentType}"`}, signed for "${upload.contentType}"`
					: undefined;
		if (refusal || !upload) {
			return answer(403, 'SignatureDoesNotMatch', `The request signature we calculated does not match the signature you provided (${refusal}).`);
		}
		if (record.bodyBytes > MAX_OBJECT_BYTES) return answer(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');

		const bytes = Buffer.concat(chunks);
		upload.stored = { bytes, contentType: upload.contentType };
		record.status = 200;
		response.writeHead(200, { etag: `"${createHash('md5').update(bytes).digest('hex')}"`, 'content-length': 0 });
		response.end();
	}

	const listening = await listenOnLoopback(server);
	return {
		url: listening.url,
		requests,
		presign(name, contentType) {
			const key = `${randomUUID()}/${name}`;
			const signature = randomBytes(32).toString('hex');
			uploads.set(key, { key, contentType, signature });
			const query = new URLSearchParams({ 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'X-Amz-Signature': signature, 'X-Amz-Expires': String(EXPIRES_SECONDS) });
			const [folder] = key.split('/');
			return { uploadUrl: `${listening.url}/${BUCKET}/${folder}/${encodeURIComponent(name)}?${query}`, uri: `s3://${BUCKET}/${key}` };
		},
		upload: (uri) => (uri.startsWith(`s3://${BUCKET}/`) ? uploads.get(uri.slice(`s3://${BUCKET}/`.length)) : undefined),
		close: listening.close,
	};
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
