import { beforeAll, describe, expect, it } from 'vitest';
import { fillExistingFields, type ExistingFieldValue } from '../src/acroform/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { loadPdf } from '../src/pdf/index.js';
import { TextSetter } from '../src/text/index.js';
import { parseTemplate, type TemplateField } from '../src/template/index.js';
import { pageText, qpdfCheck, readFields, readText } from './helpers/pdf.js';
import { corpusPdf, FILLABLE_FORMS } from './acroform-corpus.js';

const FORMS = FILLABLE_FORMS;

let registry: FontRegistry;
beforeAll(() => {
  registry = new FontRegistry();
});

function scriptOf(file: string): (i: number) => string {
  if (file.includes('japanese')) return (i) => `東京${i}`;
  if (file.includes('russian')) return (i) => `Москва${i}`;
  if (file.includes('fr_') || file.includes('lu_')) return (i) => `É${i}`;
  return (i) => `V${i}`;
}

interface Planned extends ExistingFieldValue {
  type: TemplateField['type'];
  expected: string;
  /** Radio: the chosen option's widget, top-left origin. */
  optionRect?: { x: number; y: number; page: number };
}

/** One value per field name (fields shown twice share it), chosen by the template's type. */
function plan(file: string, fields: TemplateField[]): Planned[] {
  const text = scriptOf(file);
  const seen = new Set<string>();
  const out: Planned[] = [];
  fields.forEach((f, i) => {
    const name = f.acroFieldName!;
    // A signature box is signed, never filled: a fill gives it no value (test/template-signing-fields.test.ts).
    if (seen.has(name) || f.type === 'signature') return;
    seen.add(name);
    const readOnly = i % 3 === 0;
    if (f.type === 'checkbox')
      out.push({
        acroFieldName: name,
        value: i % 2 === 0,
        type: f.type,
        expected: i % 2 === 0 ? 'on' : 'Off',
        readOnly,
      });
    else if (f.type === 'radioGroup') {
      const opt = f.options![f.options!.length - 1];
      out.push({
        acroFieldName: name,
        value: opt.exportValue!,
        type: f.type,
        expected: opt.exportValue!,
        readOnly,
        optionRect: { x: opt.rect.x, y: opt.rect.y, page: f.pageNum },
      });
    } else if (f.type === 'charList') {
      const v = '7531902468ABCDEFGH'.slice(0, f.cells);
      out.push({ acroFieldName: name, value: v, type: f.type, expected: v, readOnly });
    } else {
      const v = text(i).slice(0, f.maxLength ?? 99);
      out.push({ acroFieldName: name, value: v, type: f.type, expected: v, readOnly });
    }
  });
  return out;
}

const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

