/**
 * What the overlay merge (src/html/render.ts `mergeOverlay`) leaves in the file. Chromium prints the
 * margin boxes the overlay draws as extra pages after the body; they are drawn onto the body pages and
 * dropped. pdf-lib's `removePage` takes a page out of the tree, not its objects: the clean write wrote
 * the dropped pages' content streams anyway (copied into the XObjects drawn on the body), ~3 % of the
 * invoice's bytes. Counted here: no object of the output is unreachable, and the footers are still drawn.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { pageText, qpdfCheck } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 1 });
});
afterAll(async () => {
  await pool.close();
}, 30_000);

/** The file's page count, its page leaves, and its streams and non-empty dictionaries that the trailer's /Root and /Info do not reach. */
async function objects(pdf: Uint8Array): Promise<{ pages: number; leaves: number; unreached: number }> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { context } = doc;
  const reached = new Set<PDFRef>();
  const stack: unknown[] = [context.trailerInfo.Root, context.trailerInfo.Info];
  while (stack.length > 0) {
    const obj = stack.pop();
    if (obj instanceof PDFRef) {
      if (reached.has(obj)) continue;
      reached.add(obj);
      stack.push(context.lookup(obj));
    } else if (obj instanceof PDFDict) stack.push(...obj.values());
    else if (obj instanceof PDFArray) stack.push(...obj.asArray());
    else if (obj instanceof PDFStream) stack.push(obj.dict);
  }
  let leaves = 0;
  let unreached = 0;
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    if (obj instanceof PDFDict && obj.get(PDFName.of('Type')) === PDFName.of('Page')) leaves++;
    if (!reached.has(ref) && (obj instanceof PDFStream || obj instanceof PDFDict) && !isEmptyDict(obj)) unreached++;
  }
  return { pages: doc.getPageCount(), leaves, unreached };
}

/** An empty dictionary left by an emptied name tree (pdf-dests.ts `removeDests`): not the merge's, left alone. */
function isEmptyDict(obj: PDFDict | PDFStream): boolean {
  return obj instanceof PDFDict && obj.entries().length === 0;
}

describe('overlay merge', () => {
  it('writes no object of the dropped overlay pages', async () => {
    const css = `@page { size: 400px 300px; margin: 40px; @bottom-center { content: "Page " counter(page) " of " counter(pages) } }
      body { margin: 0 } p { break-after: page }`;
    const pdf = await renderHtml(pool, { html: '<p>One</p><p>Two</p><p>Three</p>', css });
    const found = await objects(pdf);
    expect(found.pages).toBe(3);
    expect(found.leaves).toBe(3);
    // Before: the dropped pages' content streams (their drawing is copied into the body's XObjects) and more.
    expect(found.unreached).toBe(0);
    expect((await pageText(pdf)).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'One Page 1 of 3',
      'Two Page 2 of 3',
      'Three Page 3 of 3',
    ]);
    await qpdfCheck(pdf);
  }, 60_000);
});
