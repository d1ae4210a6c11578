/** The workflows' forms (src/workflows served over HTTP). */
export { weldRoutes } from './routes.js';
export type { WorkflowFormRoutesOptions } from './routes.js';
export { LazyWorkflowBackend } from './backend.js';
