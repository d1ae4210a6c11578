/** Organization settings as the server loads them (`--org FILE`); the settings themselves are src/packets/org.ts. */
export { loadOrganizationFile } from './load.js';
export { frameAncestorsFor, stylesheetOriginsFor } from './policy.js';
