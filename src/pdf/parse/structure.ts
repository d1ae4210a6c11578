import {
  PDFArray,
  PDFBool,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';

/**
 * Gives the parts of a document the engine reads the types the PDF
 * specification requires, by dropping what has another type — as viewers
 * ignore such entries. pdf-lib's typed lookups (`lookupMaybe(key, PDFDict)`,
 * `page.node.Annots()`, …) throw on a wrong type ("Expected instance of
 * PDFDict, but got instance of PDFNumber"): after this pass they cannot, in
 * the page tree, the pages, their annotations, the AcroForm and its field tree.
 * The walks are iterative with a visited set: cycles and shared nodes cost
 * nothing, and a page-tree node met twice is dropped the second time (a tree
 * whose kids repeat a subtree would otherwise count 2^depth pages).
 *
 * Only the in-memory document changes; it returns a problem that makes the
 * document unusable (no pages) as a message, else undefined.
 */
export function normalizeStructure(doc: PDFDocument): string | undefined {
  const ctx = doc.context;
  const info = ctx.lookup(ctx.trailerInfo.Info);
  if (ctx.trailerInfo.Info !== undefined && !(info instanceof PDFDict)) delete ctx.trailerInfo.Info;
  if (info instanceof PDFDict) keepTyped(info, INFO);
  const catalog = ctx.lookup(ctx.trailerInfo.Root);
  if (!(catalog instanceof PDFDict)) return 'no document catalog';
  keepTyped(catalog, CATALOG);
  const normalized = new Set<PDFDict>();
  const problem = normalizePageTree(ctx, catalog, normalized);
  if (problem) return problem;
  const acroForm = catalog.lookup(N.AcroForm);
  if (acroForm instanceof PDFDict) normalizeForm(acroForm, normalized);
  return undefined;
}

const N = {
  AcroForm: PDFName.of('AcroForm'),
  Pages: PDFName.of('Pages'),
  Kids: PDFName.of('Kids'),
  Parent: PDFName.of('Parent'),
  Fields: PDFName.of('Fields'),
  Annots: PDFName.of('Annots'),
  MediaBox: PDFName.of('MediaBox'),
  Contents: PDFName.of('Contents'),
  Resources: PDFName.of('Resources'),
  AP: PDFName.of('AP'),
  MK: PDFName.of('MK'),
  DR: PDFName.of('DR'),
  Font: PDFName.of('Font'),
};

type Check = (obj: PDFObject | undefined, ctx: PDFContext) => boolean;

const isDict: Check = (o) => o instanceof PDFDict;
const isArray: Check = (o) => o instanceof PDFArray;
const isName: Check = (o) => o instanceof PDFName;
const isBool: Check = (o) => o instanceof PDFBool;
const isText: Check = (o) => (o instanceof PDFString || o instanceof PDFHexString) && isShortText(o);
const isNumber: Check = (o) => o instanceof PDFNumber && Number.isFinite(o.asNumber());
const isQuarterTurn: Check = (o) => o instanceof PDFNumber && Number.isInteger(o.asNumber()) && o.asNumber() % 90 === 0;
const isRect: Check = (o, ctx) =>
  o instanceof PDFArray && o.size() === 4 && o.asArray().every((x) => isNumber(ctx.lookup(x), ctx));
const isNumbers: Check = (o, ctx) => o instanceof PDFArray && o.asArray().every((x) => isNumber(ctx.lookup(x), ctx));
const isStreamOrDict: Check = (o) => o instanceof PDFStream || o instanceof PDFDict;
const isContents: Check = (o) => o instanceof PDFStream || o instanceof PDFArray;

/**
 * Text strings longer than this are dropped: the PDF 1.7 implementation limit
 * is 32767 bytes, and pdf-lib decodes text with one spread call per string
 * (a stack overflow for a few hundred thousand characters). Measured on the
 * written form (hex digits count twice).
 */
const MAX_TEXT_CHARS = 65534;

export function isShortText(o: PDFString | PDFHexString): boolean {
  return o.asString().length <= MAX_TEXT_CHARS;
}

type Schema = ReadonlyArray<readonly [PDFName, Check]>;
const schema = (entries: Record<string, Check>): Schema =>
  Object.entries(entries).map(([k, c]) => [PDFName.of(k), c] as const);

const INFO = schema({
  Title: isText,
  Author: isText,
  Subject: isText,
  Keywords: isText,
  Creator: isText,
  Producer: isText,
});
const CATALOG = schema({
  Pages: isDict,
  AcroForm: isDict,
  Perms: isDict,
  Names: isDict,
  Metadata: (o) => o instanceof PDFStream,
});
const PAGE_NODE = schema({
  Kids: isArray,
  Resources: isDict,
  MediaBox: isRect,
  CropBox: isRect,
  Rotate: isQuarterTurn,
});
const PAGE = schema({
  Annots: isArray,
  Resources: isDict,
  MediaBox: isRect,
  CropBox: isRect,
  BleedBox: isRect,
  TrimBox: isRect,
  ArtBox: isRect,
  Rotate: isQuarterTurn,
  Contents: isContents,
});
const RESOURCES = schema({
  Font: isDict,
  XObject: isDict,
  ExtGState: isDict,
  ColorSpace: isDict,
  Pattern: isDict,
  Shading: isDict,
  Properties: isDict,
});
const ACRO_FORM = schema({
  Fields: isArray,
  DR: isDict,
  DA: isText,
  NeedAppearances: isBool,
  SigFlags: isNumber,
  CO: isArray,
  Q: isNumber,
});
/** Field and widget annotation entries (a terminal field with one widget is one dictionary with both). */
const FIELD = schema({
  Kids: isArray,
  Parent: isDict,
  T: isText,
  TU: isText,
  TM: isText,
  FT: isName,
  Ff: isNumber,
  F: isNumber,
  Q: isNumber,
  MaxLen: isNumber,
  DA: isText,
  DR: isDict,
  Opt: isArray,
  Subtype: isName,
  Rect: isRect,
  AP: isDict,
  AS: isName,
  MK: isDict,
  BS: isDict,
  Border: isNumbers,
  P: isDict,
});
const MK = schema({ BC: isNumbers, BG: isNumbers, R: isQuarterTurn, CA: isText, RC: isText, AC: isText });
const AP = schema({ N: isStreamOrDict, R: isStreamOrDict, D: isStreamOrDict });

/** Deletes the entries whose resolved value fails its check. */
function keepTyped(dict: PDFDict, entries: Schema): void {
  const ctx = dict.context;
  for (const [key, check] of entries) {
    const raw = dict.get(key);
    if (raw !== undefined && !check(ctx.lookup(raw), ctx)) dict.delete(key);
  }
}

/** Keeps the entries of an array that resolve to a dictionary (and pass `keep`); rewrites it only when something goes. */
function keepDicts(owner: PDFDict, key: PDFName, keep: (d: PDFDict) => boolean = () => true): PDFDict[] {
  const ctx = owner.context;
  const arr = ctx.lookup(owner.get(key));
  if (!(arr instanceof PDFArray)) return [];
  const kept: PDFObject[] = [];
  const dicts: PDFDict[] = [];
  for (const raw of arr.asArray()) {
    const d = ctx.lookup(raw);
    if (d instanceof PDFDict && keep(d)) {
      kept.push(raw);
      dicts.push(d);
    }
  }
  if (kept.length !== arr.size()) owner.set(key, ctx.obj(kept));
  return dicts;
}

/** Deepest page tree accepted (pdf-lib walks it recursively). */
const MAX_TREE_DEPTH = 256;

function normalizePageTree(ctx: PDFContext, catalog: PDFDict, normalized: Set<PDFDict>): string | undefined {
  const rootRef = catalog.get(N.Pages);
  const root = ctx.lookup(rootRef);
  if (!(root instanceof PDFPageTree)) return 'the page tree root is not a /Pages dictionary';
  root.delete(N.Parent);
  const seen = new Set<PDFDict>([root]);
  let pages = 0;
  const stack: Array<{ node: PDFPageTree; ref: PDFObject | undefined; depth: number }> = [
    { node: root, ref: rootRef, depth: 0 },
  ];
  while (stack.length > 0) {
    const { node, ref, depth } = stack.pop()!;
    keepTyped(node, PAGE_NODE);
    normalizeResources(node);
    if (depth > MAX_TREE_DEPTH) return `the page tree is more than ${MAX_TREE_DEPTH} levels deep`;
    // A kid must be a page or page-tree node met for the first time; pdf-lib needs it as a reference with /Parent pointing back.
    const kids = keepDicts(node, N.Kids, (d) => {
      if (!(d instanceof PDFPageTree || d instanceof PDFPageLeaf) || seen.has(d)) return false;
      seen.add(d);
      return true;
    });
    const arr = ctx.lookup(node.get(N.Kids));
    const refs = arr instanceof PDFArray ? arr.asArray() : [];
    if (refs.some((r) => !(r instanceof PDFRef))) node.set(N.Kids, ctx.obj(refs.filter((r) => r instanceof PDFRef)));
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!;
      if (!(refs[i] instanceof PDFRef)) continue;
      if (ref instanceof PDFRef) kid.set(N.Parent, ref);
      else kid.delete(N.Parent);
      if (kid instanceof PDFPageTree) stack.push({ node: kid, ref: refs[i], depth: depth + 1 });
      else if (kid instanceof PDFPageLeaf) {
        pages++;
        normalizePage(kid, normalized);
      }
    }
  }
  return pages === 0 ? 'no pages' : undefined;
}

