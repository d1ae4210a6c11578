import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import type { ResourceResolver } from '../src/resources/index.js';
import { pageText, qpdfCheck, readText } from './helpers/pdf.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/html');
const ORIGIN = 'https://corpus.test/';
const TYPES: Record<string, string> = { css: 'text/css', ttf: 'font/ttf', otf: 'font/otf', png: 'image/png', svg: 'image/svg+xml', jpg: 'image/jpeg' };

/** Serves the fixture folder as if it were a web site; anything else is refused. */
const resolver: ResourceResolver = async (url) => {
  if (!url.startsWith(ORIGIN)) return null;
  const file = path.join(FIXTURES, decodeURIComponent(new URL(url).pathname));
  if (!file.startsWith(FIXTURES + path.sep)) return null;
  try {
    return { body: new Uint8Array(await readFile(file)), contentType: TYPES[path.extname(file).slice(1)] };
  } catch {
    return null;
  }
};

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ resolver });
});
afterAll(async () => {
  await pool.close();
});

async function render(doc: string, page?: { width: string; height: string }): Promise<Uint8Array> {
  const html = await readFile(path.join(FIXTURES, doc), 'utf8');
  return renderHtml(pool, { html, baseUrl: ORIGIN + doc, page });
}

describe('Anvil templates (running elements, counters in margin boxes)', () => {
  it('renders the invoice fragment with its CSS: footer and "Page 1 of 1" in the bottom margin boxes', async () => {
    const html = await readFile(path.join(FIXTURES, 'anvil-invoice/invoice.html'), 'utf8');
    const css = (await readFile(path.join(FIXTURES, 'anvil-invoice/invoice.css'), 'utf8')) + (await readFile(path.join(FIXTURES, 'anvil-invoice/invoice-pdf.css'), 'utf8'));
    const pdf = await renderHtml(pool, { html, css, title: 'Invoice 12345' });
    await qpdfCheck(pdf);
    const [page, ...rest] = await readText(pdf);
    expect(rest).toHaveLength(0);
    const bottom = page!.items.filter((i) => i.y > page!.height - 50);
    const left = bottom.filter((i) => i.x < page!.width / 2).map((i) => i.str).join('');
    const right = bottom.filter((i) => i.x > page!.width / 2).map((i) => i.str).join('');
    expect(left).toContain('hello@useanvil.com');
    expect(right.replace(/\s+/g, ' ')).toContain('Page 1 of 1');
    // the running elements left the flow: nothing else sits in the margin
    expect(page!.items.filter((i) => i.str.includes('useanvil.com |')).every((i) => i.y > page!.height - 50)).toBe(true);
    expect((await PDFDocument.load(pdf)).getTitle()).toBe('Invoice 12345');
  });

  it('renders the statement: running footer and page counter on every page', async () => {
    const pdf = await render('anvil-statement/statement.standalone.html');
    const pages = await readText(pdf);
    const n = pages.length;
    pages.forEach((p, i) => {
      const bottom = p.items.filter((it) => it.y > p.height - 50).map((it) => it.str).join(' ').replace(/\s+/g, ' ');
      expect(bottom).toContain(`Page ${i + 1} of ${n}`);
    });
  });
});

describe('WeasyPrint samples: same page count as WeasyPrint on its default A4', () => {
  const A4 = { width: '210mm', height: '297mm' };
  it.each([
    ['weasyprint-invoice/invoice.html', 1],
    ['weasyprint-letter/letter.html', 1],
    ['weasyprint-ticket/ticket.html', 1],
    ['weasyprint-report/report.html', 8],
  ])('%s has %i page(s)', async (doc, pages) => {
    const pdf = await render(doc, A4);
    await qpdfCheck(pdf);
    const texts = await pageText(pdf);
    expect(texts).toHaveLength(pages);
  });

  it('report: blank page before the right-hand table of contents, native margin boxes with page numbers', async () => {
    const texts = await pageText(await render('weasyprint-report/report.html', { width: '210mm', height: '297mm' }));
    expect(texts[1]!.trim()).toBe('');
    expect(texts[2]).toContain('Table of contents');
    expect(texts[3]!.trim().startsWith('4')).toBe(true);
  });

  it('invoice: margin boxes and its own TTF fonts', async () => {
    const pdf = await render('weasyprint-invoice/invoice.html', { width: '210mm', height: '297mm' });
    const [page] = await readText(pdf);
    const bottom = page!.items.filter((i) => i.y > page!.height - 3 * 28.35).map((i) => i.str).join(' ');
    expect(bottom).toContain('contact@courtbouillon.org');
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/SourceSans3/);
  });
});

describe('web fonts in HTML mode (issue 15)', () => {
  it('an OpenType/CFF @font-face (the ticket\'s Barlow Condensed) loads and is used; a file that is no font is refused', async () => {
    const seen: Array<[string, string]> = [];
    const watched = new BrowserPool({ resolver, onRequest: (url, verdict) => seen.push([url.replace(ORIGIN, ''), verdict]) });
    try {
      const html = await readFile(path.join(FIXTURES, 'weasyprint-ticket/ticket.html'), 'utf8');
      const pdf = await renderHtml(watched, { html, baseUrl: ORIGIN + 'weasyprint-ticket/ticket.html', page: { width: '210mm', height: '297mm' } });
      expect(seen.filter(([u]) => u.endsWith('.otf'))).toEqual(expect.arrayContaining([['weasyprint-ticket/barlowcondensed-regular.otf', 'served']]));
      expect(seen.filter(([u, v]) => /\.(otf|ttf)$/.test(u) && v === 'refused')).toEqual([]);
      // Condensed: the same words are narrower than in the fallback a refused font gives (what happened before).
      const noOtf: ResourceResolver = async (url, kind) => (url.endsWith('.otf') ? null : resolver(url, kind));
      const refusing = new BrowserPool({ resolver: noOtf });
      try {
        const fallbackPdf = await renderHtml(refusing, { html, baseUrl: ORIGIN + 'weasyprint-ticket/ticket.html', page: { width: '210mm', height: '297mm' } });
        const [withFont, fallback] = [(await readText(pdf))[0]!, (await readText(fallbackPdf))[0]!];
        const name = (p: typeof withFont) => p.items.find((i) => /MARCELIN/i.test(i.str))!;
        expect(name(withFont).str).toBe(name(fallback).str);
        expect(name(withFont).width / name(fallback).width).toBeLessThan(0.9);
      } finally {
        await refusing.close();
      }

      seen.length = 0;
      await renderHtml(watched, { html: `<style>@font-face { font-family: X; src: url(${ORIGIN}weasyprint-ticket/ticket.css) format('woff2') } p { font-family: X }</style><p>text</p>` });
      expect(seen).toEqual([['weasyprint-ticket/ticket.css', 'refused']]);
    } finally {
      await watched.close();
    }
  }, 60_000);
});

