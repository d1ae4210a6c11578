/**
 * What castpress's counter model (src/html/in-page/generated-content/counters.ts) costs a document: a ~30-page report whose
 * table of contents prints chapter and section numbers with target-counter() next to the page, against
 * the same document whose table of contents prints only the page (the model does not run there), and a
 * running header showing counters() against one showing a plain string, interleaved in the same run.
 * Runnable alone: `npx tsx bench/html-counters.ts`.
 */
import { pathToFileURL } from 'node:url';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { interleaved, type BenchRow } from './types.js';

const CHAPTERS = 30;
const SECTIONS = 6;

function report(): string {
  let toc = '<nav class="toc">';
  let body = '';
  for (let c = 1; c <= CHAPTERS; c++) {
    body += `<section class="chapter"><h1 id="c${c}">Chapter title ${c}</h1>`;
    toc += `<p><a href="#c${c}">Chapter title ${c}</a></p>`;
    for (let s = 1; s <= SECTIONS; s++) {
      body += `<section><h2 id="c${c}s${s}">Section ${s}</h2><div class="run">Chapter ${c}</div>`;
      toc += `<p class="s"><a href="#c${c}s${s}">Section ${s}</a></p>`;
      for (let p = 0; p < 6; p++)
        body += `<p>Paragraph ${p + 1} with <em>some</em> inline <b>markup</b> and enough words to wrap now and then on a page.</p>`;
      body += '</section>';
    }
    body += '</section>';
  }
  return `${toc}</nav>${body}`;
}

const BASE = `body { font-size: 11px; } h1 { break-before: page; counter-increment: chapter; } h2 { counter-increment: section; }
  .chapter { counter-reset: section; } h1::before { content: counter(chapter) ". "; } h2::before { content: counter(chapter) "." counter(section) " "; }
  .run { position: running(head); }`;

export async function run(): Promise<BenchRow[]> {
  const html = report();
  const pool = new BrowserPool({ maxPages: 1 });
  try {
    const pageOnly = `${BASE} .toc a::after { content: " p. " target-counter(attr(href), page); } @page { @top-center { content: element(head); } }`;
    const numbered = `${BASE} .toc a::before { content: target-counter(attr(href), chapter) ". "; } .toc .s a::before { content: target-counters(attr(href), chapter, ".") "." target-counter(attr(href), section) " "; }
      .toc a::after { content: " p. " target-counter(attr(href), page); } @page { @top-center { content: element(head); } }`;
    const [model, anchor] = await interleaved(
      () => renderHtml(pool, { html, css: numbered }),
      () => renderHtml(pool, { html, css: pageOnly }),
      7,
      2,
    );
    const counted = `${pageOnly} .run::after { content: " – " counters(section, "."); }`;
    const [running, runningAnchor] = await interleaved(
      () => renderHtml(pool, { html, css: counted }),
      () => renderHtml(pool, { html, css: `${pageOnly} .run::after { content: " – s"; }` }),
      7,
      2,
    );
    return [
      { name: `html: ToC of ${CHAPTERS * (SECTIONS + 1)} entries, page only (anchor)`, value: anchor, unit: 'ms' },
      {
        name: 'html: same ToC with target-counter(chapter/section) (counter model)',
        value: model,
        unit: 'ms',
        baseline: anchor,
        ratio: model / anchor,
      },
      {
        name: `html: ${CHAPTERS * SECTIONS} running heads showing counters() vs a string`,
        value: running,
        unit: 'ms',
        baseline: runningAnchor,
        ratio: running / runningAnchor,
      },
    ];
  } finally {
    await pool.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
