import { PDFArray, PDFDict, PDFHexString, PDFNumber, PDFRef, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { z } from 'zod';
import { ValidationError } from '../errors/index.js';
import { addAnnotation, frameOfPage, PDF, UpdateSession, userRect } from '../pdf/index.js';
import { once, parseWith } from '../schema/index.js';
import type { PdfRect } from '../geometry/index.js';
import { ensureAcroForm, completeAcroForm, type FormTarget } from './form-dict.js';
import { readFieldTree } from './tree.js';

/** One empty signature field: where a signer signs (or initials) later. */
export interface SignatureFieldSpec {
  /** Fully qualified field name; must not be used by another field of the document. */
  name: string;
  /** `initial` is a signature field too; it differs only in its tooltip (/TU) for viewers and signers. */
  kind: 'signature' | 'initial';
  /** 0-based page index. */
  pageIndex: number;
  /** The widget in the page's user space (x, y = bottom-left). */
  rect: PdfRect;
}

/** Signature fields one call may add (a document's signing fields are added in one call). */
export const MAX_SIGNATURE_FIELDS = 1000;

// Built by the first call: every fill loads this module, few add signature fields.
const specsSchema = once(() => {
  const finite = z.number().finite();
  const specSchema = z.object({
    // A partial name may not hold a period (PDF 32000 §12.7.3.2): these fields are not put in a hierarchy.
    name: z
      .string()
      .trim()
      .min(1)
      .max(512)
      .regex(/^[^.]*$/, 'A signature field name may not contain "."'),
    kind: z.enum(['signature', 'initial']),
    pageIndex: z.number().int().min(0),
    rect: z.object({ x: finite, y: finite, width: finite.positive(), height: finite.positive() }),
  });
  return z.array(specSchema).min(1).max(MAX_SIGNATURE_FIELDS);
});

const PRINT = 4;
/** /SigFlags bit 1 (SignaturesExist): viewers show the document's signature panel. */
const SIGNATURES_EXIST = 1;
const TOOLTIP = { signature: 'Signature', initial: 'Initials' } as const;

/**
 * Adds empty signature fields (/FT /Sig without /V, PDF 32000 §12.7.5.5), each
 * with one printable widget on its page and an empty normal appearance (a
 * viewer draws the "sign here" affordance; a signer's update fills /V and the
 * appearance later). The form gets /SigFlags SignaturesExist. Names are
 * plain (no dots: no hierarchy) and must not clash with the document's
 * fields or with each other: a clash (unless `rename`), a page that does not
 * exist or an empty rect is a ValidationError on `property[i]…`. With `rename`,
 * a name already used becomes `<name>_2`, `<name>_3`… (fields nobody refers
 * to by name, such as a template's signature boxes in a fill's interactive output).
 */
export function addSignatureFields(
  doc: PDFDocument,
  specs: readonly SignatureFieldSpec[],
  property = 'fields',
  target?: FormTarget,
  options: { rename?: boolean } = {},
): PDFRef[] {
  const valid = parseWith(specsSchema(), specs, [property]);
  // With a target (a fill's update session), pages are the output pages and the form may be a new one.
  const pages = target ? target.pages : doc.getPages();
  const taken = new Set(
    !target || target.ownForm ? readFieldTree(doc).map((f) => f.name) : topLevelNames(target.acroForm),
  );
  const errors = valid.flatMap((spec, i) => {
    const out = [];
    if (spec.pageIndex >= pages.length || !pages[spec.pageIndex])
      out.push({
        property: `${property}[${i}].pageIndex`,
        message: `The PDF has ${pages.length} page(s); there is no page index ${spec.pageIndex}`,
      });
    if (taken.has(spec.name) && options.rename) {
      let n = 2;
      while (taken.has(`${spec.name}_${n}`)) n++;
      spec.name = `${spec.name}_${n}`;
    } else if (taken.has(spec.name))
      out.push({ property: `${property}[${i}].name`, message: `The PDF already has a field named "${spec.name}"` });
    taken.add(spec.name);
    return out;
  });
  if (errors.length > 0) throw new ValidationError(errors);

  const context = doc.context;
  const acroForm = target ? completeAcroForm(doc, target.acroForm) : ensureAcroForm(doc);
  const fields = acroForm.lookup(PDF.Fields, PDFArray);
  const flags = acroForm.get(PDF.SigFlags);
  const current = flags instanceof PDFNumber ? flags.asNumber() : 0;
  acroForm.set(PDF.SigFlags, PDFNumber.of(current | SIGNATURES_EXIST));

  return valid.map((spec) => {
    const page = pages[spec.pageIndex]!;
    const { x, y, width, height } = spec.rect;
    const appearance = context.register(context.formXObject([], { BBox: [0, 0, width, height] }));
    // Field and widget in one dictionary (a terminal field with a single widget).
    const field = context.obj({
      FT: 'Sig',
      T: PDFHexString.fromText(spec.name),
      TU: PDFHexString.fromText(TOOLTIP[spec.kind]),
      Type: 'Annot',
      Subtype: 'Widget',
      F: PRINT,
      Rect: [x, y, x + width, y + height],
      P: page.ref,
      AP: { N: appearance },
    });
    field.set(PDF.DA, PDFString.of('/Helv 0 Tf 0 g'));
    const ref = context.register(field);
    fields.push(ref);
    addAnnotation(page, ref);
    return ref;
  });
}

/** Names of a form's top-level fields (a new form holds only flat names: no tree to walk). */
function topLevelNames(acroForm: PDFDict): string[] {
  const fields = acroForm.lookupMaybe(PDF.Fields, PDFArray);
  if (!fields) return [];
  return fields.asArray().flatMap((ref) => {
    const field = acroForm.context.lookup(ref);
    const t = field instanceof PDFDict ? field.lookupMaybe(PDF.T, PDFString, PDFHexString) : undefined;
    return t ? [t.decodeText()] : [];
  });
}

/**
 * `addSignatureFields` on a finished PDF, written as an incremental update:
 * the input bytes are an exact prefix of the output (earlier signatures stay valid).
 */
export async function appendSignatureFields(
  pdf: Uint8Array,
  specs: readonly SignatureFieldSpec[],
  property = 'pdf',
): Promise<Uint8Array> {
  const session = await UpdateSession.open(pdf, property);
  addSignatureFields(session.doc, specs, 'fields');
  return session.commit();
}

/**
 * `appendSignatureFields` with each rect measured from the top-left corner of its
 * page as shown (crop box, /Rotate), as template and packet fields are: the
 * widget lands where the field was placed on turned pages and on pages whose box
 * does not start at 0,0.
 */
export async function appendSignatureFieldsOnDisplay(
  pdf: Uint8Array,
  specs: readonly SignatureFieldSpec[],
  property = 'pdf',
): Promise<Uint8Array> {
  const session = await UpdateSession.open(pdf, property);
  const pages = session.doc.getPages();
  const placed = specs.map((spec) => {
    const page = pages[spec.pageIndex];
    // A page that does not exist is reported by addSignatureFields with the field's path.
    if (!page) return spec;
    return { ...spec, rect: userRect(frameOfPage(page), spec.rect) };
  });
  addSignatureFields(session.doc, placed, 'fields');
  return session.commit();
}

/**
 * Removes the signature fields nobody signed (top-level /Sig fields without /V that
 * are their own widget, as `addSignatureFields` writes them), with their widgets.
 * A completed packet carries its signers' marks as page content and one seal; the
 * placeholders would show as "unsigned signature field" in every viewer. Returns
 * how many were removed. `only`: just the fields of these names (a document signed
 * elsewhere keeps the unsigned signature fields its own signature covers).
 */
export function dropUnsignedSignatureFields(doc: PDFDocument, only?: ReadonlySet<string>): number {
  const acroForm = doc.catalog.lookupMaybe(PDF.AcroForm, PDFDict);
  const fields = acroForm?.lookupMaybe(PDF.Fields, PDFArray);
  if (!fields) return 0;
  const dropped = new Set<string>();
  for (let i = fields.size() - 1; i >= 0; i--) {
    const ref = fields.get(i);
    const field = doc.context.lookup(ref);
    if (!(ref instanceof PDFRef) || !(field instanceof PDFDict)) continue;
    if (field.get(PDF.FT) !== PDF.Sig || field.has(PDF.V) || field.get(PDF.Subtype) !== PDF.Widget) continue;
    const name = field.lookupMaybe(PDF.T, PDFString, PDFHexString)?.decodeText();
    if (only && (name === undefined || !only.has(name))) continue;
    fields.remove(i);
    dropped.add(ref.toString());
  }
  if (dropped.size === 0) return 0;
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const a = annots.get(i);
      if (a instanceof PDFRef && dropped.has(a.toString())) annots.remove(i);
    }
  }
  return dropped.size;
}
