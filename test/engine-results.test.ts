/** Engine calls with results and the finishing steps' one order. */
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import { createEngine, RenderError } from '../src/index.js';
import { finishDocument, FINISHING_ORDER, UpdateSession } from '../src/pdf/index.js';
import { field, template } from './fixtures/fill/templates.js';
import { pageCount } from './helpers/pdf.js';

const engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });
afterAll(() => engine.close());
const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

describe('engine results', () => {
  it('fillDocument: the bytes fill gives, with the title written, the page count, outputFormat and resources that did not load', async () => {
    const tpl = {
      ...(await template(
        [
          field('shortText', { id: 'name', rect: r(72, 72, 200, 20) }),
          field('imageFile', { id: 'photo', rect: r(72, 120, 50, 50) }),
        ],
        { pages: 2 },
      )),
      title: 'Lease',
    };
    const body = { data: { name: ['Ada', 'Grace'], photo: 'https://example.test/p.png' }, outputFormat: 'url' };
    const seen: string[] = [];
    const out = await engine.fillDocument(tpl, body, { onResourceProblem: (p) => seen.push(p.url) });
    expect(out.title).toBe('Lease');
    expect(out.pageCount).toBe(await pageCount(out.pdf));
    expect(out.pageCount).toBe(3);
    expect(out.outputFormat).toBe('url');
    expect(out.problems.map((p) => [p.url, p.reason])).toEqual([
      ['https://example.test/p.png', 'remote fetching is off'],
    ]);
    expect(seen).toEqual(['https://example.test/p.png']);
    expect(Buffer.compare(Buffer.from(out.pdf), Buffer.from(await engine.fill(tpl, body)))).toBe(0);
    expect((await engine.fillDocument(tpl, { data: {}, title: 'Mine' })).title).toBe('Mine');
    expect((await engine.fillDocument(tpl, { data: {} })).outputFormat).toBe('pdf');
  });

  it('generateDocument: Markdown and HTML report page count and title', async () => {
    const md = await engine.generateDocument({
      title: 'Report',
      data: Array.from({ length: 80 }, (_, i) => ({ content: `Paragraph ${i} with some words to fill the page.` })),
    });
    expect(md.title).toBe('Report');
    expect(md.pageCount).toBe(await pageCount(md.pdf));
    expect(md.pageCount).toBeGreaterThan(1);
    const html = await engine.generateDocument({
      type: 'html',
      data: { html: '<title>From the document</title><p>a</p><p style="break-before: page">b</p>' },
    });
    expect(html.pageCount).toBe(2);
    expect(html.title).toBe('From the document');
    expect(html.outputFormat).toBe('pdf');
  }, 60_000);
});

describe('finishing steps', () => {
  const base = async () => await PDFDocument.create().then(async (d) => (d.addPage(), d.save()));
  const appending = (name: (typeof FINISHING_ORDER)[number], log: string[]) => ({
    name,
    run: async (pdf: Uint8Array) => {
      log.push(name);
      const s = await UpdateSession.open(pdf);
      s.doc.setSubject(name);
      return s.commit();
    },
  });

  it('run in the one order fields, flatten, watermark, sign, whatever order they are given in', async () => {
    const log: string[] = [];
    await finishDocument(await base(), [
      appending('sign', log),
      appending('watermark', log),
      appending('fields', log),
      appending('flatten', log),
    ]);
    expect(log).toEqual(['fields', 'flatten', 'watermark', 'sign']);
  });

  it('a step that rewrites the document instead of appending, or a step given twice, is a 500', async () => {
    const pdf = await base();
    const rewrite = { name: 'watermark' as const, run: async (b: Uint8Array) => (await PDFDocument.load(b)).save() };
    await expect(finishDocument(pdf, [rewrite])).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining('watermark'),
    });
    await expect(finishDocument(pdf, [appending('sign', []), appending('sign', [])])).rejects.toBeInstanceOf(
      RenderError,
    );
  });
});
