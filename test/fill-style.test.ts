import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type TemplateField, type TemplateInput } from '../src/index.js';
import { readText } from './helpers/pdf.js';
import { field, inRect, pageContent, pageFonts, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

const rectAt = (i: number) => ({ x: 72, y: 100 + 40 * i, width: 300, height: 30 });

/**
 * Five fields, one per precedence level: field 0 has every level set, field 1
 * lacks the value object, field 2 also lacks the template field style, field 3
 * has only the template document style, field 4 only the defaults.
 */
async function levels(
  prop: string,
  values: [unknown, unknown, unknown, unknown],
): Promise<{
  t: TemplateInput;
  data: Record<string, unknown>;
  request: Record<string, unknown>;
  fields: TemplateField[];
}> {
  const [valueLevel, fieldLevel, requestLevel, templateLevel] = values;
  const fields = [0, 1, 2, 3, 4].map((i) =>
    field('shortText', {
      id: `f${i}`,
      rect: rectAt(i),
      style: i <= 1 ? ({ [prop]: fieldLevel } as TemplateField['style']) : undefined,
    }),
  );
  const t = await template(fields, { style: { [prop]: templateLevel } as TemplateInput['style'] });
  const data = { f0: { value: 'Level', [prop]: valueLevel }, f1: 'Level', f2: 'Level', f3: 'Level', f4: 'Level' };
  return { t, data, request: { [prop]: requestLevel }, fields };
}

describe('fill: styling precedence (value object > template field > request > template document > default)', () => {
  it('fontSize', async () => {
    const { t, data, request, fields } = await levels('fontSize', [20, 16, 14, 12]);
    const [page] = await readText(await engine.fill(t, { data, ...request }));
    const sizes = fields.map((f) => inRect(page!.items, f.rect)[0]!.height);
    // Level 3 (request) and 4 (template document) only reach fields without field styling.
    expect(sizes.map(Math.round)).toEqual([20, 16, 14, 14, 14]);
    const noRequest = await readText(await engine.fill(t, { data }));
    expect(fields.map((f) => Math.round(inRect(noRequest[0]!.items, f.rect)[0]!.height))).toEqual([20, 16, 12, 12, 12]);
    const bare = await readText(
      await engine.fill(await template(fields.map((f) => ({ ...f, style: undefined }))), { data: { f4: 'Level' } }),
    );
    expect(Math.round(inRect(bare[0]!.items, fields[4]!.rect)[0]!.height)).toBe(10);
  });

  it('alignment', async () => {
    const { t, data, request, fields } = await levels('alignment', ['right', 'center', 'right', 'center']);
    const [page] = await readText(await engine.fill(t, { data, ...request }));
    const pos = fields.map((f) => {
      const it = inRect(page!.items, f.rect)[0]!;
      const mid = it.x + it.width / 2;
      return it.x < f.rect.x + 5 ? 'left' : Math.abs(mid - (f.rect.x + f.rect.width / 2)) < 2 ? 'center' : 'right';
    });
    expect(pos).toEqual(['right', 'center', 'right', 'right', 'right']);
    const noRequest = await readText(await engine.fill(t, { data: { f4: 'Level' } }));
    const it = inRect(noRequest[0]!.items, fields[4]!.rect)[0]!;
    expect(Math.abs(it.x + it.width / 2 - (72 + 150))).toBeLessThan(2); // template document: center
  });

  it('verticalAlignment', async () => {
    const { t, data, request, fields } = await levels('verticalAlignment', ['bottom', 'top', 'bottom', 'top']);
    const [page] = await readText(await engine.fill(t, { data, ...request }));
    const where = fields.map((f) => {
      const it = inRect(page!.items, f.rect)[0]!;
      const rel = (it.baseline - f.rect.y) / f.rect.height;
      return rel > 0.8 ? 'bottom' : rel < 0.6 ? 'top' : 'middle';
    });
    expect(where).toEqual(['bottom', 'top', 'bottom', 'bottom', 'bottom']);
  });

  it('textColor', async () => {
    const { t, data, request } = await levels('textColor', ['#CC0000', '#00AA00', '#0000FF', '#FFAA00']);
    const content = await pageContent(await engine.fill(t, { data, ...request }));
    expect(content).toContain('0.8 0 0 rg');
    expect(content).toMatch(/0 0\.66\d* 0 rg/);
    expect(content).toContain('0 0 1 rg');
    expect(content).not.toMatch(/1 0\.66\d* 0 rg/);
    const fallback = await pageContent(await engine.fill(t, { data: { f4: 'x' } }));
    expect(fallback).toMatch(/1 0\.66\d* 0 rg/);
    const bare = await pageContent(
      await engine.fill(await template([field('shortText', { id: 'a' })]), { data: { a: 'x' } }),
    );
    // #3E3E57
    expect(bare).toMatch(/0\.24\d* 0\.24\d* 0\.34\d* rg/);
  });

  it('fontFamily and fontWeight', async () => {
    const fam = await levels('fontFamily', ['Courier', 'Times New Roman', 'Helvetica', 'Courier']);
    const fonts = await pageFonts(await engine.fill(fam.t, { data: fam.data, ...fam.request }));
    expect(fonts.some((f) => /LiberationMono/.test(f))).toBe(true);
    expect(fonts.some((f) => /LiberationSerif/.test(f))).toBe(true);
    expect(fonts.some((f) => /LiberationSans/.test(f))).toBe(true);
    // The blank template labels its pages in Helvetica (a standard font): only the fonts the fill added count.
    const def = (
      await pageFonts(await engine.fill(await template([field('shortText', { id: 'a' })]), { data: { a: 'x' } }))
    ).filter((f) => f !== 'Helvetica');
    expect(def).toEqual([expect.stringMatching(/^NotoSans-Regular/)]);

    const w = await levels('fontWeight', ['bold', 'italic', 'boldItalic', 'normal']);
    const weights = (await pageFonts(await engine.fill(w.t, { data: w.data, ...w.request }))).filter(
      (f) => f !== 'Helvetica',
    );
    expect(weights.sort()).toEqual([
      expect.stringMatching(/^NotoSans-Bold-\d+$/),
      expect.stringMatching(/^NotoSans-BoldItalic/),
      expect.stringMatching(/^NotoSans-Italic/),
    ]);
  });

  it('styled array elements override the value object for their element', async () => {
    const rows = [0, 1, 2].map((i) => rectAt(i));
    const f = field('shortText', { id: 'col', rect: rows[0]!, rows });
    const pdf = await engine.fill(await template([f]), {
      data: {
        col: { value: ['plain', { value: 'big', fontSize: 20 }, { data: 'spelled data', fontSize: 8 }], fontSize: 14 },
      },
    });
    const [page] = await readText(pdf);
    expect(rows.map((r) => Math.round(inRect(page!.items, r)[0]!.height))).toEqual([14, 20, 8]);
    expect(rows.map((r) => inRect(page!.items, r)[0]!.str)).toEqual(['plain', 'big', 'spelled data']);
  });
});
