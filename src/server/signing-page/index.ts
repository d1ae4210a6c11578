/** The signer's side over HTTP: the page at the signing URL, its documents, and the submission. */
export { signingRoutes } from './routes.js';
export type { SigningRoutesOptions } from './routes.js';
