import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { A4, FIXTURE_ORIGIN, HTML_FIXTURES, fixtureResolver } from './helpers/html-fixtures.js';
import { readText, type PageText, type TextItem } from './helpers/pdf.js';
import { renderPages, type RenderedPage } from './helpers/render.js';

/**
 * Sheets larger than the page: content wider than the page area must not make Chromium scale
 * every page down (the report sample would print at ~83 %), and `@page { bleed; marks }` are kept.
 */
const run = promisify(execFile);
let pool: BrowserPool;
let dir: string;
beforeAll(async () => {
  pool = new BrowserPool({ maxPages: 1, resolver: fixtureResolver });
  dir = await mkdtemp(path.join(os.tmpdir(), 'castpress-sheets-'));
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

const PAGE = { ...A4, margin: '2cm' };
const PT_PER_CM = 72 / 2.54;

async function render(html: string): Promise<Uint8Array> {
  return renderHtml(pool, { html, page: PAGE });
}

function item(page: PageText | undefined, text: string): TextItem {
  const found = page?.items.find((i) => i.str.includes(text));
  if (!found) throw new Error(`"${text}" not on the page: ${page?.items.map((i) => i.str).join(' | ')}`);
  return found;
}

/** pdfinfo's boxes of page 1: name → [x0, y0, x1, y1]. */
async function boxes(pdf: Uint8Array): Promise<Record<string, number[]>> {
  const file = path.join(dir, `boxes-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdfinfo', ['-box', file]);
  const out: Record<string, number[]> = {};
  for (const m of stdout.matchAll(/^(\w+Box):\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/gm))
    out[m[1]!] = m.slice(2, 6).map(Number);
  return out;
}

/** RGB of the pixel at (x, y) points from the top-left. */
function pixel(page: RenderedPage, x: number, y: number, scale: number): [number, number, number] {
  const i = (Math.round(y * scale) * page.width + Math.round(x * scale)) * 4;
  return [page.rgba[i]!, page.rgba[i + 1]!, page.rgba[i + 2]!];
}

/** The darkest pixel (by its brightest channel) within `r` pixels of (x, y) points: thin lines fall between pixels. */
function darkest(page: RenderedPage, x: number, y: number, scale: number, r = 2): [number, number, number] {
  let best: [number, number, number] = [255, 255, 255];
  for (let dy = -r; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) {
      const p = pixel(page, x + dx / scale, y + dy / scale, scale);
      if (Math.max(...p) < Math.max(...best)) best = p;
    }
  }
  return best;
}

/** Within `slack` points: Chromium snaps the content origin to whole CSS px, the overlay lays margin boxes out itself. */
function closeTo(actual: number, expected: number, slack = 1): void {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(slack);
}

const ORANGE: [number, number, number] = [255, 204, 0];
const near = (a: [number, number, number], b: [number, number, number]) => a.every((v, k) => Math.abs(v - b[k]!) < 24);

describe('content wider than the page area', () => {
  it('does not scale the pages down: a band reaching into the right margin paints there, the text keeps its size', async () => {
    const plain = await readText(await render('<p>Hello world</p>'));
    const pdf = await render('<div style="margin-right:-1.5cm;background:#fc0;height:20px"></div><p>Hello world</p>');
    const [page] = await readText(pdf);
    // Chromium alone prints this at 85 %: the text would be narrower and further left.
    expect(item(page, 'Hello').width).toBeCloseTo(item(plain[0], 'Hello').width, 2);
    expect(item(page, 'Hello').x).toBeCloseTo(item(plain[0], 'Hello').x, 2);
    expect(page!.width).toBeCloseTo(595.28, 1);
    const scale = 2;
    const [image] = await renderPages(pdf, scale);
    // In the right margin (1 cm from the page's right edge), on the band, which ends 0.5 cm from the edge.
    expect(pixel(image!, 595.28 - PT_PER_CM, 2 * PT_PER_CM + 12, scale)).toSatisfy((p: [number, number, number]) =>
      near(p, ORANGE),
    );
    expect(pixel(image!, 595.28 - 0.25 * PT_PER_CM, 2 * PT_PER_CM + 12, scale)).toSatisfy(
      (p: [number, number, number]) => near(p, [255, 255, 255]),
    );
  });

  it('clips content wider than the page at the page edge, like WeasyPrint', async () => {
    const plain = await readText(await render('<p>Hello world</p>'));
    const pdf = await render('<div style="width:150%;background:#fc0;height:20px"></div><p>Hello world</p>');
    const [page] = await readText(pdf);
    expect(item(page, 'Hello').width).toBeCloseTo(item(plain[0], 'Hello').width, 2);
    const [b] = [await boxes(pdf)];
    expect(b.MediaBox![2]).toBeCloseTo(595.28, 1);
    const [image] = await renderPages(pdf, 1);
    expect(pixel(image!, 594, 2 * PT_PER_CM + 12, 1)).toSatisfy((p: [number, number, number]) => near(p, ORANGE));
  });

  it('widens the sheet again when the print still overflows (a narrower named page the screen layout cannot see)', async () => {
    const html =
      '<style>@page n { size: 100mm 200mm; margin: 1cm } .n { page: n }</style><p>Hello world</p><div style="width:750px;height:10px;background:#fc0"></div>' +
      '<div class="n"><div style="width:750px;height:10px;background:#fc0"></div><p>Second page</p></div>';
    const pages = await readText(await render(html));
    const plain = await readText(await render('<p>Hello world</p><p>Second page</p>'));
    expect(pages.map((p) => Math.round(p.width))).toEqual([595, 283]);
    expect(item(pages[0], 'Hello').width).toBeCloseTo(item(plain[0], 'Hello').width, 2);
    expect(item(pages[1], 'Second').width).toBeCloseTo(item(plain[0], 'Second').width, 2);
  });

  it("sees overflow at the request's content width: a 700px layout on A4 with 2 cm margins (643px) is not scaled", async () => {
    // The screen layout used to run at Letter's content width (716px) whatever the request: no overflow seen there.
    const plain = await readText(await render('<p>Hello world</p>'));
    const [page] = await readText(
      await render('<div style="width:700px;height:10px;background:#fc0"></div><p>Hello world</p>'),
    );
    expect(item(page, 'Hello').width).toBeCloseTo(item(plain[0], 'Hello').width, 2);
  });

  it("keeps margin boxes at the page's own places (the overlay draws them on the wider sheet)", async () => {
    const css =
      '<style>@page { @top-right { content: "Top " counter(page) } @bottom-left { content: "Bottom" } }</style>';
    const [plain] = await readText(await render(css + '<p>Hello world</p>'));
    const [page] = await readText(
      await render(css + '<div style="margin-right:-3cm;height:10px;background:#fc0"></div><p>Hello world</p>'),
    );
    // Tagged output draws "Top " and the page number as two runs (two elements): the box starts at "Top".
    for (const text of ['Top', 'Bottom']) {
      closeTo(item(page, text).x, item(plain, text).x);
      closeTo(item(page, text).y, item(plain, text).y);
    }
  });

  it("prints WeasyPrint's report at its own sizes (body text 11pt on every page; was about 9.2pt)", async () => {
    const doc = 'weasyprint-report/report.html';
    const html = await readFile(path.join(HTML_FIXTURES, doc), 'utf8');
    const pages = await readText(await renderHtml(pool, { html, baseUrl: FIXTURE_ORIGIN + doc, page: A4 }));
    expect(pages).toHaveLength(8);
    // The most common text size of each page with text, read back by pdfjs.
    const common = pages.map((p) => {
      const n = new Map<number, number>();
      for (const i of p.items)
        if (i.str.trim())
          n.set(Math.round(i.height * 10) / 10, (n.get(Math.round(i.height * 10) / 10) ?? 0) + i.str.length);
      return [...n].sort((a, b) => b[1] - a[1])[0]?.[0];
    });
    for (const k of [3, 4, 5, 7]) expect(common[k], `page ${k + 1}`).toBe(11);
    expect(pages.every((p) => Math.abs(p.width - 595.28) < 0.5)).toBe(true);
  });
});

describe('@page bleed and marks', () => {
  const css = '@page { bleed: 5mm; marks: crop cross; background: #9cf; @top-center { content: "Head" } }';
  // 5 mm is 18.9px; castpress rounds a bleed to whole px (Chromium snaps the content origin to them): 19px.
  const BLEED = 19 * 0.75;

  it('prints a sheet of page + 2 × bleed with the page as trim box; the page background fills the bleed', async () => {
    const [plain] = await readText(
      await render(`<style>@page { background: #9cf; @top-center { content: "Head" } }</style><p>Hello world</p>`),
    );
    const pdf = await render(`<style>${css}</style><p>Hello world</p>`);
    const b = await boxes(pdf);
    const bleed = BLEED;
    expect(b.MediaBox![2]).toBeCloseTo(595.28 + 2 * bleed, 1);
    expect(b.MediaBox![3]).toBeCloseTo(841.89 + 2 * bleed, 0);
    expect(b.BleedBox).toEqual(b.MediaBox);
    expect(b.TrimBox![0]).toBeCloseTo(bleed, 1);
    expect(b.TrimBox![2] - b.TrimBox![0]).toBeCloseTo(595.28, 1);
    expect(b.TrimBox![3] - b.TrimBox![1]).toBeCloseTo(b.MediaBox![3] - 2 * bleed, 1);
    // Everything on the page moves by the bleed, nothing else changes.
    const [page] = await readText(pdf);
    for (const text of ['Hello', 'Head']) {
      closeTo(item(page, text).x - bleed, item(plain, text).x, 0.5);
      closeTo(item(page, text).y - bleed, item(plain, text).y, 0.5);
      expect(item(page, text).width).toBeCloseTo(item(plain, text).width, 2);
    }
    const scale = 2;
    const [image] = await renderPages(pdf, scale);
    // The page background reaches into the bleed (2 mm from the sheet's corner, away from the marks' lines).
    expect(pixel(image!, 0.2 * PT_PER_CM, 0.2 * PT_PER_CM, scale)).toSatisfy((p: [number, number, number]) =>
      near(p, [153, 204, 255]),
    );
  });

  it('draws crop marks at the trim corners and registration crosses in the middle of each side, inside the bleed', async () => {
    const pdf = await render(`<style>${css}</style><p>Hello world</p>`);
    const bleed = BLEED;
    const scale = 4;
    const [image] = await renderPages(pdf, scale);
    const dark = (p: [number, number, number]) => 0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2] < 120;
    // Top-left crop mark: a horizontal line on the trim's top edge, left of the trim box, and a vertical one above it.
    expect(darkest(image!, bleed / 2, bleed, scale)).toSatisfy(dark);
    expect(darkest(image!, bleed, bleed / 2, scale)).toSatisfy(dark);
    // Not inside the trim box.
    expect(darkest(image!, bleed + 3, bleed + 3, scale)).not.toSatisfy(dark);
    // The registration cross above the page's middle: its vertical stroke.
    expect(darkest(image!, bleed + 595.28 / 2, bleed / 2, scale)).toSatisfy(dark);
    const without = await render('<style>@page { bleed: 5mm; background: #9cf }</style><p>Hello world</p>');
    const [plainImage] = await renderPages(without, scale);
    expect(darkest(plainImage!, bleed / 2, bleed, scale)).not.toSatisfy(dark);
  });

  it('gives marks without a bleed the 6pt bleed they need; no bleed and no marks prints the page as before', async () => {
    const marked = await boxes(await render('<style>@page { marks: crop }</style><p>x</p>'));
    expect(marked.TrimBox![0]).toBeCloseTo(6, 1);
    const plain = await boxes(await render('<style>@page { bleed: 0 }</style><p>x</p>'));
    expect(plain.TrimBox).toEqual(plain.MediaBox);
    expect(plain.MediaBox![2]).toBeCloseTo(595, 0);
  });
});

