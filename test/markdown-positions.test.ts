/**
 * Block positions (the certificate's marks without pdf.js): a Markdown request block with an `id` is reported
 * where the layout placed it (`RenderedPdf.blocks`: page index, rect in points from the page's top-left,
 * a table's cells). Checked against where the text is drawn, read back here with pdf.js.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, isCastpressError, type BlockPosition } from '../src/index.js';
import { readText, type PageText, type TextItem } from './helpers/pdf.js';

const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });
afterAll(() => engine.close());

/** pdf.js' text box (top = baseline - font size) inside `rect`, with a little slack for rounding. */
function inside(item: TextItem, rect: { x: number; y: number; width: number; height: number }): boolean {
  const e = 0.5;
  return (
    item.x >= rect.x - e &&
    item.x + item.width <= rect.x + rect.width + e &&
    item.y >= rect.y - e &&
    item.baseline <= rect.y + rect.height + e
  );
}

/** Each (page, item) showing exactly `text`. */
function found(pages: PageText[], text: string): Array<{ page: number; item: TextItem }> {
  return pages.flatMap((p, page) => p.items.filter((i) => i.str === text).map((item) => ({ page, item })));
}

const ROWS = 45;

describe('positions of Markdown blocks with an id', () => {
  it('match where their text is drawn, a table across two pages cell by cell', async () => {
    const table = {
      rows: [['Name', 'Value'], ...Array.from({ length: ROWS }, (_, r) => [`name-${r + 1}`, `value-${r + 1}`])],
      columnOptions: [{ width: '30%' }, { width: '70%' }],
    };
    const out = await engine.generateDocument({
      title: 'Positions',
      data: [
        { heading: 'Heading-alone' },
        { id: 'intro', label: 'Intro-label', content: 'Intro-text' },
        { content: 'Unnamed-text' },
        { id: 'list', content: '- bullet-one\n- bullet-two' },
        { id: 'table', table },
        { id: 'after', content: 'After-text' },
      ],
    });
    const blocks = out.blocks!;
    const pages = await readText(out.pdf);
    expect(pages.length).toBe(2);
    expect(blocks.map((b) => `${b.id}@${b.page}`)).toEqual(['intro@0', 'list@0', 'table@0', 'table@1', 'after@1']);

    const block = (id: string, page: number): BlockPosition => blocks.find((b) => b.id === id && b.page === page)!;
    for (const [id, texts] of [
      ['intro', ['Intro-label', 'Intro-text']],
      ['list', ['bullet-one', 'bullet-two']],
      ['after', ['After-text']],
    ] as const) {
      for (const text of texts) {
        const at = found(pages, text);
        expect(at, text).toHaveLength(1);
        expect(inside(at[0]!.item, block(id, at[0]!.page)), `${text} in ${id}`).toBe(true);
      }
    }
    // Text of blocks without an id lies outside every reported block.
    for (const text of ['Heading-alone', 'Unnamed-text']) {
      const [at] = found(pages, text);
      expect(
        blocks.filter((b) => b.page === at!.page && inside(at!.item, b)),
        text,
      ).toEqual([]);
    }
    // Blocks follow each other down the page, without overlapping.
    expect(block('intro', 0).y + block('intro', 0).height).toBeLessThanOrEqual(block('list', 0).y);

    // Every cell's text lies in its reported cell, on the page it was drawn on, and in no other cell there.
    const cells = blocks
      .filter((b) => b.id === 'table')
      .flatMap((b) => (b.cells ?? []).map((c) => ({ ...c, page: b.page })));
    for (let r = 1; r <= ROWS; r++) {
      for (const [column, text] of [`name-${r}`, `value-${r}`].entries()) {
        const at = found(pages, text);
        expect(at, text).toHaveLength(1);
        const holding = cells.filter((c) => c.page === at[0]!.page && inside(at[0]!.item, c));
        expect(
          holding.map((c) => [c.row, c.column]),
          text,
        ).toEqual([[r, column]]);
      }
    }
    // The header row is listed again on the page it is repeated on, as drawn there.
    const headers = found(pages, 'Name');
    expect(headers.map((h) => h.page)).toEqual([0, 1]);
    for (const h of headers)
      expect(cells.filter((c) => c.page === h.page && c.row === 0 && c.column === 0 && inside(h.item, c))).toHaveLength(
        1,
      );
    // The table's block rect holds all its cells on that page.
    for (const b of blocks.filter((x) => x.id === 'table'))
      for (const c of b.cells!) {
        expect(c.x).toBeGreaterThanOrEqual(b.x - 1e-6);
        expect(c.y + c.height).toBeLessThanOrEqual(b.y + b.height + 1e-6);
      }
  });

  it('are empty without ids; two blocks of one id are a validation error naming the second', async () => {
    const plain = await engine.generateDocument({ data: [{ content: 'x' }] });
    expect(plain.blocks).toEqual([]);
    const error = await engine
      .generateDocument({
        data: [
          { id: 'a', content: 'x' },
          { id: 'a', content: 'y' },
        ],
      })
      .catch((e: unknown) => e);
    expect(isCastpressError(error)).toBe(true);
    expect(JSON.stringify(error)).toContain('Duplicate block id');
    expect((error as { fields: Array<{ property: string }> }).fields.map((f) => f.property)).toEqual(['data[1].id']);
  });
});
