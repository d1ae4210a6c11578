/**
 * The hosted API's invoice template (running footer + "Page X of Y" in @page margin boxes) and five other
 * paged documents through castpress's HTML renderer, each against a bare print of the same built document,
 * like for like (bench/_html-bare.ts: the default render against `page.pdf({ tagged: true })`, a
 * `tagged: false` render against the untagged print), interleaved so machine load hits both sides alike.
 * Runnable alone: `npx tsx bench/html-invoice.ts`.
 *
 * The built document carries castpress's default CSS (the Noto Sans font stack, the default `@page` box);
 * one more row keeps the raw anchor (the template's HTML and CSS only, Chromium's default serif) for comparison.
 */
import { pathToFileURL } from 'node:url';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { defaultAgainstUntagged, launchBare, likeForLike } from './_html-bare.js';
import { CORPUS_ORIGIN, corpusResolver, readFixture } from './_html-corpus.js';
import { interleaved, type BenchRow } from './types.js';

export async function run(): Promise<BenchRow[]> {
  const html = readFixture('anvil-invoice/invoice.html');
  const css = readFixture('anvil-invoice/invoice.css') + readFixture('anvil-invoice/invoice-pdf.css');
  const rawDoc = `<!DOCTYPE html><html><head><style>${css}</style></head><body>${html}</body></html>`;

  const bare = await launchBare();
  const pool = new BrowserPool({ maxPages: 1 });
  try {
    const rows: BenchRow[] = [];
    const invoiceRequest = { html, css, title: 'Invoice' };
    const invoice = await likeForLike('invoice (running elements + page X of Y)', pool, bare, invoiceRequest, {
      runs: 25,
      warmup: 3,
      goal: '<= 1.2',
    });
    rows.push(...invoice.rows, defaultAgainstUntagged('invoice', invoice.oursMs, invoice.untaggedAnchorMs));
    const [oursRaw, bareRaw] = await interleaved(
      () => renderHtml(pool, invoiceRequest),
      () => bare.print(rawDoc, false),
      15,
      1,
    );
    rows.push({
      name: 'html: castpress invoice vs bare page.pdf() of HTML + template CSS only (serif, untagged)',
      value: oursRaw,
      unit: 'ms',
      baseline: bareRaw,
      ratio: oursRaw / bareRaw,
    });

    const statement = readFixture('anvil-statement/statement.html');
    const statementCss =
      readFixture('anvil-statement/statement.css') + readFixture('anvil-statement/statement-pdf.css');
    const paged = { goal: '<= 1.5' };
    rows.push(
      ...(
        await likeForLike(
          'statement (running elements)',
          pool,
          bare,
          { html: statement, css: statementCss },
          {
            runs: 11,
            ...paged,
          },
        )
      ).rows,
    );

    const long = Array.from(
      { length: 600 },
      (_, i) => `<p>Paragraph ${i + 1} of a long report, enough text to wrap onto a second line now and then.</p>`,
    ).join('');
    const longCss = '.pn::after { content: "page " counter(page) " of " counter(pages); }';
    const longHtml = `<div class="pn"></div>${long}<div class="pn"></div>`;
    rows.push(
      ...(
        await likeForLike(
          '~15 pages, counter(page) in body elements',
          pool,
          bare,
          { html: longHtml, css: longCss },
          {
            runs: 7,
            ...paged,
          },
        )
      ).rows,
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
    rows.push({
      name: 'html: castpress ~15 pages, "Page X of Y" footer (overlay) vs the same header (Chromium\'s box)',
      value: footerLong,
      unit: 'ms',
      baseline: headerLong,
      ratio: footerLong / headerLong,
    });

    const plain = `<h1>Plain</h1>${long.slice(0, 20_000)}`;
    rows.push(
      ...(await likeForLike('~8 pages, no paged-media extensions', pool, bare, { html: plain }, { runs: 7, ...paged }))
        .rows,
    );

    // WeasyPrint's report sample (8 pages: string-set running heads, target-counter table of contents,
    // named pages, left/right breaks, its own fonts served by a resolver). The anchor prints the same
    // built document bare (its fonts then fall back: the bare context loads nothing).
    const origin = CORPUS_ORIGIN;
    const resolver = corpusResolver;
    const reportPool = new BrowserPool({ maxPages: 1, resolver });
    const A4 = { width: '210mm', height: '297mm' };
    try {
      const report = {
        html: readFixture('weasyprint-report/report.html'),
        baseUrl: `${origin}weasyprint-report/report.html`,
        page: A4,
      };
      rows.push(
        ...(
          await likeForLike(
            'WeasyPrint report (8 pages, string-set, target-counter, :blank)',
            reportPool,
            bare,
            report,
            {
              runs: 5,
              resolver,
              ...paged,
            },
          )
        ).rows,
      );
      // WeasyPrint's invoice (its footer boxes are the overlay's, in Pacifico from @page), same anchor kind.
      const wpInvoice = {
        html: readFixture('weasyprint-invoice/invoice.html'),
        baseUrl: `${origin}weasyprint-invoice/invoice.html`,
        page: { ...A4, margin: '75px' },
      };
      rows.push(
        ...(
          await likeForLike('WeasyPrint invoice (footer boxes drawn by the overlay)', reportPool, bare, wpInvoice, {
            runs: 11,
            resolver,
            ...paged,
          })
        ).rows,
      );
    } finally {
      await reportPool.close();
    }
    return rows;
  } finally {
    await pool.close();
    await bare.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
