/** Reading input PDFs (templates, fillable forms) into pdf-lib documents. */
export { loadPdf } from './load.js';
