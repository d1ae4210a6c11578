import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FontRegistry } from '../src/fonts/index.js';
import { TextSetter, type LaidLine, type TextStyle } from '../src/text/index.js';
import { expectGolden } from './helpers/golden.js';
import { popplerText, qpdfCheck, readText, type PageText } from './helpers/pdf.js';

const style: TextStyle = { fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 12 };
const black = rgb(0, 0, 0);

/** All eight scripts in one string, in an LTR paragraph. */
const MIXED = 'Zoë says: Привет, Ελλάδα! 你好，世界。日本語のかな、한국어 문장, שלום עולם and مرحبا بالعالم.';

let registry: FontRegistry;
beforeAll(() => {
  registry = new FontRegistry();
});

/** Items of one line joined as pdfjs returns them (content order), without inventing separators. */
function lineText(page: PageText): string {
  return page.items.map((i) => i.str).join('');
}

async function drawOne(text: string, s: TextStyle = style): Promise<{ bytes: Uint8Array; width: number }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([700, 60]);
  const width = new TextSetter(doc, registry).drawText(page, text, 10, 30, s, black);
  return { bytes: await doc.save(), width };
}

/** Every character of every run is covered by the face the run is drawn with (no .notdef boxes). */
function expectNoTofu(lines: LaidLine[]): void {
  for (const line of lines) {
    for (const run of line.runs) {
      const face = registry.faceById(run.faceId ?? '');
      expect(face, run.text).toBeDefined();
      for (const ch of run.text) {
        const cp = ch.codePointAt(0) as number;
        if (cp === 0x20) continue;
        expect(face?.font.hasGlyphForCodePoint(cp), `U+${cp.toString(16)} in ${face?.id}`).toBe(true);
      }
    }
  }
}

