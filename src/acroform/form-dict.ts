import { PDFArray, PDFDict, PDFString, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { PDF } from '../pdf/index.js';
import { acroFormOf } from './tree.js';

/**
 * Where new fields go when the document is not a whole pdf-lib document (the
 * fill engine's output is an update holding only the pages it writes): the
 * output pages by index and a new AcroForm dictionary the caller puts in the catalog.
 */
export interface FormTarget {
  pages: ReadonlyArray<PDFPage | undefined>;
  acroForm: PDFDict;
  /** `acroForm` is the document's own form: new fields join its tree and take names its fields do not use. */
  ownForm?: boolean;
}

/** The document's AcroForm (made when missing), completed with /Fields, /DR fonts and /DA. */
export function ensureAcroForm(doc: PDFDocument): PDFDict {
  const context = doc.context;
  let acroForm = acroFormOf(doc);
  if (!acroForm) {
    acroForm = context.obj({ Fields: [] });
    doc.catalog.set(PDF.AcroForm, context.register(acroForm));
  }
  return completeAcroForm(doc, acroForm);
}

/** Fields array, Helvetica and ZapfDingbats in /DR, a default /DA. */
export function completeAcroForm(doc: PDFDocument, acroForm: PDFDict): PDFDict {
  const context = doc.context;
  if (!acroForm.lookupMaybe(PDF.Fields, PDFArray)) acroForm.set(PDF.Fields, context.obj([]));
  let dr = acroForm.lookupMaybe(PDF.DR, PDFDict);
  if (!dr) {
    dr = context.obj({});
    acroForm.set(PDF.DR, dr);
  }
  let fonts = dr.lookupMaybe(PDF.Font, PDFDict);
  if (!fonts) {
    fonts = context.obj({});
    dr.set(PDF.Font, fonts);
  }
  if (!fonts.has(PDF.Helv)) {
    fonts.set(
      PDF.Helv,
      context.register(
        context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }),
      ),
    );
  }
  if (!fonts.has(PDF.ZaDb)) {
    fonts.set(PDF.ZaDb, context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'ZapfDingbats' })));
  }
  if (!acroForm.has(PDF.DA)) acroForm.set(PDF.DA, PDFString.of('/Helv 0 Tf 0 g'));
  return acroForm;
}
