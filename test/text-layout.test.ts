import { PDFDict, PDFDocument, PDFName, rgb } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FontRegistry } from '../src/fonts/index.js';
import { TextLayout, TextSetter, breakOpportunities, type LaidLine, type TextStyle } from '../src/text/index.js';
import { expectGolden } from './helpers/golden.js';
import { pageText, readText } from './helpers/pdf.js';
import { expectLinearTime } from './helpers/scaling.js';

const style: TextStyle = { fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 10 };
const black = rgb(0, 0, 0);
let registry: FontRegistry;
let setter: TextSetter;

beforeAll(async () => {
  registry = new FontRegistry({ systemDirectories: [] });
  setter = new TextSetter(await PDFDocument.create(), registry);
});

const texts = (lines: LaidLine[]): string[] => lines.map((l) => l.runs.map((r) => r.text).join(''));

describe('measuring', () => {
  it('measures with fallback, consistently with layout', () => {
    const w = setter.measure('abc 漢字', style);
    expect(w).toBeCloseTo(setter.measure('abc ', style) + setter.measure('漢字', style), 3);
    // Ideographs are one em wide.
    expect(setter.measure('漢字', style)).toBeCloseTo(20, 3);
    expect(setter.measure('abc', { ...style, fontSize: 20 })).toBeCloseTo(2 * setter.measure('abc', style), 6);
  });

  it('metrics come from the chosen face', () => {
    const m = setter.metrics(style);
    expect(m.ascent).toBeCloseTo(10.69, 2);
    expect(m.descent).toBeCloseTo(2.93, 2);
    expect(m.lineHeight).toBeCloseTo(13.62, 2);
    const times = setter.metrics({ ...style, fontFamily: 'Times New Roman' });
    expect(times.ascent).toBeLessThan(m.ascent);
  });

  it('fitFontSize shrinks a single line to the width, not below the minimum', () => {
    const text = 'A rather long value for a narrow field';
    const full = setter.measure(text, style);
    const size = setter.fitFontSize(text, style, full / 2, 4);
    expect(size).toBeLessThanOrEqual(5);
    expect(size).toBeGreaterThan(4.9);
    expect(setter.measure(text, { ...style, fontSize: size })).toBeLessThanOrEqual(full / 2);
    expect(setter.fitFontSize(text, style, full / 10, 4)).toBe(4);
    expect(setter.fitFontSize('short', style, 500, 4)).toBe(10);
  });
});

describe('hostile text', () => {
  it('a run of combining marks on one letter keeps 30 and lays out in linear time (40,000 took 8 s)', async () => {
    const marks = (n: number) => `x${'\u0301'.repeat(n)} y${'\u0323\u0301'.repeat(20)}`;
    // 8x the marks cost under 22.6x (quadratic: 64x).
    const { lines, width } = await expectLinearTime(
      'combining marks',
      async (n) => ({
        lines: setter.layout([{ text: marks(n), style }], { maxWidth: 200 }),
        width: setter.measure(marks(n), style),
      }),
      2_500,
      20_000,
    );
    expect(texts(lines).join('|')).toBe(`x${'\u0301'.repeat(30)} y${'\u0323\u0301'.repeat(15)}`);
    expect(width).toBeCloseTo(setter.measure(`x${'\u0301'.repeat(30)} y${'\u0323\u0301'.repeat(15)}`, style), 6);
  });
});

describe('hostile unspaced text', () => {
  it('Thai without a space gets its word breaks in linear time (80 KB took 10 s in ICU)', async () => {
    // 8x the text costs under 22.6x (quadratic: 64x).
    const breaks = await expectLinearTime('Thai', async (n) => breakOpportunities('กา'.repeat(n)), 3_125, 25_000);
    expect(breaks).toEqual(Array.from({ length: 24_999 }, (_, i) => 2 * (i + 1)));
  });

  it('a long Thai run segmented a window at a time breaks where ICU breaks it whole', () => {
    const vocab = [
      'สวัสดี',
      'ครับ',
      'ภาษา',
      'ไทย',
      'เป็น',
      'ที่',
      'มี',
      'ระดับ',
      'เสียง',
      'ของ',
      'คำ',
      'แน่นอน',
      'หรือ',
      'วรรณยุกต์',
      'เด่นชัด',
      'กิน',
      'ข้าว',
      'แล้ว',
      'หรือยัง',
      'โรงเรียน',
      'มหาวิทยาลัย',
    ];
    let text = '';
    for (let i = 0; text.length < 6000; i++) text += vocab[(i * 7 + (i >> 3)) % vocab.length];
    const whole = [...new Intl.Segmenter('th', { granularity: 'word' }).segment(text)]
      .map((w) => w.index)
      .filter((i) => i > 0);
    expect(breakOpportunities(text)).toEqual(whole);
  });
});

