export { decryptDataString, encryptDataString, DecryptionFailure } from './encrypted-data.js';
export type { KeyInput } from './encrypted-data.js';
