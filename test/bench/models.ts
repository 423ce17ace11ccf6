/**
 * The reference server's colour-region detection model, by its id: benchmarks name it explicitly,
 * so they measure the node against a fast, synthetic model whatever the server's default model is.
 */
export const SYNTHETIC_DETECT_MODEL = '3f8e2a6c-5b1d-4c7e-9a2f-6d4b8c1e0f37';
