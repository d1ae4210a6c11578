/**
 * Text tags taken out of the page content at assembly: the assembled upload reads no tag (poppler's
 * text), every other word keeps its box (poppler's word boxes before and after), the pixels outside
 * the tags' boxes are the upload's own, and inside them only what the page draws besides text (the
 * rule a white tag sat on) is left. Generated files (HTML, Markdown) lose theirs too; a tag drawn by a
 * form XObject and every tag of an upload signed elsewhere stay printed, each with a warning.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import fontkit from '@cantoo/fontkit';
import {
  PDFArray,
  PDFDocument,
  PDFFont,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFPage,
  StandardFonts,
  beginText,
  endText,
  moveText,
  rgb,
  setCharacterSpacing,
  setFontAndSize,
  setLineHeight,
  setWordSpacing,
  showText,
} from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { createSigningIdentity, sealPdf, verifyPdf } from '../src/signing/index.js';
import { tempDir } from './helpers/signing.js';
import { assemblePacket, findTextTags, type FoundTag } from '../src/packets/index.js';
import { popplerText, withTempFile } from './helpers/pdf.js';
import { compareImages, type Rgba } from './helpers/pixel-compare.js';
import { renderPages } from './helpers/render.js';

const run = promisify(execFile);
const engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });
const SCALE = 2;
afterAll(() => engine.close());

/** Raw operators on a page, with `font` as the page's font resource. */
function rawText(page: PDFPage, font: PDFFont, ops: (key: PDFName) => PDFOperator[]): void {
  const key = page.node.newFontDictionary(font.name, font.ref);
  page.pushOperators(...ops(key));
}

/**
 * The upload: tags in the operator shapes authors' tools write. `ground` draws the same page without
 * any text (the rule only): what a tag's box must show once the tag is gone.
 */
async function upload(ground = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const helv = await doc.embedFont(StandardFonts.Helvetica);
  const times = await doc.embedFont(StandardFonts.TimesRoman);
  // A composite (Type0, Identity-H) font: two bytes a code.
  const dejavu = await doc.embedFont(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'), {
    subset: true,
  });
  const p = doc.addPage([612, 792]);
  p.drawLine({ start: { x: 190, y: 297 }, end: { x: 520, y: 297 }, thickness: 2, color: rgb(0.3, 0.3, 0.4) });
  if (ground) return doc.save();
  const str = (f: PDFFont, s: string) => f.encodeText(s);
  const op = (name: string, args: NonNullable<Parameters<typeof PDFOperator.of>[1]>) =>
    PDFOperator.of(name as never, args);
  // 1. Inside one Tj.
  p.drawText('Sign here: {{ signature:::s1 }} thank you', { x: 50, y: 700, size: 12, font: helv });
  // 2. A TJ array with kerning inside the tag, character and word spacing and horizontal scaling set.
  const array = PDFArray.withContext(doc.context);
  for (const part of ['Initials: {{ ini', -120, 'tial:::s1 }} and', 80, ' so on'])
    array.push(typeof part === 'number' ? PDFNumber.of(part) : str(helv, part));
  rawText(p, helv, (key) => [
    beginText(),
    setFontAndSize(key, 12),
    setCharacterSpacing(0.4),
    setWordSpacing(3),
    op('Tz', [PDFNumber.of(90)]),
    moveText(50, 640),
    op('TJ', [array]),
    endText(),
  ]);
  // 3. Split over two operators in two fonts and sizes.
  const a = 'Due {{ signature';
  p.drawText(a, { x: 50, y: 580, size: 11, font: helv });
  p.drawText('Date:::s1 }} today', { x: 50 + helv.widthOfTextAtSize(a, 11), y: 580, size: 13, font: times });
  // 4. ' and " (next line, then show; " sets word and character spacing first).
  rawText(p, helv, (key) => [
    beginText(),
    setFontAndSize(key, 12),
    setLineHeight(18),
    moveText(50, 540),
    showText(str(helv, 'Line one')),
    op("'", [str(helv, 'Then {{ initial:::s1 }} next')]),
    op('"', [PDFNumber.of(2), PDFNumber.of(0.3), str(helv, 'Last {{ signature:::s1 }} end')]),
    endText(),
  ]);
  // 5. A composite font.
  p.drawText('Ünïcode {{ initial:::s1 }} déjà', { x: 50, y: 440, size: 12, font: dejavu });
  // 6. White text over a rule: the tag's glyphs cut white gaps into it.
  p.drawText('Client:', { x: 72, y: 300, size: 12, font: helv });
  p.drawText('{{ signature:::s1 }}', { x: 200, y: 295, size: 20, font: helv, color: rgb(1, 1, 1) });
  return doc.save();
}

