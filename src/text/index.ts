export type { TextStyle, Span, PlacedRun, LaidLine, LayoutOptions, FontMetrics } from './types.js';
export { TextSetter, type DrawTarget, type TextSetterOptions } from './setter.js';
export { TextLayout, type TextLayoutOptions } from './layout.js';
export { Shaper } from './shaping.js';
export { SecondSight } from './second-sight.js';
export { breakOpportunities } from './breaking.js';
export { SubsetCache, type SubsetCacheOptions, type SubsetCacheStats } from './subset-cache.js';
export type { CjkLanguage } from './unicode.js';
