import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { openPdf, pageText, qpdfCheck, readFields, readText } from './helpers/pdf.js';
import { renderPages, type RenderedPage } from './helpers/render.js';
import { corpusPdf, w9Data, w9Template } from './fixtures/fill/corpus.js';
import { blankPdf, field, inRect, joined, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

const rect = (y: number) => ({ x: 72, y, width: 200, height: 20 });

function pixel(p: RenderedPage, x: number, y: number): number[] {
  const i = (Math.round(y) * p.width + Math.round(x)) * 4;
  return [p.rgba[i]!, p.rgba[i + 1]!, p.rgba[i + 2]!];
}

/** The most saturated pixel of a short vertical run around y: a thin line is anti-aliased over two pixels. */
function lineColour(p: RenderedPage, x: number, y: number): number[] {
  let best = pixel(p, x, y);
  for (let dy = -2; dy <= 2; dy++) {
    const c = pixel(p, x, y + dy);
    if (Math.max(...c) - Math.min(...c) > Math.max(...best) - Math.min(...best)) best = c;
  }
  return best;
}

async function metadataTitle(pdf: Uint8Array): Promise<unknown> {
  const doc = await openPdf(pdf);
  try {
    const meta = await doc.getMetadata();
    return (meta.info as Record<string, unknown>).Title;
  } finally {
    await doc.destroy();
  }
}

/** A page with a link annotation and a text field widget. */
async function annotatedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Template page 1', { x: 20, y: 20, size: 8, font });
  const link = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [72, 600, 200, 620],
      Border: [0, 0, 0],
      A: { S: 'URI', URI: PDFString.of('https://example.com') },
    }),
  );
  page.node.addAnnot(link);
  const tf = doc.getForm().createTextField('existing');
  tf.addToPage(page, { x: 300, y: 600, width: 100, height: 20, font });
  return doc.save();
}

async function annotationSubtypes(pdf: Uint8Array): Promise<string[][]> {
  const doc = await openPdf(pdf);
  try {
    const out: string[][] = [];
    for (let i = 1; i <= doc.numPages; i++)
      out.push(((await (await doc.getPage(i)).getAnnotations()) as Array<{ subtype: string }>).map((a) => a.subtype));
    return out;
  } finally {
    await doc.destroy();
  }
}

describe('fill: request options', () => {
  it('title sets the PDF title (over the template title); without one the template title is used', async () => {
    const t = await template([field('shortText', { id: 'a' })], { title: 'Template title' });
    expect(await metadataTitle(await engine.fill(t, { data: { a: 'x' }, title: 'Request title' }))).toBe(
      'Request title',
    );
    expect(await metadataTitle(await engine.fill(t, { data: { a: 'x' } }))).toBe('Template title');
  });

  it('drawDebugBoxes outlines every field (filled or not); borderColor sets the colour', async () => {
    const fields = [field('shortText', { id: 'a', rect: rect(100) }), field('shortText', { id: 'b', rect: rect(200) })];
    const t = await template(fields);
    const [plain] = await renderPages(await engine.fill(t, { data: { a: 'x' } }), 2);
    const [debug] = await renderPages(await engine.fill(t, { data: { a: 'x' }, drawDebugBoxes: true }), 2);
    const [blue] = await renderPages(
      await engine.fill(t, { data: { a: 'x' }, drawDebugBoxes: true, borderColor: '#0000FF' }),
      2,
    );
    expect(pixel(plain!, 300, 400)).toEqual([255, 255, 255]);
    const top = lineColour(debug!, 300, 400);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(120);
    const blueTop = lineColour(blue!, 300, 400);
    expect(blueTop[2]).toBeGreaterThan(200);
    expect(blueTop[0]).toBeLessThan(120);
  });

  it('borderColor alone outlines the filled fields', async () => {
    const fields = [field('shortText', { id: 'a', rect: rect(100) }), field('shortText', { id: 'b', rect: rect(200) })];
    const [p] = await renderPages(
      await engine.fill(await template(fields), { data: { a: 'x' }, borderColor: '#00FF00' }),
      2,
    );
    expect(lineColour(p!, 300, 200)[1]).toBeGreaterThan(200);
    expect(lineColour(p!, 300, 200)[0]).toBeLessThan(120);
    expect(pixel(p!, 300, 400)).toEqual([255, 255, 255]);
  });

  it('flat output keeps other annotations, drops the form; stripAnnotations removes every annotation; repeated pages get their own copies', async () => {
    const pdf = await annotatedPdf();
    const fields = [field('shortText', { id: 'a', rect: rect(100) })];
    const t = await template(fields, { pdf });
    const flat = await engine.fill(t, { data: { a: 'x' } });
    await qpdfCheck(flat);
    expect(await annotationSubtypes(flat)).toEqual([['Link']]);
    expect(await readFields(flat)).toEqual([]);
    const stripped = await engine.fill(t, { data: { a: 'x' }, stripAnnotations: true });
    expect(await annotationSubtypes(stripped)).toEqual([[]]);
    const repeated = await engine.fill(t, { data: { a: ['1', '2'] } });
    await qpdfCheck(repeated);
    expect(await annotationSubtypes(repeated)).toEqual([['Link'], ['Link']]);
  });

  it('the template bytes are kept: the output is the template plus an update, and untouched pages are not rewritten', async () => {
    const pdf = await blankPdf(3);
    const t = await template([field('shortText', { id: 'a', pageNum: 1, rect: rect(100) })], { pdf });
    const out = await engine.fill(t, { data: { a: 'x' } });
    expect(Buffer.from(out.subarray(0, pdf.byteLength)).equals(Buffer.from(pdf))).toBe(true);
    const update = new TextDecoder('latin1').decode(out.subarray(pdf.byteLength));
    expect(update.match(/\/Type \/Page\b/g)).toHaveLength(1);
    expect(update).toMatch(/\/Prev \d+/);
    await qpdfCheck(out);
  });

  it('pages with a rotation or an offset media box: values land where the template places them on the page as shown', async () => {
    for (const options of [
      { rotate: 90 },
      { rotate: 180 },
      { rotate: 270 },
      { mediaBoxOrigin: [100, 50] as [number, number] },
    ]) {
      const pdf = await blankPdf(1, [612, 792], options);
      const f = field('shortText', { id: 'a', rect: { x: 72, y: 100, width: 200, height: 20 } });
      const out = await engine.fill(await template([f], { pdf }), { data: { a: 'Placed' } });
      const [p] = await readText(out);
      expect(joined(inRect(p!.items, f.rect, 2)), JSON.stringify(options)).toBe('Placed');
    }
  });
});

