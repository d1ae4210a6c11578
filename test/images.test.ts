import { decodePDFRawStream, PDFDocument, PDFName, PDFNumber, PDFRawStream } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { ImageCache } from '../src/images/index.js';
import { renderPages } from './helpers/render.js';

const engine = createEngine({ now: () => new Date('2026-01-01T00:00:00Z') });
afterAll(() => engine.close());

/** Image XObjects of a PDF (not their alpha masks): size, filter, mask, bytes of the stored data (decoded when Flate). */
async function images(
  pdf: Uint8Array,
): Promise<Array<{ width: number; height: number; filter: string; smask: boolean; bytes: number }>> {
  const doc = await PDFDocument.load(pdf);
  const streams = doc.context
    .enumerateIndirectObjects()
    .filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
  const masks = new Set(
    streams.map(([, o]) => String((o as PDFRawStream).dict.get(PDFName.of('SMask')))).filter((r) => r !== 'undefined'),
  );
  return streams
    .filter(([ref]) => !masks.has(String(ref)))
    .map(([, o]) => {
      const obj = o as PDFRawStream;
      const n = (k: string) => (obj.dict.get(PDFName.of(k)) as PDFNumber).asNumber();
      const filter = String(obj.dict.get(PDFName.of('Filter')));
      const bytes =
        filter === '/FlateDecode' ? decodePDFRawStream(obj).decode().byteLength : obj.getContents().byteLength;
      return { width: n('Width'), height: n('Height'), filter, smask: obj.dict.has(PDFName.of('SMask')), bytes };
    });
}

describe('Markdown images prepared once per engine', () => {
  it('the default logo: RGB pixels with an alpha mask, the same in every document, drawn top right', async () => {
    const request = { includeTimestamp: false, data: [{ heading: 'One' }] };
    const [a, b] = [await engine.generate(request), await engine.generate(request)];
    const [logoA] = (await images(a)).filter((i) => i.smask);
    expect(logoA).toMatchObject({ width: 560, height: 192, filter: '/FlateDecode', smask: true, bytes: 560 * 192 * 3 });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const [page] = await renderPages(a, 1);
    // Ink in the logo's box (top right, inside the 50px = 37.5pt margin), none left of it on that band.
    let ink = 0;
    for (let y = 40; y < 80; y++)
      for (let x = 430; x < 570; x++) if (page!.rgba[(y * page!.width + x) * 4]! < 200) ink++;
    expect(ink).toBeGreaterThan(100);
  });

  it('a JPEG stays a JPEG (DCT bytes as sent), a PNG without transparency gets no mask', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .jpeg()
      .toBuffer();
    const png = await sharp({ create: { width: 30, height: 10, channels: 3, background: { r: 30, g: 30, b: 200 } } })
      .png()
      .toBuffer();
    const pdf = await engine.generate({
      logo: false,
      includeTimestamp: false,
      data: [
        {
          content: `![j](data:image/jpeg;base64,${jpeg.toString('base64')}) ![p](data:image/png;base64,${png.toString('base64')})`,
        },
      ],
    });
    const found = await images(pdf);
    expect(found).toEqual(
      expect.arrayContaining([
        { width: 40, height: 20, filter: '/DCTDecode', smask: false, bytes: jpeg.byteLength },
        { width: 30, height: 10, filter: '/FlateDecode', smask: false, bytes: 30 * 10 * 3 },
      ]),
    );
  });

  it('the cache hands out one preparation per content and stays within its byte budget', async () => {
    const cache = new ImageCache(200_000);
    // Noise, so each image keeps its size once deflated (~13 KB): 38 of them overflow 200 KB.
    const make = (seed: number) => {
      let x = seed * 2654435761;
      const raw = Buffer.alloc(120 * 120 * 4, 0).map((_, i) =>
        i % 4 === 3 ? 128 : (x = (x * 1103515245 + 12345) >>> 0) >>> 24,
      );
      return sharp(raw, { raw: { width: 120, height: 120, channels: 4 } })
        .png()
        .toBuffer();
    };
    const first = await make(1);
    const p1 = cache.prepare(new Uint8Array(first));
    expect(cache.prepare(new Uint8Array(first))).toBe(p1);
    expect((await p1)?.alpha).toBeDefined();
    // Many different images: the oldest go, the first one with them.
    for (let i = 2; i < 40; i++) await cache.prepare(new Uint8Array(await make(i)));
    expect(cache.prepare(new Uint8Array(first))).not.toBe(p1);
    expect(await cache.prepare(new Uint8Array(Buffer.from('not an image')))).toBeNull();
  });

  it('keys preparations by content and by the pixel box they must fit (fill scales to 300 dpi of its field)', async () => {
    const cache = new ImageCache();
    const png = new Uint8Array(
      await sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 1, g: 2, b: 3 } } })
        .png()
        .toBuffer(),
    );
    const small = cache.prepare(png, { fit: { width: 100, height: 100 } });
    expect(cache.prepare(png, { fit: { width: 100, height: 100 } })).toBe(small);
    expect(cache.prepare(png)).not.toBe(small);
    expect(await small).toMatchObject({ widthPx: 100, heightPx: 50 });
    expect(await cache.prepare(png)).toMatchObject({ widthPx: 400, heightPx: 200 });
  });
});

describe('fill images', () => {
  it('a JPEG that fits its field at 300 dpi is embedded as sent; a larger one is scaled down', async () => {
    const { field, template } = await import('./fixtures/fill/templates.js');
    const jpeg = await sharp({ create: { width: 90, height: 60, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    const big = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: { r: 200, g: 120, b: 10 } },
    })
      .jpeg()
      .toBuffer();
    const rect = { x: 72, y: 100, width: 72, height: 72 };
    const tpl = await template([
      field('imageFile', { id: 'a', rect }),
      field('imageFile', { id: 'b', rect: { ...rect, y: 200 } }),
    ]);
    const pdf = await engine.fill(tpl, {
      data: {
        a: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
        b: `data:image/jpeg;base64,${big.toString('base64')}`,
      },
    });
    const found = await images(pdf);
    expect(found).toEqual(
      expect.arrayContaining([{ width: 90, height: 60, filter: '/DCTDecode', smask: false, bytes: jpeg.byteLength }]),
    );
    // 72 pt at 300 dpi = 300 px: the 3000×2000 photo comes down to 300×200.
    expect(found).toEqual(
      expect.arrayContaining([expect.objectContaining({ width: 300, height: 200, filter: '/DCTDecode' })]),
    );
  });
});