describe('bleed and marks in the CSS rewrite', () => {
  it('renames them inside @page blocks only (Chromium drops them, custom properties included)', async () => {
    const { rewriteGcpm } = await import('../src/html/css/rewrite.js');
    const css =
      '@page :first { bleed: 3mm !important; marks: crop cross; @top-left { content: "marks: x" } } .marks:hover { color: red } p { --bleed: 2mm }';
    expect(rewriteGcpm(css)).toBe(
      '@page :first { quotes: "__fs_bleed__" "3mm" !important; content: "__fs_marks__crop cross"; @top-left { content: "marks: x" } } .marks:hover { color: red } p { --bleed: 2mm }',
    );
  });
});

describe("size: auto | landscape | portrait keep the request's page", () => {
  it("turns the request's page, not Letter (Chromium's default), and leaves other sizes alone", async () => {
    const sizes = async (css: string, page: { width: string; height: string }) =>
      (await readText(await renderHtml(pool, { html: `<style>${css}</style><p>x</p>`, page }))).map((p) => [
        Math.round(p.width),
        Math.round(p.height),
      ]);
    const a5 = { width: '148mm', height: '210mm' };
    expect(await sizes('@page { size: landscape }', a5)).toEqual([[595, 420]]);
    expect(await sizes('@page { size: portrait }', { width: '210mm', height: '148mm' })).toEqual([[420, 595]]);
    expect(await sizes('@page { size: auto }', a5)).toEqual([[420, 595]]);
    expect(await sizes('@page { size: letter landscape }', a5)).toEqual([[792, 612]]);
  });

  it("prints WeasyPrint's ticket on A4 landscape, as WeasyPrint does (it has `@page { size: landscape }`)", async () => {
    const doc = 'weasyprint-ticket/ticket.html';
    const html = await readFile(path.join(HTML_FIXTURES, doc), 'utf8');
    const pages = await readText(await renderHtml(pool, { html, baseUrl: FIXTURE_ORIGIN + doc, page: A4 }));
    expect(pages.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual([[842, 595]]);
  });
});
