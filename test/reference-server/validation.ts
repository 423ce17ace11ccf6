import type { z } from 'zod';

import type { ErrorBody, ErrorDetail } from '../../nodes/ImageInference/contract';

/** The service's ErrorDetail entries for a body that fails the contract (pointers into the body). */
export function bodyIssues(error: z.ZodError): ErrorDetail[] {
	return error.issues.flatMap((issue): ErrorDetail[] => {
		const pointer = `/${issue.path.join('/')}`;
		if (issue.code === 'invalid_type' && issue.received === 'undefined') {
			return [{ location: 'body', type: 'value_error.missing', pointer, message: 'field required' }];
		}
		if (issue.code === 'unrecognized_keys') {
			return issue.keys.map((key) => ({
				location: 'body',
				type: 'value_error.extra',
				pointer: `${pointer === '/' ? '' : pointer}/${key}`,
				message: 'extra fields not permitted',
			}));
		}
		if (issue.code === 'too_small' || issue.code === 'too_big') {
			const bound = issue.code === 'too_small' ? `greater than or equal to ${issue.minimum}` : `less than or equal to ${issue.maximum}`;
			return [{ location: 'body', type: `value_error.number.${issue.code === 'too_small' ? 'not_ge' : 'not_le'}`, pointer, message: `ensure this value is ${bound}` }];
		}
		if (issue.code === 'invalid_type') {
			return [{ location: 'body', type: `type_error.${issue.expected}`, pointer, message: `value is not a valid ${issue.expected}` }];
		}
		return [{ location: 'body', type: `value_error.${issue.code}`, pointer, message: issue.message }];
	});
}

export function badRequest(details: ErrorDetail[]): ErrorBody {
	const fields = details.map((detail) => `${detail.pointer.replace(/^\//, '') || 'body'}: ${detail.message}`);
	return { type: 'error', code: 'bad_request', status: 400, message: fields.join('; '), details };
}

export const imageDetail = (message: string, type = 'value_error.image'): ErrorDetail => ({
	location: 'body',
	type,
	pointer: '/image',
	message,
});
