export { lengthToPoints, marginShorthandToPoints } from './units.js';
export { resolvePageLayout, DEFAULT_PAGE } from './layout.js';
export type { PageLayout, PageCountPosition } from './layout.js';
