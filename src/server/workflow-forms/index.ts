/** The workflows' forms (src/workflows served over HTTP). */
export { weldRoutes } from './routes.js';
export type { WeldRoutesOptions } from './routes.js';
export { LazyWeldBackend } from './backend.js';
