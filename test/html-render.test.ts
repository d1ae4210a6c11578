import { PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { pageSizes, pageText, qpdfCheck, readText, type PageText } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

function find(page: PageText, str: string) {
  return page.items.find((it) => it.str.includes(str));
}

describe('renderHtml basics', () => {
  it('renders a fragment on US Letter with 50px margins by default', async () => {
    const pdf = await renderHtml(pool, {
      html: '<body style="margin:0"><p style="margin:0">Hello castpress</p></body>',
    });
    await qpdfCheck(pdf);
    const [page] = await readText(pdf);
    expect(page!.width).toBeCloseTo(612, 0);
    expect(page!.height).toBeCloseTo(792, 0);
    const hello = find(page!, 'Hello');
    expect(hello).toBeDefined();
    // 50px = 37.5pt from the left edge.
    expect(hello!.x).toBeCloseTo(37.5, 0);
    expect(hello!.y).toBeGreaterThan(36);
    expect(hello!.y).toBeLessThan(44);
  });

  it('uses Noto Sans by default and writes the title into the metadata', async () => {
    const pdf = await renderHtml(pool, { html: '<p>Default font</p>', title: 'Quarterly report' });
    const [page] = await readText(pdf);
    expect(find(page!, 'Default')!.fontName).toBeDefined();
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/NotoSans-Regular/);
    expect((await PDFDocument.load(pdf)).getTitle()).toBe('Quarterly report');
  });

  it("resolves the 'Noto CJK' family of the default stack to Noto Sans CJK, embedded as real TrueType fonts (no Type 3)", async () => {
    const pdf = await renderHtml(pool, {
      html: '<p style="font-family: \'Noto CJK\'">東京 漢字</p><p>Latin 東京 한국어 かな</p><p><b>太字</b></p>',
    });
    // The glyf copies setup writes (scripts/cjk-truetype.py): Chromium embeds the CFF originals as Type 3 fonts.
    const fonts = await fontKinds(pdf);
    expect(fonts.filter((f) => f.subtype === 'Type3')).toEqual([]);
    expect(fonts.map((f) => f.base)).toEqual(
      expect.arrayContaining(['NotoSansCJKscTT-Regular', 'NotoSansCJKscTT-Bold']),
    );
    const text = (await pageText(pdf))[0]!.replace(/\s+/g, '');
    for (const s of ['東京漢字', '한국어', 'かな', '太字']) expect(text).toContain(s);
  });

  it('reuses pages across jobs without leaking state from one document to the next', async () => {
    await renderHtml(pool, {
      html: '<p>first</p>',
      css: '@page { @top-center { content: "LEAK"; } } p { color: red }',
    });
    const texts = await pageText(await renderHtml(pool, { html: '<p>second</p>' }));
    expect(texts).toEqual(['second']);
  });
});

export { pageSizes };

/** Every font of the document's pages: subtype and base name (subset prefix removed). */
async function fontKinds(pdf: Uint8Array): Promise<Array<{ subtype: string; base: string }>> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const out: Array<{ subtype: string; base: string }> = [];
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [, ref] of fonts?.entries() ?? []) {
      const f = doc.context.lookupMaybe(ref, PDFDict);
      if (!f) continue;
      out.push({
        subtype: String(f.get(PDFName.of('Subtype'))).slice(1),
        base: String(f.get(PDFName.of('BaseFont')) ?? '').replace(/^\/([A-Z]{6}\+)?/, ''),
      });
    }
  }
  return out;
}