function normalizeResources(node: PDFDict): void {
  const res = node.lookup(N.Resources);
  if (res instanceof PDFDict) keepTyped(res, RESOURCES);
}

function normalizePage(page: PDFPageLeaf, normalized: Set<PDFDict>): void {
  keepTyped(page, PAGE);
  normalizeResources(page);
  if (page.getInheritableAttribute(N.MediaBox) === undefined) {
    // Viewers show a page without a media box at US Letter.
    page.set(N.MediaBox, page.context.obj([0, 0, 612, 792]));
  }
  const contents = page.lookup(N.Contents);
  if (contents instanceof PDFArray && contents.asArray().some((c) => !(page.context.lookup(c) instanceof PDFStream))) {
    page.set(
      N.Contents,
      page.context.obj(contents.asArray().filter((c) => page.context.lookup(c) instanceof PDFStream)),
    );
  }
  for (const annot of keepDicts(page, N.Annots)) normalizeChain(annot, normalized);
}

/** A widget or field and its /Parent chain (read for inherited values), each dictionary once. */
function normalizeChain(dict: PDFDict, normalized: Set<PDFDict>): void {
  let node: PDFObject | undefined = dict;
  for (let up = 0; node instanceof PDFDict && !normalized.has(node) && up <= MAX_FIELD_DEPTH; up++) {
    normalized.add(node);
    normalizeWidget(node);
    node = node.lookup(N.Parent);
  }
}

