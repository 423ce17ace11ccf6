import {
	digestAuthorization,
	md5Hex,
	newCnonce,
	parseDigestChallenge,
} from '../../nodes/ImageInferenceTrigger/camera/digest';

/** Expected hashes are RFC 1321's published ones, or were computed once with Node's crypto and written here. */
describe('md5Hex', () => {
	it.each([
		['', 'd41d8cd98f00b204e9800998ecf8427e'],
		['a', '0cc175b9c0f1b6a831c399e269772661'],
		['abc', '900150983cd24fb0d6963f7d28e17f72'],
		['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
		['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
		['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
		['1234567890'.repeat(8), '57edf4a22be3c955ac49da2e2107b67a'],
	])('matches the RFC 1321 test suite for %j', (text, hash) => {
		expect(md5Hex(text)).toBe(hash);
	});

	it.each([
		[55, '6e7a4fc92eb1c3f6e652425bcc8d44b5'],
		[56, '8af270b2847610e742b0791b53648c09'],
		[63, 'c5e256437e758092dbfe06283e489019'],
		[64, '7f7bfd348709deeaace19e3f535f8c54'],
		[65, 'beb9f48bc802ca5ca043bcc15e219a5a'],
		[119, '42eec8502cb0ed8f0d05aa5a24463b6a'],
		[120, '71877a6051c58e0e9246babc177ca5f2'],
	])('pads a message of %i bytes', (length, hash) => {
		expect(md5Hex('0123456789'.repeat(13).slice(0, length))).toBe(hash);
	});

	it('hashes the UTF-8 bytes, not the UTF-16 code units', () => {
		expect(md5Hex('Köln')).toBe('2fc01bde301ce78776bfd009c2edc542');
		// 28 characters, 56 bytes: the padding needs a second block.
		expect(md5Hex('é'.repeat(28))).toBe('20b0102488adc14d6375a20e9e1ed8b3');
	});

	it('hashes a million bytes', () => {
		expect(md5Hex('a'.repeat(1_000_000))).toBe('7707d6ae4e027c70eea2a935c2296f21');
	});
});

describe('parseDigestChallenge', () => {
	it('reads a single challenge', () => {
		const header =
			'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"';
		expect(parseDigestChallenge(header)).toStrictEqual({
			realm: 'testrealm@host.com',
			nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
			qop: 'auth',
			algorithm: 'MD5',
			opaque: '5ccc069c403ebaf9f0171e9517f40e41',
		});
	});

	it('reads an RFC 2069 challenge, without qop, as one with qop undefined', () => {
		expect(parseDigestChallenge('Digest realm="cam", nonce="abc"')).toStrictEqual({
			realm: 'cam',
			nonce: 'abc',
			algorithm: 'MD5',
		});
	});

	it('takes the first MD5 challenge of several in one header, with its own fields only', () => {
		const header =
			'Basic realm="x", Digest realm="cam", qop="auth,auth-int", nonce="abc", algorithm=SHA-256, opaque="o", Digest realm="cam2", nonce="def", algorithm=MD5';
		expect(parseDigestChallenge(header)).toStrictEqual({ realm: 'cam2', nonce: 'def', algorithm: 'MD5' });
	});

	it('takes the first of two MD5 challenges', () => {
		const header = 'Digest realm="one", nonce="n1", Digest realm="two", nonce="n2", qop="auth"';
		expect(parseDigestChallenge(header)).toStrictEqual({ realm: 'one', nonce: 'n1', algorithm: 'MD5' });
	});

	it('reads several header values in order', () => {
		expect(
			parseDigestChallenge([
				'Basic realm="x"',
				'Digest realm="cam", nonce="abc", algorithm=SHA-256',
				'Digest realm="cam", nonce="def", qop="auth"',
				'Digest realm="cam", nonce="ghi"',
			]),
		).toStrictEqual({ realm: 'cam', nonce: 'def', qop: 'auth', algorithm: 'MD5' });
	});

	it.each([
		['no header', undefined],
		['no header values', []],
		['an empty header', ''],
		['Basic only', 'Basic realm="cam"'],
		['SHA-256 only', 'Digest realm="cam", nonce="abc", algorithm=SHA-256'],
		['a Digest challenge without a nonce', 'Digest realm="cam", qop="auth"'],
		['a Digest challenge with an empty nonce', 'Digest realm="cam", nonce=""'],
		['a Digest challenge without a realm', 'Digest nonce="abc"'],
		['a nonce only in a challenge of another scheme', 'Digest realm="cam", Other nonce="abc"'],
		['auth-int only', 'Digest realm="cam", nonce="abc", qop="auth-int"'],
		['an unterminated quoted string', 'Digest realm="cam, nonce="abc'],
	])('finds none in %s', (_, header) => {
		expect(parseDigestChallenge(header)).toBeUndefined();
	});

	it('passes over a challenge whose qop offers only auth-int', () => {
		const header = 'Digest realm="a", nonce="n1", qop="auth-int", Digest realm="b", nonce="n2", qop="auth-int, auth"';
		expect(parseDigestChallenge(header)).toStrictEqual({ realm: 'b', nonce: 'n2', qop: 'auth', algorithm: 'MD5' });
	});

	it('keeps commas and escaped quotes inside quoted strings', () => {
		const header = 'Digest realm="Front, \\"door\\" \\\\ cam", nonce="a,b", opaque="Digest realm=\\"x\\", nonce=\\"y\\""';
		expect(parseDigestChallenge(header)).toStrictEqual({
			realm: 'Front, "door" \\ cam',
			nonce: 'a,b',
			algorithm: 'MD5',
			opaque: 'Digest realm="x", nonce="y"',
		});
	});

	it('does not end a quoted string at an escaped quote', () => {
		expect(parseDigestChallenge('Digest realm="say \\"hi, there", nonce="abc"')).toStrictEqual({
			realm: 'say "hi, there',
			nonce: 'abc',
			algorithm: 'MD5',
		});
	});

	it('keeps the first of a repeated parameter', () => {
		expect(parseDigestChallenge('Digest realm="cam", nonce="first", nonce="second"')).toStrictEqual({
			realm: 'cam',
			nonce: 'first',
			algorithm: 'MD5',
		});
	});

	it('reads scheme, parameter names and algorithm in any case', () => {
		const header = 'dIGEST REALM="cam", Nonce="abc", ALGORITHM=md5-SESS, QoP="AUTH"';
		expect(parseDigestChallenge(header)).toStrictEqual({ realm: 'cam', nonce: 'abc', qop: 'auth', algorithm: 'MD5-sess' });
	});

	it('reads algorithm=MD5-sess', () => {
		expect(parseDigestChallenge('Digest realm="cam", nonce="abc", algorithm=MD5-sess, qop="auth"')).toStrictEqual({
			realm: 'cam',
			nonce: 'abc',
			qop: 'auth',
			algorithm: 'MD5-sess',
		});
	});

	it('reads token values, white space around "=", and challenges without parameters or with a token68', () => {
		const header = 'Negotiate, NTLM TlRMTVNTUAABAAAAB4IIog==, Digest  realm = cam ,nonce=abc , algorithm="MD5"';
		expect(parseDigestChallenge(header)).toStrictEqual({ realm: 'cam', nonce: 'abc', algorithm: 'MD5' });
	});
});

describe('digestAuthorization', () => {
	const login = { username: 'Mufasa', password: 'Circle Of Life' };
	const request = { method: 'GET', uri: '/dir/index.html' };
	const realm = 'testrealm@host.com';
	const nonce = 'dcd98b7102dd2f0e8b11d0f600bfb0c093';
	const cnonce = '0a4f113b';
	const opaque = '5ccc069c403ebaf9f0171e9517f40e41';
	const head = `username="Mufasa", realm="${realm}", nonce="${nonce}", uri="/dir/index.html"`;

	it('answers the RFC 2617 section 3.5 example', () => {
		expect(digestAuthorization({ realm, nonce, qop: 'auth', algorithm: 'MD5', opaque }, login, request, cnonce, 1)).toBe(
			`Digest ${head}, algorithm=MD5, response="6629fae49393a05397450978507c4ef1", qop=auth, nc=00000001, cnonce="${cnonce}", opaque="${opaque}"`,
		);
	});

	it('answers the challenge as parsed from the header', () => {
		const challenge = parseDigestChallenge(`Digest realm="${realm}", qop="auth,auth-int", nonce="${nonce}", opaque="${opaque}"`);
		expect(challenge && digestAuthorization(challenge, login, request, cnonce, 1)).toContain(
			'response="6629fae49393a05397450978507c4ef1"',
		);
	});

	it('writes the nonce count as 8 hex digits', () => {
		expect(digestAuthorization({ realm, nonce, qop: 'auth', algorithm: 'MD5' }, login, request, cnonce, 10)).toBe(
			`Digest ${head}, algorithm=MD5, response="4e64aba7c53ac2e14113fb3d5f78d774", qop=auth, nc=0000000a, cnonce="${cnonce}"`,
		);
	});

	it('answers MD5-sess', () => {
		expect(digestAuthorization({ realm, nonce, qop: 'auth', algorithm: 'MD5-sess' }, login, request, cnonce, 1)).toBe(
			`Digest ${head}, algorithm=MD5-sess, response="8e3825c57e897f5a0dec6c2d4e5059d0", qop=auth, nc=00000001, cnonce="${cnonce}"`,
		);
		expect(digestAuthorization({ realm, nonce, qop: 'auth', algorithm: 'MD5-sess' }, login, request, cnonce, 0x1a2b)).toBe(
			`Digest ${head}, algorithm=MD5-sess, response="a4d19ef375c088bae99dd209df9e48c1", qop=auth, nc=00001a2b, cnonce="${cnonce}"`,
		);
	});

	it('answers an RFC 2069 challenge, without qop, nc or cnonce', () => {
		expect(digestAuthorization({ realm, nonce, algorithm: 'MD5', opaque }, login, request, cnonce, 1)).toBe(
			`Digest ${head}, algorithm=MD5, response="670fd8c2df070c60b045671b8b24ff02", opaque="${opaque}"`,
		);
		expect(digestAuthorization({ realm, nonce, algorithm: 'MD5-sess' }, login, request, cnonce, 1)).toBe(
			`Digest ${head}, algorithm=MD5-sess, response="4726bc10c33fa6cb357eb27807b1cce8"`,
		);
	});

	it('escapes quotes and backslashes in quoted values, and hashes the value unescaped', () => {
		const header = digestAuthorization(
			{ realm, nonce, qop: 'auth', algorithm: 'MD5' },
			{ username: 'a"b\\c', password: 'Circle Of Life' },
			request,
			cnonce,
			1,
		);
		expect(header).toBe(
			`Digest username="a\\"b\\\\c", realm="${realm}", nonce="${nonce}", uri="/dir/index.html", algorithm=MD5, response="478eddf10c026f76307ff9b4dfa91e6c", qop=auth, nc=00000001, cnonce="${cnonce}"`,
		);
	});
});

describe('newCnonce', () => {
	afterEach(() => jest.restoreAllMocks());

	it('is 16 lowercase hex digits, new each time', () => {
		const first = newCnonce();
		expect(first).toMatch(/^[0-9a-f]{16}$/);
		expect(newCnonce()).not.toBe(first);
	});

	it('keeps its leading zeros and reaches f', () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		expect(newCnonce()).toBe('0000000000000000');
		jest.spyOn(Math, 'random').mockReturnValue(0.99999999);
		expect(newCnonce()).toBe('ffffffffffffffff');
	});
});
