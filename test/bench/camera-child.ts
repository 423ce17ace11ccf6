/**
 * Ten stand-in cameras in a child process, so the trigger benchmark measures the trigger alone.
 * Camera i answers GET /<i>/snapshot.png with the next frame of its script: a car in the driveway
 * from the 30th to the 129th look of every 300, the empty driveway otherwise. Sends { url } over IPC once listening.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { cameraFrame } from '../harness/images';

const CAMERAS = 10;
const EMPTY = cameraFrame('empty');
const CAR = cameraFrame('carInZone');

const looks = new Array<number>(CAMERAS).fill(0);
const server = http.createServer((request, response) => {
	const camera = Number(/^\/(\d+)\/snapshot\.png$/.exec(request.url ?? '')?.[1] ?? -1);
	if (!(camera >= 0 && camera < CAMERAS)) return void response.writeHead(404).end();
	const look = looks[camera]++;
	const bytes = look % 300 >= 30 && look % 300 < 130 ? CAR : EMPTY;
	response.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length }).end(bytes);
});
server.listen(0, '127.0.0.1', () => {
	process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
