import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObjectCopier,
  PDFPage,
  type PDFPageLeaf,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { loadPdf } from './load.js';
import { PDF } from './names.js';
import { createPdf, rewritePdf } from './new-document.js';

export interface MergeOptions {
  /**
   * Prefix for the fields (and named destinations) of document `index` whose
   * names clash with an earlier document's. Default `doc<index + 1>_`.
   */
  prefix?: (index: number) => string;
  /** Name of the input array in errors (`pdfs[2]`). Default `pdfs`. */
  property?: string;
}

/** A name that changed so two documents' fields (or destinations) stay apart. */
export interface MergeRename {
  /** Index of the input document. */
  document: number;
  kind: 'field' | 'destination';
  from: string;
  to: string;
}

export interface MergeResult {
  pdf: Uint8Array;
  pageCount: number;
  renamed: MergeRename[];
}

/**
 * One new document holding every page of the inputs, in order, with their
 * AcroForm fields (one form; a top-level field whose name, or a name below it,
 * is already used by an earlier document gets the document's prefix), named
 * destinations (clashing names get the prefix too, and the document's links
 * and outline items follow the rename) and outlines (each document's top-level
 * items in turn). Writes a new file: merging happens before anything is signed;
 * later changes are incremental updates (UpdateSession). Bad input: the
 * loader's InvalidPdfError on `pdfs[i]`.
 */
