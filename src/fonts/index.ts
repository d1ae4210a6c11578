export type { FontWeight, FontRegistryOptions, FaceSource } from './types.js';
export { FONT_WEIGHTS } from './types.js';
export { FontRegistry, type ResolvedFace, type CjkLanguage } from './registry.js';
export { MissingFontError, type EngineFace } from './engine-faces.js';
export { catalogueFaces, type CatalogueFace } from './offline-catalogue.js';
export { RemoteFontCatalogue, parseMetadata, type RemoteCatalogueOptions } from './remote-catalogue.js';
export { scriptBlocks, scriptFontFor } from './script-ranges.js';
export { bundledFontsDir } from './paths.js';