describe.each(FORMS)('%s through templateFromPdf', (file) => {
  let values: Planned[];
  let bytes: Uint8Array;
  let pageBoxes: Array<{ x: number; y: number; height: number }>;
  /** Fields whose every widget is hidden (calculated totals...): flattening rightly draws nothing for them. */
  let hidden: Set<string>;

  beforeAll(async () => {
    bytes = corpusPdf(file);
    const template = parseTemplate(await templateFromPdf(bytes));
    expect(template.fields.length).toBeGreaterThan(0);
    expect(template.fields.every((f) => f.acroFieldName === f.alias)).toBe(true);
    values = plan(file, template.fields);
    const original = await loadPdf(bytes);
    // Template rects are measured on the page as displayed: from the crop box (pdfcpu forms crop 10 pt).
    pageBoxes = original.getPages().map((p) => p.getCropBox());
    hidden = new Set(
      original
        .getForm()
        .getFields()
        .filter((f) => f.acroField.getWidgets().every((w) => (w.getFlags() & 2) !== 0))
        .map((f) => f.getName()),
    );
    // Choice fields (template type shortText) take one of their own options, so viewers accept the value.
    const choices = new Map(
      (await readFields(bytes)).filter((f) => f.type === 'Ch' && f.options?.length).map((f) => [f.name, f.options!]),
    );
    for (const v of values) {
      const opts = choices.get(v.acroFieldName) as Array<{ exportValue: string; displayValue: string }> | undefined;
      if (!opts) continue;
      v.value = v.expected = opts[opts.length - 1].exportValue;
    }
  });

  it('fills the fields in place, kept interactive: pdfjs reads back names, values and read-only flags', async () => {
    const doc = await loadPdf(bytes);
    fillExistingFields(doc, values, new TextSetter(doc, registry), { flatten: false });
    const out = await doc.save();
    await qpdfCheck(out);
    const fields = await readFields(out);
    for (const v of values) {
      const widgets = fields.filter((f) => f.name === v.acroFieldName);
      expect(widgets.length, v.acroFieldName).toBeGreaterThan(0);
      const w = widgets[0];
      expect(w.readOnly, `${v.acroFieldName} readOnly`).toBe(v.readOnly);
      if (v.type === 'radioGroup') {
        // pdfjs spells non-ASCII state names its own way: compare with the chosen widget's own export value.
        const o = v.optionRect!;
        const box = pageBoxes[o.page];
        const chosen = widgets.find(
          (x) =>
            x.page === o.page &&
            Math.abs(x.rect[0] - box.x - o.x) < 0.5 &&
            Math.abs(x.rect[3] - (box.y + box.height - o.y)) < 0.5,
        );
        expect(chosen, v.acroFieldName).toBeDefined();
        // pdfjs gives a check-box widget's value as Off unless it is that widget's own state (pick-one check boxes): read the chosen widget.
        expect(chosen!.value, v.acroFieldName).not.toBe('Off');
        // A radio widget names its state in buttonValue; a pick-one check box's widget only in /V (our state names are ASCII there).
        expect(chosen!.value, v.acroFieldName).toBe(chosen!.radioButton ? chosen!.buttonValue : v.expected);
      } else if (v.type === 'checkbox') {
        if (v.expected === 'Off') expect(w.value, v.acroFieldName).toBe('Off');
        else expect(w.value, v.acroFieldName).not.toBe('Off');
      } else {
        expect(first(w.value), v.acroFieldName).toBe(v.expected);
      }
    }
  });

  it('flattened: the values are on the pages and no field is left', async () => {
    const doc = await loadPdf(bytes);
    fillExistingFields(doc, values, new TextSetter(doc, registry), { flatten: true });
    const out = await doc.save();
    await qpdfCheck(out);
    expect(await readFields(out)).toEqual([]);
    const text = (await pageText(out)).join('\n').replace(/\s+/g, '');
    const textual = values.filter(
      (v) => v.type !== 'checkbox' && v.type !== 'radioGroup' && !hidden.has(v.acroFieldName),
    );
    const missing = textual.filter((v) => !text.includes(String(v.expected).replace(/\s+/g, '')));
    expect(missing.map((v) => [v.acroFieldName, v.expected])).toEqual([]);
  });
});

describe('widgets turned with /MK /R', () => {
  it('text appearances turn with the widget (pdflib_fancy_fields_emoji.pdf: 270°, 180°, 90°), inside its Rect', async () => {
    const doc = await loadPdf(corpusPdf('pdflib_fancy_fields_emoji.pdf'));
    const turned: Array<[name: string, angle: number]> = [
      ['LastName 🛩', 270],
      ['MiddleInitial 🎳', 180],
      ['First Name 🚀', 90],
    ];
    const template = await templateFromPdf(corpusPdf('pdflib_fancy_fields_emoji.pdf'));
    fillExistingFields(
      doc,
      turned.map(([name], i) => ({ acroFieldName: name, value: `Turned${i}` })),
      new TextSetter(doc, registry),
      { flatten: true },
    );
    const out = await doc.save();
    await qpdfCheck(out);
    const [page] = await readText(out);
    turned.forEach(([name, angle], i) => {
      const item = page!.items.find((it) => it.str === `Turned${i}`);
      expect(item, name).toBeDefined();
      expect(item!.angle, name).toBe(angle);
      // The text's origin lies inside the widget's rectangle (template coordinates: top-left origin).
      const rect = template.fields.find((f) => f.acroFieldName === name)!.rect;
      expect(item!.x, name).toBeGreaterThanOrEqual(rect.x - 0.5);
      expect(item!.x, name).toBeLessThanOrEqual(rect.x + rect.width + 0.5);
      expect(item!.baseline, name).toBeGreaterThanOrEqual(rect.y - 0.5);
      expect(item!.baseline, name).toBeLessThanOrEqual(rect.y + rect.height + 0.5);
    });
  });
});

