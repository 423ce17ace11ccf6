/**
 * A camera on 127.0.0.1 whose every answer the test decides: by default the next frame of a script
 * (the last one again once the script ends), else whatever `answerWith` says (a status, headers, a
 * body, a Digest login, an endless stream). Every request is recorded with its headers.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CameraRequest {
	url: string;
	headers: http.IncomingHttpHeaders;
}

export type CameraAnswer = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface StandInCamera {
	url: string;
	requests: CameraRequest[];
	/** The frames served so far. */
	served: number;
	/** Frames by index from the script; after the script, its last frame. */
	script(frames: Buffer[]): void;
	/** Every later request answered this way (undefined: back to the script). */
	answerWith(answer: CameraAnswer | undefined): void;
	close(): Promise<void>;
}

export async function startStandInCamera(frames: Buffer[] = [], path = '/snapshot.jpg'): Promise<StandInCamera> {
	let script = frames;
	let answer: CameraAnswer | undefined;
	const camera = { served: 0, requests: [] as CameraRequest[] };
	const sockets = new Set<import('node:net').Socket>();
	const server = http.createServer((request, response) => {
		camera.requests.push({ url: request.url ?? '', headers: request.headers });
		if (answer) {
			answer(request, response);
			return;
		}
		if (!request.url?.startsWith(path) || script.length === 0) {
			response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
			return;
		}
		const bytes = script[Math.min(camera.served, script.length - 1)];
		camera.served++;
		response.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length }).end(bytes);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${path}`,
		requests: camera.requests,
		get served() {
			return camera.served;
		},
		script(next) {
			script = next;
			camera.served = 0;
		},
		answerWith(next) {
			answer = next;
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
