/**
 * Annotations of a tagged document: widgets added after its structure tree was written (HTML's form
 * fields) each get a structure element that names them by an object reference and that they name back
 * through /StructParent (ISO 32000-1 §14.7.4.3; PDF/UA-1 §7.18.4 wants widgets in Form elements), and
 * links without a description get their target as /Contents (PDF/UA-1 §7.18.5).
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { structTreeRoot } from './prune.js';
import { keyOf, numberTree, treeEntries } from './trees.js';

const N = (name: string) => PDFName.of(name);

/** A URI link's target as its description, where it has none. */
function describeLink(annot: PDFDict): void {
  if (annot.lookup(N('Subtype')) !== N('Link') || annot.has(N('Contents'))) return;
  const action = annot.lookup(N('A'));
  const uri = action instanceof PDFDict ? action.lookup(N('URI')) : undefined;
  if (uri instanceof PDFString || uri instanceof PDFHexString)
    annot.set(N('Contents'), PDFHexString.fromText(uri.decodeText()));
}

/**
 * Ties every widget annotation without a /StructParent to a new Form element at the end of the
 * document's top element, and describes links. A no-op for an untagged document.
 */
export function tagAnnotations(doc: PDFDocument): number {
  const root = structTreeRoot(doc);
  if (!root) return 0;
  const ctx = doc.context;
  const kids = root.lookup(N('K'));
  const topRef = kids instanceof PDFArray ? kids.get(0) : root.get(N('K'));
  const top = topRef instanceof PDFRef ? ctx.lookup(topRef) : undefined;
  if (!(topRef instanceof PDFRef) || !(top instanceof PDFDict)) return 0;
  const entries: Array<[number, PDFObject]> = [];
  for (const [k, v] of treeEntries(ctx, root.get(N('ParentTree')), 'Nums')) {
    const key = keyOf(k);
    if (key !== undefined) entries.push([key, v]);
  }
  const next = root.lookup(N('ParentTreeNextKey'));
  let key = Math.max(next instanceof PDFNumber ? next.asNumber() : 0, ...entries.map(([k]) => k + 1));
  const added: PDFRef[] = [];
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(N('Annots'));
    for (const a of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = a instanceof PDFRef ? ctx.lookup(a) : undefined;
      if (!(a instanceof PDFRef) || !(annot instanceof PDFDict)) continue;
      describeLink(annot);
      if (annot.lookup(N('Subtype')) !== N('Widget') || annot.has(N('StructParent'))) continue;
      const elem = ctx.register(
        ctx.obj({ Type: 'StructElem', S: 'Form', P: topRef, Pg: page.ref, K: { Type: 'OBJR', Obj: a, Pg: page.ref } }),
      );
      annot.set(N('StructParent'), PDFNumber.of(key));
      entries.push([key++, elem]);
      added.push(elem);
    }
  }
  if (added.length === 0) return 0;
  const own = top.get(N('K'));
  const list = own instanceof PDFArray ? own.asArray() : own === undefined ? [] : [own];
  top.set(N('K'), ctx.obj([...list, ...added]));
  root.set(N('ParentTree'), ctx.register(numberTree(ctx, entries)));
  root.set(N('ParentTreeNextKey'), PDFNumber.of(key));
  return added.length;
}
