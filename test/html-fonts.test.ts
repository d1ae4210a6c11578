/**
 * "pdffonts shows no Type 3 font for Latin, CJK and Arabic test documents". Chromium's PDF
 * backend writes a Type 3 font (glyph outlines as paths: no real font, poor text extraction and
 * printing) for CFF faces and for synthetic bold; poppler's pdffonts is the independent reader here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, defaultDocumentCss, renderHtml } from '../src/html/index.js';
import { pageText, pdffonts, type PdffontsRow } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

/** Right-to-left text as pdfjs reads it (visual order, left to right) back in logical order. */
const logical = (visual: string) => [...visual].reverse().join('');

/** Base names without the subset tag, e.g. `NotoSans-Regular`. */
const base = (fonts: PdffontsRow[]) => fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));

async function fontsOf(html: string): Promise<{ fonts: PdffontsRow[]; text: string }> {
  const pdf = await renderHtml(pool, { html });
  // NFKC: pdfjs reads the ToUnicode maps, which give Arabic presentation forms (in visual order) and, for
  // ideographs that share a glyph with a Kangxi radical (文, 日), the radical; Chromium adds /ActualText
  // with the real character, which poppler honours and pdfjs does not.
  return { fonts: await pdffonts(pdf), text: (await pageText(pdf)).join('').replace(/\s+/g, '').normalize('NFKC') };
}

function expectNoType3(fonts: PdffontsRow[]): void {
  expect(
    fonts.filter((f) => f.type === 'Type 3'),
    JSON.stringify(fonts),
  ).toEqual([]);
  // every font a real embedded subset with a ToUnicode map
  for (const f of fonts) expect(f, f.name).toMatchObject({ type: 'CID TrueType', emb: true, sub: true, uni: true });
}

describe('pdffonts: no Type 3 font in HTML mode (default font stack)', () => {
  it('Latin: Noto Sans regular, bold, italic and bold italic, embedded', async () => {
    const { fonts, text } = await fontsOf(
      '<p>Façade naïve Ærø — “quotes”</p><p><b>Bold</b> <i>italic</i> <b><i>both</i></b></p>',
    );
    expectNoType3(fonts);
    expect(base(fonts).sort()).toEqual(['NotoSans-Bold', 'NotoSans-BoldItalic', 'NotoSans-Italic', 'NotoSans-Regular']);
    expect(text).toContain('Façadenaïve');
  });

  it('CJK: Chinese, Japanese and Korean in the default stack use the glyf copies of Noto Sans CJK SC (regular and bold)', async () => {
    const { fonts, text } = await fontsOf(
      '<p>中文 漢字</p><p lang="ja">日本語 ひらがな カタカナ</p><p lang="ko">한국어</p><p><b>太字 굵게</b></p>',
    );
    expectNoType3(fonts);
    expect(base(fonts)).toEqual(expect.arrayContaining(['NotoSansCJKscTT-Regular', 'NotoSansCJKscTT-Bold']));
    for (const s of ['中文漢字', '日本語ひらがなカタカナ', '한국어', '太字굵게']) expect(text).toContain(s);
  });

  it("Arabic in the default stack: Noto Sans Arabic through the 'Noto Scripts' faces (regular, italic)", async () => {
    const { fonts, text } = await fontsOf(
      '<p dir="rtl" lang="ar">مرحبا بالعالم</p><p dir="rtl" lang="ar"><i>نص مائل</i></p>',
    );
    expectNoType3(fonts);
    // Noto Sans has no Arabic; the default stack's 'Noto Scripts' names the face fill and Markdown use
    // (before it, Chromium asked fontconfig, whose answer for sans-serif + ar is DejaVu Sans).
    expect(base(fonts)).toContain('NotoSansArabic-Regular');
    expect(base(fonts)).not.toContain('DejaVuSans');
    expect(logical(text)).toContain('بالعالم');
  });

  // Before 'Noto Scripts', Chromium's per-character fallback ignored the weight and returned DejaVu Sans
  // Book, emboldened synthetically, which Skia writes as Type 3.
  it('bold Arabic and Hebrew in the default stack are the real bold faces, not synthetic bold (Type 3)', async () => {
    const { fonts } = await fontsOf(
      '<p dir="rtl" lang="ar"><b>نص عريض</b></p><p dir="rtl" lang="he"><b>טקסט מודגש</b> רגיל</p>',
    );
    expectNoType3(fonts);
    // Spaces come from Noto Sans, the stack's first family.
    expect(
      base(fonts)
        .filter((f) => !f.startsWith('NotoSans-'))
        .sort(),
    ).toEqual(['NotoSansArabic-Bold', 'NotoSansHebrew-Bold', 'NotoSansHebrew-Regular']);
  });
});

describe("'Noto Scripts' only where the text needs it", () => {
  it('a Latin document gets no script faces (they cost ~10 ms a print); numeric references to Arabic count as Arabic', async () => {
    expect(defaultDocumentCss(undefined, '<p>Invoice total: €10,545.00 — naïve</p>')).not.toContain('Noto Scripts');
    expect(defaultDocumentCss(undefined, '<p>&#x645;&#1585;</p>')).toContain("local('NotoSansArabic-Bold')");
    expect(defaultDocumentCss(undefined, '<p>&#x645;&#1585;</p>')).not.toContain('NotoSansHebrew');
    const { fonts } = await fontsOf('<p dir="rtl" lang="ar"><b>&#x645;&#x631;&#x62D;&#x628;&#x627;</b></p>');
    expectNoType3(fonts);
    expect(base(fonts)).toContain('NotoSansArabic-Bold');
  });
});

describe("pdffonts: Arabic with font-family 'Noto Sans Arabic'", () => {
  it('regular and bold are the glyf faces of fonts-noto-core, embedded as CID TrueType', async () => {
    const { fonts, text } = await fontsOf(
      `<div style="font-family: 'Noto Sans Arabic'" dir="rtl" lang="ar"><p>مرحبا بالعالم</p><p><b>نص عريض</b></p></div>`,
    );
    expectNoType3(fonts);
    expect(base(fonts).sort()).toEqual(['NotoSansArabic-Bold', 'NotoSansArabic-Regular']);
    expect(logical(text)).toContain('بالعالم');
  });

  it('the cause of the gap above: synthetic bold (a family without a bold face) is Type 3; castpress synthesises none by default', async () => {
    const synthetic = await fontsOf(
      `<p style="font-family: 'Noto Mono'; font-synthesis-weight: auto"><b>synthetic bold</b></p>`,
    );
    expect(synthetic.fonts.map((f) => f.type)).toEqual(['Type 3']);
    const real = await fontsOf(`<p style="font-family: 'Noto Mono'"><b>synthetic bold</b></p>`);
    expectNoType3(real.fonts);
    expect(base(real.fonts)).toEqual(['NotoMono']);
  });
});
