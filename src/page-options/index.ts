export { lengthToPoints, marginShorthandToPoints } from './units.js';
export { resolvePageLayout } from './layout.js';
export type { PageLayout, PageCountPosition } from './layout.js';
