/**
 * A long report with every common paged-media feature at once: a running header (`position: running()`),
 * a "Page X of Y" footer drawn by the overlay, a table of contents with `leader()` and
 * `target-counter()`, chapters that start on a new page and count themselves. Two sizes of the same
 * document (~51 and ~102 pages), each against a bare print of the same built document (castpress's
 * default CSS included) like for like (bench/_html-bare.ts), interleaved in one run, and the ms per page
 * at the larger size over the smaller (linear growth: ~1). Runnable alone: `npx tsx bench/html-report.ts`;
 * `bench/_html-profile.ts` says where the time goes.
 */
import { pathToFileURL } from 'node:url';
import { BrowserPool } from '../src/html/index.js';
import { defaultAgainstUntagged, launchBare, likeForLike } from './_html-bare.js';
import type { BenchRow } from './types.js';

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
  const bare = await launchBare();
  const pool = new BrowserPool({ maxPages: 1 });
  try {
    const rows: BenchRow[] = [];
    const perPage: number[] = [];
    for (const chapters of [REPORT_CHAPTERS / 2, REPORT_CHAPTERS]) {
      const size = chapters === REPORT_CHAPTERS ? 'larger' : 'smaller';
      const pair = await likeForLike(`report, ${size} (${chapters} chapters)`, pool, bare, reportDocument(chapters), {
        runs: 5,
        goal: '<= 1.5',
      });
      perPage.push(pair.oursMs / pair.pages);
      rows.push(
        ...pair.rows.map((r) => ({
          ...r,
          name: `${r.name}: ${pair.pages} pages, running header, ToC with leaders + target-counter, page X of Y`,
        })),
        defaultAgainstUntagged(`${pair.pages}-page report`, pair.oursMs, pair.untaggedAnchorMs),
      );
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
    await bare.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
