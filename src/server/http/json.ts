/** Request bodies' JSON.parse lives with the schemas (src/schema/json-body.ts): worker threads parse large bodies too. */
export { parseJson } from '../../schema/index.js';
