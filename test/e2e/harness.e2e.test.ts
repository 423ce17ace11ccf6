/**
 * The harness itself, proven with n8n's built-in nodes only (no package needed): a file read from
 * the test photos arrives in n8n's run data byte for byte, a Code node (task runner in 2.x) sees the same bytes,
 * credentials imported with plain `data` are usable, and the server comes up and answers REST.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import {
	code,
	createN8nHome,
	e2eVersions,
	fixture,
	manualTrigger,
	nodeItems,
	readBinary,
	readFile,
	RestClient,
	workflow,
	type N8nHome,
} from './lib';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(e2eVersions())('harness on n8n %s', (version) => {
	let home: N8nHome;
	beforeAll(async () => {
		home = await createN8nHome({ version, installPackage: false });
	});
	afterAll(async () => {
		await home?.dispose();
	});

	it('runs a workflow with built-in nodes and returns n8n run data with the binary', async () => {
		const car = fs.readFileSync(fixture('car.jpg'));
		const [id] = await home.importWorkflows(
			workflow('harness: read file', [
				manualTrigger(),
				readFile('Read car', fixture('car.jpg')),
				code(
					'Hash',
					`const out = [];
for (let i = 0; i < $input.all().length; i++) {
  const buf = await this.helpers.getBinaryDataBuffer(i, 'data');
  out.push({ json: { size: buf.length, base64: buf.toString('base64') } });
}
return out;`,
				),
			]),
		);
		const res = await home.execute(id);
		expect(res.error).toBeUndefined();
		expect(res.ok).toBe(true);
		const [read] = nodeItems(res.run!, 'Read car');
		expect(read.binary!.data.mimeType).toBe('image/jpeg');
		expect(read.binary!.data.fileName).toBe('car.jpg');
		expect(sha256(readBinary(home, read.binary!.data))).toBe(sha256(car));
		const [hash] = nodeItems(res.run!, 'Hash');
		expect(hash.json).toEqual({ size: car.length, base64: car.toString('base64') });
	});

	it('imports credentials with plain data and serves REST after a headless owner setup', async () => {
		await home.importCredentials({
			id: 'harnessCred0001',
			name: 'harness header auth',
			type: 'httpHeaderAuth',
			data: { name: 'X-Test', value: 'secret' },
		});
		const server = await home.start();
		try {
			const rest = await RestClient.setupOwner(server.url);
			const r = await rest.request<Array<{ id: string; name: string }>>('GET', '/rest/credentials');
			expect(r.status).toBe(200);
			expect(r.body.map((c) => c.id)).toContain('harnessCred0001');
			const types = await rest.nodeTypes();
			expect(types.some((t) => t.name === 'n8n-nodes-base.httpRequest')).toBe(true);
		} finally {
			await server.stop();
		}
	});
});
