/** The overlay: pages carrying the margin boxes Chromium cannot draw (build.ts says how). */
export { buildOverlay } from './build.js';
export { choose } from './policies.js';
