export { Engine, createEngine } from './engine.js';
export { packageVersion } from './version.js';
export type { EngineOptions, FillCallOptions, GenerateCallOptions, RenderedPdf } from './options.js';
export type { BlockPosition, CellPosition } from '../markdown/index.js';
