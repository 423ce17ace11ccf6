import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Each node run's options when they hold no expression: the same for every item. */
const optionsWithoutExpressions = new WeakMap<IExecuteFunctions, Readonly<IDataObject>>();

/**
 * An item's options. n8n copies the whole collection for each read (and resolves each expression
 * in it); options that hold no expression are the same for every item
 * (n8n-workflow's WorkflowExpression.getParameterValue returns a value that is not an expression
 * as it is), so they are read once per run and shared, frozen, by its items.
 */
export function readOptions(this: IExecuteFunctions, itemIndex: number): Readonly<IDataObject> {
	const shared = optionsWithoutExpressions.get(this);
	if (shared) return shared;
	const value = this.getNodeParameter('options', itemIndex, {});
	const options = typeof value === 'object' && value !== null ? (value as IDataObject) : {};
	// without the node's stored parameters nothing tells an expression apart: each item reads its own
	const stored = this.getNode().parameters as INodeParameters | undefined;
	if (stored && !holdsExpression(stored.options)) optionsWithoutExpressions.set(this, Object.freeze(options));
	return options;
}

/** Whether a parameter's stored value is, or holds, an n8n expression (a text starting with "="; n8n-workflow's isExpression). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value !== 'object' || value === null) return false;
	return Object.values(value).some(holdsExpression);
}

/** Plain decimal notation (`3`, `0.25`, `-1`): what a user means by a number, unlike `0x3` or `1e1`. */
const PLAIN_DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** A number, or text in plain decimal notation read as one; anything else as it is. */
export function numberFromText(value: unknown): unknown {
	return typeof value === 'string' && PLAIN_DECIMAL.test(value.trim()) ? Number(value.trim()) : value;
}

/**
 * An optional number the user set (or an expression produced): `undefined` when unset, an item
 * error naming the option when it is not a number in [min, max]. 0 is a value, never "unset".
 * Text from an expression counts only in plain decimal notation: `Number()` would read a blank
 * as 0 and `0x3`, `1e1` or `Infinity` as numbers nobody meant.
 */
export function readOptionalNumber(
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	key: string,
	label: string,
	bounds: { min: number; max: number; integer?: boolean },
): number | undefined {
	const value = options[key];
	if (value === undefined || value === null) return undefined;
	const kind = bounds.integer ? 'a whole number' : 'a number';
	if (typeof value === 'string' && value.trim() === '') {
		throw new NodeOperationError(this.getNode(), `${label} is blank: it must be ${kind} from ${bounds.min} to ${bounds.max}`, {
			itemIndex,
			description: `The "${label}" option (or the expression that sets it) gave ${shownValue(value)}. Remove the option to use the default, or give it a number.`,
		});
	}
	const number = numberFromText(value);
	if (
		typeof number !== 'number' ||
		!Number.isFinite(number) ||
		number < bounds.min ||
		number > bounds.max ||
		(bounds.integer && !Number.isInteger(number))
	) {
		throw new NodeOperationError(
			this.getNode(),
			`${label} must be ${kind} from ${bounds.min} to ${bounds.max}, got ${shownValue(value)}`,
			{ itemIndex, description: `Change the "${label}" option (or the expression that sets it).` },
		);
	}
	return number;
}

export function readOptionalBoolean(
	this: Pick<IExecuteFunctions, 'getNode'>,
	itemIndex: number,
	options: IDataObject,
	key: string,
	label: string,
): boolean | undefined {
	const value = options[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && value.trim() === '') {
		throw new NodeOperationError(this.getNode(), `${label} is blank: it must be true or false`, {
			itemIndex,
			description: `The "${label}" option (or the expression that sets it) gave ${shownValue(value)}. Remove the option to use the default, or give it true or false.`,
		});
	}
	if (value === 'true' || value === 'false') return value === 'true';
	throw new NodeOperationError(
		this.getNode(),
		`${label} must be true or false, got ${shownValue(value)}`,
		{ itemIndex, description: `Turn "${label}" on or off, or make the expression that sets it give true or false.` },
	);
}

/**
 * A text parameter as given, '' when unset (or null). Anything else an expression gave (a number, a
 * list, an object) fails the item saying what it got: calling it "empty" would send the user looking
 * for a blank field.
 */
export function readText(this: IExecuteFunctions, itemIndex: number, value: unknown, label: string, description: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	throw new NodeOperationError(this.getNode(), `${label} must be text, got ${shownValue(value)}`, { itemIndex, description });
}

/**
 * An options parameter's value (text, one of `choices`), or an item error naming the option: an
 * expression can set such a parameter to anything. Takes the context as an argument, not as
 * `this`: `.call` would lose the choices' type.
 */
export function readChoice<T extends string>(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	choices: readonly T[],
	label: string,
	description = `Choose one in the list, or make the expression that sets "${label}" give one of them.`,
): T {
	if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
	throw new NodeOperationError(context.getNode(), `${label} must be one of ${choices.join(', ')}, got ${shownValue(value)}`, { itemIndex, description });
}

/**
 * A resource locator's mode and its value as trimmed text. A plain value (a parameter saved before
 * it became a locator, or an expression giving text) has no mode.
 */
export function locatorText(raw: unknown): { mode?: unknown; text: string } {
	const locator = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { mode?: unknown; value: unknown }) : undefined;
	return { mode: locator?.mode, text: String((locator ? locator.value : raw) ?? '').trim() };
}

/** A value as an error message quotes it: JSON, cut to 40 characters. */
export function shownValue(value: unknown): string {
	return truncate(JSON.stringify(value) ?? String(value), 40);
}

export function readFieldName(
	this: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): string {
	const description = `Enter the name of a binary field, for example "data".`;
	const name = readText.call(this, itemIndex, value, label, description).trim();
	if (name === '') throw new NodeOperationError(this.getNode(), `${label} is empty`, { itemIndex, description });
	return name;
}

export function truncate(text: string, length: number): string {
	return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/**
 * The entries of a "name: value" list: a text ("person: 0.7, car: 0.4"), or from an expression an
 * object ({ person: 0.7 }) or a list of such texts. `shape` names an entry in messages ("label: minimum").
 */
export function namedEntries(value: unknown, shape: string, fail: (message: string) => never): Array<[string, unknown]> {
	if (typeof value === 'string' || Array.isArray(value)) {
		return (typeof value === 'string' ? value.split(',') : (value as unknown[]))
			.map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
			.filter((entry) => entry !== '')
			.map((entry) => {
				const text = typeof entry === 'string' ? entry : '';
				const colon = text.lastIndexOf(':');
				if (colon === -1) return fail(`${shownValue(entry)} is not ${shape}`);
				return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
			});
	}
	if (typeof value === 'object' && value !== null) return Object.entries(value);
	return fail(`${shownValue(value)} is not a list of ${shape}`);
}
