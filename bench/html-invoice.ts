/**
 * The hosted API's invoice template (running footer + "Page X of Y" in @page
 * margin boxes) through castpress's HTML renderer, against a bare Playwright
 * `setContent` + `page.pdf()` of the same HTML on a warm page of a browser
 * launched the same way, in the same run. Runs are interleaved so machine load
 * hits both sides alike. Runnable alone: `npx tsx bench/html-invoice.ts`.
 *
 * Two anchors: the goal row gives the bare page the same HTML *and* the CSS
 * castpress puts first in every document (`defaultDocumentCss()`: the default
 * font stack, Noto Sans, and the default `@page` box), since that is what the
 * same HTML renders as in the product; a Noto Sans page costs ~10-16 ms more
 * to print than Chromium's default serif. The row after it keeps the raw
 * anchor (HTML + the template's CSS only) for comparison.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { buildDocument } from '../src/html/document.js';
import { BrowserPool, defaultDocumentCss, findChromium, renderHtml } from '../src/html/index.js';
import type { ResourceResolver } from '../src/resources/index.js';
import { interleaved, type BenchRow } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../test/fixtures/html');
const read = (p: string): string => readFileSync(path.join(fixtures, p), 'utf8');

export async function run(): Promise<BenchRow[]> {
  const html = read('anvil-invoice/invoice.html');
  const css = read('anvil-invoice/invoice.css') + read('anvil-invoice/invoice-pdf.css');
  const bareDoc = `<!DOCTYPE html><html><head><style>${css}</style></head><body>${html}</body></html>`;
  const likeDoc = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Invoice</title><style>${defaultDocumentCss()}</style><style>${css}</style></head><body>${html}</body></html>`;

  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.route('**/*', (r) => r.abort());
  const page = await context.newPage();
  const pool = new BrowserPool({ maxPages: 1 });
  try {
    const bare = async (doc: string) => {
      await page.setContent(doc, { waitUntil: 'load' });
      return page.pdf({ preferCSSPageSize: true, printBackground: true });
    };
    // castpress's output is tagged by default; this anchor asks Chromium for the same structure tree.
    const bareTagged = async (doc: string) => {
      await page.setContent(doc, { waitUntil: 'load' });
      return page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true });
    };
    const invoice = () => renderHtml(pool, { html, css, title: 'Invoice' });
    const [bareLike, oursMs] = await interleaved(() => bare(likeDoc), invoice, 25);
    const [bareLikeTagged, oursTaggedMs] = await interleaved(() => bareTagged(likeDoc), invoice, 25);
    const [bareMs, oursRaw] = await interleaved(() => bare(bareDoc), invoice, 15, 1);
    // The fast path: castpress asked for no structure tree, against the same untagged print.
    const untagged = () => renderHtml(pool, { html, css, title: 'Invoice', tagged: false });
    const [bareLikeUntagged, oursUntaggedMs] = await interleaved(() => bare(likeDoc), untagged, 25);

    const statement = read('anvil-statement/statement.html');
    const statementCss = read('anvil-statement/statement.css') + read('anvil-statement/statement-pdf.css');
    const [bareSt, oursSt] = await interleaved(
      () => bare(`<!DOCTYPE html><style>${statementCss}</style>${statement}`),
      () => renderHtml(pool, { html: statement, css: statementCss }),
      11,
    );

    const long = Array.from(
      { length: 600 },
      (_, i) => `<p>Paragraph ${i + 1} of a long report, enough text to wrap onto a second line now and then.</p>`,
    ).join('');
    const longCss = '.pn::after { content: "page " counter(page) " of " counter(pages); }';
    const longHtml = `<div class="pn"></div>${long}<div class="pn"></div>`;
    const [bareLong, oursLong] = await interleaved(
      () => bare(`<!DOCTYPE html><style>${longCss}</style>${longHtml}`),
      () => renderHtml(pool, { html: longHtml, css: longCss }),
      7,
      1,
    );

    // A footer with text is drawn by the overlay, after the page area (reading order); the same text as
    // a header stays Chromium's own margin box. ~15 pages, "Page X of Y".
    const pageOf = (band: string) =>
      `@page { @${band}-center { content: "Page " counter(page) " of " counter(pages); } }`;
    const [headerLong, footerLong] = await interleaved(
      () => renderHtml(pool, { html: long, css: pageOf('top') }),
      () => renderHtml(pool, { html: long, css: pageOf('bottom') }),
      7,
      1,
    );

    const plain = `<h1>Plain</h1>${long.slice(0, 20_000)}`;
    const [barePlain, oursPlain] = await interleaved(
      () => bare(`<!DOCTYPE html>${plain}`),
      () => renderHtml(pool, { html: plain }),
      7,
      1,
    );

    // WeasyPrint's report sample (8 pages: string-set running heads, target-counter table of contents,
    // named pages, left/right breaks, its own fonts served by a resolver). The anchor prints the same
    // built document bare (its fonts then fall back: the bare context loads nothing).
    const origin = 'https://corpus.test/';
    const resolver: ResourceResolver = async (url) => {
      const file = path.join(fixtures, new URL(url).pathname);
      return {
        body: new Uint8Array(readFileSync(file)),
        contentType: file.endsWith('.css') ? 'text/css' : file.endsWith('.ttf') ? 'font/ttf' : 'image/svg+xml',
      };
    };
    const reportPool = new BrowserPool({ maxPages: 1, resolver });
    const report = read('weasyprint-report/report.html');
    const A4 = { width: '210mm', height: '297mm' };
    const reportRequest = { html: report, baseUrl: `${origin}weasyprint-report/report.html`, page: A4 };
    const reportBuilt = await buildDocument(reportRequest, { resolver, maxResourceBytes: 50_000_000 });
    let bareReport = 0;
    let oursReport = 0;
    // WeasyPrint's invoice (its footer boxes are the overlay's, in Pacifico from @page), same anchor kind.
    const wpInvoiceRequest = {
      html: read('weasyprint-invoice/invoice.html'),
      baseUrl: `${origin}weasyprint-invoice/invoice.html`,
      page: { ...A4, margin: '75px' },
    };
    const wpInvoiceBuilt = await buildDocument(wpInvoiceRequest, { resolver, maxResourceBytes: 50_000_000 });
    let bareWpInvoice = 0;
    let oursWpInvoice = 0;
    try {
      [bareReport, oursReport] = await interleaved(
        () => bare(reportBuilt),
        () => renderHtml(reportPool, reportRequest),
        5,
        1,
      );
      [bareWpInvoice, oursWpInvoice] = await interleaved(
        () => bare(wpInvoiceBuilt),
        () => renderHtml(reportPool, wpInvoiceRequest),
        11,
      );
    } finally {
      await reportPool.close();
    }

    return [
      {
        name: 'html: bare setContent + page.pdf(), invoice with the default CSS (anchor)',
        value: bareLike,
        unit: 'ms',
      },
      {
        name: 'html: castpress invoice (running elements + page X of Y)',
        value: oursMs,
        unit: 'ms',
        baseline: bareLike,
        ratio: oursMs / bareLike,
        goal: '<= 1.2',
      },
      {
        name: 'html: castpress invoice vs a bare tagged print (page.pdf({ tagged: true }), as castpress prints)',
        value: oursTaggedMs,
        unit: 'ms',
        baseline: bareLikeTagged,
        ratio: oursTaggedMs / bareLikeTagged,
      },
      {
        name: 'html: castpress invoice with tagged: false vs the bare untagged print',
        value: oursUntaggedMs,
        unit: 'ms',
        baseline: bareLikeUntagged,
        ratio: oursUntaggedMs / bareLikeUntagged,
      },
      {
        name: 'html: castpress invoice vs bare page.pdf() of HTML + template CSS only (serif)',
        value: oursRaw,
        unit: 'ms',
        baseline: bareMs,
        ratio: oursRaw / bareMs,
      },
      {
        name: 'html: castpress statement (running elements)',
        value: oursSt,
        unit: 'ms',
        baseline: bareSt,
        ratio: oursSt / bareSt,
      },
      {
        name: 'html: castpress ~15 pages, counter(page) in body elements',
        value: oursLong,
        unit: 'ms',
        baseline: bareLong,
        ratio: oursLong / bareLong,
      },
      {
        name: 'html: castpress ~15 pages, "Page X of Y" footer (overlay) vs the same header (Chromium\'s box)',
        value: footerLong,
        unit: 'ms',
        baseline: headerLong,
        ratio: footerLong / headerLong,
      },
      {
        name: 'html: castpress ~8 pages, no paged-media extensions',
        value: oursPlain,
        unit: 'ms',
        baseline: barePlain,
        ratio: oursPlain / barePlain,
      },
      {
        name: 'html: castpress WeasyPrint report (8 pages, string-set, target-counter, :blank)',
        value: oursReport,
        unit: 'ms',
        baseline: bareReport,
        ratio: oursReport / bareReport,
      },
      {
        name: 'html: castpress WeasyPrint invoice (footer boxes drawn by the overlay, after the page area)',
        value: oursWpInvoice,
        unit: 'ms',
        baseline: bareWpInvoice,
        ratio: oursWpInvoice / bareWpInvoice,
      },
    ];
  } finally {
    await pool.close();
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
