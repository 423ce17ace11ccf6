import { NodeOperationError } from 'n8n-workflow';

/**
 * The node refused the item's image before any request: no file, an empty file, a file that is
 * not a picture it sends, bad base64, a URL that is not http(s). A failed item says so with the
 * code `invalid_image` (output/failureItem.ts), so a workflow can tell "send another file" from
 * "the workflow is set up wrong" and "try again later".
 */
export class ImageRefusedError extends NodeOperationError {}