describe('fill: corpus templates', () => {
  it('W-9: every value lands in its widget rect; the output is flat (no form, no XFA) and valid', async () => {
    const { template: w9, fields } = await w9Template();
    const data = w9Data(fields);
    const out = await engine.fill(w9, { data });
    await qpdfCheck(out);
    expect(await readFields(out)).toEqual([]);
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    expect(doc.catalog.get(PDFName.of('AcroForm'))).toBeUndefined();
    const [page1] = await readText(out);
    for (const f of fields) {
      const got = inRect(page1!.items, f.rect, 1.5).map((i) => i.str);
      if (f.type === 'checkbox') expect(got.join('')).toBe('X');
      else if (f.type === 'charList') expect(got.join('')).toBe('123456789'.slice(0, f.cells));
      else if (f.type === 'longText') expect(got.join(' ')).toBe('Requester name and address');
      else expect(got.join('')).toBe(`Value ${f.id}`);
    }
    expect((await pageText(out)).length).toBe(6);
  });

  it('the 117-page book: values on three pages, page count and order unchanged', async () => {
    const book = corpusPdf('plain_geotopo_117p.pdf');
    const fields = [0, 50, 116].map((pageNum, i) => field('shortText', { id: `v${i}`, pageNum, rect: rect(30) }));
    const out = await engine.fill(await template(fields, { pdf: book }), {
      data: { v0: 'first', v1: 'middle', v2: 'last' },
    });
    await qpdfCheck(out);
    const doc = await openPdf(out);
    try {
      expect(doc.numPages).toBe(117);
      for (const [index, value] of [
        [0, 'first'],
        [50, 'middle'],
        [116, 'last'],
      ] as const) {
        const content = await (await doc.getPage(index + 1)).getTextContent();
        const items = content.items.filter((i) => 'str' in i && i.str === value);
        expect(items, value).toHaveLength(1);
      }
      // Page order: the book's own page labels are still where they were.
      const p51 = await (await doc.getPage(51)).getTextContent();
      expect(p51.items.some((i) => 'str' in i && i.str === '48')).toBe(true);
    } finally {
      await doc.destroy();
    }
  });
});

describe('fill: template cache', () => {
  it('a template PDF is parsed once per cache: same bytes object or an equal copy share one prepared template', async () => {
    const { FillCache } = await import('../src/fill/index.js');
    const cache = new FillCache({ maxEntries: 2 });
    const pdf = await blankPdf(2);
    const first = await cache.get(pdf);
    expect(await cache.get(pdf)).toBe(first);
    expect(await cache.get(new Uint8Array(pdf))).toBe(first);
    expect(first.pages).toHaveLength(2);
    // Bounded: older templates are dropped when more are added.
    await cache.get(await blankPdf(3));
    await cache.get(await blankPdf(4));
    expect(await cache.get(new Uint8Array(pdf))).not.toBe(first);
  });
});