describe('scripts: fill-style single lines read back in logical order', () => {
  it('Latin, Cyrillic, Greek, Chinese, Japanese, Korean, Hebrew and Arabic in one string', async () => {
    const { bytes } = await drawOne(MIXED);
    await qpdfCheck(bytes);
    const [page] = await readText(bytes);
    expect(lineText(page)).toBe(MIXED);
  });

  it.each([
    ['Hebrew', 'שלום עולם זה טקסט בעברית'],
    ['Arabic', 'مرحبا بالعالم، هذا نص عربي'],
    ['Arabic lam-alef ligature and harakat', 'لا سلام مُحَمَّد'],
    ['Hebrew word inside English', 'Hello שלום world'],
    ['Arabic word inside English', 'English then العربية and back'],
    ['Japanese kana', 'ひらがなとカタカナ'],
    ['Korean', '안녕하세요 세계'],
  ])('%s', async (_name, text) => {
    const { bytes } = await drawOne(text);
    const [page] = await readText(bytes);
    expect(lineText(page)).toBe(text);
  });

  it('RTL paragraphs with embedded LTR, digits and brackets keep every character in logical order', async () => {
    // pdfjs rebuilds spaces at direction changes from glyph gaps, so spaces are compared loosely here.
    for (const text of [
      'שלום עולם, זה טקסט בעברית.',
      'مرحبا بالعالم، هذا نص عربي.',
      'שלום עולם, זה טקסט בעברית עם English words בתוכו.',
      'العدد 123 هو',
      'שלום (עולם) [abc] סוף',
      'هذا نص عربي مع English في الوسط.',
    ]) {
      const { bytes } = await drawOne(text);
      const [page] = await readText(bytes);
      expect(lineText(page).replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    }
  });

  it('every run is drawn with a face that has its glyphs', async () => {
    const doc = await PDFDocument.create();
    const setter = new TextSetter(doc, registry);
    expectNoTofu(setter.layout([{ text: MIXED, style }]));
    expectNoTofu(
      setter.layout([{ text: MIXED, style: { ...style, fontFamily: 'Times New Roman', fontWeight: 'boldItalic' } }]),
    );
  });

  it('picks the CJK face by script: kana → JP, hangul → KR, plain Han → SC', async () => {
    const doc = await PDFDocument.create();
    const setter = new TextSetter(doc, registry);
    const faces = (text: string): string[] =>
      setter.layout([{ text, style }])[0].runs.map((r) => registry.faceById(r.faceId ?? '')?.font.postscriptName ?? '');
    expect(faces('汉字')).toEqual(['NotoSansCJKsc-Regular']);
    expect(faces('日本語のかな')).toEqual(['NotoSansCJKjp-Regular']);
    expect(faces('한국어')).toEqual(['NotoSansCJKkr-Regular']);
    const tc = new TextSetter(doc, registry, { cjkLanguage: 'tc' });
    expect(
      tc.layout([{ text: '漢字', style }])[0].runs.map((r) => registry.faceById(r.faceId ?? '')?.font.postscriptName),
    ).toEqual(['NotoSansCJKtc-Regular']);
  });

  it('lays right-to-left text out in visual order', async () => {
    const doc = await PDFDocument.create();
    const setter = new TextSetter(doc, registry);
    const [line] = setter.layout([{ text: 'abc שלום def', style }]);
    expect(line.runs.map((r) => [r.text.trim(), r.rtl])).toEqual(
      [
        ['abc', false],
        ['שלום', true],
        ['', false],
        ['def', false],
      ].filter(([t]) => t !== '' || line.runs.length === 4),
    );
    const [rtlLine] = setter.layout([{ text: 'שלום abc', style }]);
    expect(rtlLine.rtl).toBe(true);
    // In a right-to-left paragraph the Latin word comes first from the left.
    expect(rtlLine.runs[0].text).toBe('abc');
    expect(rtlLine.runs[rtlLine.runs.length - 1].text.trim()).toBe('שלום');
  });
});

/** Scripts found through the block table (src/fonts/script-ranges.ts), from fonts-noto-core. */
const MORE_SCRIPTS: Array<[name: string, text: string, face: string, exact: boolean]> = [
  ['Tamil', 'வணக்கம் உலகம்', 'NotoSansTamil-Regular', true],
  ['Telugu', 'హలో ప్రపంచం', 'NotoSansTelugu-Regular', true],
  ['Gurmukhi', 'ਸਤ ਸ੍ਰੀ ਅਕਾਲ', 'NotoSansGurmukhi-Regular', true],
  ['Lao', 'ສະບາຍດີ', 'NotoSansLao-Regular', true],
  ['Myanmar', 'မင်္ဂလာပါ', 'NotoSansMyanmar-Regular', true],
  ['Ethiopic', 'ሰላም ልዑል', 'NotoSansEthiopic-Regular', true],
  ['Georgian', 'გამარჯობა', 'NotoSansGeorgian-Regular', true],
  ['Armenian', 'Բարեւ աշխարհ', 'NotoSansArmenian-Regular', true],
  ['Thai', 'สวัสดีชาวโลก', 'NotoSansThai-Regular', true],
  ['Tibetan', 'བཀྲ་ཤིས་བདེ་ལེགས', 'NotoSerifTibetan-Regular', true],
  ['Syriac', 'ܫܠܡܐ', 'NotoSansSyriac-Regular', true],
  ['Thaana', 'ހެލޯ', 'NotoSansThaana-Regular', true],
  ['Cherokee', 'ᎣᏏᏲ', 'NotoSansCherokee-Regular', true],
  // Pre-base vowel signs are drawn before their consonant, and pdfjs reads glyphs in drawing order
  // (two-part vowels as their two parts); /ActualText gives poppler and Acrobat the typed text.
  ['Devanagari', 'नमस्ते दुनिया', 'NotoSansDevanagari-Regular', false],
  ['Bengali', 'ওহে বিশ্ব', 'NotoSansBengali-Regular', false],
  ['Gujarati', 'નમસ્તે વિશ્વ', 'NotoSansGujarati-Regular', false],
  ['Kannada', 'ನಮಸ್ಕಾರ ಪ್ರಪಂಚ', 'NotoSansKannada-Regular', false],
  ['Malayalam', 'ഹലോ ലോകം', 'NotoSansMalayalam-Regular', false],
  ['Sinhala', 'ආයුබෝවන් ලෝකය', 'NotoSansSinhala-Regular', false],
  ['Khmer', 'សួស្តីពិភពលោក', 'NotoSansKhmer-Regular', false],
];

describe('scripts beyond the eight: the Noto face of each script, by Unicode block', () => {
  it.each(MORE_SCRIPTS)('%s', async (_name, text, face, exact) => {
    const doc = await PDFDocument.create();
    const setter = new TextSetter(doc, registry);
    const lines = setter.layout([{ text, style }]);
    expectNoTofu(lines);
    expect(
      new Set(
        lines[0].runs.filter((r) => r.text.trim()).map((r) => registry.faceById(r.faceId ?? '')?.font.postscriptName),
      ),
    ).toEqual(new Set([face]));
    const { bytes } = await drawOne(text);
    const [page] = await readText(bytes);
    const got = lineText(page);
    if (exact) expect(got).toBe(text);
    else {
      expect((await popplerText(bytes))[0]!.trim()).toBe(text);
      // pdfjs ignores /ActualText: every character is there (split vowels as their parts); only the order differs.
      const left = [...got.normalize('NFD').replace(/\s/g, '')];
      for (const ch of text.normalize('NFD').replace(/\s/g, '')) {
        const at = left.indexOf(ch);
        expect(at, `${ch} in ${got}`).toBeGreaterThanOrEqual(0);
        left.splice(at, 1);
      }
    }
  });

  it('a combining mark the current face lacks comes from a face that has it (≧̸: Noto Sans CJK, then Noto Sans)', async () => {
    const doc = await PDFDocument.create();
    const setter = new TextSetter(doc, registry);
    const lines = setter.layout([{ text: 'a ≧\u0338 b', style }]);
    expectNoTofu(lines);
    const { bytes } = await drawOne('a ≧\u0338 b');
    const [page] = await readText(bytes);
    expect(lineText(page)).toBe('a ≧\u0338 b');
  });
});

describe('emoji', () => {
  it('are drawn in outlines (Symbola) with no missing-glyph boxes; variation selectors draw nothing', async () => {
    const text = 'Done ✅ 😀 🎉 👍 ❤️ 🚀 🔥 💡 📄';
    const doc = await PDFDocument.create();
    const setter = new TextSetter(doc, registry);
    const lines = setter.layout([{ text, style }]);
    expectNoTofu(
      lines.map((l) => ({ ...l, runs: l.runs.map((r) => ({ ...r, text: r.text.replace(/\uFE0F/g, '') })) })),
    );
    const faces = new Set(lines[0]!.runs.map((r) => registry.faceById(r.faceId ?? '')?.font.postscriptName));
    expect(faces.has('Symbola')).toBe(true);
    const page = doc.addPage([320, 60]);
    setter.drawText(page, text, 10, 25, { ...style, fontSize: 18 }, black);
    const bytes = await doc.save();
    const [read] = await readText(bytes);
    expect(lineText(read!).replace(/\s+/g, '')).toBe(text.replace(/\uFE0F|\s+/g, ''));
    await expectGolden('text-emoji', bytes, { scale: 2 });
  });
});

describe('mark positioning', () => {
  it('GPOS y offsets of marks are drawn (text rise), so harakat clear tall letters and stacked marks stack', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([320, 150]);
    const setter = new TextSetter(doc, registry);
    const big = { ...style, fontSize: 28 };
    setter.drawText(page, 'لِلّٰه مُحَمَّد', 10, 100, big, black);
    setter.drawText(page, 'שָׁלוֹם ที่นี่ ผู้ใหญ่', 10, 40, big, black);
    const bytes = await doc.save();
    const { decodePDFRawStream, PDFArray, PDFRawStream } = await import('@cantoo/pdf-lib');
    const loaded = await PDFDocument.load(bytes);
    const contents = loaded.getPage(0).node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => loaded.context.lookup(ref)) : [contents];
    const ops = streams
      .map((s) => (s instanceof PDFRawStream ? new TextDecoder('latin1').decode(decodePDFRawStream(s).decode()) : ''))
      .join('\n');
    const rises = [...ops.matchAll(/(-?[\d.]+) Ts/g)].map((m) => Number(m[1]));
    expect(rises.some((r) => r > 1)).toBe(true);
    expect(rises[rises.length - 1]).toBe(0);
    const [read] = await readText(bytes);
    expect(lineText(read).replace(/\s+/g, '')).toContain('لِلّٰه'.replace(/\s+/g, ''));
    await expectGolden('text-marks', bytes, { scale: 2 });
  });
});

