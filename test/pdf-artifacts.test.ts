/**
 * The print's clean write after the artifact pass and the overlay's merge holds nothing that nothing
 * reaches: the pages' rewritten streams replace their old ones, and the streams of pages drawn onto
 * others as forms leave with those pages (counted: unreachable objects in the output). The forms draw
 * what the pages held. The lean marked-content scan's shortcuts for Chromium's glyph runs (`Tj` and
 * `Td` told apart without a lookup, hex strings walked in place) read operators as its general path does.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { markArtifacts, openForUpdate, rewritePdf } from '../src/pdf/index.js';
import { markUncovered } from '../src/pdf/structure/marked-content.js';
import { mergeOverlay } from '../src/html/post/overlay.js';
import type { OverlayGrid } from '../src/html/in-page/contract.js';

const BODY = (n: number): string =>
  `q 1 1 1 rg 0 0 612 792 re f Q\n/P <</MCID 0 >>BDC\nBT\n/F1 12 Tf\n72 700 Td\n<00${(0x41 + n).toString(16)}> Tj\nET\nEMC\n`;
// Overlay pages as Chromium prints them (aria-hidden: no marks), one with a mark to strip.
const OVERLAY = (n: number): string =>
  n === 0 ? '/Artifact BMC\nBT /F1 9 Tf 10 10 Td <0050> Tj ET\nEMC\n' : `BT /F1 9 Tf 10 10 Td <003${n}> Tj ET\n`;

/** A print of `pages` body pages and as many overlay pages after them, each drawn by one compressed stream. */
async function print(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const content of [
    ...Array.from({ length: pages }, (_, i) => BODY(i)),
    ...Array.from({ length: pages }, (_, i) => OVERLAY(i)),
  ]) {
    const page = doc.addPage([612, 792]);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  }
  return doc.save({ useObjectStreams: false });
}

/** Each overlay page a sheet of one tile (as a sheet holding one page's margin boxes is printed). */
function oneTileSheets(pages: number): OverlayGrid {
  return {
    sheets: Array.from({ length: pages }, () => ({ cols: 1, rows: 1, pitch: [612, 792], tile: [612, 792] })),
    tiles: Array.from({ length: pages }, (_, i) => ({ sheet: i, index: 0 })),
  };
}

/** Objects of the file that nothing reaches from its trailer. */
function unreachable(ctx: PDFContext): PDFObject[] {
  const seen = new Set<PDFRef>();
  const stack: Array<PDFObject | undefined> = [ctx.trailerInfo.Root, ctx.trailerInfo.Info];
  while (stack.length > 0) {
    const o = stack.pop();
    if (o instanceof PDFRef) {
      if (!seen.has(o)) {
        seen.add(o);
        stack.push(ctx.lookup(o));
      }
    } else if (o instanceof PDFDict) stack.push(...o.values());
    else if (o instanceof PDFArray) stack.push(...o.asArray());
    else if (o instanceof PDFStream) stack.push(o.dict);
  }
  return ctx.enumerateIndirectObjects().flatMap(([ref, o]) => (seen.has(ref) ? [] : [o]));
}

describe('the print after the artifact pass and the overlay merge', () => {
  it('writes no object that nothing reaches, and forms that draw what the overlay pages held', async () => {
    const pages = 6;
    const base = await openForUpdate(await print(pages), 'html');
    await markArtifacts(base.doc, base.doc.getPages().slice(0, pages), new Map());
    const grid = oneTileSheets(pages);
    mergeOverlay(
      base.doc,
      pages,
      Array.from({ length: pages }, (_, i) => i),
      grid,
      0,
      new Map(),
      true,
    );
    const out = await PDFDocument.load(await rewritePdf(base.doc, { copyUnread: true }), { updateMetadata: false });
    // Counted: neither the body pages' old streams nor the overlay pages' own streams are left in the file.
    expect(unreachable(out.context)).toEqual([]);
    expect(out.getPageCount()).toBe(pages);
    out.getPages().forEach((page, i) => {
      const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
      expect(xobjects).toBeInstanceOf(PDFDict);
      const forms = (xobjects as PDFDict).values().map((r) => out.context.lookup(r));
      expect(forms).toHaveLength(1);
      const form = inflateSync((forms[0] as PDFRawStream).getContents()).toString('latin1');
      // The overlay page's content, cut out of its sheet, without its marks.
      const shown = /<[0-9a-f]+> Tj/.exec(OVERLAY(i))![0];
      expect(form).toContain(shown);
      expect(form.match(/ Tj/g)).toHaveLength(1);
      expect(form).not.toContain('BMC');
    });
  });
});

describe('the untagged print after the overlay merge', () => {
  it("writes no object that nothing reaches: the sheets' own streams leave with the sheets", async () => {
    const pages = 6;
    const base = await openForUpdate(await print(pages), 'html');
    mergeOverlay(
      base.doc,
      pages,
      Array.from({ length: pages }, (_, i) => i),
      oneTileSheets(pages),
      0,
      new Map(),
      false,
    );
    const out = await PDFDocument.load(await rewritePdf(base.doc, { copyUnread: true }), { updateMetadata: false });
    expect(out.getPageCount()).toBe(pages);
    expect(unreachable(out.context)).toEqual([]);
  });
});

describe('the lean scan on glyph runs', () => {
  const wrap = (content: string): string | undefined => {
    const out = markUncovered(Buffer.from(content, 'latin1'));
    return out && Buffer.from(out).toString('latin1');
  };

  it('takes Tj and TJ for painting, and Td, TD, Tf, T* for state', () => {
    expect(wrap('BT 1 0 Td <0041> Tj ET')).toBe('\n/Artifact BMC\nBT 1 0 Td <0041> Tj ET\nEMC\n');
    expect(wrap('BT 1 0 Td [<0041> -20 <0042>] TJ ET')).toBe(
      '\n/Artifact BMC\nBT 1 0 Td [<0041> -20 <0042>] TJ ET\nEMC\n',
    );
    // Moves and font changes paint nothing: no wrapper.
    expect(wrap('BT /F1 9 Tf 1 0 Td 2 3 TD T* ET')).toBeUndefined();
  });

  it('reads hex strings of any length, with white space, and refuses one left open', () => {
    expect(wrap('/P <</MCID 1 >>BDC BT <00 41\n0042> Tj ET EMC <0043> Tj')).toBe(
      '/P <</MCID 1 >>BDC BT <00 41\n0042> Tj ET EMC\n/Artifact BMC\n <0043> Tj\nEMC\n',
    );
    // `Tj` inside a hex string is no operator; an unterminated one does not lex.
    expect(wrap('<54 6a> pop')).toBeUndefined();
    expect(wrap('BT <0041 Tj ET')).toBeUndefined();
  });
});