function normalizeWidget(dict: PDFDict): void {
  keepTyped(dict, FIELD);
  const ap = dict.lookup(N.AP);
  if (ap instanceof PDFDict) {
    keepTyped(ap, AP);
    for (const [, state] of ap.entries()) {
      const states = dict.context.lookup(state);
      if (states instanceof PDFDict && !(states instanceof PDFStream)) {
        for (const [k, v] of states.entries()) if (!(dict.context.lookup(v) instanceof PDFStream)) states.delete(k);
      }
    }
  }
  const mk = dict.lookup(N.MK);
  if (mk instanceof PDFDict) keepTyped(mk, MK);
  const dr = dict.lookup(N.DR);
  if (dr instanceof PDFDict) keepTyped(dr, RESOURCES);
}

/** Deepest field hierarchy kept (the field readers stop at 64 too). */
const MAX_FIELD_DEPTH = 64;

function normalizeForm(acroForm: PDFDict, normalized: Set<PDFDict>): void {
  keepTyped(acroForm, ACRO_FORM);
  const dr = acroForm.lookup(N.DR);
  if (dr instanceof PDFDict) keepTyped(dr, RESOURCES);
  // A field already queued (a cycle, a kid listed twice or shared by two fields) is dropped from the /Kids that repeats it.
  const queued = new Set<PDFDict>();
  const firstTime = (d: PDFDict): boolean => {
    if (queued.has(d)) return false;
    queued.add(d);
    return true;
  };
  const stack: Array<{ dict: PDFDict; depth: number }> = keepDicts(acroForm, N.Fields, firstTime).map((dict) => ({
    dict,
    depth: 0,
  }));
  while (stack.length > 0) {
    const { dict, depth } = stack.pop()!;
    normalizeChain(dict, normalized);
    if (depth >= MAX_FIELD_DEPTH) {
      dict.delete(N.Kids);
      continue;
    }
    for (const kid of keepDicts(dict, N.Kids, firstTime)) stack.push({ dict: kid, depth: depth + 1 });
  }
}
