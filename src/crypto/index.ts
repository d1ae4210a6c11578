export { decryptDataString, encryptDataString } from './encrypted-data.js';
export type { KeyInput } from './encrypted-data.js';
