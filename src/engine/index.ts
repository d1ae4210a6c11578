export { Engine, createEngine } from './engine.js';
export type { EngineOptions, FillCallOptions, GenerateCallOptions, RenderedPdf } from './engine.js';
// The services and limits live one floor below the renderers (src/services); the engine re-exports them for its callers.
export { DEFAULT_LIMITS } from '../services/index.js';
export type { EngineServices, Limits } from '../services/index.js';