const body = (pdf: Uint8Array, file: Record<string, unknown> = {}) => ({
  name: 'Tags',
  signers: [{ id: 's1', name: 'Ada Lovelace', email: 'ada@example.com' }],
  files: [{ id: 'up', file: Buffer.from(pdf).toString('base64'), fields: [], ...file }],
});

interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Poppler's words with their boxes (top-left origin, points). */
async function words(pdf: Uint8Array): Promise<Word[]> {
  const html = await withTempFile(pdf, async (file) => String((await run('pdftotext', ['-bbox', file, '-'])).stdout));
  return [
    ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
  ].map((m) => ({ text: m[5]!, x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]) }));
}

/** A tag's box grown to its glyphs' ink (braces reach below the baseline), in points. */
function inkBox(t: FoundTag) {
  return { x: t.rect.x - 1, y: t.rect.y - 1, width: t.rect.width + 2, height: t.rect.height * 1.3 + 1 };
}

const overlaps = (w: Word, b: ReturnType<typeof inkBox>) =>
  w.x0 < b.x + b.width && w.x1 > b.x && w.y0 < b.y + b.height && w.y1 > b.y;

/** `image` with the boxes (points) painted white, or only the boxes kept (the rest white). */
function masked(image: Rgba, boxes: ReturnType<typeof inkBox>[], keep: 'outside' | 'inside'): Rgba {
  const data = new Uint8ClampedArray(image.data);
  const inBox = (x: number, y: number) =>
    boxes.some(
      (b) => x >= b.x * SCALE && x < (b.x + b.width) * SCALE && y >= b.y * SCALE && y < (b.y + b.height) * SCALE,
    );
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      if (inBox(x, y) === (keep === 'outside'))
        data.fill(255, (y * image.width + x) * 4, (y * image.width + x) * 4 + 4);
  return { width: image.width, height: image.height, data };
}

const page = async (pdf: Uint8Array): Promise<Rgba> => {
  const [p] = await renderPages(pdf, SCALE, { annotations: false });
  return { width: p!.width, height: p!.height, data: p!.rgba };
};

