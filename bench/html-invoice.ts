/**
 * The hosted API's invoice template (running footer + "Page X of Y" in @page
 * margin boxes) through castpress's HTML renderer, against a bare Playwright
 * `setContent` + `page.pdf()` of the same HTML on a warm page of a browser
 * launched the same way, in the same run. Runs are interleaved so machine load
 * hits both sides alike. Runnable alone: `npx tsx bench/html-invoice.ts`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { BrowserPool, findChromium, renderHtml } from '../src/html/index.js';
import { interleaved, type BenchRow } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../test/fixtures/html');
const read = (p: string): string => readFileSync(path.join(fixtures, p), 'utf8');

export async function run(): Promise<BenchRow[]> {
  const html = read('anvil-invoice/invoice.html');
  const css = read('anvil-invoice/invoice.css') + read('anvil-invoice/invoice-pdf.css');
  const bareDoc = `<!DOCTYPE html><html><head><style>${css}</style></head><body>${html}</body></html>`;

  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
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
    const [bareMs, oursMs] = await interleaved(() => bare(bareDoc), () => renderHtml(pool, { html, css, title: 'Invoice' }), 25);

    // Same anchor with castpress's default font stack, to separate the cost of Noto Sans from the pipeline's.
    const notoDoc = bareDoc.replace('<style>', "<style>html { font-family: 'Noto Sans', sans-serif; }");
    const [bareNoto, oursAgain] = await interleaved(() => bare(notoDoc), () => renderHtml(pool, { html, css, title: 'Invoice' }), 11, 1);

    const statement = read('anvil-statement/statement.html');
    const statementCss = read('anvil-statement/statement.css') + read('anvil-statement/statement-pdf.css');
    const [bareSt, oursSt] = await interleaved(
      () => bare(`<!DOCTYPE html><style>${statementCss}</style>${statement}`),
      () => renderHtml(pool, { html: statement, css: statementCss }),
      11,
    );

    const long = Array.from({ length: 600 }, (_, i) => `<p>Paragraph ${i + 1} of a long report, enough text to wrap onto a second line now and then.</p>`).join('');
    const longCss = '.pn::after { content: "page " counter(page) " of " counter(pages); }';
    const longHtml = `<div class="pn"></div>${long}<div class="pn"></div>`;
    const [bareLong, oursLong] = await interleaved(() => bare(`<!DOCTYPE html><style>${longCss}</style>${longHtml}`), () => renderHtml(pool, { html: longHtml, css: longCss }), 7, 1);

    const plain = `<h1>Plain</h1>${long.slice(0, 20_000)}`;
    const [barePlain, oursPlain] = await interleaved(() => bare(`<!DOCTYPE html>${plain}`), () => renderHtml(pool, { html: plain }), 7, 1);

    return [
      { name: 'html: bare setContent + page.pdf(), invoice (anchor)', value: bareMs, unit: 'ms' },
      { name: 'html: castpress invoice (running elements + page X of Y)', value: oursMs, unit: 'ms', baseline: bareMs, ratio: oursMs / bareMs, goal: '<= 1.2' },
      { name: 'html: castpress invoice vs bare page.pdf() with Noto Sans as default font', value: oursAgain, unit: 'ms', baseline: bareNoto, ratio: oursAgain / bareNoto },
      { name: 'html: castpress statement (running elements)', value: oursSt, unit: 'ms', baseline: bareSt, ratio: oursSt / bareSt },
      { name: 'html: castpress ~15 pages, counter(page) in body elements', value: oursLong, unit: 'ms', baseline: bareLong, ratio: oursLong / bareLong },
      { name: 'html: castpress ~8 pages, no paged-media extensions', value: oursPlain, unit: 'ms', baseline: barePlain, ratio: oursPlain / barePlain },
    ];
  } finally {
    await pool.close();
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
