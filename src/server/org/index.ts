/** Organization settings as the server loads them (`--org FILE`); the settings themselves are src/packets/org.ts. */
export { loadOrganizationFile } from './load.js';
export { frameAncestorsFor, frameAncestorsOf, stylesheetOriginsFor } from './policy.js';
export type { FramedPage } from './policy.js';
