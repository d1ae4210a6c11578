import { describe, expect, it } from 'vitest';
import { fillExistingFields, flattenForm } from '../src/acroform/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { loadPdf } from '../src/pdf/index.js';
import { TextSetter } from '../src/text/index.js';
import { itemsInRect, readText, type TextItem } from './helpers/pdf.js';
import { corpusPdf } from './acroform-corpus.js';

/**
 * PDFBOX-5784 pairs each comb field with an "-acrobat" twin whose appearance
 * Acrobat drew for the same value. We redraw ours (Noto Sans, not Helvetica)
 * and compare where each glyph's centre lands in its field.
 */
describe('comb fields against Acrobat (PDFBOX-5784)', () => {
  it('puts every glyph centre within 1 pt of Acrobat’s, in every alignment, font size and border variant', async () => {
    const bytes = corpusPdf('pdfbox_PDFBOX-5784_comb_variants.pdf');
    const template = await templateFromPdf(bytes);
    const ours = template.fields.filter((f) => !f.alias!.endsWith('-acrobat'));
    expect(ours).toHaveLength(22);
    const doc = await loadPdf(bytes);
    fillExistingFields(
      doc,
      ours.map((f) => ({
        acroFieldName: f.alias!,
        value: f.alias === 'comb-left-helv-none-crop-width' ? 'Wiaqg' : 'WIaqg',
      })),
      new TextSetter(doc, new FontRegistry()),
      { flatten: true },
    );
    const [page] = await readText(await doc.save());
    const glyphs = (rect: { x: number; y: number; width: number; height: number }): TextItem[] =>
      itemsInRect(page, rect, 3)
        .filter((i) => i.str.trim() !== '')
        .sort((a, b) => a.x - b.x);

    const report: string[] = [];
    for (const f of ours) {
      const twin = template.fields.find((t) => t.alias === `${f.alias}-acrobat`)!;
      const mine = glyphs(f.rect);
      const theirs = glyphs(twin.rect);
      expect(mine.map((g) => g.str).join(''), f.alias).toBe(theirs.map((g) => g.str).join(''));
      // 5 pt cells: pdfjs joins the glyphs into one item on both sides; its centre is still comparable.
      expect(mine.length, f.alias).toBe(f.alias!.endsWith('crop-width') ? 1 : 5);
      expect(theirs.length, f.alias).toBe(mine.length);
      mine.forEach((g, i) => {
        const t = theirs[i];
        const dx = g.x + g.width / 2 - f.rect.x - (t.x + t.width / 2 - twin.rect.x);
        const dy = g.baseline - f.rect.y - (t.baseline - twin.rect.y);
        report.push(`${f.alias} ${g.str} dx=${dx.toFixed(2)} dy=${dy.toFixed(2)}`);
        expect(Math.abs(dx), `${f.alias} ${g.str} horizontal`).toBeLessThanOrEqual(1);
        // Acrobat lowers text in fields too short for it (crop-height, tiny); vertical centring is compared on the others.
        if (!/crop-height|tiny/.test(f.alias!))
          expect(Math.abs(dy), `${f.alias} ${g.str} baseline`).toBeLessThanOrEqual(1);
      });
    }
    if (process.env.COMB_REPORT) console.log(report.join('\n'));
    expect(report).toHaveLength(106);
  });
});

describe('flat comb values against Acrobat (PDFBOX-5784)', () => {
  it('a flat fill puts each glyph in the cell Acrobat puts it in, in every alignment (one rule with interactive output)', async () => {
    const { createEngine } = await import('../src/index.js');
    const engine = createEngine();
    try {
      const bytes = corpusPdf('pdfbox_PDFBOX-5784_comb_variants.pdf');
      const template = await templateFromPdf(bytes);
      // Fields whose value Acrobat drew at a readable size, cell by cell (the crop and tiny variants are left to the interactive test).
      const ours = template.fields.filter((f) => !f.alias!.endsWith('-acrobat') && !/crop|tiny/.test(f.alias!));
      expect(ours.length).toBeGreaterThanOrEqual(9);
      expect(new Set(ours.map((f) => f.style?.alignment ?? 'left'))).toEqual(new Set(['left', 'center', 'right']));
      const out = await engine.fill(template, { data: Object.fromEntries(ours.map((f) => [f.id, 'WIaqg'])) });
      const [page] = await readText(out);
      // Acrobat's appearances, burnt into the page so pdfjs reads their text.
      const burnt = await loadPdf(bytes);
      flattenForm(burnt);
      const original = (await readText(await burnt.save()))[0]!;
      for (const f of ours) {
        const twin = template.fields.find((t) => t.alias === `${f.alias}-acrobat`)!;
        const cellOf = (items: TextItem[], rect: { x: number; width: number }) =>
          items
            .filter((i) => i.str.trim() !== '')
            .sort((a, b) => a.x - b.x)
            .map((g) => Math.floor((g.x + g.width / 2 - rect.x) / (rect.width / f.cells!)));
        const mine = cellOf(itemsInRect(page!, f.rect, 3), f.rect);
        const theirs = cellOf(itemsInRect(original, twin.rect, 3), twin.rect);
        expect(mine, f.alias).toEqual(theirs);
      }
    } finally {
      await engine.close();
    }
  });
});
