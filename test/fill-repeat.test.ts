import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { pageText, qpdfCheck, readText } from './helpers/pdf.js';
import { field, inRect, joined, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

const rect = (y: number, x = 72) => ({ x, y, width: 200, height: 20 });
const rows = (n: number, y0 = 200, x = 72) => Array.from({ length: n }, (_, i) => rect(y0 + 25 * i, x));

/** "Template page N" label of each output page. */
async function order(pdf: Uint8Array): Promise<number[]> {
  return (await pageText(pdf)).map((t) => Number(/Template page (\d+)/.exec(t)?.[1] ?? 0));
}

describe('fill: repeating pages', () => {
  it('explicit: an array for a non-array field repeats its page per element; non-array values on every repeat; other pages once, in order', async () => {
    const fields = [
      field('shortText', { id: 'name', pageNum: 1, rect: rect(100) }),
      field('shortText', { id: 'title', pageNum: 1, rect: rect(130) }),
      field('shortText', { id: 'cover', pageNum: 0, rect: rect(100) }),
    ];
    const pdf = await engine.fill(await template(fields, { pages: 3 }), {
      data: { name: ['A', 'B', 'C'], title: 'Same', cover: 'Cover' },
    });
    await qpdfCheck(pdf);
    expect(await order(pdf)).toEqual([1, 2, 2, 2, 3]);
    const pages = await readText(pdf);
    expect(pages.slice(1, 4).map((p) => joined(inRect(p.items, rect(100))))).toEqual(['A', 'B', 'C']);
    expect(pages.slice(1, 4).map((p) => joined(inRect(p.items, rect(130))))).toEqual(['Same', 'Same', 'Same']);
    expect(joined(inRect(pages[0]!.items, rect(100)))).toBe('Cover');
    expect(inRect(pages[4]!.items, rect(100))).toHaveLength(0);
  });

  it('explicit: the longest array decides the repeats; shorter arrays leave later copies empty', async () => {
    const fields = [field('shortText', { id: 'a', rect: rect(100) }), field('shortText', { id: 'b', rect: rect(130) })];
    const pdf = await engine.fill(await template(fields), { data: { a: ['1', '2', '3'], b: ['x'] } });
    const pages = await readText(pdf);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => joined(inRect(p.items, rect(130))))).toEqual(['x', '', '']);
  });

  it('overflow: a column longer than its rows continues on repeated pages; page count follows the longest column', async () => {
    const fields = [
      field('shortText', { id: 'items', rect: rows(3)[0]!, rows: rows(3) }),
      field('dollar', { id: 'prices', rect: rows(3, 200, 300)[0]!, rows: rows(3, 200, 300) }),
      field('shortText', { id: 'header', rect: rect(100) }),
    ];
    const items = ['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7'];
    const pdf = await engine.fill(await template(fields, { pages: 2 }), {
      data: { items, prices: [1, 2], header: 'Invoice' },
    });
    await qpdfCheck(pdf);
    expect(await order(pdf)).toEqual([1, 1, 1, 2]);
    const pages = await readText(pdf);
    const column = (i: number) => rows(3).map((r) => joined(inRect(pages[i]!.items, r)));
    expect(column(0)).toEqual(['i1', 'i2', 'i3']);
    expect(column(1)).toEqual(['i4', 'i5', 'i6']);
    expect(column(2)).toEqual(['i7', '', '']);
    expect(rows(3, 200, 300).map((r) => joined(inRect(pages[0]!.items, r)))).toEqual(['$1.00', '$2.00', '']);
    expect(pages.slice(0, 3).map((p) => joined(inRect(p.items, rect(100))))).toEqual(['Invoice', 'Invoice', 'Invoice']);
  });

  it('combined: an array of arrays selects the repeat at the top level and overflows within it', async () => {
    const fields = [
      field('shortText', { id: 'items', rect: rows(2)[0]!, rows: rows(2) }),
      field('shortText', { id: 'who', rect: rect(100) }),
    ];
    const pdf = await engine.fill(await template(fields), {
      data: { items: [['a', 'b', 'c'], ['d']], who: ['First', 'Second'] },
    });
    const pages = await readText(pdf);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => rows(2).map((r) => joined(inRect(p.items, r))))).toEqual([
      ['a', 'b'],
      ['c', ''],
      ['d', ''],
    ]);
    expect(pages.map((p) => joined(inRect(p.items, rect(100))))).toEqual(['First', 'First', 'Second']);
  });

  it('data as an array: one fill per element, one merged PDF', async () => {
    const fields = [
      field('shortText', { id: 'name', rect: rect(100) }),
      field('shortText', { id: 'p2', pageNum: 1, rect: rect(100) }),
    ];
    const pdf = await engine.fill(await template(fields, { pages: 2 }), {
      data: [{ name: 'Ada', p2: 'one' }, { name: 'Grace', p2: 'two' }, { name: 'Edsger' }],
    });
    await qpdfCheck(pdf);
    expect(await order(pdf)).toEqual([1, 2, 1, 2, 1, 2]);
    const pages = await readText(pdf);
    expect(pages.map((p) => joined(inRect(p.items, rect(100))))).toEqual(['Ada', 'one', 'Grace', 'two', 'Edsger', '']);
  });
});

describe('fill: page-number templates', () => {
  it('every variable, combined in one string, evaluated after repeating (numbers count within one fill)', async () => {
    const all =
      '{{pageNumber}}/{{totalPages}} i{{pageIndex}} r{{pageRepeatNumber}}/{{pageRepeatTotal}} ri{{pageRepeatIndex}}';
    const fields = [
      field('shortText', { id: 'footer', rect: rect(700) }),
      field('longText', { id: 'footer2', pageNum: 1, rect: { x: 72, y: 700, width: 300, height: 40 } }),
      field('shortText', { id: 'rep', pageNum: 1, rect: rect(100) }),
    ];
    const t = await template(fields, { pages: 2 });
    const pdf = await engine.fill(t, {
      data: [
        { footer: all, footer2: all, rep: ['x', 'y'] },
        { footer: 'Page {{pageNumber}} of {{totalPages}}', footer2: '{{unknown}} {{ pageNumber }}' },
      ],
    });
    const pages = await readText(pdf);
    const footers = pages.map((p, i) =>
      joined(inRect(p.items, i === 0 || i === 3 ? rect(700) : { x: 72, y: 700, width: 300, height: 40 })),
    );
    expect(footers).toEqual(['1/3 i0 r1/1 ri0', '2/3 i1 r1/2 ri0', '3/3 i2 r2/2 ri1', 'Page 1 of 2', '{{unknown}} 2']);
  });
});