describe('line breaking', () => {
  it('wraps at spaces, keeps hard newlines and blank lines', () => {
    const max = Math.max(setter.measure('alpha beta', style), setter.measure('gamma delta', style)) + 0.1;
    const lines = setter.layout([{ text: 'alpha beta gamma delta\n\nepsilon', style }], { maxWidth: max });
    expect(texts(lines)).toEqual(['alpha beta', 'gamma delta', '', 'epsilon']);
    for (const l of lines) expect(l.width).toBeLessThanOrEqual(max);
    expect(lines[2].height).toBeCloseTo(setter.metrics(style).lineHeight, 6);
  });

  it('no wrapping without maxWidth', () => {
    expect(texts(setter.layout([{ text: 'a b c d e f g h i j k l m n o p', style }]))).toEqual([
      'a b c d e f g h i j k l m n o p',
    ]);
  });

  it('breaks a word that alone is wider than the line', () => {
    const word = 'Donaudampfschifffahrtsgesellschaft';
    const lines = setter.layout([{ text: `x ${word}`, style }], { maxWidth: 60 });
    expect(lines.length).toBeGreaterThan(2);
    expect(texts(lines).join('')).toBe(`x${word}`);
    expect(texts(lines)[0]).toBe('x');
    for (const l of lines) expect(l.width).toBeLessThanOrEqual(60 + 1e-6);
  });

  it('breaks between CJK characters and respects kinsoku', () => {
    const text = '日本語の文章は、単語の間に空白がありません。「括弧」も正しく扱います。';
    const em = 10;
    for (let chars = 5; chars <= 12; chars++) {
      const lines = setter.layout([{ text, style }], { maxWidth: chars * em + 0.01 });
      expect(texts(lines).join('')).toBe(text);
      for (const line of texts(lines)) {
        expect('、。，」』）'.includes(line[0]), `line starts with ${line[0]} at ${chars}`).toBe(false);
        expect('「『（'.includes(line[line.length - 1]), `line ends with ${line.at(-1)} at ${chars}`).toBe(false);
      }
      for (const l of lines) expect(l.width).toBeLessThanOrEqual(chars * em + 0.01 + 2 * em);
    }
  });

  it('carries span data and styles through layout', () => {
    const bold: TextStyle = { ...style, fontWeight: 'bold' };
    const lines = setter.layout<{ href: string }>([
      { text: 'Plain then ', style },
      { text: 'a link', style: bold, data: { href: 'https://example.com' } },
      { text: ' and more', style },
    ]);
    expect(lines).toHaveLength(1);
    const link = lines[0].runs.find((r) => r.text === 'a link');
    expect(link?.data).toEqual({ href: 'https://example.com' });
    expect(link?.style.fontWeight).toBe('bold');
    const xs = lines[0].runs.map((r) => r.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  });

  it('tabs are spaces; controls and format characters draw nothing; a zero-width space is a break', async () => {
    expect(setter.measure('a\tb', style)).toBeCloseTo(setter.measure('a b', style), 6);
    expect(setter.measure('x\u200by\u200ez\u0007', style)).toBeCloseTo(setter.measure('xyz', style), 6);
    const lines = setter.layout([{ text: 'abcdef\u200bghijkl', style }], {
      maxWidth: setter.measure('abcdefg', style),
    });
    expect(texts(lines)).toEqual(['abcdef\u200b', 'ghijkl']);
    const doc = await PDFDocument.create();
    const page = doc.addPage([300, 60]);
    new TextSetter(doc, registry).drawText(page, 'x\u200by\u200ez\u0007 a\tb', 10, 30, style, black);
    const [p] = await readText(await doc.save());
    expect(p.items.map((i) => i.str).join('')).toBe('xyz a b');
  });

  it.each([
    ['Thai', 'สวัสดีชาวโลกนี่คือข้อความภาษาไทยที่ยาวพอที่จะต้องขึ้นบรรทัดใหม่หลายครั้งในกล่องแคบ'],
    ['Lao', 'ສະບາຍດີທຸກຄົນນີ້ແມ່ນຂໍ້ຄວາມພາສາລາວທີ່ຍາວພໍສົມຄວນ'],
    ['Khmer', 'សួស្តីពិភពលោកនេះគឺជាអត្ថបទភាសាខ្មែរដែលវែងគ្រប់គ្រាន់'],
    ['Myanmar', 'မင်္ဂလာပါကမ္ဘာလောကဒါဟာမြန်မာစာသားဖြစ်ပါတယ်'],
  ])('%s, written without spaces, wraps between dictionary words', (_name, text) => {
    const maxWidth = setter.measure(text, style) / 3.5;
    const lines = texts(setter.layout([{ text, style }], { maxWidth }));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.join('')).toBe(text);
    const wordStarts = new Set(
      [...new Intl.Segmenter('th', { granularity: 'word' }).segment(text)].map((w) => w.index),
    );
    let at = 0;
    for (const line of lines) {
      expect(wordStarts.has(at), `line "${line}" starts inside a word`).toBe(true);
      expect(setter.measure(line, style)).toBeLessThanOrEqual(maxWidth + 0.01);
      at += line.length;
    }
  });

  it('lineHeight multiplies the largest font size on the line', () => {
    const [line] = setter.layout(
      [
        { text: 'x', style },
        { text: 'Y', style: { ...style, fontSize: 20 } },
      ],
      { lineHeight: 1.5 },
    );
    expect(line.height).toBeCloseTo(30, 6);
  });
});

