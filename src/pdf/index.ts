/**
 * The PDF kernel: the only place that loads, edits and writes PDFs. Later
 * changes to a document are incremental updates (`UpdateSession`): the
 * original bytes stay an exact prefix of the output.
 */
export { loadPdf } from './document/load.js';
export { addDocumentFont } from './pdf-lib-internals.js';
export { stripActiveContent, type StrippedPdf } from './document/active-content.js';
export { decodeCapped } from './parse/decode.js';
export { pagesOverBudget } from './content/budget.js';
export { isShortText } from './parse/structure.js';
export {
  applyMatrix,
  displayMatrix,
  frameOf,
  frameOfPage,
  multiplyMatrices,
  toDisplay,
  turnMatrix,
  userRect,
  type Matrix,
  type PageFrame,
  type Rotation,
} from './document/page-frame.js';
export { displayedPageSizes } from './document/page-sizes.js';
export { readTail, type FileTail } from './document/tail.js';
export { openForUpdate, UpdateSession, type BasePdf } from './document/update.js';
export { PDF } from './document/names.js';
export { createPdf, rewritePdf, savePdf, setDocumentInfo, type DocumentInfo } from './document/new-document.js';
export { stablePrint } from './document/stable-print.js';
export { mergePDFs, type MergeOptions, type MergeRename, type MergeResult } from './document/merge.js';
export { appendPages } from './document/append-pages.js';
export { embedFiles, type EmbeddedFile } from './document/attachments.js';
export {
  appendDrawing,
  appendValidationData,
  readDss,
  readSignatureRecords,
  type DssContents,
  type SignatureDictionaryInfo,
} from './signature/write.js';
export { addAnnotation } from './content/annots.js';
export { appendFieldMarks, type FieldMark, type FieldMarksUpdate, type MarkFieldSpec } from './signature/form-marks.js';
export {
  appendSignatureRevision,
  type DocumentTimestampEntries,
  type RevisionSignature,
  type SignatureEntries,
  type SignatureRevision,
} from './signature/revision.js';
export { FINISHING_ORDER, finishDocument, type FinishingStep, type FinishingStepName } from './document/finishing.js';
export { XrefRevisions, type ChainEntries, type XrefEntry, type XrefRevision } from './parse/xref-revisions.js';
export {
  canonicalValue,
  readRevisionGraph,
  readRevisionGraphAfter,
  revisionEnds,
  type PdfObjectSnapshot,
  type RevisionWork,
  type PdfValue,
  type RevisionGraph,
} from './parse/revisions.js';
export {
  dropTextGlyphs,
  type DroppedGlyph,
  type DroppedGlyphs,
  type PageGlyphDrops,
  type TextOperatorDrops,
} from './content/drop-glyphs.js';
export { dropSoftHyphenSpans } from './content/soft-hyphens.js';
export { splitTiles, type Box, type SplitOptions, type TileGrid } from './content/tiles.js';
export { contentTokens, lexContent, TOKEN, type ContentLex, type ContentToken } from './content/tokens.js';
export { drawTile, tileForms, type SheetTile } from './content/tile-forms.js';
export {
  drawArtifact,
  markArtifacts,
  recolourPages,
  stripPageMarks,
  type ArtifactType,
} from './structure/artifacts.js';
export { dropPageStructure } from './structure/prune.js';
export {
  StructureWriter,
  structElement,
  type StructElement,
  type StructKid,
  type StructRole,
} from './structure/tree-writer.js';
export { conformToPdfA, type PdfALevel } from './archive/pdfa.js';
export { tagAnnotations } from './structure/annotations.js';
