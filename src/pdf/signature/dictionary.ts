/**
 * Entries of a signature dictionary castpress writes itself rather than through @libpdf/core's
 * `sign()` options: the texts (/Reason, /Location, /ContactInfo) and, for a certification
 * signature, the DocMDP /Reference and the catalog's /Perms.
 */
import type { PDF, PdfObject } from '@libpdf/core';
type LibPdf = typeof import('@libpdf/core');

/**
 * Puts /Reason, /Location and /ContactInfo into the signature dictionary as it is registered.
 * libpdf 0.4 escapes these texts and then encodes them again, so "(", ")", "\\" and line breaks
 * came out as "\\(" etc. (and literally so in UTF-16 strings); we hand it none and set them here,
 * on the one dictionary of /Type /Sig that `sign()` registers. Returns the undo.
 */
export function writeSignatureEntries(
  lib: LibPdf,
  pdf: PDF,
  texts: Array<[string, string]>,
  docMdp: 1 | 2 | 3 | undefined,
): () => void {
  const { PdfDict, PdfString } = lib;
  if (texts.length === 0 && docMdp === undefined) return () => undefined;
  const registry = pdf.context.registry;
  const own = Object.getOwnPropertyDescriptor(registry, 'register');
  const register = registry.register.bind(registry);
  registry.register = (obj) => {
    const sig = obj instanceof PdfDict && obj.getName('Type')?.value === 'Sig';
    if (sig) for (const [key, value] of texts) obj.set(key, PdfString.fromString(value));
    const ref = register(obj);
    if (sig && docMdp !== undefined) certify(lib, pdf, obj, ref, docMdp);
    return ref;
  };
  return () => {
    if (own) Object.defineProperty(registry, 'register', own);
    else delete (registry as { register?: unknown }).register;
  };
}

/**
 * The DocMDP entries of a certification signature (ISO 32000-2, 12.8.2.2 and 12.8.4): the
 * signature dictionary's /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams
 * << /Type /TransformParams /P p /V /1.2 >> >>] and the catalog's /Perms << /DocMDP sig >>, both
 * written in the signature's own update (the catalog is covered by the signature itself).
 * @libpdf/core 0.4 writes neither (it only warns when it meets one).
 */
function certify(lib: LibPdf, pdf: PDF, sig: PdfObject, ref: PdfObject, p: 1 | 2 | 3): void {
  const { PdfArray, PdfDict, PdfName, PdfNumber } = lib;
  if (!(sig instanceof PdfDict)) return;
  const params = PdfDict.of({ Type: PdfName.of('TransformParams'), P: PdfNumber.of(p), V: PdfName.of('1.2') });
  const reference = PdfDict.of({
    Type: PdfName.of('SigRef'),
    TransformMethod: PdfName.of('DocMDP'),
    TransformParams: params,
  });
  sig.set('Reference', new PdfArray([reference]));
  const catalog = pdf.getCatalog();
  const perms = catalog.get('Perms');
  const dict = perms instanceof PdfDict ? perms : PdfDict.of({});
  dict.set('DocMDP', ref);
  catalog.set('Perms', dict);
}
