/**
 * `tagged: false` on an HTML generate request: Chromium prints without a structure tree and castpress
 * adds none of the tree's companions (no /MarkInfo, no artifacts, no Form elements, no /StructParent on
 * widgets), on every render path, while the pages look exactly as the tagged output's. Read back with
 * pdfjs (structure trees, mark info, operator lists, pixels), pdf-lib and pdfinfo.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { createEngine } from '../src/index.js';
import { openPdf, qpdfCheck, readFields, readOutline, withTempFile } from './helpers/pdf.js';
import { paintingCoverage, pdfinfoTagged, structTrees } from './helpers/tagged.js';
import { renderPages } from './helpers/render.js';

const NOW = new Date('2026-12-07T12:00:00Z');
const engine = createEngine({ now: () => NOW });
afterAll(() => engine.close());

/** What an untagged file must not hold, read three ways. */
async function expectUntagged(pdf: Uint8Array): Promise<void> {
  await qpdfCheck(pdf);
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  expect(doc.catalog.has(PDFName.of('StructTreeRoot'))).toBe(false);
  expect(doc.catalog.has(PDFName.of('MarkInfo'))).toBe(false);
  for (const page of doc.getPages()) {
    expect(page.node.has(PDFName.of('StructParents'))).toBe(false);
    const annots = page.node.lookup(PDFName.of('Annots'));
    for (const a of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = doc.context.lookup(a);
      expect(annot instanceof PDFDict && annot.has(PDFName.of('StructParent'))).toBe(false);
    }
  }
  const js = await openPdf(pdf);
  try {
    expect(await js.getMarkInfo()).toBeNull();
  } finally {
    await js.destroy();
  }
  expect(await pdfinfoTagged(pdf)).toBe('no');
  expect((await structTrees(pdf)).every((t) => t === null)).toBe(true);
  // No artifact and no marked content with an MCID: the pages' marks are Chromium's plain drawing.
  for (const page of await paintingCoverage(pdf))
    expect({ artifact: page.artifact, tagged: page.tagged }).toEqual({
      artifact: 0,
      tagged: 0,
    });
}

/** The first `count` pages of both files at 36 dpi, pixel for pixel (annotation appearances included). */
async function expectSamePixels(tagged: Uint8Array, untagged: Uint8Array, count: number): Promise<void> {
  const [a, b] = await Promise.all([renderPages(tagged, 0.5), renderPages(untagged, 0.5)]);
  expect(b.length).toBe(a.length);
  for (let i = 0; i < Math.min(count, a.length); i++) {
    expect([b[i]!.width, b[i]!.height]).toEqual([a[i]!.width, a[i]!.height]);
    expect(Buffer.from(b[i]!.rgba).equals(Buffer.from(a[i]!.rgba))).toBe(true);
  }
}

/** Margin boxes castpress draws (overlay), Chromium's own, form fields, a link, bookmarks, two pages. */
const FULL = {
  html: `<html lang="en"><title>Invoice</title><body><div class="h">Running head</div>
    <h1>Invoice</h1><p>See <a href="https://example.com/terms">the terms</a>.</p>
    <form><label>Name <input name="who" value="Ada"></label><label><input type="checkbox" name="ok" checked> agreed</label></form>
    <h2 style="break-before: page">Second page</h2><p style="background:#eef">More text.</p></body></html>`,
  css: `.h { position: running(h) } @page { size: A5; @top-center { content: element(h) } @bottom-right { content: counter(page) } }`,
};

describe('HTML generate with tagged: false', () => {
  it('prints no structure tree and adds none of its parts: overlay, form fields, link, bookmarks', async () => {
    const request = { type: 'html', data: FULL };
    const [tagged, untagged] = await Promise.all([
      engine.generate(request),
      engine.generate({ ...request, tagged: false }),
    ]);
    await expectUntagged(untagged);
    // The fields, the outline and the link are all there, only not in a tree.
    expect((await readFields(untagged)).map((f) => f.name).sort()).toEqual(['ok', 'who']);
    expect((await readOutline(untagged)).map((o) => o.title)).toEqual((await readOutline(tagged)).map((o) => o.title));
    await expectSamePixels(tagged, untagged, 2);
    // Chromium writes /Lang only with its tree: castpress writes the document's own.
    expect((await PDFDocument.load(untagged)).catalog.lookup(PDFName.of('Lang'))?.toString()).toBe('(en)');
    // Tagging is on by default, so the same request without the option still has its tree.
    expect(await pdfinfoTagged(tagged)).toBe('yes');
  });

  it('one-update path (no extension used) and sheet marks in the bleed: same pixels as tagged', async () => {
    for (const data of [
      { html: '<html lang="en"><body style="background:#fee"><h1>Plain</h1><p>Text</p></body></html>' },
      { html: '<h1>Sheet</h1><p>Text</p>', css: '@page { size: A6; bleed: 3mm; marks: crop cross }' },
    ]) {
      const request = { type: 'html', data };
      const [tagged, untagged] = await Promise.all([
        engine.generate(request),
        engine.generate({ ...request, tagged: false }),
      ]);
      await expectUntagged(untagged);
      await expectSamePixels(tagged, untagged, 1);
    }
  });

  it('still turns device-cmyk() into DeviceCMYK, in the body and in margin boxes castpress draws', async () => {
    const pdf = await engine.generate({
      type: 'html',
      tagged: false,
      data: {
        html: '<div class="h">Head</div><h1 style="color: device-cmyk(0 81% 81% 30%)">Brand red</h1>',
        css: '.h { position: running(h); color: device-cmyk(1 0 0 0) } @page { @top-center { content: element(h) } }',
      },
    });
    await expectUntagged(pdf);
    // MuPDF's own interpreter: the colour space and components of every text fill (form XObjects included).
    const { stdout } = await withTempFile(pdf, (file) =>
      promisify(execFile)('mutool', ['trace', file], { maxBuffer: 64 << 20 }),
    );
    const fills = [...String(stdout).matchAll(/<fill_text\b[^>]*?colorspace="([^"]+)" color="([^"]*)"/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(fills).toContain('DeviceCMYK 0 .81 .81 .3');
    expect(fills).toContain('DeviceCMYK 1 0 0 0');
  });

  it("takes the request's lang when the document names none, the document's over the request's", async () => {
    // /Lang with no structure tree: castpress's, since Chromium writes it only with its tree.
    const lang = async (html: string) => {
      const pdf = await engine.generate({ type: 'html', tagged: false, lang: 'fr', data: { html } });
      const catalog = (await PDFDocument.load(pdf)).catalog;
      expect(catalog.has(PDFName.of('StructTreeRoot'))).toBe(false);
      return catalog.lookup(PDFName.of('Lang'))?.toString();
    };
    expect(await lang('<p>Bonjour</p>')).toBe('(fr)');
    expect(await lang('<html lang="de-CH"><p>Grüezi</p>')).toBe('(de-CH)');
  });

  it('is deterministic: the same request gives the same bytes', async () => {
    const request = { type: 'html', tagged: false, data: FULL };
    const first = await engine.generate(request);
    const second = await engine.generate(request);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(await pdfinfoTagged(first)).toBe('no');
  });

  it('a value that is not a boolean is a typed 400 naming tagged', async () => {
    await expect(
      engine.generate({ type: 'html', tagged: 'sometimes', data: { html: '<p>x</p>' } }),
    ).rejects.toMatchObject({ name: 'ValidationError', status: 400, fields: [{ property: 'tagged' }] });
  });
});
