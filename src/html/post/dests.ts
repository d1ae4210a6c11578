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

/**
 * Names' decoded text: PDFName instances are interned for the process (PDFName.of), and a print's
 * destinations are read, moved and pruned by name more than once, each decoding byte by byte.
 */
const NAME_TEXT = new WeakMap<PDFName, string>();
const XYZ = PDFName.of('XYZ');

function nameKey(key: PDFObject): string | undefined {
  if (key instanceof PDFName) {
    let text = NAME_TEXT.get(key);
    if (text === undefined) NAME_TEXT.set(key, (text = key.decodeText()));
    return text;
  }
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

/** Calls `visit` with each named destination's name and array: `/Dests` and the `/Names /Dests` tree. */
function eachDest(doc: PDFDocument, visit: (name: string, dest: PDFArray) => void): void {
  const add = (key: string | undefined, value: PDFObject | undefined): void => {
    const arr = destArray(doc, value);
    if (key && arr) visit(key, arr);
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
}

/** Each page's index by its reference (PDFRef.of interns references, so the object is the key). */
function pageIndexOf(doc: PDFDocument): Map<PDFRef, number> {
  const index = new Map<PDFRef, number>();
  doc.getPages().forEach((p, i) => index.set(p.ref, i));
  return index;
}

function destNumber(arr: PDFArray, i: number): number {
  const n = arr.get(i);
  return n instanceof PDFNumber ? n.asNumber() : 0;
}

/**
 * Named destinations Chromium wrote for link targets: `/Dests` (what Chromium
 * 156 writes) or a `/Names /Dests` tree (older and newer writers).
 */
export function readDests(doc: PDFDocument): Map<string, DestPoint> {
  const pageIndex = pageIndexOf(doc);
  const out = new Map<string, DestPoint>();
  eachDest(doc, (key, arr) => {
    const ref = arr.get(0);
    const page = ref instanceof PDFRef ? pageIndex.get(ref) : undefined;
    if (page !== undefined) out.set(key, { page, x: destNumber(arr, 2), y: destNumber(arr, 3) });
  });
  return out;
}

/** How far a destination on a page moves: points right and up. */
export interface DestShift {
  dx: number;
  dy: number;
}

/**
 * Moves the document's own destinations (an `<a href="#x">`'s target) by their page's shift: Chromium
 * writes them relative to the page's content box, so a viewer would show the target a top margin
 * lower than the top of its window. Returns how many moved.
 */
export function shiftDests(
  doc: PDFDocument,
  isHelper: (name: string) => boolean,
  shift: (page: number) => DestShift,
): number {
  const pageIndex = pageIndexOf(doc);
  let moved = 0;
  eachDest(doc, (key, arr) => {
    const ref = arr.get(0);
    const page = ref instanceof PDFRef ? pageIndex.get(ref) : undefined;
    // Only XYZ carries a left and a top (Chromium writes nothing else).
    if (isHelper(key) || page === undefined || arr.get(1) !== XYZ) return;
    const { dx, dy } = shift(page);
    if (dx === 0 && dy === 0) return;
    const round = (v: number): number => Math.round(v * 100) / 100;
    arr.set(2, PDFNumber.of(round(destNumber(arr, 2) + dx)));
    arr.set(3, PDFNumber.of(round(destNumber(arr, 3) + dy)));
    moved++;
  });
  return moved;
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
