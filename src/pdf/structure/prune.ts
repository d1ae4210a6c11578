/**
 * Keeps a structure tree consistent when pages leave the document (HTML's overlay pages are drawn
 * onto the body and removed): their content items go, elements left without content go with them,
 * and so do their ParentTree and IDTree entries. A viewer would otherwise read the removed pages'
 * text aloud, and PDF/UA checkers report elements pointing at pages the document does not have.
 */
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRef,
  type PDFDocument,
  type PDFObject,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { keyOf, numberTree, treeEntries } from './trees.js';

const N = {
  K: PDFName.of('K'),
  P: PDFName.of('P'),
  Pg: PDFName.of('Pg'),
  Obj: PDFName.of('Obj'),
  IDTree: PDFName.of('IDTree'),
  ParentTree: PDFName.of('ParentTree'),
  StructParent: PDFName.of('StructParent'),
  StructParents: PDFName.of('StructParents'),
  StructTreeRoot: PDFName.of('StructTreeRoot'),
  Annots: PDFName.of('Annots'),
} as const;

/** The structure tree root of `doc`, when it has one. */
export function structTreeRoot(doc: PDFDocument): PDFDict | undefined {
  const root = doc.catalog.lookup(N.StructTreeRoot);
  return root instanceof PDFDict ? root : undefined;
}

/** StructParents / StructParent keys of `pages` and of their annotations. */
function parentKeys(pages: PDFPage[]): Set<number> {
  const keys = new Set<number>();
  for (const page of pages) {
    const key = page.node.lookup(N.StructParents);
    if (key instanceof PDFNumber) keys.add(key.asNumber());
    const annots = page.node.lookup(N.Annots);
    if (!(annots instanceof PDFArray)) continue;
    for (let i = 0; i < annots.size(); i++) {
      const annot = annots.lookup(i);
      const k = annot instanceof PDFDict ? annot.lookup(N.StructParent) : undefined;
      if (k instanceof PDFNumber) keys.add(k.asNumber());
    }
  }
  return keys;
}

function kids(k: PDFObject | undefined): PDFObject[] {
  return k === undefined ? [] : k instanceof PDFArray ? k.asArray() : [k];
}

/**
 * Removes from `doc`'s structure tree everything whose content is on `pages` (before they are removed
 * from the document). A no-op for an untagged document.
 */
export function dropPageStructure(doc: PDFDocument, pages: PDFPage[]): void {
  const root = structTreeRoot(doc);
  if (!root || pages.length === 0) return;
  const ctx = doc.context;
  const gone = new Set<PDFRef>(pages.map((p) => p.ref));
  const keys = parentKeys(pages);
  const affected = new Set<PDFRef>();
  const kept: Array<[number, PDFObject]> = [];
  for (const [k, v] of treeEntries(ctx, root.get(N.ParentTree), 'Nums')) {
    const key = keyOf(k);
    if (key === undefined) continue;
    if (!keys.has(key)) {
      kept.push([key, v]);
      continue;
    }
    const value = v instanceof PDFRef ? ctx.lookup(v) : v;
    for (const e of value instanceof PDFArray ? value.asArray() : [v]) if (e instanceof PDFRef) affected.add(e);
  }
  if (affected.size === 0) return;
  root.set(N.ParentTree, ctx.register(numberTree(ctx, kept)));

  const removed = new Set<PDFRef>();
  const onGonePage = (item: PDFObject, pg: PDFObject | undefined): boolean => {
    if (item instanceof PDFNumber) return pg instanceof PDFRef && gone.has(pg);
    const dict = item instanceof PDFRef ? ctx.lookup(item) : item;
    if (!(dict instanceof PDFDict) || dict.has(N.P)) return false; // a child element: handled on its own
    const own = dict.get(N.Pg) ?? pg;
    return own instanceof PDFRef && gone.has(own);
  };
  const detach = (ref: PDFRef): void => {
    const elem = ctx.lookup(ref);
    if (!(elem instanceof PDFDict) || removed.has(ref)) return;
    removed.add(ref);
    const parentRef = elem.get(N.P);
    const parent = parentRef instanceof PDFRef ? ctx.lookup(parentRef) : undefined;
    if (!(parentRef instanceof PDFRef) || !(parent instanceof PDFDict)) return;
    const left = kids(parent.get(N.K)).filter((k) => k !== ref);
    if (left.length === 0 && parent !== root) detach(parentRef);
    else parent.set(N.K, left.length === 1 ? left[0]! : ctx.obj(left));
  };
  for (const ref of affected) {
    const elem = ctx.lookup(ref);
    if (!(elem instanceof PDFDict)) continue;
    const pg = elem.get(N.Pg);
    const left = kids(elem.get(N.K)).filter((k) => !onGonePage(k, pg));
    if (left.length === 0) detach(ref);
    else elem.set(N.K, left.length === 1 ? left[0]! : ctx.obj(left));
  }

  const ids = root.get(N.IDTree);
  if (ids !== undefined) {
    const names = treeEntries(ctx, ids, 'Names').filter(([, v]) => !(v instanceof PDFRef && removed.has(v)));
    root.set(N.IDTree, ctx.register(ctx.obj({ Names: names.flat() })));
  }
}
