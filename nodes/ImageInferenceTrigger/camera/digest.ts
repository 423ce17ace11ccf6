/**
 * HTTP Digest access authentication (RFC 2617, RFC 7616) with MD5 and MD5-sess, as IP cameras ask
 * for it on their snapshot URLs, and MD5 itself (RFC 1321).
 */

/** T[i] of RFC 1321, the integer part of 2^32 × |sin(i + 1)|, written out rather than computed with Math.sin. */
const T = [
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/** The left rotations of RFC 1321: four per round, used in turn. */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/** The message with RFC 1321's padding: a 1 bit, zeros up to 56 bytes mod 64, then the bit length in 64 bits, low word first. */
function padded(message: Uint8Array): Uint8Array {
	const length = (Math.floor((message.length + 8) / 64) + 1) * 64;
	const bytes = new Uint8Array(length);
	bytes.set(message);
	bytes[message.length] = 0x80;
	const view = new DataView(bytes.buffer);
	view.setUint32(length - 8, (message.length * 8) >>> 0, true);
	view.setUint32(length - 4, Math.floor(message.length / 0x20000000), true);
	return bytes;
}

/** One round's auxiliary function of b, c, d and the index of the word it takes from the block. */
function mix(step: number, b: number, c: number, d: number): [number, number] {
	switch (step >> 4) {
		case 0:
			return [(b & c) | (~b & d), step];
		case 1:
			return [(b & d) | (c & ~d), (5 * step + 1) & 15];
		case 2:
			return [b ^ c ^ d, (3 * step + 5) & 15];
		default:
			return [c ^ (b | ~d), (7 * step) & 15];
	}
}

/** Folds one 64-byte block, starting at `offset`, into the state words a, b, c, d. */
function processBlock(state: Int32Array, view: DataView, offset: number): void {
	let [a, b, c, d] = state;
	for (let step = 0; step < 64; step++) {
		const [f, word] = mix(step, b, c, d);
		const sum = (a + f + T[step] + view.getInt32(offset + word * 4, true)) | 0;
		const shift = SHIFTS[((step >> 4) << 2) | (step & 3)];
		a = d;
		d = c;
		c = b;
		b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
}

/** MD5 of the UTF-8 bytes of `text`, as 32 lowercase hex digits. */
export function md5Hex(text: string): string {
	const bytes = padded(new TextEncoder().encode(text));
	const view = new DataView(bytes.buffer);
	const state = new Int32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);
	for (let offset = 0; offset < bytes.length; offset += 64) processBlock(state, view, offset);
	return [...new Uint8Array(state.buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A Digest challenge this module can answer. */
export interface DigestChallenge {
	realm: string;
	nonce: string;
	/** 'auth' when the server offers it; undefined for an RFC 2069 server that sends no qop. */
	qop?: 'auth';
	algorithm: 'MD5' | 'MD5-sess';
	opaque?: string;
}

interface Challenge {
	scheme: string;
	params: Map<string, string>;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const PARAM = new RegExp(`^(${TOKEN})\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|[^\\s",]*)$`, 's');
const SCHEME = new RegExp(`^(${TOKEN})(?:\\s+(.*))?$`, 's');

/** The items of a comma-separated list, split only at commas outside quoted strings. */
function listItems(header: string): string[] {
	const items: string[] = [];
	let start = 0;
	let quoted = false;
	for (let i = 0; i < header.length; i++) {
		const char = header[i];
		if (quoted && char === '\\') i++;
		else if (char === '"') quoted = !quoted;
		else if (char === ',' && !quoted) {
			items.push(header.slice(start, i));
			start = i + 1;
		}
	}
	items.push(header.slice(start));
	return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** A parameter `name=value` as [lowercase name, value without its quotes and escapes], or undefined. */
function readParam(item: string): [string, string] | undefined {
	const match = PARAM.exec(item);
	if (!match) return undefined;
	const value = match[2].startsWith('"') ? match[2].slice(1, -1).replace(/\\(.)/gs, '$1') : match[2];
	return [match[1].toLowerCase(), value];
}

/**
 * The challenges of one header value in order. An item that is not `name=value` starts a new
 * challenge: its scheme, then possibly its first parameter (or a token68, which is not kept).
 */
function readChallenges(header: string): Challenge[] {
	const challenges: Challenge[] = [];
	for (const item of listItems(header)) {
		const param = readParam(item);
		const current = challenges[challenges.length - 1];
		if (param) {
			if (current && !current.params.has(param[0])) current.params.set(param[0], param[1]);
			continue;
		}
		const scheme = SCHEME.exec(item);
		if (!scheme) continue;
		const params = new Map<string, string>();
		const first = scheme[2] === undefined ? undefined : readParam(scheme[2]);
		if (first) params.set(first[0], first[1]);
		challenges.push({ scheme: scheme[1].toLowerCase(), params });
	}
	return challenges;
}

/** The algorithm as this module writes it, or undefined when it is not one it can answer. */
function md5Algorithm(value: string | undefined): DigestChallenge['algorithm'] | undefined {
	const algorithm = (value ?? 'MD5').toLowerCase();
	if (algorithm === 'md5') return 'MD5';
	if (algorithm === 'md5-sess') return 'MD5-sess';
	return undefined;
}

/** The challenge as a DigestChallenge when it is a Digest challenge this module can answer. */
function answerable({ scheme, params }: Challenge): DigestChallenge | undefined {
	const algorithm = md5Algorithm(params.get('algorithm'));
	const realm = params.get('realm');
	const nonce = params.get('nonce');
	const qop = params.get('qop');
	if (scheme !== 'digest' || !algorithm || realm === undefined || !nonce) return undefined;
	const offersAuth = qop?.split(',').some((option) => option.trim().toLowerCase() === 'auth');
	if (qop !== undefined && !offersAuth) return undefined;
	const challenge: DigestChallenge = { realm, nonce, algorithm };
	if (offersAuth) challenge.qop = 'auth';
	const opaque = params.get('opaque');
	if (opaque !== undefined) challenge.opaque = opaque;
	return challenge;
}

/**
 * The first Digest challenge with MD5 or MD5-sess, a realm and a nonce in the WWW-Authenticate
 * header value(s), or undefined. One whose qop offers only auth-int is passed over.
 */
export function parseDigestChallenge(header: string | string[] | undefined): DigestChallenge | undefined {
	const values = typeof header === 'string' ? [header] : (header ?? []);
	for (const value of values) {
		for (const challenge of readChallenges(value)) {
			const digest = answerable(challenge);
			if (digest) return digest;
		}
	}
	return undefined;
}

/** A quoted-string with its backslashes and quotes escaped. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

/**
 * The Authorization header value answering `challenge` for one request. `nonceCount` counts the
 * requests made with this nonce, from 1.
 */
export function digestAuthorization(
	challenge: DigestChallenge,
	login: { username: string; password: string },
	request: { method: string; uri: string },
	cnonce: string,
	nonceCount: number,
): string {
	const { realm, nonce, qop, algorithm, opaque } = challenge;
	const secret = md5Hex(`${login.username}:${realm}:${login.password}`);
	const ha1 = algorithm === 'MD5-sess' ? md5Hex(`${secret}:${nonce}:${cnonce}`) : secret;
	const ha2 = md5Hex(`${request.method}:${request.uri}`);
	const nc = nonceCount.toString(16).padStart(8, '0');
	const response = qop ? md5Hex(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5Hex(`${ha1}:${nonce}:${ha2}`);
	const fields = [
		`username=${quoted(login.username)}`,
		`realm=${quoted(realm)}`,
		`nonce=${quoted(nonce)}`,
		`uri=${quoted(request.uri)}`,
		`algorithm=${algorithm}`,
		`response=${quoted(response)}`,
	];
	if (qop) fields.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`);
	if (opaque !== undefined) fields.push(`opaque=${quoted(opaque)}`);
	return `Digest ${fields.join(', ')}`;
}

/** A client nonce of 16 hex digits. Math.random is enough: a cnonce is sent in the clear and need only be unforeseeable, to foil replay, not secret. */
export function newCnonce(): string {
	let cnonce = '';
	for (let i = 0; i < 4; i++) cnonce += Math.floor(Math.random() * 0x10000).toString(16).padStart(4, '0');
	return cnonce;
}
