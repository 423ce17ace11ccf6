/**
 * The payloads of shared/service-shapes (the official SDKs' test mocks and the docs' examples;
 * INDEX.json gives each one's source) and what the node makes of each success, written from the
 * payloads by hand. Read by the unit test and the e2e test alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHAPES = join(__dirname, '..', '..', '..', 'shared', 'service-shapes');
export const index = JSON.parse(readFileSync(join(SHAPES, 'INDEX.json'), 'utf8')) as { files: Array<{ file: string; http_status: number | string }> };
export const payload = (file: string): string => readFileSync(join(SHAPES, file), 'utf8');

export const successes: Record<string, { operation: 'detect' | 'classify'; expected: Record<string, unknown>; picture?: 'jpeg' | 'none' }> = {
	'docs.detect.200.example.json': {
		operation: 'detect',
		expected: { totalDetections: 2, countsByLabel: { car: 1, person: 1 }, summary: '1 car, 1 person' },
	},
	'py-sdk.detect.200.no-image.no-labelsCount.json': {
		operation: 'detect',
		expected: { totalDetections: 1, countsByLabel: { foo: 1 }, labelsCount: [{ label: 'foo', total: 1 }], summary: '1 foo' },
		picture: 'none',
	},
	'py-sdk.detect.200.raw-base64-image.no-labelsCount.json': {
		operation: 'detect',
		expected: { totalDetections: 1, countsByLabel: { foo: 1 }, labelsCount: [{ label: 'foo', total: 1 }] },
		picture: 'jpeg',
	},
	'ts-sdk.detect.200.data-uri-image.json': {
		operation: 'detect',
		expected: { totalDetections: 0, countsByLabel: {}, labelsCount: [], summary: 'nothing detected' },
	},
	'docs.classify.200.example.json': {
		operation: 'classify',
		expected: { category: 'cat', confidence: 0.854, predictions: [{ category: 'cat', confidence: 0.854 }, { category: 'dog', confidence: 0.146 }] },
	},
	'py-sdk.classify.200.json': {
		operation: 'classify',
		expected: { category: 'foo', confidence: 0.7, predictions: [{ category: 'foo', confidence: 0.7 }, { category: 'bar', confidence: 0.3 }] },
	},
};

/** The error payloads: the file, the status it is served with, a text the user must read. */
export const errors: Array<[file: string, status: number, text: string]> = [
	['py-sdk.error.400.json', 400, 'validation errors'],
	['ts-sdk.error.400.json', 400, 'validation error'],
	['py-sdk.error.400.non-json.txt', 400, 'Validation error'],
];
/** `{}`: classify without its two required fields. */
export const EMPTY_CLASSIFY = 'ts-sdk.classify.200.empty.json';
export const RETRY_5XX = 'py-sdk.error.5xx-retry.json';
/** A payload as the server sends it: JSON files parsed, text files as text. */
export const body = (file: string): string | object => (file.endsWith('.json') ? (JSON.parse(payload(file)) as object) : payload(file));
