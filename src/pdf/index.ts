/**
 * The PDF kernel: the only place that loads, edits and writes PDFs. Later
 * changes to a document are incremental updates (`UpdateSession`): the
 * original bytes stay an exact prefix of the output.
 */
export { loadPdf } from './load.js';
export { stripActiveContent, type StrippedPdf } from './active-content.js';
export { decodeCapped } from './decode.js';
export { pagesOverBudget } from './content-budget.js';
export { isShortText } from './structure.js';
export {
  displayMatrix,
  frameOf,
  frameOfPage,
  toDisplay,
  turnMatrix,
  userRect,
  type Matrix,
  type PageFrame,
  type Rotation,
} from './page-frame.js';
export { displayedPageSizes } from './page-sizes.js';
export { readTail, type FileTail } from './tail.js';
export { openForUpdate, UpdateSession, type BasePdf } from './update.js';
export { PDF } from './names.js';
export { createPdf, rewritePdf, savePdf, setDocumentInfo, type DocumentInfo } from './new-document.js';
export { mergePDFs, type MergeOptions, type MergeRename, type MergeResult } from './merge.js';
export { appendPages } from './append-pages.js';
export {
  appendDrawing,
  appendSignature,
  appendValidationData,
  readDss,
  readSignatureRecords,
  type AppendSignatureOptions,
  type DssContents,
  type SignatureDictionaryInfo,
} from './signature-update.js';
export { appendDocumentTimestamp, type AppendDocumentTimestampOptions } from './document-timestamp.js';
export { addAnnotation } from './annots.js';
export { appendFieldMarks, type FieldMark, type FieldMarksUpdate, type MarkFieldSpec } from './form-marks.js';
export { appendSignerRevision, type RevisionSignature, type SignerRevision } from './signer-revision.js';
export { FINISHING_ORDER, finishDocument, type FinishingStep, type FinishingStepName } from './finishing.js';
export { XrefRevisions, type ChainEntries, type XrefEntry, type XrefRevision } from './xref-revisions.js';
export {
  canonicalValue,
  textOfPdfString,
  readRevisionGraph,
  readRevisionGraphAfter,
  revisionEnds,
  type PdfObjectSnapshot,
  type RevisionWork,
  type PdfValue,
  type RevisionGraph,
} from './revisions.js';
export {
  dropTextGlyphs,
  type DroppedGlyph,
  type DroppedGlyphs,
  type PageGlyphDrops,
  type TextOperatorDrops,
} from './drop-glyphs.js';
