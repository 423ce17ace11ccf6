/**
 * A stand-in for an IP camera's snapshot URL on 127.0.0.1: each GET of its path (/snapshot.jpg, or
 * another such as `/` for a camera that serves its snapshot at its root) answers the next frame of
 * a script (test/watch/frames.ts, or frames of the test's own), then the script's last frame again
 * and again.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { FrameName } from './frames';
import { frame } from './frames';

export interface Camera<Name extends string = FrameName> {
	snapshotUrl: string;
	/** The frames served so far, in order. */
	served: Name[];
	close(): Promise<void>;
}

/** `frameOf` makes each frame's bytes from its name (default: test/watch/frames.ts's frames). */
export async function startCamera<Name extends string = FrameName>(
	script: Name[],
	{ path = '/snapshot.jpg', frameOf = frame as (name: Name) => Buffer }: { path?: string; frameOf?: (name: Name) => Buffer } = {},
): Promise<Camera<Name>> {
	const frames = new Map(script.map((name) => [name, frameOf(name)]));
	const served: Name[] = [];
	const server = http.createServer((request, response) => {
		if (request.method !== 'GET' || request.url !== path) {
			response.writeHead(404).end();
			return;
		}
		const name = script[Math.min(served.length, script.length - 1)];
		served.push(name);
		const bytes = frames.get(name)!;
		response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': bytes.length }).end(bytes);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		snapshotUrl: `http://127.0.0.1:${port}${path}`,
		served,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
