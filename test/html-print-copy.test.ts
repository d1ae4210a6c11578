/**
 * The clean write of Chromium's print (tagging, the overlay's pages) copies what no step reads as
 * Chromium's bytes: the kernel parses the pages, their content, the annotations, the structure tree's
 * root and the elements of the pages that leave, not the element of every run of text. What comes out
 * reads back as a whole parse would have written it: qpdf, mutool, the structure tree and links through
 * pdfjs, the outline, PDF/A's clauses.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PDFDict, PDFDocument, PDFName, type PDFRef } from '@cantoo/pdf-lib';
import { BrowserPool, renderHtml, type HtmlRenderRequest } from '../src/html/index.js';
import { HardenedParser } from '../src/pdf/parse/parser.js';
import { qpdfCheck, readOutline, readText, withTempFile } from './helpers/pdf.js';
import { readArchive } from './helpers/pdfa.js';
import { checkStructure, linkDescriptions, paintingCoverage, roles, structTrees } from './helpers/tagged.js';

const run = promisify(execFile);

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 1 });
});
afterAll(async () => {
  await pool.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A report of `chapters` chapters: a ToC of internal links, a running header and "Page X of Y" on the overlay. */
function report(chapters: number): HtmlRenderRequest {
  let toc = '<nav><h1>Contents</h1>';
  let body = '';
  for (let c = 1; c <= chapters; c++) {
    toc += `<p><a href="#c${c}">Chapter ${c}</a></p>`;
    body += `<section><div class="head">Report, chapter ${c}</div><h1 id="c${c}">Chapter ${c}</h1>`;
    for (let p = 1; p <= 12; p++)
      body += `<p>Paragraph ${p}: the figures for the period, <em>as reported</em> by the <b>regional</b> offices, see <a href="https://example.com/c${c}">the data</a>.</p>`;
    body += '<table><tr><th>Region</th><th>Q1</th></tr>';
    for (let r = 1; r <= 6; r++) body += `<tr><td>Region ${r}</td><td>${r * 11}</td></tr>`;
    body += '</table></section>';
  }
  return {
    html: `<html lang="en"><title>Report</title>${toc}</nav>${body}</html>`,
    css: `.head { position: running(head) } h1 { break-before: page }
      @page { @top-center { content: element(head) } @bottom-center { content: "Page " counter(page) " of " counter(pages) } }`,
  };
}

/** The render's output, and the objects the kernel parsed while rendering (parseObject is called with each one's reference). */
async function renderCounting(request: HtmlRenderRequest): Promise<{ pdf: Uint8Array; parsed: Set<PDFRef> }> {
  const parsed = new Set<PDFRef>();
  const parse = HardenedParser.prototype.parseObject;
  vi.spyOn(HardenedParser.prototype, 'parseObject').mockImplementation(function (this: HardenedParser, ref) {
    if (ref) parsed.add(ref);
    return parse.call(this, ref);
  });
  const pdf = await renderHtml(pool, request);
  vi.restoreAllMocks();
  return { pdf, parsed };
}

/** The output's structure elements, and how many of them the render parsed (a print's objects keep their numbers). */
async function structureElements(pdf: Uint8Array, parsed: Set<PDFRef>): Promise<{ all: number; parsed: number }> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const elements = doc.context
    .enumerateIndirectObjects()
    .filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('Type')) === PDFName.of('StructElem'));
  return { all: elements.length, parsed: elements.filter(([ref]) => parsed.has(ref)).length };
}

/** Every check a tagged output passes: qpdf and mutool read it cleanly, the tree agrees with the pages. */
async function expectReadable(pdf: Uint8Array): Promise<void> {
  await qpdfCheck(pdf);
  const { stderr } = await withTempFile(pdf, (file) => run('mutool', ['info', file]));
  expect(stderr).toBe('');
  const check = await checkStructure(pdf);
  expect(check.problems).toEqual([]);
  expect(check.lang).toBe('en');
  for (const page of await paintingCoverage(pdf)) expect(page.untagged).toBe(0);
}

describe("the clean write of Chromium's print", () => {
  it('parses a fraction of the structure elements, and the tree, links and outline read back', async () => {
    const chapters = 4;
    const { pdf, parsed } = await renderCounting(report(chapters));
    await expectReadable(pdf);
    const elements = await structureElements(pdf, parsed);
    // An element per run of text: hundreds, of which the steps read the few on the overlay's pages.
    expect(elements.all).toBeGreaterThan(500);
    expect(elements.parsed).toBeLessThan(elements.all / 4);

    const trees = await structTrees(pdf);
    expect(trees).toHaveLength(chapters + 1);
    const found = trees.flatMap((t) => roles(t));
    for (const role of ['H1', 'P', 'Link', 'Table', 'TR', 'TD']) expect(found).toContain(role);
    expect((await checkStructure(pdf)).roles.H1).toBe(chapters + 1);
    // External links keep their description; every link is named by its element.
    const described = await linkDescriptions(pdf);
    expect(described.filter((d) => d?.startsWith('https://example.com/'))).toHaveLength(12 * chapters);
    expect((await checkStructure(pdf)).annotations).toBe(described.length);
    expect((await readOutline(pdf)).map((n) => n.title)).toEqual([
      'Contents',
      ...Array.from({ length: chapters }, (_, i) => `Chapter ${i + 1}`),
    ]);
    const texts = await readText(pdf);
    expect(texts[chapters]!.items.map((i) => i.str).join(' ')).toContain(`Page ${chapters + 1} of ${chapters + 1}`);
  });

  it('as PDF/A-2b: the tree is kept, fonts embedded, one output intent, and the elements stay unparsed', async () => {
    const { pdf, parsed } = await renderCounting({ ...report(2), pdfa: '2b' });
    await expectReadable(pdf);
    const elements = await structureElements(pdf, parsed);
    expect(elements.parsed).toBeLessThan(elements.all / 4);
    const archive = await readArchive(pdf);
    expect(archive.intents).toHaveLength(1);
    expect(archive.fonts.length).toBeGreaterThan(0);
    expect(archive.fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(archive.metadata).toBeDefined();
    expect((await structTrees(pdf)).flatMap((t) => roles(t))).toContain('Link');
  });
});
