import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MODEL_ID_REGEX, MODEL_URL_REGEX } from '../contract';
import type { RequestSettings } from '../transport';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, MAX_CONCURRENCY, MAX_RETRIES, MAX_TIMEOUT_MS } from './constants';

const MODEL_ID = new RegExp(`^${MODEL_ID_REGEX}$`);
const MODEL_URL = new RegExp(`^${MODEL_URL_REGEX}$`);
const MODEL_ID_LOOKS_LIKE =
	'A model ID is a UUID: 36 characters, hexadecimal digits in groups of 8-4-4-4-12, like 4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f.';

/**
 * The model's ID from the Model parameter: version 1's text (an exact UUID, or a dashboard link
 * read as By URL reads it) or version 1.1's resource locator (By ID: one UUID and nothing else;
 * By URL: the UUID after `models/`). Never the first UUID found anywhere in the text.
 */
export function readModelId(this: IExecuteFunctions, itemIndex: number): string {
	const raw: unknown = this.getNodeParameter('modelId', itemIndex, '');
	const locator = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { mode?: unknown; value: unknown }) : undefined;
	const value = locator ? locator.value : raw;
	const text = typeof value === 'string' ? value.trim() : String(value ?? '');
	const mode = locator?.mode === 'id' || locator?.mode === 'url' ? locator.mode : 'text';
	const id =
		mode === 'id' ? MODEL_ID.exec(text)?.[0] : mode === 'url' ? MODEL_URL.exec(text)?.[1] : (MODEL_ID.exec(text)?.[0] ?? MODEL_URL.exec(text)?.[1]);
	if (id === undefined) {
		const shown = truncate(text, 80);
		const message =
			text === ''
				? 'Model ID is empty'
				: mode === 'url'
					? `The link "${shown}" does not hold a model ID after "models/"`
					: `Model ID "${shown}" is not a UUID`;
		const fix =
			mode === 'url'
				? 'Paste the link of the model’s page in the dashboard (…/models/<model ID>…), or choose By ID and paste the ID.'
				: 'Copy the model’s ID from its model details in the dashboard, or paste the link of the model’s page (…/models/<model ID>).';
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description: `${MODEL_ID_LOOKS_LIKE} ${fix}` });
	}
	return id.trim().toLowerCase();
}

export function readOptions(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = this.getNodeParameter('options', itemIndex, {});
	return typeof options === 'object' && options !== null ? (options as IDataObject) : {};
}

/** Plain decimal notation (`3`, `0.25`, `-1`): what a user means by a number, unlike `0x3` or `1e1`. */
const PLAIN_DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

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
	const number = typeof value === 'string' && PLAIN_DECIMAL.test(value.trim()) ? Number(value.trim()) : value;
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
	this: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	key: string,
	label: string,
): boolean | undefined {
	const value = options[key];
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'boolean') return value;
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

/** The value when it is one of the choices (an options parameter's value is text); undefined otherwise. */
export function choiceOf<T extends string>(value: unknown, choices: readonly T[]): T | undefined {
	return typeof value === 'string' && (choices as readonly string[]).includes(value) ? (value as T) : undefined;
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

/** How one item's requests are sent (Concurrency is checked here; the router runs the batch at one value). */
export function readRequestSettings(this: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = readOptions.call(this, itemIndex);
	return {
		concurrency:
			readOptionalNumber.call(this, itemIndex, options, 'concurrency', 'Concurrency', {
				min: 1,
				max: MAX_CONCURRENCY,
				integer: true,
			}) ?? DEFAULT_CONCURRENCY,
		retries:
			readOptionalNumber.call(this, itemIndex, options, 'retries', 'Retries', {
				min: 0,
				max: MAX_RETRIES,
				integer: true,
			}) ?? DEFAULT_RETRIES,
		timeoutMs:
			readOptionalNumber.call(this, itemIndex, options, 'timeout', 'Timeout', {
				min: 1,
				max: MAX_TIMEOUT_MS,
			}) ?? DEFAULT_TIMEOUT_MS,
	};
}

export function truncate(text: string, length: number): string {
	return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
