/**
 * How much a page's drawing decodes to, checked before a reader that decodes without a bound
 * (pdf.js building an operator list) is given the file: the pages whose content streams and the
 * form XObjects their resources name (their own resources too, each stream once) decode past the
 * budget, for the reader to pass over. Images are not counted (such a reader is told not to decode
 * them), nor a stream whose filter the kernel cannot decode: pdf.js meets it as it is.
 */
import {
  PDFArray,
  PDFDict,
  PDFRawStream,
  PDFRef,
  type PDFDocument,
  type PDFObject,
  type PDFPageLeaf,
} from '@cantoo/pdf-lib';
import { decodeCapped, DecodeBudgetError } from '../parse/decode.js';
import { PDF } from '../document/names.js';

/** How deep form XObjects may nest before the walk stops following them. */
const MAX_DEPTH = 12;

class OverBudget extends Error {}

/** The 0-based indexes of the first `pages` pages of `doc` whose drawing decodes to more than `perPage` bytes. */
export function pagesOverBudget(doc: PDFDocument, options: { perPage: number; pages: number }): number[] {
  const over: number[] = [];
  doc
    .getPages()
    .slice(0, options.pages)
    .forEach((page, index) => {
      try {
        countPage(doc, page.node, options.perPage);
      } catch (e) {
        if (!(e instanceof OverBudget)) throw e;
        over.push(index);
      }
    });
  return over;
}

/** Decodes a page's content and form XObjects, each once, until more than `budget` bytes (OverBudget). */
function countPage(doc: PDFDocument, node: PDFPageLeaf, budget: number): void {
  let left = budget;
  const seen = new Set<PDFObject>();
  const count = (obj: PDFObject | undefined) => {
    const stream = obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
    if (!(stream instanceof PDFRawStream) || seen.has(stream)) return;
    seen.add(stream);
    try {
      left -= decodeCapped(stream, Math.max(0, left)).length;
    } catch (e) {
      // A filter the kernel cannot decode: not counted.
      if (!(e instanceof DecodeBudgetError)) return;
      left = -1;
    }
    if (left < 0) throw new OverBudget();
  };
  const visitResources = (resources: PDFObject | undefined, depth: number) => {
    const dict = resources instanceof PDFRef ? doc.context.lookup(resources) : resources;
    const xobjects = dict instanceof PDFDict ? dict.lookup(PDF.XObject) : undefined;
    if (!(xobjects instanceof PDFDict) || depth > MAX_DEPTH) return;
    for (const [, ref] of xobjects.entries()) {
      const xobject = doc.context.lookup(ref);
      if (!(xobject instanceof PDFRawStream) || seen.has(xobject)) continue;
      if (xobject.dict.get(PDF.Subtype) !== PDF.Form) continue;
      count(xobject);
      visitResources(xobject.dict.get(PDF.Resources), depth + 1);
    }
  };
  const contents = node.get(PDF.Contents);
  const resolved = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
  if (resolved instanceof PDFArray) for (const part of resolved.asArray()) count(part);
  else count(contents);
  visitResources(node.Resources(), 0);
}
