import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
	url: string;
	port: number;
	/** Drops every open connection (idle keep-alive or hung) and stops listening. */
	close(): Promise<void>;
}

/**
 * Starts a test server on 127.0.0.1 that never holds a process open: the server and each of its
 * connections are unref'd, so idle keep-alive and hung connections cannot keep a test alive.
 */
export async function listenOnLoopback(server: Server, port = 0): Promise<LoopbackServer> {
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.unref();
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	server.unref();
	const bound = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${bound}`,
		port: bound,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
