/**
 * A long report with every common paged-media feature at once: a running header (`position: running()`),
 * a "Page X of Y" footer drawn by the overlay, a table of contents with `leader()` and
 * `target-counter()`, chapters that start on a new page and count themselves. Two sizes of the same
 * document (~51 and ~102 pages) against a bare `setContent` + `page.pdf()` of the same built document
 * (castpress's default CSS included), interleaved in one run, and the ms per page at the larger size
 * over the smaller (linear growth: ~1). Runnable alone: `npx tsx bench/html-report.ts`;
 * `bench/_html-profile.ts` says where the time goes.
 */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { buildDocument } from '../src/html/document.js';
import { BrowserPool, findChromium, renderHtmlDocument } from '../src/html/index.js';
import { interleaved, type BenchRow } from './types.js';

/** Chapters of the ~102-page report (each ~3.4 pages: a heading, four sections, a table). */
export const REPORT_CHAPTERS = 30;

/** The report's body and CSS with `chapters` chapters. */
export function reportDocument(chapters: number): { html: string; css: string } {
  let toc = '<nav class="toc"><h1>Contents</h1>';
  let body = '';
  for (let c = 1; c <= chapters; c++) {
    toc += `<p class="c"><a href="#c${c}">Chapter ${c}: results of the survey</a></p>`;
    body += `<section class="chapter"><div class="head">Annual report — chapter ${c}</div><h1 id="c${c}">Chapter ${c}: results of the survey</h1>`;
    for (let s = 1; s <= 4; s++) {
      toc += `<p class="s"><a href="#c${c}s${s}">Section ${s}</a></p>`;
      body += `<h2 id="c${c}s${s}">Section ${s}</h2>`;
      for (let p = 1; p <= 5; p++)
        body += `<p>Paragraph ${p} of section ${s}: the figures for the period, <em>as reported</em> by the regional offices, with enough words to wrap over three or four lines of the page so that the chapter fills several pages of the report and a reader can follow its argument.</p>`;
    }
    body += '<table><thead><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Q3</th><th>Q4</th></tr></thead><tbody>';
    for (let r = 1; r <= 12; r++)
      body += `<tr><td>Region ${r}</td><td>${r * 11}</td><td>${r * 13}</td><td>${r * 17}</td><td>${r * 19}</td></tr>`;
    body += '</tbody></table></section>';
  }
  const css = `body { font-size: 11pt; line-height: 1.4; }
    .head { position: running(head); font-size: 9pt; }
    .chapter { counter-increment: chapter; }
    h1 { break-before: page; }
    .toc a { text-decoration: none; color: inherit; }
    .toc a::after { content: leader('.') target-counter(attr(href), page); }
    .toc .s { margin-left: 2em; }
    table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #999; padding: 2pt 4pt; }
    @page { size: A4; margin: 25mm 20mm;
      @top-center { content: element(head); }
      @bottom-center { content: "Page " counter(page) " of " counter(pages); } }`;
  return { html: `${toc}</nav>${body}`, css };
}

export async function run(): Promise<BenchRow[]> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.route('**/*', (r) => r.abort());
  const page = await context.newPage();
  const pool = new BrowserPool({ maxPages: 1 });
  try {
    const rows: BenchRow[] = [];
    const perPage: number[] = [];
    for (const chapters of [REPORT_CHAPTERS / 2, REPORT_CHAPTERS]) {
      const request = reportDocument(chapters);
      // The anchor prints what castpress gives Chromium before its own steps: the built document.
      const built = await buildDocument(request, { maxResourceBytes: 50_000_000 });
      const bare = async () => {
        await page.setContent(built, { waitUntil: 'load' });
        return page.pdf({ preferCSSPageSize: true, printBackground: true });
      };
      let pages = 0;
      const ours = async () => {
        pages = (await renderHtmlDocument(pool, request)).pageCount;
      };
      const [oursMs, bareMs] = await interleaved(ours, bare, 5, 1);
      perPage.push(oursMs / pages);
      // castpress's output is tagged by default; at the larger size, an anchor that asks Chromium for the
      // same structure tree as well (a tagged print costs Chromium 1.3-1.6x an untagged one).
      if (chapters === REPORT_CHAPTERS) {
        const bareTagged = async () => {
          await page.setContent(built, { waitUntil: 'load' });
          return page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true });
        };
        const [oursTaggedMs, bareTaggedMs] = await interleaved(ours, bareTagged, 5, 1);
        rows.push({
          name: `html: castpress ${pages}-page report vs a bare tagged print (page.pdf({ tagged: true }), as castpress prints)`,
          value: oursTaggedMs,
          unit: 'ms',
          baseline: bareTaggedMs,
          ratio: oursTaggedMs / bareTaggedMs,
        });
        // The fast path: castpress asked for no structure tree, against the same untagged print.
        let untaggedPages = 0;
        const oursUntagged = async () => {
          untaggedPages = (await renderHtmlDocument(pool, { ...request, tagged: false })).pageCount;
        };
        const [oursUntaggedMs, bareUntaggedMs] = await interleaved(oursUntagged, bare, 5, 1);
        rows.push({
          name: `html: castpress ${untaggedPages}-page report with tagged: false vs the bare untagged print`,
          value: oursUntaggedMs,
          unit: 'ms',
          baseline: bareUntaggedMs,
          ratio: oursUntaggedMs / bareUntaggedMs,
        });
      }
      rows.push({
        name: `html: castpress ${pages}-page report (running header, ToC with leaders + target-counter, page X of Y)`,
        value: oursMs,
        unit: 'ms',
        baseline: bareMs,
        ratio: oursMs / bareMs,
        goal: '<= 1.5',
      });
    }
    const [small, large] = perPage as [number, number];
    rows.push({
      name: 'html: report ms per page at 2N chapters vs N',
      value: large,
      unit: 'ms',
      baseline: small,
      ratio: large / small,
      goal: '<= 1.2',
    });
    return rows;
  } finally {
    await pool.close();
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