export async function mergePDFs(pdfs: readonly Uint8Array[], options: MergeOptions = {}): Promise<MergeResult> {
  const property = options.property ?? 'pdfs';
  const prefixOf = options.prefix ?? ((i: number) => `doc${i + 1}_`);
  const out = await createPdf();
  const ctx = out.context;
  const renamed: MergeRename[] = [];
  const fieldNames = new Set<string>();
  const form = {
    fields: PDFArray.withContext(ctx),
    fonts: new Map<PDFName, PDFObject>(),
    flags: 0,
    needAppearances: false,
    da: undefined as PDFObject | undefined,
  };
  const stringDests = new Map<string, { key: PDFString | PDFHexString; value: PDFObject }>();
  const nameDests = new Map<string, PDFObject>();
  const outlineItems: PDFRef[] = [];

  for (const [index, bytes] of pdfs.entries()) {
    const src = await loadPdf(bytes, `${property}[${index}]`);
    const copier = PDFObjectCopier.for(src.context, ctx);
    for (const page of src.getPages()) {
      const ref = copier.copy(page.ref);
      out.addPage(PDFPage.of(ctx.lookup(ref) as PDFPageLeaf, ref, out));
    }
    const destRenames = mergeDestinations(src, copier, index, prefixOf(index), stringDests, nameDests, renamed);
    mergeForm(src, copier, ctx, index, prefixOf(index), form, fieldNames, renamed);
    outlineItems.push(...copyOutlineItems(src, copier, ctx));
    if (destRenames.size > 0) followRenames(ctx, destRenames, copier, src);
  }

  if (form.fields.size() > 0) {
    const acroForm = ctx.obj({ Fields: form.fields });
    if (form.fonts.size > 0) acroForm.set(PDF.DR, ctx.obj({ Font: PDFDict.fromMapWithContext(form.fonts, ctx) }));
    if (form.da) acroForm.set(PDF.DA, form.da);
    if (form.flags) acroForm.set(PDF.SigFlags, PDFNumber.of(form.flags));
    // Widgets without an appearance (rare: loaders fill them in) are drawn by the viewer.
    if (form.needAppearances) acroForm.set(PDF.NeedAppearances, ctx.obj(true));
    out.catalog.set(PDF.AcroForm, ctx.register(acroForm));
  }
  if (stringDests.size > 0) {
    const names = PDFArray.withContext(ctx);
    for (const [, { key, value }] of [...stringDests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      names.push(key);
      names.push(value);
    }
    out.catalog.set(PDF.Names, ctx.obj({ Dests: ctx.register(ctx.obj({ Names: names })) }));
  }
  if (nameDests.size > 0) {
    const dests = PDFDict.withContext(ctx);
    for (const [name, value] of nameDests) dests.set(PDFName.of(name), value);
    out.catalog.set(PDF.Dests, ctx.register(dests));
  }
  if (outlineItems.length > 0) out.catalog.set(PDF.Outlines, chainOutline(ctx, outlineItems));

  const pdf = await rewritePdf(out);
  return { pdf, pageCount: out.getPageCount(), renamed };
}

type FormParts = {
  fields: PDFArray;
  fonts: Map<PDFName, PDFObject>;
  flags: number;
  needAppearances: boolean;
  da: PDFObject | undefined;
};

/** Fully qualified names of a field and every field below it. */
function namesBelow(dict: PDFDict, prefix: string, out: string[], depth = 0): void {
  if (depth > 64) return;
  const partial = textOf(dict.lookup(PDF.T));
  const full = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
  if (full) out.push(full);
  const kids = dict.lookupMaybe(PDF.Kids, PDFArray);
  for (const kid of kids?.asArray() ?? []) {
    const k = dict.context.lookupMaybe(kid, PDFDict);
    if (k && k.has(PDF.T)) namesBelow(k, full, out, depth + 1);
  }
}

function mergeForm(
  src: PDFDocument,
  copier: PDFObjectCopier,
  ctx: PDFContext,
  index: number,
  prefix: string,
  form: FormParts,
  taken: Set<string>,
  renamed: MergeRename[],
): void {
  const acroForm = src.catalog.lookupMaybe(PDF.AcroForm, PDFDict);
  const roots = acroForm?.lookupMaybe(PDF.Fields, PDFArray);
  if (!acroForm || !roots) return;
  const clashes = (names: string[]) =>
    names.some((n) => taken.has(n) || [...taken].some((t) => t.startsWith(`${n}.`) || n.startsWith(`${t}.`)));
  const mine: string[] = [];
  for (const entry of roots.asArray()) {
    const dict = src.context.lookupMaybe(entry, PDFDict);
    if (!dict) continue;
    const names: string[] = [];
    namesBelow(dict, '', names);
    const copied = copier.copy(entry);
    const copy = copied instanceof PDFRef ? ctx.lookupMaybe(copied, PDFDict) : (copied as PDFDict);
    const partial = textOf(dict.lookup(PDF.T));
    if (copy && partial !== undefined && clashes(names)) {
      let wanted = `${prefix}${partial}`;
      for (let n = 2; clashes(names.map((x) => wanted + x.slice(partial.length))); n++)
        wanted = `${prefix}${partial}_${n}`;
      copy.set(PDF.T, PDFHexString.fromText(wanted));
      for (const from of names) {
        const to = wanted + from.slice(partial.length);
        mine.push(to);
        renamed.push({ document: index, kind: 'field', from, to });
      }
    } else mine.push(...names);
    form.fields.push(copied);
  }
  for (const n of mine) taken.add(n);

  const fonts = acroForm.lookupMaybe(PDF.DR, PDFDict)?.lookupMaybe(PDF.Font, PDFDict);
  // Fields' /DA name fonts of /DR; the first document's font wins a key used by two.
  for (const [key, value] of fonts?.entries() ?? []) if (!form.fonts.has(key)) form.fonts.set(key, copier.copy(value));
  form.da ??= acroForm.get(PDF.DA) ? copier.copy(acroForm.get(PDF.DA)!) : undefined;
  const flags = acroForm.lookup(PDF.SigFlags);
  if (flags instanceof PDFNumber) form.flags |= flags.asNumber();
  if (acroForm.lookup(PDF.NeedAppearances) === src.context.obj(true)) form.needAppearances = true;
}

/** The document's named destinations, copied; returns the renames (old name → new name) its links must follow. */
function mergeDestinations(
  src: PDFDocument,
  copier: PDFObjectCopier,
  index: number,
  prefix: string,
  strings: Map<string, { key: PDFString | PDFHexString; value: PDFObject }>,
  names: Map<string, PDFObject>,
  renamed: MergeRename[],
): Map<string, string> {
  const renames = new Map<string, string>();
  const unique = (name: string, used: (n: string) => boolean): string => {
    if (!used(name)) return name;
    let wanted = `${prefix}${name}`;
    for (let n = 2; used(wanted); n++) wanted = `${prefix}${name}_${n}`;
    renames.set(name, wanted);
    renamed.push({ document: index, kind: 'destination', from: name, to: wanted });
    return wanted;
  };
  const tree = src.catalog.lookupMaybe(PDF.Names, PDFDict)?.lookupMaybe(PDF.Dests, PDFDict);
  if (tree) {
    for (const [key, value] of nameTreeEntries(src.context, tree)) {
      const name = unique(key, (n) => strings.has(n));
      strings.set(name, {
        key: name === key ? PDFHexString.fromText(key) : PDFHexString.fromText(name),
        value: copier.copy(value),
      });
    }
  }
  const dests = src.catalog.lookupMaybe(PDF.Dests, PDFDict);
  for (const [key, value] of dests?.entries() ?? []) {
    const name = unique(key.decodeText(), (n) => names.has(n));
    names.set(name, copier.copy(value));
  }
  return renames;
}

/** Leaves of a name tree (PDF 32000 §7.9.6), in order; bounded against cycles. */
function nameTreeEntries(
  ctx: PDFContext,
  node: PDFDict,
  depth = 0,
  out: Array<[string, PDFObject]> = [],
): Array<[string, PDFObject]> {
  if (depth > 32) return out;
  const pairs = node.lookupMaybe(PDF.Names, PDFArray);
  for (let i = 0; pairs && i + 1 < pairs.size(); i += 2) {
    const key = textOf(pairs.lookup(i));
    if (key !== undefined) out.push([key, pairs.get(i + 1)]);
  }
  for (const kid of node.lookupMaybe(PDF.Kids, PDFArray)?.asArray() ?? []) {
    const k = ctx.lookupMaybe(kid, PDFDict);
    if (k) nameTreeEntries(ctx, k, depth + 1, out);
  }
  return out;
}

/** Copies of the document's top-level outline items (with everything below them). */
function copyOutlineItems(src: PDFDocument, copier: PDFObjectCopier, dest: PDFContext): PDFRef[] {
  const root = src.catalog.lookupMaybe(PDF.Outlines, PDFDict);
  const items: PDFRef[] = [];
  const seen = new Set<PDFRef>();
  const rootRef = src.catalog.get(PDF.Outlines);
  let next = root?.get(PDF.First);
  while (next instanceof PDFRef && !seen.has(next) && items.length < 100_000) {
    seen.add(next);
    items.push(copier.copy(next));
    next = src.context.lookupMaybe(next, PDFDict)?.get(PDF.Next);
  }
  // The items' /Parent brought a copy of the old root along: the merged outline has its own root.
  if (rootRef instanceof PDFRef && items.length > 0) dest.delete(copier.copy(rootRef));
  return items;
}

/** One outline root over every document's top-level items, chained in order. */
function chainOutline(ctx: PDFContext, items: PDFRef[]): PDFRef {
  const root = ctx.obj({ Type: 'Outlines' });
  const rootRef = ctx.register(root);
  let visible = 0;
  items.forEach((ref, i) => {
    const item = ctx.lookup(ref, PDFDict);
    item.set(PDF.Parent, rootRef);
    if (i > 0) item.set(PDF.Prev, items[i - 1]!);
    else item.delete(PDF.Prev);
    if (i < items.length - 1) item.set(PDF.Next, items[i + 1]!);
    else item.delete(PDF.Next);
    const count = item.lookup(PDF.Count);
    visible += 1 + (count instanceof PDFNumber && count.asNumber() > 0 ? count.asNumber() : 0);
  });
  root.set(PDF.First, items[0]!);
  root.set(PDF.Last, items[items.length - 1]!);
  root.set(PDF.Count, PDFNumber.of(visible));
  return rootRef;
}

/** Links and outline items of one merged document that name a renamed destination point at its new name. */
function followRenames(ctx: PDFContext, renames: Map<string, string>, copier: PDFObjectCopier, src: PDFDocument): void {
  const fix = (holder: PDFDict | undefined): void => {
    if (!holder) return;
    for (const key of [PDF.Dest, PDF.D]) {
      const dest = holder.get(key);
      const name = dest instanceof PDFName ? dest.decodeText() : textOf(dest);
      const to = name === undefined ? undefined : renames.get(name);
      if (to !== undefined) holder.set(key, dest instanceof PDFName ? PDFName.of(to) : PDFHexString.fromText(to));
    }
  };
  for (const page of src.getPages()) {
    const copy = ctx.lookupMaybe(copier.copy(page.ref), PDFDict);
    for (const a of copy?.lookupMaybe(PDF.Annots, PDFArray)?.asArray() ?? []) {
      const annot = ctx.lookupMaybe(a, PDFDict);
      fix(annot);
      fix(annot?.lookupMaybe(PDF.A, PDFDict));
    }
  }
  const stack = copyOutlineItems(src, copier, ctx);
  const seen = new Set<PDFRef>();
  while (stack.length > 0) {
    const ref = stack.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const item = ctx.lookupMaybe(ref, PDFDict);
    fix(item);
    fix(item?.lookupMaybe(PDF.A, PDFDict));
    for (const key of [PDF.First, PDF.Next]) {
      const n = item?.get(key);
      if (n instanceof PDFRef) stack.push(n);
    }
  }
}

function textOf(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return obj.decodeText();
  return undefined;
}
