import { MODEL_IDS } from '../reference-server';

/**
 * The reference server's synthetic colour-region detection model, by its id: benchmarks name it
 * explicitly, so they measure the node against a fast model whatever the server's default is.
 */
export const SYNTHETIC_DETECT_MODEL = MODEL_IDS.syntheticDetect;
