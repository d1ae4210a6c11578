/** The workflows' forms (src/workflows served over HTTP). */
export { weldRoutes, WELD_FORM_BODY_BYTES } from './routes.js';
export type { WeldRoutesOptions } from './routes.js';
export { LazyWeldBackend } from './backend.js';
