import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  PDFHexString,
  type PDFObject,
} from '@cantoo/pdf-lib';

export interface DestPoint {
  page: number;
  x: number;
  y: number;
}

function nameKey(key: PDFObject): string | undefined {
  if (key instanceof PDFName) return key.decodeText();
  if (key instanceof PDFString || key instanceof PDFHexString) return key.decodeText();
  return undefined;
}

function destArray(doc: PDFDocument, value: PDFObject | undefined): PDFArray | undefined {
  const v = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (v instanceof PDFArray) return v;
  if (v instanceof PDFDict) {
    const d = v.lookup(PDFName.of('D'));
    return d instanceof PDFArray ? d : undefined;
  }
  return undefined;
}

/**
 * Named destinations Chromium wrote for link targets: `/Dests` (what Chromium
 * 156 writes) or a `/Names /Dests` tree (older and newer writers).
 */
export function readDests(doc: PDFDocument): Map<string, DestPoint> {
  const pageIndex = new Map<string, number>();
  doc.getPages().forEach((p, i) => pageIndex.set(p.ref.toString(), i));
  const out = new Map<string, DestPoint>();
  const add = (key: string | undefined, value: PDFObject | undefined): void => {
    const arr = destArray(doc, value);
    if (!key || !arr) return;
    const ref = arr.get(0);
    const page = ref instanceof PDFRef ? pageIndex.get(ref.toString()) : undefined;
    if (page === undefined) return;
    const num = (i: number): number => {
      const n = arr.get(i);
      return n instanceof PDFNumber ? n.asNumber() : 0;
    };
    out.set(key, { page, x: num(2), y: num(3) });
  };
  const dests = doc.catalog.lookup(PDFName.of('Dests'));
  if (dests instanceof PDFDict) for (const [k, v] of dests.entries()) add(nameKey(k), v);
  const names = doc.catalog.lookup(PDFName.of('Names'));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of('Dests')) : undefined;
  const walk = (node: PDFObject | undefined, depth: number): void => {
    if (!(node instanceof PDFDict) || depth > 32) return;
    const leaf = node.lookup(PDFName.of('Names'));
    if (leaf instanceof PDFArray) {
      for (let i = 0; i + 1 < leaf.size(); i += 2) {
        const key = leaf.lookup(i);
        add(key ? nameKey(key) : undefined, leaf.get(i + 1));
      }
    }
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (let i = 0; i < kids.size(); i++) walk(kids.lookup(i), depth + 1);
  };
  walk(tree, 0);
  return out;
}

/** Drops the destinations of our helper markers so they do not show up in viewers. */
export function removeDests(doc: PDFDocument, isHelper: (name: string) => boolean): void {
  const dests = doc.catalog.lookup(PDFName.of('Dests'));
  if (dests instanceof PDFDict) {
    for (const [k] of dests.entries()) {
      const name = nameKey(k);
      if (name && isHelper(name)) dests.delete(k);
    }
    if (dests.entries().length === 0) doc.catalog.delete(PDFName.of('Dests'));
  }
}