describe('widgets turned with /MK /R, filled flat through templateFromPdf', () => {
  it('carry `rotation` into the template and the values are drawn turned inside their rects', async () => {
    const { createEngine } = await import('../src/index.js');
    const engine = createEngine();
    try {
      const template = await templateFromPdf(corpusPdf('pdflib_fancy_fields_emoji.pdf'));
      const turned: Array<[name: string, angle: number]> = [
        ['LastName 🛩', 270],
        ['MiddleInitial 🎳', 180],
        ['First Name 🚀', 90],
      ];
      const fields = turned.map(([name]) => template.fields.find((f) => f.acroFieldName === name)!);
      expect(fields.map((f) => f.rotation)).toEqual(turned.map(([, angle]) => angle));
      const out = await engine.fill(template, { data: Object.fromEntries(fields.map((f, i) => [f.id, `Flat${i}`])) });
      const [page] = await readText(out);
      fields.forEach((f, i) => {
        const item = page!.items.find((it) => it.str === `Flat${i}`);
        expect(item, f.id).toBeDefined();
        expect(item!.angle, f.id).toBe(turned[i]![1]);
        expect(item!.x, f.id).toBeGreaterThanOrEqual(f.rect.x - 0.5);
        expect(item!.x, f.id).toBeLessThanOrEqual(f.rect.x + f.rect.width + 0.5);
        expect(item!.baseline, f.id).toBeGreaterThanOrEqual(f.rect.y - 0.5);
        expect(item!.baseline, f.id).toBeLessThanOrEqual(f.rect.y + f.rect.height + 0.5);
      });
    } finally {
      await engine.close();
    }
  });
});

describe('list boxes', () => {
  it('show every option from /TI down with the chosen one highlighted, and /I names its row', async () => {
    const file = corpusPdf('pdflib_fancy_fields_emoji.pdf');
    const doc = await loadPdf(file);
    const name = 'Which Are Planets? 🌎';
    fillExistingFields(doc, [{ acroFieldName: name, value: 'Pluto' }], new TextSetter(doc, registry), {
      flatten: false,
    });
    const field = doc.getForm().getField(name);
    const { PDFArray, PDFName, PDFNumber } = await import('@cantoo/pdf-lib');
    const indices = field.acroField.dict
      .lookup(PDFName.of('I'), PDFArray)
      .asArray()
      .map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN));
    expect(indices).toEqual([2]);
    const interactive = await doc.save();
    expect((await readFields(interactive)).find((f) => f.name === name)!.value).toEqual(['Pluto']);
    // Flattened, the unturned widget (the first) reads its options top to bottom.
    const flat = await loadPdf(interactive);
    fillExistingFields(flat, [], new TextSetter(flat, registry), { flatten: true });
    const [page] = await readText(await flat.save());
    const template = await templateFromPdf(file);
    const rect = template.fields.find((f) => f.acroFieldName === name && f.pageNum === 0)!.rect;
    const rows = page!.items
      .filter(
        (i) =>
          i.angle === 0 &&
          i.x >= rect.x - 1 &&
          i.x <= rect.x + rect.width &&
          i.baseline >= rect.y &&
          i.baseline <= rect.y + rect.height + 1,
      )
      .sort((a, b) => a.baseline - b.baseline)
      .map((i) => i.str.trim());
    expect(rows).toEqual(['Earth', 'Mars', 'Pluto', 'Neptune']);
  });
});

