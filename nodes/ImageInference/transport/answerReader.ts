/**
 * Reads a JSON answer as it streams in, taking the top-level `"image"` string (the annotated
 * picture) out as decoded bytes: a 25 MB annotated picture is never held as a 33 MB base64 string, nor as JSON text
 * twice. The rest of the body is kept as (small) JSON text, with `""` where the image was.
 * A `data:image/…;base64,` prefix on the image is dropped.
 */

/** The answer's top-level `image` string: its decoded bytes, or a sign that it was not base64. */
export type AnswerPicture = { valid: true; bytes: Buffer } | { valid: false };

export interface ReadAnswer {
	/** The answer's JSON with `""` where the picture was. */
	text: string;
	picture?: AnswerPicture;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export class AnswerReader {
	/**
	 * @param answerBytes the answer's Content-Length, when known
	 * @param spare a buffer nothing else will read again (the sent request body), large enough to
	 * decode the image into: its memory is reused rather than held beside a new one until V8 frees it
	 */
	constructor(answerBytes?: number, spare?: Buffer) {
		if (!answerBytes || answerBytes <= 0) return;
		const needed = Math.ceil((answerBytes * 3) / 4);
		this.target = spare && spare.length >= needed ? spare : Buffer.allocUnsafe(needed);
	}

	private readonly text: Buffer[] = [];
	/** Where the scanner is: outside strings, in a kept string, in a top-level key, in the image. */
	private mode: 'value' | 'string' | 'key' | 'image' = 'value';
	private escaped = false;
	private depth = 0;
	private expectKey = false;
	private key: number[] = [];
	private afterImageKey = false;
	private pictureFound = false;
	private readonly decoded: Buffer[] = [];
	/** With the answer's size known, the image is decoded straight into one buffer of that size. */
	private target?: Buffer;
	private written = 0;
	private carry = '';
	private sawPadding = false;
	private invalid = false;
	/** The image's first characters while it is not yet known whether they are a data: prefix. */
	private head: string | undefined = '';

	push(chunk: Buffer): void {
		let keepFrom = 0;
		for (let index = 0; index < chunk.length; index++) {
			if (this.mode === 'image') {
				const end = this.imageEnd(chunk, index);
				this.feedImage(chunk.subarray(index, end));
				if (end === chunk.length) return;
				this.text.push(Buffer.from('""'));
				this.mode = 'value';
				index = end;
				keepFrom = end + 1;
				continue;
			}
			const byte = chunk[index];
			if (this.mode !== 'value') {
				this.scanString(byte);
				continue;
			}
			if (WHITESPACE.has(byte) || byte === COLON) continue;
			if (byte === QUOTE && this.afterImageKey) {
				this.afterImageKey = false;
				this.text.push(chunk.subarray(keepFrom, index));
				this.mode = 'image';
				this.pictureFound = true;
				continue;
			}
			this.afterImageKey = false;
			if (byte === QUOTE) {
				this.mode = this.depth === 1 && this.expectKey ? 'key' : 'string';
				this.key = [];
			} else if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) {
				this.depth++;
				this.expectKey = byte === 0x7b && this.depth === 1;
			} else if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) {
				this.depth--;
			} else if (byte === 0x2c /* , */) {
				this.expectKey = this.depth === 1;
			}
		}
		if (this.mode !== 'image') this.text.push(chunk.subarray(keepFrom));
	}

	end(): ReadAnswer {
		const text = Buffer.concat(this.text).toString('utf8');
		if (!this.pictureFound) return { text };
		if (this.mode === 'image') this.invalid = true;
		if (this.head !== undefined) this.carry = this.afterPrefix(this.head, true) ?? '';
		this.decodeGroup(this.carry);
		if (this.invalid) return { text, picture: { valid: false } };
		const bytes = this.target ? this.target.subarray(0, this.written) : Buffer.concat(this.decoded);
		return { text, picture: { valid: true, bytes } };
	}

	private scanString(byte: number): void {
		if (this.escaped) {
			this.escaped = false;
		} else if (byte === BACKSLASH) {
			this.escaped = true;
		} else if (byte === QUOTE) {
			if (this.mode === 'key') {
				this.expectKey = false;
				this.afterImageKey = Buffer.from(this.key).toString('latin1') === 'image';
			}
			this.mode = 'value';
		} else if (this.mode === 'key') {
			this.key.push(byte);
		}
	}

	/** Index of the image string's closing quote in `chunk` (or its length); base64 has no escapes. */
	private imageEnd(chunk: Buffer, from: number): number {
		const quote = chunk.indexOf(QUOTE, from);
		const end = quote === -1 ? chunk.length : quote;
		const backslash = chunk.indexOf(BACKSLASH, from);
		if (backslash !== -1 && backslash < end) this.invalid = true;
		return end;
	}

	private feedImage(part: Buffer): void {
		if (this.invalid || part.length === 0) return;
		let text = part.toString('latin1');
		if (this.head !== undefined) {
			const rest = this.afterPrefix(this.head + text);
			if (rest === undefined) return;
			text = rest;
		}
		const symbols = this.carry + text;
		const whole = symbols.length - (symbols.length % 4);
		this.decodeGroup(symbols.slice(0, whole));
		this.carry = symbols.slice(whole);
	}

	/** The base64 after a data: prefix (or all of it when there is none); undefined while undecided. */
	private afterPrefix(head: string, final = false): string | undefined {
		const prefix = 'data:';
		if (!head.startsWith(prefix)) {
			if (!final && prefix.startsWith(head)) {
				this.head = head;
				return undefined;
			}
			this.head = undefined;
			return head;
		}
		const comma = head.indexOf(',');
		if (comma === -1 && !final && head.length < 256) {
			this.head = head;
			return undefined;
		}
		this.head = undefined;
		if (comma === -1 || !/^data:[^,]*;base64$/i.test(head.slice(0, comma))) {
			this.invalid = true;
			return '';
		}
		return head.slice(comma + 1);
	}

	/** Decodes whole base64 groups. Node skips foreign characters, so a short result means invalid. */
	private decodeGroup(symbols: string): void {
		if (symbols.length === 0 || this.invalid) return;
		const padding = symbols.endsWith('==') ? 2 : symbols.endsWith('=') ? 1 : 0;
		const length = symbols.length - padding;
		if (this.sawPadding || length % 4 === 1) {
			this.invalid = true;
			return;
		}
		if (padding) this.sawPadding = true;
		const expected = Math.floor((length * 3) / 4);
		let decoded: number;
		if (this.target && this.written + expected <= this.target.length) {
			decoded = this.target.write(symbols, this.written, 'base64');
			this.written += decoded;
		} else {
			const bytes = Buffer.from(symbols, 'base64');
			decoded = bytes.length;
			if (this.target) {
				this.decoded.push(this.target.subarray(0, this.written));
				this.target = undefined;
			}
			this.decoded.push(bytes);
		}
		if (decoded !== expected) this.invalid = true;
	}
}
