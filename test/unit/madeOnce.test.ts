import { madeOncePer } from '../../nodes/ImageInference/pipeline/madeOnce';

describe('madeOncePer: a value made once per key object', () => {
	it('makes each key’s value at its first call, from that call’s other arguments, and gives it again after', () => {
		const make = jest.fn((key: { name: string }, itemIndex: number) => `${key.name} read at item ${itemIndex}`);
		const read = madeOncePer(make);
		const gate = { name: 'gate' };
		const yard = { name: 'yard' };
		expect([read(gate, 0), read(gate, 1), read(yard, 2), read(gate, 3), read({ name: 'gate' }, 4)]).toEqual([
			'gate read at item 0',
			'gate read at item 0',
			'yard read at item 2',
			'gate read at item 0',
			'gate read at item 4',
		]);
		expect(make.mock.calls.map(([, itemIndex]) => itemIndex)).toEqual([0, 2, 4]);
	});

	it('keeps a value of undefined as made', () => {
		const make = jest.fn((_key: object): string | undefined => undefined);
		const read = madeOncePer(make);
		const options = {};
		expect([read(options), read(options)]).toEqual([undefined, undefined]);
		expect(make).toHaveBeenCalledTimes(1);
	});

	it('keeps nothing when making fails: the next call makes it again, and fails for its own item', () => {
		const read = madeOncePer((_key: object, itemIndex: number): never => {
			throw new Error(`item ${itemIndex}: Watch Key is empty`);
		});
		const options = {};
		expect(() => read(options, 0)).toThrow('item 0: Watch Key is empty');
		expect(() => read(options, 1)).toThrow('item 1: Watch Key is empty');
	});
});
