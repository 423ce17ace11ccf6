import type { IExecuteFunctions } from 'n8n-workflow';

import type { ImageInput } from './imageInput';
import { databaseStoreField } from './imageInput';

/**
 * Reads the files in n8n's database store (queue mode's default), which cannot read part of a
 * file, one at a time, and one image ahead of the requests.
 *
 * Such a read takes a while and a lot of transient memory: PostgreSQL sends a 12 MB photo as
 * 24 MB of hex text, which the driver turns into a string and then into the bytes (0.1–0.4 s,
 * about 5 × the photo). Read together, the first Concurrency photos each take that long and
 * that much at once; read one after another, the first request leaves after one read.
 *
 * Ahead: once an image's file is in, the file of the next image in line is read (in its turn)
 * while the requests in flight wait on the service, so the next slot to free up finds it read
 * instead of reading it then, with the service idle for it. One image ahead at most: memory
 * stays near Concurrency × image.
 *
 * Images are numbered in the order their requests start (the pool's order). A file read ahead
 * is used once, by its image's first attempt; a retry reads it again, as it would without this.
 */
export class DatabaseFileReadAhead {
	/** The lowest-numbered image whose file no request has asked for yet. */
	private nextUnasked = 0;
	private ahead: { position: number; bytes: Promise<Buffer> } | undefined;
	private lastRead: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly count: number,
		/** Whether an image's file is in the database store (only those are read ahead). */
		private readonly inDatabase: (position: number) => boolean,
		private readonly readFile: (position: number) => Promise<Buffer>,
		/** True once the execution stops starting requests (cancelled, or the first failure). */
		private readonly stopped: () => boolean,
	) {}

	/** The file of image `position`: the one read ahead for it, or read in its turn. */
	async read(position: number): Promise<Buffer> {
		const readAhead = this.ahead?.position === position ? this.ahead.bytes : undefined;
		if (readAhead) this.ahead = undefined;
		this.nextUnasked = Math.max(this.nextUnasked, position + 1);
		const bytes = await (readAhead ?? this.inTurn(position));
		this.readNextAhead();
		return bytes;
	}

	/** Reads a file once the reads asked for before it are done. */
	private async inTurn(position: number): Promise<Buffer> {
		const read = this.lastRead.then(async () => await this.readFile(position));
		this.lastRead = read.catch(() => undefined);
		return await read;
	}

	private readNextAhead(): void {
		let position = this.nextUnasked;
		while (position < this.count && !this.inDatabase(position)) position++;
		if (this.ahead || position >= this.count || this.stopped()) return;
		const bytes = this.inTurn(position);
		// a failed read is reported by the image it belongs to, when its request asks for it
		bytes.catch(() => undefined);
		this.ahead = { position, bytes };
	}
}

/** The read-ahead of one execution's images, in the order their requests start. */
export function readFilesAhead(
	this: IExecuteFunctions,
	images: ReadonlyArray<{ itemIndex: number; image: ImageInput }>,
	stopped: () => boolean,
): DatabaseFileReadAhead {
	const fieldAt = (position: number) => databaseStoreField.call(this, images[position].itemIndex, images[position].image);
	return new DatabaseFileReadAhead(
		images.length,
		(position) => fieldAt(position) !== undefined,
		async (position) => await this.helpers.getBinaryDataBuffer(images[position].itemIndex, fieldAt(position)!),
		stopped,
	);
}
