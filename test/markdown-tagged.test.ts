/**
 * Markdown output is a tagged PDF: every block is marked content of a structure element (Document →
 * H1–H6, P, L/LI/Lbl/LBody, Table/TR/TH/TD, Figure with /Alt, BlockQuote, Code, Link with its
 * annotation), and page furniture (logo, page numbers, timestamp), decoration and repeated table headers
 * are artifacts. Read back with pdfjs (structure tree, marked content), pdf-lib and pdfinfo.
 */
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createEngine } from '../src/index.js';
import { qpdfCheck } from './helpers/pdf.js';
import {
  checkStructure,
  linkDescriptions,
  paintingCoverage,
  pdfinfoTagged,
  roles,
  structTrees,
  textMarks,
} from './helpers/tagged.js';

const NOW = new Date('2026-11-22T14:03:00Z');
const engine = createEngine({ now: () => NOW });
afterAll(() => engine.close());

async function red(): Promise<string> {
  const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: { r: 200, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function report(): Promise<Uint8Array> {
  const img = await red();
  const rows = [['Name', 'Value'], ...Array.from({ length: 60 }, (_, i) => [`Row ${i}`, `${i * 3}`])];
  return engine.generate({
    type: 'markdown',
    title: 'Tagged report',
    lang: 'en-GB',
    page: { pageCount: 'bottomCenter' },
    data: [
      { heading: 'Report' },
      {
        content: [
          '## Intro',
          'Some *text* with a [link](https://example.com/x) and `code`.',
          '- one\n- two\n  1. inner',
          '> quoted',
          `![A red box](${img})`,
          `![](${img})`,
          '---',
          '```\ncode block\n```',
        ].join('\n\n'),
      },
      { label: 'Figures' },
      { table: { rows, firstRowHeaders: true } },
    ],
  });
}

describe('tagged Markdown output', () => {
  it('tags every block with its structure element; the tree agrees with the pages', async () => {
    const pdf = await report();
    await qpdfCheck(pdf);
    expect(await pdfinfoTagged(pdf)).toBe('yes');
    const check = await checkStructure(pdf);
    expect(check.problems).toEqual([]);
    expect(check.marked).toBe(true);
    expect(check.lang).toBe('en-GB');
    expect(check.roles).toMatchObject({
      Document: 1,
      H1: 1,
      H2: 1,
      Link: 1,
      L: 2,
      LI: 3,
      Lbl: 3,
      LBody: 3,
      BlockQuote: 1,
      Figure: 1,
      Code: 1,
      Table: 1,
      TR: 61,
      TH: 2,
      TD: 120,
    });
    // The link's annotation is named by its Link element (OBJR) and names it back (/StructParent).
    expect(check.annotations).toBe(1);
    expect(await linkDescriptions(pdf)).toEqual(['https://example.com/x']);
    const pages = await structTrees(pdf);
    expect(pages.length).toBeGreaterThan(1);
    const first = roles(pages[0]!);
    expect(first.slice(0, 4)).toEqual(['Document', 'H1', 'H2', 'P']);
    // The described image is a Figure with its alt text; the one without a description is decoration.
    expect(first.filter((r) => r.startsWith('Figure'))).toEqual(['Figure[A red box]']);
  });

  it('draws nothing outside tagged content or artifacts; furniture, decoration and repeated headers are artifacts', async () => {
    const pdf = await report();
    for (const page of await paintingCoverage(pdf)) {
      expect(page.untagged).toBe(0);
      expect(page.tagged).toBeGreaterThan(0);
      expect(page.artifact).toBeGreaterThan(0);
    }
    const marks = await textMarks(pdf);
    const where = (page: number, str: string) => marks[page]!.filter((i) => i.str.includes(str)).map((i) => i.in);
    expect(where(0, 'Report')).toEqual(['H1']);
    expect(where(0, 'quoted')).toEqual(['P']);
    expect(where(0, 'link')).toEqual(['Link']);
    expect(where(0, 'block')).toEqual(['Code']);
    expect(where(0, 'Name')).toEqual(['TH']);
    // Page numbers are pagination artifacts on every page, the timestamp on the last.
    marks.forEach((items, i) => {
      const number = items.find((t) => /^Page \d+ of \d+$/.test(t.str.trim()));
      expect(number?.in).toBe('Artifact');
      void i;
    });
    expect(marks.at(-1)!.some((t) => t.in === 'Artifact' && /2026/.test(t.str))).toBe(true);
    // The header row repeated at the top of page 2 is an artifact; the rows are TDs.
    expect(where(1, 'Name')).toEqual(['Artifact']);
    expect(marks[1]!.find((t) => t.str.startsWith('Row '))?.in).toBe('TD');
  });

  it('writes the same bytes for the same request, and no /Lang without a language', async () => {
    expect(Buffer.from(await report()).equals(Buffer.from(await report()))).toBe(true);
    const pdf = await engine.generate({ type: 'markdown', data: [{ content: 'Plain' }] });
    const check = await checkStructure(pdf);
    expect(check.problems).toEqual([]);
    expect(check.lang).toBeUndefined();
  });
});
