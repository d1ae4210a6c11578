/** A document group's documents as downloads: zip entry names and the streamed zip. */
export { zipEntryNames } from './zip-names.js';
export { attachment, documentsZip } from './zip-reply.js';
