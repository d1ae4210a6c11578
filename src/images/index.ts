export { embedPrepared, ImageCache, placeImage, prepareImage } from './prepare.js';
export type { EmbeddedImage, LoadedImage, PreparedImage, PrepareOptions } from './prepare.js';
