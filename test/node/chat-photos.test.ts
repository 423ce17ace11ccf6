import type { IDataObject } from 'n8n-workflow';

import type { AgentInput, InputItem } from '../harness/execute';
import { CAR, DOG, detectParameters, failureOf, useServer } from './setup';

/** What a Chat Trigger with file uploads puts on its item (n8n's ChatTrigger node, both versions). */
const chatMessage = (sessionId: string, chatInput: string, photos: Array<{ bytes: Buffer; fileName: string }>): InputItem => ({
	json: {
		sessionId,
		action: 'sendMessage',
		chatInput,
		...(photos.length
			? { files: photos.map((photo, index) => ({ fileName: photo.fileName, mimeType: 'image/jpeg', fileSize: `${photo.bytes.length} B`, fileExtension: 'jpg', binaryKey: `data${index}` })) }
			: {}),
	},
	binary: Object.fromEntries(photos.map((photo, index) => [`data${index}`, { bytes: photo.bytes, fileName: photo.fileName, mimeType: 'image/jpeg' }])),
});

const TRIGGER = 'When chat message received';
const PHOTOS: Record<string, string> = { [CAR.toString('base64')]: 'car.jpg', [DOG.toString('base64')]: 'dog.jpg' };
/** Which photo each request carried (its bytes exactly, or "other"), in the order sent. */
const sentImages = (requests: Array<{ body: unknown }>) => requests.map((request) => PHOTOS[(request.body as { image: string }).image] ?? 'other');

