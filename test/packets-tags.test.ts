import { describe, expect, it } from 'vitest';
import {
  PDFDocument,
  StandardFonts,
  degrees,
  rgb,
  beginText,
  endText,
  setFontAndSize,
  moveText,
  setCharacterSpacing,
  PDFOperator,
  PDFArray,
  PDFNumber,
} from '@cantoo/pdf-lib';
import { findTextTags, parseTagText, TextTagError } from '../src/packets/index.js';
import { boxDistance, runBoxes, union } from './helpers/tag-boxes.js';
import { tagsOnPage } from '../src/packets/tags/find.js';
import { expectLinearTime } from './helpers/scaling.js';

const source = { fileId: 'contract', property: 'files[0]' };

describe('text tag syntax', () => {
  it('reads the spec forms and the four positional arguments', () => {
    expect(parseTagText(' signature ')).toEqual({ ok: true, spec: { type: 'signature' } });
    expect(parseTagText('signature:::s1')).toEqual({ ok: true, spec: { type: 'signature', signerId: 's1' } });
    expect(parseTagText(' shortText :: companyName ')).toEqual({
      ok: true,
      spec: { type: 'shortText', alias: 'companyName' },
    });
    expect(parseTagText('signatureDate : Agreement Date')).toEqual({
      ok: true,
      spec: { type: 'signatureDate', label: 'Agreement Date' },
    });
    expect(parseTagText(' initial : Your initials : ini : s2 ')).toEqual({
      ok: true,
      spec: { type: 'initial', label: 'Your initials', alias: 'ini', signerId: 's2' },
    });
    expect(parseTagText('SIGNATURE')).toEqual({ ok: true, spec: { type: 'signature' } });
  });

  it('names what is wrong', () => {
    expect(parseTagText('sig')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('unknown field type "sig"'),
    });
    expect(parseTagText('')).toMatchObject({ ok: false, problem: 'has no field type' });
    expect(parseTagText('signature:a:b:c:d')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('at most 4'),
    });
    expect(parseTagText('signature:::s 1')).toMatchObject({ ok: false, problem: expect.stringContaining('signerId') });
  });
});

/** A PDF drawn by pdf-lib with tags the ways authors write them. */
async function taggedPdf() {
  const doc = await PDFDocument.create();
  const helv = await doc.embedFont(StandardFonts.Helvetica);
  const times = await doc.embedFont(StandardFonts.TimesRomanBold);
  const p1 = doc.addPage([612, 792]);
  // A tag inside a longer run.
  const line = 'Sign here: {{ signature:::s1 }} thank you';
  p1.drawText(line, { x: 50, y: 700, size: 12, font: helv });
  // A tag split over two runs in two fonts and sizes.
  const a = '{{ ini';
  const b = 'tial : Your initials : ini1 : s2 }}';
  p1.drawText(a, { x: 60, y: 600, size: 11, font: helv });
  p1.drawText(b, { x: 60 + helv.widthOfTextAtSize(a, 11), y: 600, size: 13, font: times });
  // White text, hidden to the reader.
  p1.drawText('{{ signatureDate :: signedOn }}', { x: 300, y: 500, size: 10, font: helv, color: rgb(1, 1, 1) });
  // Character spacing and a kerned TJ array, as word processors write.
  const key = p1.node.newFontDictionary(helv.name, helv.ref);
  p1.pushOperators(
    beginText(),
    setFontAndSize(key, 12),
    setCharacterSpacing(0.4),
    moveText(50, 400),
    PDFOperator.of(
      'TJ' as never,
      [PDFArray.withContext(doc.context)].map((arr) => {
        arr.push(helv.encodeText('{{ email'));
        arr.push(PDFNumber.of(-120));
        arr.push(helv.encodeText(' ::: s1 }}'));
        return arr;
      }),
    ),
    endText(),
  );
  // A rotated page.
  const p2 = doc.addPage([612, 792]);
  p2.setRotation(degrees(90));
  p2.drawText('{{ fullName ::: s2 }}', { x: 100, y: 300, size: 14, font: helv });
  return { bytes: await doc.save(), helv, line };
}

