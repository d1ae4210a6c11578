/**
 * What an engine lends its renderers, one floor below them: the services object (fonts, text,
 * images, resolver, limits, clock) and the limits. Renderers (fill, Markdown, HTML, signing)
 * and packets import these from here, never from src/engine.
 */
export type { EngineServices } from './services.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { Limits } from './limits.js';
