/**
 * HTML output is a tagged PDF: Chromium's structure tree survives castpress's post-processing on every
 * path (one update, bookmarks, layout passes with the overlay's clean write, form fields, sheet marks,
 * soft-hyphen removal), margin boxes and other decoration are artifacts, and the tree's bookkeeping
 * (ParentTree, /Pg, MCIDs) agrees with the pages. Read back with pdfjs, pdf-lib and pdfinfo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { qpdfCheck, readFields, readText } from './helpers/pdf.js';
import {
  checkStructure,
  linkDescriptions,
  paintingCoverage,
  pdfinfoTagged,
  roles,
  structTrees,
} from './helpers/tagged.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

const DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Every check a tagged result must pass, whatever path made it. */
async function expectTagged(pdf: Uint8Array, lang: string): Promise<void> {
  await qpdfCheck(pdf);
  expect(await pdfinfoTagged(pdf)).toBe('yes');
  const check = await checkStructure(pdf);
  expect(check.problems).toEqual([]);
  expect(check.marked).toBe(true);
  expect(check.lang).toBe(lang);
  for (const page of await paintingCoverage(pdf)) {
    expect(page.untagged).toBe(0);
    expect(page.tagged).toBeGreaterThan(0);
  }
}

describe('tagged HTML output', () => {
  it('headings, lists, tables and figures with alt text come out as H1–H6, L/LI, Table/TR/TH/TD and Figure with /Alt', async () => {
    const html = `<html lang="de"><title>Bericht</title><body style="background:#eef">
      <h1>Titel</h1><h2>Teil</h2><h3>Drei</h3><p>Absatz mit <a href="https://example.com/">Verweis</a>.</p>
      <ul><li>Eins</li><li>Zwei</li></ul>
      <table><thead><tr><th>Kopf</th></tr></thead><tbody><tr><td>Zelle</td></tr></tbody></table>
      <figure><img alt="Ein roter Punkt" src="${DOT}" width="20" height="20"><figcaption>Bild</figcaption></figure>
      <img alt="" src="${DOT}" width="10" height="10"></body></html>`;
    const pdf = await renderHtml(pool, { html });
    await expectTagged(pdf, 'de');
    const [tree] = await structTrees(pdf);
    const found = roles(tree);
    for (const role of ['Document', 'H1', 'H2', 'H3', 'P', 'Link', 'L', 'LI', 'Table', 'TR', 'TH', 'TD', 'Caption'])
      expect(found).toContain(role);
    expect(found).toContain('Figure[Ein roter Punkt]');
    // The link names its annotation (checked above) and the annotation carries a description.
    expect(await linkDescriptions(pdf)).toEqual(['https://example.com/']);
    expect((await checkStructure(pdf)).annotations).toBe(1);
    // The page background and the decorative image (alt="") are artifacts, not reading order.
    const [coverage] = await paintingCoverage(pdf);
    expect(coverage!.artifact).toBeGreaterThanOrEqual(2);
  });

  it("Chromium's own margin boxes are artifacts (one update of the print)", async () => {
    const pdf = await renderHtml(pool, {
      html: '<html lang="en"><title>T</title><h1>Body heading</h1><p>Body text</p>',
      css: '@page { @top-center { content: "Running title" } @bottom-right { content: counter(page) } }',
    });
    await expectTagged(pdf, 'en');
    const [page] = await readText(pdf);
    expect(page!.items.map((i) => i.str).join(' ')).toContain('Running title');
    const [coverage] = await paintingCoverage(pdf);
    expect(coverage!.artifact).toBeGreaterThanOrEqual(2);
  });

  it('margin boxes castpress draws (running elements on the overlay) are artifacts, and the overlay pages leave no structure behind', async () => {
    const pdf = await renderHtml(pool, {
      html: `<html lang="en"><title>R</title><div class="hdr">Running header</div><h1>Chapter one</h1><p>Body text</p>
        <h2 style="break-before: page">Chapter two</h2><p>More text</p>`,
      css: '.hdr { position: running(hdr) } @page { @top-center { content: element(hdr) } @bottom-center { content: "Page " counter(page) } }',
    });
    await expectTagged(pdf, 'en');
    const texts = await readText(pdf);
    expect(texts).toHaveLength(2);
    for (const page of texts) expect(page.items.map((i) => i.str).join(' ')).toContain('Running header');
    const trees = await structTrees(pdf);
    expect(roles(trees[0]!)).toEqual(['Document', 'H1', 'NonStruct', 'P', 'NonStruct']);
    expect(roles(trees[1]!)).toEqual(['Document', 'H2', 'NonStruct', 'P', 'NonStruct']);
    const check = await checkStructure(pdf);
    // Nothing of the two overlay pages (the running header's own elements) is left in the tree.
    expect(check.roles).toEqual({ Document: 1, H1: 1, H2: 1, P: 2, NonStruct: 4 });
  });

  it('stays consistent with form fields, bookmarks, sheet marks and hyphenation', async () => {
    const pdf = await renderHtml(pool, {
      html: `<html lang="en"><title>F</title><h1>Form</h1><form><label>Name <input name="who" value="Ada"></label>
        <label><input type="checkbox" name="ok" checked> agreed</label></form>
        <p style="hyphens: auto; width: 90px; text-align: justify">Internationalization extraordinarily responsibilities</p>`,
      css: '@page { size: A5; bleed: 3mm; marks: crop cross }',
    });
    await expectTagged(pdf, 'en');
    const [coverage] = await paintingCoverage(pdf);
    // Crop marks and registration crosses are drawn inside an artifact.
    expect(coverage!.artifact).toBeGreaterThanOrEqual(8);
    expect(roles((await structTrees(pdf))[0]!)).toContain('H1');
    expect((await readFields(pdf)).map((f) => f.name).sort()).toEqual(['ok', 'who']);
    // Each field's widget is named by a Form element (OBJR) and names it back (/StructParent).
    expect((await checkStructure(pdf)).annotations).toBe(2);
  });

  it("takes the request's lang when the document names none, and the document's over the request's", async () => {
    const none = await renderHtml(pool, { html: '<p>Bonjour</p>', lang: 'fr' });
    expect((await checkStructure(none)).lang).toBe('fr');
    const own = await renderHtml(pool, { html: '<html lang="de"><p>Hallo</p>', lang: 'fr' });
    expect((await checkStructure(own)).lang).toBe('de');
  });

  it("gives the same bytes for the same request on a page that held other documents: Chromium's element ids are renumbered", async () => {
    const now = new Date('2026-01-02T03:04:05Z');
    const html =
      '<table><thead><tr><th>Region</th><th>Total</th></tr></thead><tbody><tr><td>North</td><td>12</td></tr></tbody></table>';
    const outputs: Buffer[] = [];
    for (let i = 0; i < 3; i++) {
      // Other documents in between: each makes DOM nodes, and Chromium's ids count every node of the process.
      await renderHtml(pool, { html: `<p>${'filler '.repeat(50 * (i + 1))}</p>`.repeat(20 * (i + 1)) });
      outputs.push(Buffer.from(await renderHtml(pool, { html, now })));
    }
    expect(outputs[1]!.equals(outputs[0]!)).toBe(true);
    expect(outputs[2]!.equals(outputs[0]!)).toBe(true);
    await qpdfCheck(outputs[0]!);
    // The ids count from 1, in the order of Chromium's own, as /ID, in the header cells' /Headers and the /IDTree.
    const ids = [...outputs[0]!.toString('latin1').matchAll(/\(node(\d+)\)/g)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(2);
    expect(Math.max(...ids)).toBe(new Set(ids).size);
  });
});
