/**
 * The artifact pass (markArtifacts) on many pages: each page's content is inflated and its new content
 * deflated on libuv's threads, so the thread that scans is free in between (an HTML render's second
 * core works while the first scans), and what it writes is what zlib's synchronous calls write. The
 * lean scan's shortcuts for Chromium's glyph runs (`Tj`, `Td`, hex strings) tell operators apart as
 * its general path does.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { markArtifacts } from '../src/pdf/index.js';
import { markUncovered } from '../src/pdf/structure/marked-content.js';

/** A page as Chromium prints one: an unmarked background, then tagged glyphs one `Td … Tj` each. */
function pageContent(n: number): string {
  let glyphs = '';
  for (let g = 0; g < 40; g++) glyphs += `${(n + g) % 9}.5 0 Td <00${(0x41 + g).toString(16)}> Tj\n`;
  return `q 1 1 1 rg 0 0 612 792 re f Q\n/P <</MCID 0 >>BDC\nBT\n/F1 12 Tf\n72 700 Td\n${glyphs}ET\nEMC\n`;
}

async function document(pages: number): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(pageContent(i))));
  }
  return doc;
}

describe('markArtifacts on many pages', () => {
  it('leaves the thread free while zlib works, and writes what the synchronous rewrite writes', async () => {
    const doc = await document(24);
    let turns = 0;
    let done = false;
    const tick = (): void => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const changed = await markArtifacts(doc);
    done = true;
    expect(changed).toBe(24);
    // The event loop turned while the pages were inflated and deflated: counted, not timed.
    expect(turns).toBeGreaterThan(0);
    doc.getPages().forEach((page, i) => {
      const stream = doc.context.lookup(page.node.get(PDFName.of('Contents')));
      expect(stream).toBeInstanceOf(PDFRawStream);
      const data = (stream as PDFRawStream).getContents();
      // What the synchronous rewrite gives: markUncovered's bytes, deflated by zlib at its defaults.
      const expected = markUncovered(Buffer.from(`${pageContent(i)}\n`, 'latin1'));
      expect(expected).toBeDefined();
      expect(Buffer.compare(inflateSync(data), Buffer.from(expected!))).toBe(0);
      expect(Buffer.compare(data, deflateSync(expected!))).toBe(0);
      expect(inflateSync(data).toString('latin1')).toMatch(
        /^\n\/Artifact BMC\nq 1 1 1 rg 0 0 612 792 re f Q\nEMC\n\n\/P <</,
      );
    });
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