describe('As an AI Agent’s tool in a chat: the photo the user sent', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });
	const agentCall = (items: InputItem[], itemIndex: number, extra: Partial<AgentInput> = {}): AgentInput => ({
		node: TRIGGER,
		items,
		itemIndex,
		arguments: { modelId: server().models.detect },
		...extra,
	});
	const detectData0 = (extra: IDataObject = {}) => detectParameters(server(), { binaryPropertyName: 'data0', ...extra });

	it('Binary File: the file comes from the agent’s input item, the service gets exactly its bytes, the agent the counts', async () => {
		const message = chatMessage('s1', 'What is in this photo?', [{ bytes: CAR, fileName: 'car.jpg' }]);
		const { items } = await run(detectData0(), [], { asTool: true, agentInput: agentCall([message], 0) });
		expect(sentImages(server().requests)).toEqual(['car.jpg']);
		const expected = server().predict('detect', CAR, {});
		expect(items).toHaveLength(1);
		expect(items[0].json.totalDetections).toBe(expected.detections.length);
		expect(items[0].binary).toBeUndefined();
	});

	it('several chat messages in one run of the agent: each call reads its own message’s photo, never another’s', async () => {
		const messages = [
			chatMessage('s1', 'What is in this photo?', [{ bytes: CAR, fileName: 'car.jpg' }]),
			chatMessage('s2', 'And this one?', [{ bytes: DOG, fileName: 'dog.jpg' }]),
		];
		await run(detectData0(), [], { asTool: true, agentInput: agentCall(messages, 1) });
		await run(detectData0(), [], { asTool: true, agentInput: agentCall(messages, 0) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg', 'car.jpg']);
	});

	it('the agent’s input node ran more than once: the run n8n names is read', async () => {
		const message = chatMessage('s3', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		await run(detectData0(), [], { asTool: true, agentInput: agentCall([message], 0, { runIndex: 2 }) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('the agent’s input came from a node’s second output (an If’s false branch): that output is read', async () => {
		const message = chatMessage('s3', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		await run(detectData0(), [], { asTool: true, agentInput: agentCall([message], 0, { output: 1 }) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('files held in memory (n8n 1.x’s default mode) are read too', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		await run(detectData0(), [], { asTool: true, agentInput: agentCall([message], 0, { inMemory: true }) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('All Images on the Item: two uploads in one message, both analysed, each once', async () => {
		const message = chatMessage('s1', 'Both?', [
			{ bytes: CAR, fileName: 'car.jpg' },
			{ bytes: DOG, fileName: 'dog.jpg' },
		]);
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [], { asTool: true, agentInput: agentCall([message], 0) });
		expect(sentImages(server().requests).sort()).toEqual(['car.jpg', 'dog.jpg']);
		expect(items).toHaveLength(2);
	});

	it('the tool’s own item’s file comes first', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]);
		// a file under the same field on the tool's own item (n8n puts none there today)
		const { items } = await run(detectData0(), [], {
			asTool: true,
			agentInput: { ...agentCall([message], 0), toolItemFiles: { data0: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } },
		});
		expect(items).toHaveLength(1);
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('a message without a photo: a readable result for the agent saying where it looked and what to do, no request', async () => {
		const message = chatMessage('s1', 'Hello', []);
		const { items } = await run(detectData0(), [], { asTool: true, onError: 'continueRegularOutput', agentInput: agentCall([message], 0) });
		expect(server().requests).toHaveLength(0);
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe('No binary field "data0" on the tool’s item or the AI Agent’s input item');
		expect(items[0].json.description).toContain(`the AI Agent’s input item from "${TRIGGER}" has no file`);
		expect(items[0].json.description).toContain('allow file uploads on the Chat Trigger');
		expect(items[0].json.description).not.toContain("$('");
	});

	it('a photo under another field name: the error names the fields there are', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]);
		const failure = await failureOf(run(detectData0({ binaryPropertyName: 'photo' }), [], { asTool: true, agentInput: agentCall([message], 0) }));
		expect(failure.message).toBe('No binary field "photo" on the tool’s item or the AI Agent’s input item');
		expect(failure.description).toContain('has the binary field(s) "data0"');
		expect(server().requests).toHaveLength(0);
	});

	it('two fields missing: both named in one message', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]);
		const failure = await failureOf(run(detectData0({ binaryPropertyName: 'front, back' }), [], { asTool: true, agentInput: agentCall([message], 0) }));
		expect(failure.message).toBe('No binary fields "front", "back" on the tool’s item or the AI Agent’s input item');
		expect(server().requests).toHaveLength(0);
	});

	it('All Images on the Item: the tool’s own file comes first, the agent’s input item’s files are not added', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]);
		const { items } = await run(detectParameters(server(), { imageSource: 'allImages' }), [], {
			asTool: true,
			agentInput: { ...agentCall([message], 0), toolItemFiles: { photo: { bytes: DOG, fileName: 'dog.jpg', mimeType: 'image/jpeg' } } },
		});
		expect(items).toHaveLength(1);
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('a tool item n8n did not pair with the agent’s input: says it could not look there, no request', async () => {
		const failure = await failureOf(run(detectData0(), [{ json: { chatInput: 'Look' } }], { asTool: true }));
		expect(failure.message).toBe('No binary field "data0" on the tool’s item or the AI Agent’s input item');
		expect(failure.description).toBe(
			'Looked on the tool’s own item, then the AI Agent’s input item was not found: n8n did not say which node the AI Agent’s input came from. ' +
				'In a chat, allow file uploads on the Chat Trigger and send a photo with the message. ' +
				'Or pass an image URL.',
		);
		expect(server().requests).toHaveLength(0);
	});

	it('files in n8n’s database store (queue mode’s default) are read from it', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		await run(detectData0(), [], { asTool: true, binaryMode: 'database', agentInput: agentCall([message], 0) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('two messages with the same data and the same photo: either is the one, its photo is read', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		await run(detectData0(), [], { asTool: true, agentInput: agentCall([message, message], 1) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('a tool argument that hides a field of the only message: that message is still the one', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		await run(detectData0(), [], { asTool: true, agentInput: agentCall([message], 0, { arguments: { modelId: server().models.detect, chatInput: 'what the agent wrote' } }) });
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	it('a tool argument that hides a field of one of two messages: none is the one, no request', async () => {
		const messages = [chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]), chatMessage('s2', 'Look here', [{ bytes: DOG, fileName: 'dog.jpg' }])];
		const failure = await failureOf(
			run(detectData0(), [], { asTool: true, agentInput: agentCall(messages, 1, { arguments: { modelId: server().models.detect, chatInput: 'what the agent wrote' } }) }),
		);
		expect(failure.description).toContain(`the AI Agent’s input item from "${TRIGGER}" was not found: none of the items of "${TRIGGER}" is the one the AI Agent is working on.`);
		expect(server().requests).toHaveLength(0);
	});

	it('All Images on the Item, a message without a photo: says there is no file and how to send one', async () => {
		const failure = await failureOf(run(detectParameters(server(), { imageSource: 'allImages' }), [], { asTool: true, agentInput: agentCall([chatMessage('s1', 'Hello', [])], 0) }));
		expect(failure.message).toBe('No file on the tool’s item or the AI Agent’s input item');
		expect(failure.description).toBe(
			`Looked on the tool’s own item, then the AI Agent’s input item from "${TRIGGER}" has no file. ` +
				'In a chat, allow file uploads on the Chat Trigger and send a photo with the message. ' +
				'Or pass an image URL.',
		);
	});

	it('two photos under other field names: the error names both and says how to pick one', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }, { bytes: DOG, fileName: 'dog.jpg' }]);
		const failure = await failureOf(run(detectData0({ binaryPropertyName: 'photo' }), [], { asTool: true, agentInput: agentCall([message], 0) }));
		expect(failure.description).toBe(
			`Looked on the tool’s own item, then the AI Agent’s input item from "${TRIGGER}" has the binary field(s) "data0", "data1". ` +
				'Set "Input Binary Field" to one of those, or use "All Images on the Item". ' +
				'Or pass an image URL.',
		);
	});

	it('a source node whose data cannot be read: says so, no request', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]);
		const failure = await failureOf(run(detectData0(), [], { asTool: true, agentInput: agentCall([message], 0, { sourceNode: 'Renamed Trigger' }) }));
		expect(failure.description).toContain('the AI Agent’s input item from "Renamed Trigger" was not found: the data of "Renamed Trigger" could not be read.');
		expect(server().requests).toHaveLength(0);
	});

	it('two messages with the same data but different photos: refuses to guess', async () => {
		const same = { sessionId: 's1', action: 'sendMessage', chatInput: 'Look' };
		const messages = [
			{ json: same, binary: chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]).binary },
			{ json: same, binary: chatMessage('s1', 'Look', [{ bytes: DOG, fileName: 'dog.jpg' }]).binary },
		];
		const failure = await failureOf(run(detectData0(), [], { asTool: true, agentInput: agentCall(messages, 1) }));
		expect(failure.description).toBe(
			`Looked on the tool’s own item, then the AI Agent’s input item from "${TRIGGER}" could not be told apart: 2 of its items hold the same data. ` +
				'n8n gives a tool only the data of the item the AI Agent works on, not which item it is. Before the AI Agent, give each item data of its own: an Edit Fields node setting "item" to {{ $itemIndex }}, with "Include Other Input Fields" on (it keeps the files only then). ' +
				'Or pass an image URL.',
		);
		expect(server().requests).toHaveLength(0);
	});
});