describe('scripts: golden image', () => {
  it('renders every script without missing-glyph boxes', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([420, 300]);
    const setter = new TextSetter(doc, registry);
    const paragraphs: Array<[string, TextStyle]> = [
      [MIXED, style],
      [
        'Times New Roman: Grüße, Привет, Ελλάδα — 契約書 (bold italic)',
        { ...style, fontFamily: 'Times New Roman', fontWeight: 'boldItalic' },
      ],
      ['Courier: total = 42; שלום (עולם) [abc]', { ...style, fontFamily: 'Courier' }],
      ['Helvetica bold: أهلاً بالعالم 2024 and 東京タワー', { ...style, fontFamily: 'Helvetica', fontWeight: 'bold' }],
      ['Noto Sans italic: 漢字 gets a synthetic slant, 한국어 too', { ...style, fontWeight: 'italic' }],
    ];
    let y = 280;
    for (const [text, s] of paragraphs) {
      for (const line of setter.layout([{ text, style: s }], { maxWidth: 400 })) {
        y -= line.ascent;
        setter.drawLine(page, line, 10, y, black);
        y -= line.height - line.ascent;
      }
      y -= 6;
    }
    const bytes = await doc.save();
    await expectGolden('text-scripts', bytes, { scale: 2 });
  });

  it('renders the scripts found by Unicode block, shaped (Indic conjuncts and pre-base vowels, Khmer, Tibetan stacks)', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([420, 130]);
    const setter = new TextSetter(doc, registry);
    const text = MORE_SCRIPTS.map(([, t]) => t).join('  ');
    let y = 120;
    for (const line of setter.layout([{ text, style }], { maxWidth: 400 })) {
      y -= line.ascent;
      setter.drawLine(page, line, 10, y, black);
      y -= line.height - line.ascent;
    }
    await expectGolden('text-scripts-more', await doc.save(), { scale: 2 });
  });
});
