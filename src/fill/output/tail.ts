/** The file-tail reader lives in the kernel (src/pdf); prepared-template.ts still imports it from here. */
export { readTail, type FileTail } from '../../pdf/index.js';
