import { PDFName } from '@cantoo/pdf-lib';

/**
 * PDF names used by the kernel and the writers built on it, made once
 * (PDFName.of interns them, so `dict.get(PDF.Kids)` and identity checks work).
 */
export const PDF = {
  A: PDFName.of('A'),
  AcroForm: PDFName.of('AcroForm'),
  Annot: PDFName.of('Annot'),
  Annots: PDFName.of('Annots'),
  AP: PDFName.of('AP'),
  AS: PDFName.of('AS'),
  B: PDFName.of('B'),
  Contents: PDFName.of('Contents'),
  Count: PDFName.of('Count'),
  D: PDFName.of('D'),
  DA: PDFName.of('DA'),
  Dest: PDFName.of('Dest'),
  Dests: PDFName.of('Dests'),
  DR: PDFName.of('DR'),
  F: PDFName.of('F'),
  Fields: PDFName.of('Fields'),
  First: PDFName.of('First'),
  Font: PDFName.of('Font'),
  FT: PDFName.of('FT'),
  Ff: PDFName.of('Ff'),
  Info: PDFName.of('Info'),
  Kids: PDFName.of('Kids'),
  Last: PDFName.of('Last'),
  MK: PDFName.of('MK'),
  Metadata: PDFName.of('Metadata'),
  N: PDFName.of('N'),
  Names: PDFName.of('Names'),
  NeedAppearances: PDFName.of('NeedAppearances'),
  NeedsRendering: PDFName.of('NeedsRendering'),
  Next: PDFName.of('Next'),
  Off: PDFName.of('Off'),
  Outlines: PDFName.of('Outlines'),
  P: PDFName.of('P'),
  Page: PDFName.of('Page'),
  Pages: PDFName.of('Pages'),
  Parent: PDFName.of('Parent'),
  Perms: PDFName.of('Perms'),
  Popup: PDFName.of('Popup'),
  Prev: PDFName.of('Prev'),
  Rect: PDFName.of('Rect'),
  Resources: PDFName.of('Resources'),
  SigFlags: PDFName.of('SigFlags'),
  StructParents: PDFName.of('StructParents'),
  Subtype: PDFName.of('Subtype'),
  T: PDFName.of('T'),
  Thumb: PDFName.of('Thumb'),
  Title: PDFName.of('Title'),
  Type: PDFName.of('Type'),
  V: PDFName.of('V'),
  Widget: PDFName.of('Widget'),
  XFA: PDFName.of('XFA'),
} as const;

/** Options for a full save with pdf-lib (`doc.save`): no timer pauses, no regenerated appearances, no object streams. */
export const FULL_SAVE = {
  useObjectStreams: false,
  updateFieldAppearances: false,
  addDefaultPage: false,
  // pdf-lib's default pauses on a timer (~1 ms) every 50 objects while writing.
  objectsPerTick: Number.POSITIVE_INFINITY,
} as const;
