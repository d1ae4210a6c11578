/**
 * Every fillable PDF of the corpus, filled through templateFromPdf with a value
 * in every field, once flat and once interactive: the pages as a viewer shows
 * them (pdfjs, annotations drawn) must look alike — flat output keeps each
 * widget's own look and draws the values where the interactive appearances do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pixelmatch from 'pixelmatch';
import { templateFromPdf } from '../src/fields/index.js';
import { createEngine, type Engine } from '../src/index.js';
import { corpusPdf, FILLABLE_FORMS } from './acroform-corpus.js';
import { pageText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

const FORMS = FILLABLE_FORMS;

/** The golden comparison's defaults (test/helpers/golden.ts): share of a page's pixels that may differ, pixelmatch colour threshold. */
const TOLERANCE = 0.002;
const THRESHOLD = 0.15;

let engine: Engine;
beforeAll(() => {
  engine = createEngine();
});
afterAll(async () => {
  await engine.close();
});

describe.each(FORMS)('%s: flat output looks like the interactive output', (file) => {
  it('page by page within the golden tolerance, and the values are there', { timeout: 300_000 }, async () => {
    const bytes = corpusPdf(file);
    const template = await templateFromPdf(bytes);
    const data: Record<string, unknown> = {};
    const texts: string[] = [];
    template.fields.forEach((f, i) => {
      if (f.type === 'checkbox') data[f.id] = i % 2 === 0;
      else if (f.type === 'radioGroup') data[f.id] = f.options![f.options!.length - 1]!.id;
      else if (f.type === 'charList') data[f.id] = '753'.slice(0, f.cells);
      else {
        const v = `V${i}`.slice(0, f.maxLength ?? 99);
        data[f.id] = v;
        texts.push(v);
      }
    });
    const flat = await engine.fill(template, { data });
    const interactive = await engine.fill(template, { data, useInteractiveFields: true });
    // Not a comparison of two blank pages: the flat values are on them.
    const shown = (await pageText(flat)).join(' ');
    const found = texts.filter((t) => new RegExp(`(^|\\s|[^\\w])${t}($|\\s|[^\\w])`).test(shown));
    expect(found.length, 'text values drawn flat').toBeGreaterThanOrEqual(Math.min(texts.length, 1));
    const a = await renderPages(flat);
    const b = await renderPages(interactive);
    expect(a.length).toBe(b.length);
    const ratios = a.map(
      (p, i) =>
        pixelmatch(p.rgba, b[i]!.rgba, undefined, p.width, p.height, { threshold: THRESHOLD, includeAA: true }) /
        (p.width * p.height),
    );
    const over = ratios.map((r, i) => ({ page: i + 1, ratio: r })).filter((r) => r.ratio > TOLERANCE);
    expect(over).toEqual([]);
  });
});