describe('Image Source "Binary From Expression"', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	it('reads the file object an expression gives; the item’s own files pass through beside it', async () => {
		// stands in for {{ $('Some node').item.binary.data }} in n8n 1.x's default mode: the file in memory, base64
		const referenced = { data: DOG.toString('base64'), mimeType: 'image/jpeg', fileName: 'dog.jpg' };
		const { items } = await run(detectParameters(server(), { imageSource: 'binaryExpression', imageBinary: referenced }), [
			{ binary: { image: { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' } } },
		]);
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
		expect(items).toHaveLength(1);
		expect(items[0].json.totalDetections).toBe(server().predict('detect', DOG, {}).detections.length);
		expect(Object.keys(items[0].binary ?? {}).sort()).toEqual(['data', 'image', 'image_1']);
		// the annotated picture beside the item's own file and the referenced one
	});

	it('an expression that gives a field name, not the file: says what to enter, no request', async () => {
		const failure = await failureOf(run(detectParameters(server(), { imageSource: 'binaryExpression', imageBinary: 'data0' }), [{}]));
		expect(failure.message).toBe('Binary File Reference is not a file');
		expect(failure.description).toContain(`{{ $('When chat message received').item.binary.data0 }}`);
		expect(failure.description).toContain('the text "data0"');
		expect(failure.itemIndex).toBe(0);
		expect(server().requests).toHaveLength(0);
	});

	it('puts the referenced file under the first free name: image, image_1, image_2…', async () => {
		const referenced = { data: DOG.toString('base64'), mimeType: 'image/jpeg', fileName: 'dog.jpg' };
		const own = { bytes: CAR, fileName: 'car.jpg', mimeType: 'image/jpeg' };
		const { items } = await run(detectParameters(server(), { imageSource: 'binaryExpression', imageBinary: referenced, options: { outputImages: 'none' } }), [
			{ binary: { image: own, image_1: own } },
		]);
		expect(Object.keys(items[0].binary ?? {})).toEqual(['image', 'image_1', 'image_2']);
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});

	const notAFile = 'Enter an expression that gives a file object, for example {{ $(\'When chat message received\').item.binary.data0 }} or {{ $binary.data }}; ';
	it.each([
		['an empty text', '', 'it is empty'],
		['null', null, 'it is empty'],
		['no value at all', undefined, 'it is empty'],
		['a long text, cut', `photo ${'x'.repeat(80)}`, `it gave the text "photo ${'x'.repeat(53)}…"`],
		['a number', 7, 'it gave something other than a file'],
		['a file without its mime type', { data: DOG.toString('base64'), fileName: 'dog.jpg' }, 'it gave something other than a file'],
		['a file with neither id nor data', { mimeType: 'image/jpeg', fileName: 'dog.jpg' }, 'it gave something other than a file'],
		['a file with empty data', { data: '', mimeType: 'image/jpeg' }, 'it gave something other than a file'],
		['a file whose id is not text', { id: 7, mimeType: 'image/jpeg' }, 'it gave something other than a file'],
		['a file whose data is not text', { data: 7, mimeType: 'image/jpeg' }, 'it gave something other than a file'],
	])('Binary File Reference that is %s: not a file, says what it got', async (_, imageBinary, got) => {
		const failure = await failureOf(run(detectParameters(server(), { imageSource: 'binaryExpression', imageBinary }), [{}]));
		expect(failure.message).toBe('Binary File Reference is not a file');
		expect(failure.description).toBe(`${notAFile}${got}.`);
		expect(server().requests).toHaveLength(0);
	});

	it('takes precedence over the agent’s input item: the referenced file is read', async () => {
		const message = chatMessage('s1', 'Look', [{ bytes: CAR, fileName: 'car.jpg' }]);
		const referenced = { data: DOG.toString('base64'), mimeType: 'image/jpeg', fileName: 'dog.jpg' };
		await run(detectParameters(server(), { imageSource: 'binaryExpression', imageBinary: referenced }), [], {
			asTool: true,
			agentInput: { node: TRIGGER, items: [message], itemIndex: 0 },
		});
		expect(sentImages(server().requests)).toEqual(['dog.jpg']);
	});
});