describe('embedding', () => {
  it('embeds each face once per document, as a subset', async () => {
    const doc = await PDFDocument.create();
    const s = new TextSetter(doc, registry);
    for (let p = 0; p < 3; p++) {
      const page = doc.addPage([300, 200]);
      for (let i = 0; i < 5; i++) s.drawText(page, `Line ${i} 漢字 ${p}`, 10, 180 - i * 20, style, black);
    }
    const bytes = await doc.save();
    const loaded = await PDFDocument.load(bytes);
    const type0 = loaded.context
      .enumerateIndirectObjects()
      .filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('Subtype')) === PDFName.of('Type0'));
    expect(type0).toHaveLength(2);
    const fontFiles = loaded.context
      .enumerateIndirectObjects()
      .filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'));
    expect(fontFiles).toHaveLength(2);
    const text = await pageText(bytes);
    expect(text[2]).toContain('Line 4 漢字 2');
  });
});

describe('synthesis golden', () => {
  it('fake bold and fake italic only where no face exists', async () => {
    const full = new FontRegistry();
    const doc = await PDFDocument.create();
    const page = doc.addPage([300, 140]);
    const s = new TextSetter(doc, full);
    const rows: Array<[string, TextStyle]> = [
      ['Noto Sans bold (real face)', { ...style, fontSize: 12, fontWeight: 'bold' }],
      ['Noto Sans italic (real face)', { ...style, fontSize: 12, fontWeight: 'italic' }],
      ['Droid Sans Fallback bold (stroke)', { fontFamily: 'Droid Sans Fallback', fontSize: 12, fontWeight: 'bold' }],
      ['שלום Noto Sans Hebrew italic (skew)', { fontFamily: 'Noto Sans Hebrew', fontSize: 12, fontWeight: 'italic' }],
      ['漢字かな bold italic', { ...style, fontSize: 12, fontWeight: 'boldItalic' }],
    ];
    let y = 120;
    for (const [text, st] of rows) {
      s.drawText(page, text, 10, y, st, black);
      y -= 24;
    }
    await expectGolden('text-synthesis', await doc.save(), { scale: 2 });
  });
});

describe('TextLayout: layout without a document', () => {
  it('lays out lines with no PDF document; setters of two documents draw the same lines and read back the same text', async () => {
    const layout = new TextLayout(registry);
    const lines = layout.layout([{ text: 'Hello مرحبا 漢字 world', style }], { maxWidth: 80 });
    expect(lines.length).toBeGreaterThan(1);
    // The setter's own layout calls go to the shared layout: the same result for the same input.
    const docs = await Promise.all([PDFDocument.create(), PDFDocument.create()]);
    const out: string[] = [];
    for (const doc of docs) {
      const s = new TextSetter(doc, registry, { layout });
      expect(s.textLayout).toBe(layout);
      expect(s.layout([{ text: 'Hello مرحبا 漢字 world', style }], { maxWidth: 80 })).toEqual(lines);
      const page = doc.addPage([200, 200]);
      lines.forEach((l, i) => s.drawLine(page, l, 10, 180 - i * 14, black));
      out.push((await pageText(await doc.save()))[0]!);
    }
    expect(out[0]).toBe(out[1]);
    expect(out[0]).toContain('Hello');
    expect(out[0]).toContain('漢字');
  });
});
