export { Engine, createEngine } from './engine.js';
export type { EngineOptions, FillCallOptions } from './engine.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { Limits } from './limits.js';
