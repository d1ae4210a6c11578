/** Reading input PDFs (templates, fillable forms) into pdf-lib documents. */
export { loadPdf } from './load.js';
export { isShortText } from './structure.js';
export { displayMatrix, frameOf, toDisplay, turnMatrix, type Matrix, type PageFrame, type Rotation } from './page-frame.js';