describe('text tags at assembly', () => {
  it('are gone from the page: no tag text, every other word in its box, the pixels outside the tags the same', async () => {
    const before = await upload();
    const tags = await findTextTags(before, { fileId: 'up', property: 'files[0]' });
    expect(tags).toHaveLength(7);
    const packet = await assemblePacket(engine, body(before));
    const after = packet.files[0]!.pdf;
    expect(packet.warnings).toEqual([]);
    // The fields are where the tags were.
    expect(packet.plan.fields.filter((f) => f.fileId === 'up').map((f) => f.rect)).toEqual(tags.map((t) => t.rect));

    const text = (await popplerText(after)).join('\n');
    expect(text).not.toMatch(/\{|\}|:::/);
    for (const w of [
      'Sign here:',
      'thank you',
      'Initials:',
      'so on',
      'Due',
      'today',
      'Line one',
      'next',
      'Last',
      'end',
      'Ünïcode',
      'déjà',
      'Client:',
    ])
      expect(text).toContain(w);

    // Every word outside the tags keeps its box (poppler, independent of the finder); none of the tags' words is left.
    const boxes = tags.map(inkBox);
    const kept = (await words(before)).filter((w) => !boxes.some((b) => overlaps(w, b)));
    const left = await words(after);
    // Poppler orders the words of a line by its own heuristics: each kept word is matched by text and box.
    const distance = (w: Word, v: Word) =>
      Math.max(Math.abs(w.x0 - v.x0), Math.abs(w.x1 - v.x1), Math.abs(w.y0 - v.y0), Math.abs(w.y1 - v.y1));
    expect(left.map((w) => w.text).sort()).toEqual(kept.map((w) => w.text).sort());
    for (const was of kept) {
      const now = left.filter((w) => w.text === was.text).sort((v, w) => distance(v, was) - distance(w, was))[0]!;
      expect(distance(now, was), was.text).toBeLessThan(0.01);
    }

    // Pixels: outside the tags' boxes as before; inside them what the page draws without text (the rule, unbroken).
    const [imBefore, imAfter, imGround] = [await page(before), await page(after), await page(await upload(true))];
    const outside = compareImages(masked(imBefore, boxes, 'outside'), masked(imAfter, boxes, 'outside'), {
      tolerance: 8,
      radius: 0,
    });
    expect(outside.pixelScore).toBe(1);
    const inside = compareImages(masked(imGround, boxes, 'inside'), masked(imAfter, boxes, 'inside'), {
      tolerance: 8,
      radius: 0,
    });
    expect(inside.pixelScore).toBe(1);
    // The tags had ink there (the white one as gaps in the rule).
    const inkBefore = compareImages(masked(imGround, boxes, 'inside'), masked(imBefore, boxes, 'inside'), {
      tolerance: 8,
      radius: 0,
    });
    expect(inkBefore.pixelScore).toBeLessThan(1);
  }, 120_000);

  it('stay printed with hideTextTags: false, in the options or on the file; without it they go', async () => {
    const before = await upload();
    const hidden = await assemblePacket(engine, body(before));
    expect((await popplerText(hidden.files[0]!.pdf)).join('\n')).not.toContain('{{');
    for (const [file, options] of [
      [{ hideTextTags: false }, {}],
      [{}, { hideTextTags: false }],
    ] as const) {
      const packet = await assemblePacket(engine, body(before, file), options);
      expect((await popplerText(packet.files[0]!.pdf)).join('\n')).toContain('{{ signature:::s1 }}');
    }
  }, 120_000);

  it('stay printed, with a warning, on an upload that carries a signature: its signed bytes are kept', async () => {
    const tmp = await tempDir('castpress-hide-tags-');
    try {
      const other = await createSigningIdentity({ dataDir: tmp.dir });
      const doc = await PDFDocument.create();
      const helv = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([612, 792]).drawText('Sign here: {{ signature:::s1 }}', { x: 50, y: 700, size: 12, font: helv });
      const signed = await sealPdf(await doc.save(), other, { name: 'Other party' });
      const packet = await assemblePacket(engine, body(signed));
      const out = packet.files[0]!.pdf;
      expect(packet.warnings).toEqual(['files[0].file: carries a signature, so its text tags stay printed']);
      expect((await popplerText(out)).join('\n')).toContain('{{ signature:::s1 }}');
      expect(Buffer.from(out.subarray(0, signed.length)).equals(Buffer.from(signed))).toBe(true);
      expect((await verifyPdf(out)).signatures[0]!.integrity.intact).toBe(true);
    } finally {
      await tmp.remove();
    }
  }, 120_000);

  it('are gone from generated files too (HTML split over a bold run, white; Markdown)', async () => {
    const html = '<p>Sign: <b>{{ signa</b>ture:::s1 }} ok</p><p style="color:white">{{ initial:::s1 }}</p><p>End</p>';
    const packet = await assemblePacket(engine, {
      name: 'Generated',
      signers: [{ id: 's1', name: 'Ada Lovelace', email: 'ada@example.com' }],
      files: [
        { id: 'h', filename: 'h.html', title: 'Letter', markup: { html }, fields: [] },
        { id: 'm', filename: 'm.md', title: 'Terms', fields: [{ content: 'Initials: {{ initial:::s1 }} end' }] },
      ],
    });
    expect(packet.warnings).toEqual([]);
    expect(packet.plan.fields.map((f) => `${f.fileId}:${f.type}`)).toEqual(['h:signature', 'h:initial', 'm:initial']);
    const [letter, terms] = [
      (await popplerText(packet.files[0]!.pdf))[0]!,
      (await popplerText(packet.files[1]!.pdf))[0]!,
    ];
    expect(letter.replace(/\s+/g, ' ')).toContain('Sign: ok End');
    expect(terms.replace(/\s+/g, ' ')).toContain('Initials: end');
    expect(letter + terms).not.toMatch(/\{|\}|:::/);
  }, 120_000);

  it('stay printed, with a warning, when a form XObject draws them (content other pages may share)', async () => {
    const doc = await PDFDocument.create();
    const helv = await doc.embedFont(StandardFonts.Helvetica);
    const source = await PDFDocument.create();
    const font = await source.embedFont(StandardFonts.Helvetica);
    source.addPage([300, 100]).drawText('Boxed {{ signature:::s1 }}', { x: 10, y: 50, size: 12, font });
    const [form] = await doc.embedPdf(await source.save());
    const p = doc.addPage([612, 792]);
    p.drawPage(form!, { x: 50, y: 600 });
    p.drawText('Outside {{ initial:::s1 }} here', { x: 50, y: 500, size: 12, font: helv });
    const packet = await assemblePacket(engine, body(await doc.save()));
    expect(packet.warnings).toEqual([
      'files[0].file: the text tag {{ signature:::s1 }} on page 0 is drawn by a form XObject; it stays printed',
    ]);
    const text = (await popplerText(packet.files[0]!.pdf)).join('\n');
    expect(text).toContain('Boxed {{ signature:::s1 }}');
    expect(text).not.toContain('initial');
  }, 120_000);
});
