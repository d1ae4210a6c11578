export { Engine, createEngine } from './engine.js';
export type { EngineOptions, FillCallOptions, GenerateCallOptions, RenderedPdf } from './engine.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { Limits } from './limits.js';
export type { EngineServices } from './services.js';