describe('findTextTags', () => {
  it('finds every tag within 1 pt of its box read back by pdfjs', async () => {
    const { bytes, helv, line } = await taggedPdf();
    const tags = await findTextTags(bytes, source);
    const runs = await runBoxes(bytes);
    expect(tags.map((t) => [t.pageNum, t.type, t.label, t.alias, t.signerId])).toEqual([
      [0, 'signature', undefined, undefined, 's1'],
      [0, 'initial', 'Your initials', 'ini1', 's2'],
      [0, 'signatureDate', undefined, 'signedOn', undefined],
      [0, 'email', undefined, undefined, 's1'],
      [1, 'fullName', undefined, undefined, 's2'],
    ]);

    // Inside a run: the run's box, cut at the tag by the font's widths.
    const run = runs.find((r) => r.str === line)!;
    const tag = '{{ signature:::s1 }}';
    const scale = run.width / helv.widthOfTextAtSize(line, 12);
    const inRun = {
      x: run.x + helv.widthOfTextAtSize('Sign here: ', 12) * scale,
      y: run.y,
      width: helv.widthOfTextAtSize(tag, 12) * scale,
      height: run.height,
    };
    expect(boxDistance(tags[0]!.rect, inRun)).toBeLessThanOrEqual(1);

    const split = union(
      runs.filter((r) => r.pageNum === 0 && (r.str.startsWith('{{ ini') || r.str.startsWith('tial'))),
    );
    expect(boxDistance(tags[1]!.rect, split)).toBeLessThanOrEqual(1);

    const white = runs.find((r) => r.str.includes('signatureDate'))!;
    expect(boxDistance(tags[2]!.rect, white)).toBeLessThanOrEqual(1);

    const kerned = union(runs.filter((r) => r.pageNum === 0 && Math.abs(r.y - tags[3]!.rect.y) < 2));
    expect(boxDistance(tags[3]!.rect, kerned)).toBeLessThanOrEqual(1);

    const turned = runs.find((r) => r.pageNum === 1)!;
    // On the page turned by 90°, the text runs top to bottom: a tall, narrow box.
    expect(turned.height).toBeGreaterThan(turned.width);
    expect(boxDistance(tags[4]!.rect, turned)).toBeLessThanOrEqual(1);
  });

  it('names the file and page of a malformed tag', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText('{{ signature }}', { x: 50, y: 700, size: 12, font });
    doc.addPage().drawText('Initial: {{ sig :: a }}', { x: 50, y: 700, size: 12, font });
    const err = await findTextTags(await doc.save(), source).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TextTagError);
    const e = err as TextTagError;
    expect([e.status, e.fileId, e.pageNum]).toEqual([422, 'contract', 1]);
    expect(e.message).toContain('File "contract", page 2');
    expect(e.message).toContain('unknown field type "sig"');
    expect(e.fields).toEqual([{ property: 'files[0]', message: e.message }]);

    const unclosed = await PDFDocument.create();
    const f2 = await unclosed.embedFont(StandardFonts.Helvetica);
    unclosed.addPage().drawText('{{ signature  and more text', { x: 50, y: 700, size: 12, font: f2 });
    await expect(findTextTags(await unclosed.save(), source)).rejects.toThrow(/page 1: text tag .*is not closed/);
  });

  it('reads a PDF without tags as no tags, and non-PDF bytes as a 422', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText('Plain text with { single } braces', { x: 50, y: 700, size: 12, font });
    expect(await findTextTags(await doc.save(), source)).toEqual([]);
    await expect(findTextTags(new TextEncoder().encode('not a pdf'), source)).rejects.toMatchObject({
      name: 'InvalidPdfError',
      status: 422,
    });
  });

  it('a tag of 300,000 glyphs gets its box (Math.min over the spread glyphs overflowed the stack), in linear time', async () => {
    const tagText = (n: number) => `x {{ signature : ${'L'.repeat(n)} }} y`;
    const pages = new Map<number, Parameters<typeof tagsOnPage>[0]>();
    const page = (n: number) => {
      if (!pages.has(n))
        pages.set(
          n,
          Array.from(tagText(n), (ch, i) => ({ text: ch, x: i, y: 10 + (i % 3), width: 1, height: 5 })) as Parameters<
            typeof tagsOnPage
          >[0],
        );
      return pages.get(n)!;
    };
    // 8x the glyphs cost under 22.6x (quadratic: 64x).
    const [tag] = await expectLinearTime('tag box', async (n) => tagsOnPage(page(n), 1, source), 37_500, 300_000);
    const text = tagText(300_000);
    expect(tag?.type).toBe('signature');
    expect(tag?.rect).toEqual({ x: 2, y: 10, width: text.length - 4, height: 7 });
  });
});
