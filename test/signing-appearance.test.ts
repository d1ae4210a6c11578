import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CastpressError, PayloadTooLargeError, ValidationError } from '../src/errors/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import {
  AppearanceWriter,
  createSigningIdentity,
  MARK_LIMITS,
  sealPdf,
  signatureFontFile,
  verifyPdf,
  type SignatureMark,
  type SigningIdentity,
} from '../src/signing/index.js';
import { expectGolden } from './helpers/golden.js';
import { itemsInRect, joinItems, readText } from './helpers/pdf.js';
import { pdfsig, tempDir, tool } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let identity: SigningIdentity;
const writer = new AppearanceWriter();
const SIGNED_AT = new Date(Date.now() - 3_600_000);

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  identity = await createSigningIdentity({ dataDir: path.join(dir, 'data') });
});
afterAll(async () => remove());

async function blankPdf(size: [number, number] = [420, 520], rotate = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(size);
  if (rotate) page.setRotation(degrees(rotate));
  return doc.save({ useObjectStreams: false });
}

/** A 120 x 40 PNG: a dark zigzag on a transparent background. */
function zigzagPng(): Uint8Array {
  const png = new PNG({ width: 120, height: 40 });
  png.data.fill(0);
  for (let x = 0; x < 120; x++) {
    const y = Math.round(20 + 15 * Math.sin(x / 8));
    for (let dy = -1; dy <= 1; dy++) {
      const i = ((y + dy) * 120 + x) * 4;
      png.data[i] = 20;
      png.data[i + 1] = 30;
      png.data[i + 2] = 120;
      png.data[i + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

/** What signature_pad's toData() returns for a loop and a dot. */
const PAD_DATA = [
  {
    penColor: 'black',
    dotSize: 0,
    minWidth: 0.5,
    maxWidth: 2.5,
    velocityFilterWeight: 0.7,
    compositeOperation: 'source-over',
    points: Array.from({ length: 40 }, (_, i) => ({
      x: 20 + i * 6,
      y: 60 - 30 * Math.sin(i / 4),
      pressure: 0.5,
      time: 1700000000000 + i * 16,
    })),
  },
  { penColor: 'black', points: [{ x: 270, y: 20, pressure: 0.5, time: 1700000001000 }] },
];

const MARKS: SignatureMark[] = [
  { page: 0, rect: { x: 20, y: 20, width: 180, height: 60 }, input: { type: 'drawn', strokes: PAD_DATA } },
  {
    page: 0,
    rect: { x: 220, y: 20, width: 180, height: 60 },
    input: {
      type: 'drawn',
      strokes: [
        [
          { x: 0, y: 0 },
          { x: 50, y: 40 },
          { x: 100, y: 0 },
        ],
      ],
      color: '#aa0000',
    },
  },
  { page: 0, rect: { x: 20, y: 100, width: 180, height: 60 }, input: { type: 'image', image: zigzagPng() } },
  { page: 0, rect: { x: 220, y: 100, width: 180, height: 60 }, input: { type: 'typed', text: 'Ada Lovelace' } },
  { page: 0, rect: { x: 20, y: 180, width: 380, height: 60 }, input: { type: 'typed', text: 'محمد عبد الله' } },
  { page: 0, rect: { x: 20, y: 260, width: 380, height: 60 }, input: { type: 'typed', text: '王小明 Иван Петров' } },
  { page: 0, rect: { x: 20, y: 340, width: 80, height: 50 }, role: 'initials', input: { type: 'typed', text: 'AL' } },
  {
    page: 0,
    rect: { x: 120, y: 340, width: 80, height: 50 },
    role: 'initials',
    input: { type: 'drawn', strokes: [PAD_DATA[0]!.points.slice(0, 12)] },
  },
  {
    page: 0,
    rect: { x: 220, y: 350, width: 180, height: 24 },
    role: 'field',
    input: { type: 'text', text: 'ada@example.org' },
  },
];

describe('AppearanceWriter', () => {
  it('draws strokes, images, typed signatures in three scripts and initials as an incremental update', async () => {
    const input = await blankPdf();
    const out = await writer.apply(input, MARKS);
    expect(Buffer.from(out.subarray(0, input.length)).equals(Buffer.from(input))).toBe(true);
    expect(out.length).toBeGreaterThan(input.length);
    await writeFile(path.join(dir, 'marks.pdf'), out);
    expect((await tool('qpdf', ['--check', path.join(dir, 'marks.pdf')])).code).toBe(0);

    // The names read back as text (each script through a font that has its glyphs).
    const [page] = await readText(out);
    const textIn = (r: { x: number; y: number; width: number; height: number }) =>
      joinItems(itemsInRect(page!, r, 2))
        .replace(/\s+/g, ' ')
        .trim();
    expect(textIn({ x: 220, y: 20 + 60, width: 180, height: 60 })).toContain('Ada Lovelace');
    expect(textIn({ x: 20, y: 260, width: 380, height: 60 })).toContain('王小明');
    expect(textIn({ x: 20, y: 260, width: 380, height: 60 })).toContain('Иван Петров');
    expect(textIn({ x: 20, y: 180, width: 380, height: 60 }).replace(/\s/g, '')).toContain('محمد');
    const fonts = (await tool('pdffonts', [path.join(dir, 'marks.pdf')])).stdout;
    expect(fonts).toContain('DancingScript');
    expect(fonts).toMatch(/NotoSans(CJK|.*SC)/);
    expect(fonts).toContain('NotoSansArabic');

    await expectGolden('signing-marks', out, { scale: 1.5 });
  });

  // Marks drawn as page content after a signature are a change no signature allows (ISO 32000-2,
  // 12.8.2.2: only form filling and signing). pdfsig cannot tell (it checks bytes, not what changed);
  // verifyPdf's difference analysis flags the first signature, as it must. Per-signer marks that stay
  // allowed are the appearances of fields that existed before the first signature (left open).
  it('marks then a seal: the seal covers the whole file; marks drawn after it are flagged as a change to the first signature', async () => {
    const input = await blankPdf();
    const first = await sealPdf(await writer.apply(input, MARKS.slice(0, 1)), identity, {
      name: 'Ada',
      signingTime: SIGNED_AT,
    });
    const second = await writer.apply(first, [
      { page: 0, rect: { x: 20, y: 420, width: 200, height: 60 }, input: { type: 'typed', text: 'Grace Hopper' } },
    ]);
    expect(Buffer.from(second.subarray(0, first.length)).equals(Buffer.from(first))).toBe(true);
    const sealed = await sealPdf(second, identity, { name: 'Grace', signingTime: SIGNED_AT });
    const file = path.join(dir, 'two-signers.pdf');
    await writeFile(file, sealed);
    const ps = await pdfsig(file);
    expect(ps.signatures.map((s) => [s.valid, s.total])).toEqual([
      [true, false],
      [true, true],
    ]);
    const result = await verifyPdf(sealed, { trustAnchors: [await readFile(identity.files!.rootCertificate, 'utf8')] });
    expect(result.signatures.map((s) => s.fieldName)).toEqual(['Signature of Ada', 'Signature of Grace']);
    const [ada, grace] = result.signatures;
    expect(ada!.integrity.intact).toBe(true);
    expect(ada!.modifications.ok).toBe(false);
    expect(ada!.modifications.revisions[0]!.classification).toBe('other');
    expect(ada!.valid).toBe(false);
    expect(grace!.valid).toBe(true);
    expect(result.valid).toBe(false);
  });

  it('places marks where the page is shown on a turned page', async () => {
    const input = await blankPdf([500, 300], 90); // shown 300 wide, 500 high
    const rect = { x: 40, y: 400, width: 220, height: 60 };
    const out = await writer.apply(input, [{ page: 0, rect, input: { type: 'text', text: 'Turned page' } }]);
    const [page] = await readText(out);
    const items = itemsInRect(page!, { ...rect, y: rect.y }, 2);
    expect(joinItems(items)).toBe('Turned page');
    expect(items[0]!.angle).toBe(0);
  });

  it("takes the engine's own font registry when it knows the handwriting font", async () => {
    expect(() => new AppearanceWriter({ fonts: new FontRegistry({ systemDirectories: [] }) })).toThrow(ValidationError);
    const own = new AppearanceWriter({
      fonts: new FontRegistry({ systemDirectories: [], files: [signatureFontFile()] }),
    });
    const out = await own.apply(await blankPdf(), [
      { page: 0, rect: { x: 20, y: 20, width: 200, height: 60 }, input: { type: 'typed', text: 'Ada' } },
    ]);
    expect((await readText(out))[0]!.items.map((i) => i.str).join('')).toBe('Ada');
  });

  it('bad marks: typed errors and the document left as it was', async () => {
    const input = await blankPdf();
    const copy = Uint8Array.from(input);
    const errorOf = async (marks: unknown): Promise<CastpressError> => {
      try {
        await writer.apply(input, marks as SignatureMark[]);
      } catch (e) {
        if (e instanceof CastpressError) return e;
        throw e;
      }
      throw new Error('expected an error');
    };
    const rect = { x: 20, y: 20, width: 100, height: 40 };

    const notImage = await errorOf([
      {
        page: 0,
        rect,
        input: { type: 'image', image: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>') },
      },
    ]);
    expect(notImage).toBeInstanceOf(ValidationError);
    expect(notImage.fields[0]?.property).toBe('marks[0].input.image');
    const garbage = await errorOf([
      { page: 0, rect, input: { type: 'image', image: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) } },
    ]);
    expect(garbage.fields[0]?.property).toBe('marks[0].input.image');

    const manyPoints = Array.from({ length: MARK_LIMITS.points + 1 }, (_, i) => ({ x: i % 300, y: i % 70 }));
    const tooLarge = await errorOf([
      { page: 0, rect, input: { type: 'typed', text: 'x' } },
      { page: 0, rect, input: { type: 'drawn', strokes: [manyPoints] } },
    ]);
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.fields[0]?.property).toBe('marks[1].input.strokes');
    const manyStrokes = await errorOf([
      {
        page: 0,
        rect,
        input: { type: 'drawn', strokes: Array.from({ length: MARK_LIMITS.strokes + 1 }, () => [{ x: 1, y: 1 }]) },
      },
    ]);
    expect(manyStrokes).toBeInstanceOf(PayloadTooLargeError);

    const nan = await errorOf([{ page: 0, rect, input: { type: 'drawn', strokes: [[{ x: Number.NaN, y: 1 }]] } }]);
    expect(nan.fields[0]?.property).toBe('marks[0].input.strokes[0][0].x');
    const empty = await errorOf([{ page: 0, rect, input: { type: 'drawn', strokes: [[]] } }]);
    expect(empty.fields[0]?.property).toBe('marks[0].input.strokes');
    const blank = await errorOf([{ page: 0, rect, input: { type: 'typed', text: '   ' } }]);
    expect(blank.fields[0]?.property).toBe('marks[0].input.text');
    const page = await errorOf([{ page: 3, rect, input: { type: 'typed', text: 'x' } }]);
    expect(page.fields[0]).toEqual({ property: 'marks[0].page', message: 'The document has 1 page' });
    const outside = await errorOf([
      { page: 0, rect: { x: 400, y: 20, width: 100, height: 40 }, input: { type: 'typed', text: 'x' } },
    ]);
    expect(outside.fields[0]?.property).toBe('marks[0].rect');
    const kind = await errorOf([{ page: 0, rect, input: { type: 'stamp' } }]);
    expect(kind.fields[0]?.property).toBe('marks[0].input.type');
    expect(Buffer.from(input).equals(Buffer.from(copy))).toBe(true);
  });
});