describe('check boxes turned with /MK /R and no appearance of their own', () => {
  it('get a drawn mark turned with the widget (XObject /Matrix), the box as it reads being the Rect turned', async () => {
    const { PDFDocument, PDFDict, PDFName, PDFNumber, PDFArray } = await import('@cantoo/pdf-lib');
    const src = await PDFDocument.create();
    const page = src.addPage([200, 200]);
    const box = src.getForm().createCheckBox('turned');
    box.addToPage(page, { x: 50, y: 50, width: 40, height: 20 });
    const widget = box.acroField.getWidgets()[0]!;
    widget.dict.delete(PDFName.of('AP'));
    widget.dict.set(PDFName.of('MK'), src.context.obj({ R: 90 }));
    const doc = await loadPdf(await src.save({ updateFieldAppearances: false }));
    fillExistingFields(doc, [{ acroFieldName: 'turned', value: true }], new TextSetter(doc, registry), {
      flatten: false,
    });
    const w = doc.getForm().getCheckBox('turned').acroField.getWidgets()[0]!;
    const on = w.dict
      .lookup(PDFName.of('AP'), PDFDict)
      .lookup(PDFName.of('N'), PDFDict)
      .lookup(w.getOnValue() ?? PDFName.of('Yes'));
    const { PDFStream } = await import('@cantoo/pdf-lib');
    if (!(on instanceof PDFStream)) throw new Error('no on-state appearance stream');
    const nums = (key: string): number[] =>
      on.dict
        .lookup(PDFName.of(key), PDFArray)
        .asArray()
        .map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN));
    const { width, height } = w.getRectangle();
    expect(nums('Matrix')).toEqual([0, 1, -1, 0, width, 0]);
    expect(nums('BBox')).toEqual([0, 0, height, width]);
    expect(width).toBeGreaterThan(height);
    expect(w.dict.lookup(PDFName.of('AS'))).not.toEqual(PDFName.of('Off'));
  });
});

describe('template rects of fillable PDFs are measured on the page as displayed', () => {
  it('crop box (pdfcpu: 10 pt) and /Rotate: a flat fill draws each value in its widget', async () => {
    const { createEngine } = await import('../src/index.js');
    const { PDFDocument, degrees } = await import('@cantoo/pdf-lib');
    const engine = createEngine();
    try {
      // A form on a page turned 90° with a crop box inset 20 pt.
      const src = await PDFDocument.create();
      const page = src.addPage([400, 300]);
      page.setCropBox(20, 20, 360, 260);
      page.setRotation(degrees(90));
      src.getForm().createTextField('probe').addToPage(page, { x: 100, y: 150, width: 120, height: 20 });
      const turned = await src.save();
      for (const [bytes, name] of [
        [corpusPdf('pdfcpu_form_demo_japanese.pdf'), undefined],
        [turned, 'probe'],
      ] as const) {
        const template = await templateFromPdf(bytes);
        const field = template.fields.find(
          (f) => f.type === 'shortText' && (name === undefined || f.acroFieldName === name),
        )!;
        const widget = (await readFields(bytes)).find((f) => f.name === field.acroFieldName)!;
        const out = await engine.fill(template, { data: { [field.id]: 'Probe' } });
        const item = (await readText(out))[field.pageNum]!.items.find((i) => i.str.includes('Probe'))!;
        expect(item, field.id).toBeDefined();
        // Ground truth from pdfjs: the widget's rectangle on the displayed page (pdfjs viewport: crop box, rotation).
        const { openPdf } = await import('./helpers/pdf.js');
        const doc = await openPdf(bytes);
        const viewport = (await doc.getPage(field.pageNum + 1)).getViewport({ scale: 1 });
        const [ax, ay, bx, by] = viewport.convertToViewportRectangle(widget.rect as number[]) as number[];
        await doc.destroy();
        const shown = {
          left: Math.min(ax!, bx!),
          top: Math.min(ay!, by!),
          right: Math.max(ax!, bx!),
          bottom: Math.max(ay!, by!),
        };
        expect(item.x, field.id).toBeGreaterThanOrEqual(shown.left);
        expect(item.x, field.id).toBeLessThan(shown.left + 6);
        expect(item.baseline, field.id).toBeGreaterThan(shown.top);
        expect(item.baseline, field.id).toBeLessThanOrEqual(shown.bottom);
      }
    } finally {
      await engine.close();
    }
  });
});
