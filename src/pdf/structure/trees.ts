/**
 * Number and name trees (ISO 32000-1 §7.9.6, §7.9.7) as the structure tree uses them: the
 * ParentTree (StructParents key → structure elements) and the IDTree (ID → element).
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';

const MAX_DEPTH = 32;

/** The entries of a number tree (`Nums`) or name tree (`Names`), in tree order. */
export function treeEntries(
  context: PDFContext,
  root: PDFObject | undefined,
  key: 'Nums' | 'Names',
): Array<[PDFObject, PDFObject]> {
  const out: Array<[PDFObject, PDFObject]> = [];
  const seen = new Set<PDFDict>();
  const walk = (node: PDFObject | undefined, depth: number): void => {
    const dict = node instanceof PDFRef ? context.lookup(node) : node;
    if (!(dict instanceof PDFDict) || seen.has(dict) || depth > MAX_DEPTH) return;
    seen.add(dict);
    const pairs = dict.lookup(PDFName.of(key));
    if (pairs instanceof PDFArray)
      for (let i = 0; i + 1 < pairs.size(); i += 2) out.push([pairs.lookup(i)!, pairs.get(i + 1)]);
    const kids = dict.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) walk(kid, depth + 1);
  };
  walk(root, 0);
  return out;
}

/** A number tree of one node holding `entries` (sorted by key). */
export function numberTree(context: PDFContext, entries: Array<[number, PDFObject]>): PDFDict {
  const nums = context.obj([]);
  for (const [k, v] of [...entries].sort((a, b) => a[0] - b[0])) {
    nums.push(PDFNumber.of(k));
    nums.push(v);
  }
  return context.obj({ Nums: nums });
}

/** The numeric key of a number-tree entry, or undefined. */
export function keyOf(key: PDFObject): number | undefined {
  return key instanceof PDFNumber ? key.asNumber() : undefined;
}
