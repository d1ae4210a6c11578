/**
 * Fillable PDFs in the wild: structures real forms use that a
 * strict reading of the spec misses. Each kind on a minimal PDF built for it,
 * and on the corpus forms that show it. Fields are read back with qpdf, pages
 * with pdfjs as a viewer draws them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFString, rgb, type PDFRef } from '@cantoo/pdf-lib';
import { fillExistingFields, flattenForm } from '../src/acroform/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { createEngine, type Engine } from '../src/index.js';
import { loadPdf } from '../src/pdf/index.js';
import { TextSetter } from '../src/text/index.js';
import type { TemplateField } from '../src/template/index.js';
import { corpusPdf } from './acroform-corpus.js';
import { qpdfCheck, qpdfFields, readText, type QpdfField } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

let registry: FontRegistry;
let engine: Engine;
beforeAll(() => {
  registry = new FontRegistry();
  engine = createEngine();
});
afterAll(async () => {
  await engine.close();
});

const stateOf = (f: QpdfField): string => (f.annotation as { appearancestate?: string }).appearancestate ?? '';

interface ButtonSpec {
  state: string;
  rect: [number, number, number, number];
  /** The widget's own /Ff (radio flag on the widget, not the field). */
  ff?: number;
  /** The on-state appearance's content (default: a filled square). */
  onContent?: string;
  onResources?: { [name: string]: Literal };
  tu?: string;
}

/** What pdf-lib's context.obj takes (pdf-lib does not export the type). */
type Literal = Parameters<PDFDocument['context']['obj']>[0];

/** A page with one /Btn field whose widgets are its kids, each with its own on-state. */
async function buttonForm(
  fieldFf: number,
  widgets: ButtonSpec[],
  extra?: (doc: PDFDocument, page: PDFDict) => void,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 300]);
  const ctx = doc.context;
  const fieldRef = ctx.nextRef();
  const kids: PDFRef[] = [];
  for (const w of widgets) {
    const [x1, y1, x2, y2] = w.rect;
    const on = ctx.stream(w.onContent ?? `0 0 0 rg 2 2 ${x2 - x1 - 4} ${y2 - y1 - 4} re f`, {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, x2 - x1, y2 - y1],
      ...(w.onResources ? { Resources: w.onResources } : {}),
    });
    const off = ctx.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, x2 - x1, y2 - y1] });
    const n = ctx.obj({ Off: ctx.register(off) });
    n.set(PDFName.of(w.state), ctx.register(on));
    const widget = ctx.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      Rect: w.rect,
      F: 4,
      Parent: fieldRef,
      AS: 'Off',
      P: page.ref,
    });
    widget.set(PDFName.of('AP'), ctx.obj({ N: n }));
    if (w.ff !== undefined) widget.set(PDFName.of('Ff'), PDFNumber.of(w.ff));
    if (w.tu) widget.set(PDFName.of('TU'), PDFString.of(w.tu));
    kids.push(ctx.register(widget));
  }
  ctx.assign(fieldRef, ctx.obj({ FT: 'Btn', T: PDFString.of('status'), Ff: fieldFf, V: 'Off', Kids: kids }));
  page.node.set(PDFName.of('Annots'), ctx.obj(kids));
  doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [fieldRef] }));
  extra?.(doc, page.node);
  return doc.save({ useObjectStreams: false });
}

const PICK_ONE: ButtonSpec[] = [
  { state: '1 Single', rect: [20, 250, 32, 262] },
  { state: '2 Married', rect: [60, 250, 72, 262], tu: 'Married filing jointly' },
  { state: '3 Separate', rect: [100, 250, 112, 262] },
];

async function widgetStates(bytes: Uint8Array, name: string): Promise<{ value: unknown; states: string[] }> {
  const fields = (await qpdfFields(bytes)).filter((f) => f.fullname === name);
  return { value: fields[0]?.value, states: fields.map(stateOf) };
}

describe('pick-one check boxes and radio flags on widgets', () => {
  for (const [label, fieldFf, widgetFf] of [
    ['check box whose widgets have different on-states', 0, undefined],
    ['radio flag on the widgets, not the field', 0, 1 << 15],
  ] as const) {
    it(`${label}: imported as one choice, exactly one widget on (fill in place and engine interactive)`, async () => {
      const bytes = await buttonForm(
        fieldFf,
        PICK_ONE.map((w) => ({ ...w, ...(widgetFf ? { ff: widgetFf } : {}) })),
      );
      const template = await templateFromPdf(bytes);
      expect(template.fields).toHaveLength(1);
      const field = template.fields[0] as TemplateField;
      expect(field.type).toBe('radioGroup');
      expect(field.options!.map((o) => o.id)).toEqual(['1 Single', '2 Married', '3 Separate']);

      const doc = await loadPdf(bytes);
      fillExistingFields(doc, [{ acroFieldName: 'status', value: '2 Married' }], new TextSetter(doc, registry), {
        flatten: false,
      });
      const direct = await doc.save();
      await qpdfCheck(direct);
      expect(await widgetStates(direct, 'status')).toEqual({
        value: '/2 Married',
        states: ['/Off', '/2 Married', '/Off'],
      });

      const out = await engine.fill(template, { data: { [field.id]: '3 Separate' }, useInteractiveFields: true });
      await qpdfCheck(out);
      expect(await widgetStates(out, 'status')).toEqual({
        value: '/3 Separate',
        states: ['/Off', '/Off', '/3 Separate'],
      });
    });
  }

  it('a check box shown twice stays a check box, also when one widget has no appearance of its own', async () => {
    const src = await PDFDocument.create();
    const page = src.addPage([300, 300]);
    const box = src.getForm().createCheckBox('agree');
    box.addToPage(page, { x: 20, y: 250, width: 12, height: 12 });
    box.addToPage(page, { x: 60, y: 250, width: 12, height: 12 });
    const again = await PDFDocument.load(await src.save());
    again.getForm().getCheckBox('agree').acroField.getWidgets()[1]!.dict.delete(PDFName.of('AP'));
    const template = await templateFromPdf(await again.save({ updateFieldAppearances: false }));
    expect(template.fields.map((f) => f.type)).toEqual(['checkbox', 'checkbox']);
  });

  it('a value may name the option by its readable label (/TU)', async () => {
    const bytes = await buttonForm(0, PICK_ONE);
    const doc = await loadPdf(bytes);
    fillExistingFields(
      doc,
      [{ acroFieldName: 'status', value: 'Married filing jointly' }],
      new TextSetter(doc, registry),
      { flatten: false },
    );
    expect((await widgetStates(await doc.save(), 'status')).states).toEqual(['/Off', '/2 Married', '/Off']);
  });

  it('corpus: the 2010 1040 filing status (S/MJ/MS/HoH/QW) and PDFBox CheckboxGroup pick one', async () => {
    for (const [file, name, pick, expected] of [
      [
        'irs_f1040_2010_prefilled.pdf',
        'topmostSubform[0].Page1[0].c1_04',
        'MJ',
        ['/Off', '/MJ', '/Off', '/Off', '/Off'],
      ],
      // Two of its widgets share Option3: they go on together (PDF 32000 §12.7.4.2.3).
      ['pdfbox_AcroFormsBasicFields.pdf', 'CheckboxGroup', 'Option3', ['/Off', '/Off', '/Option3', '/Option3']],
    ] as const) {
      const bytes = corpusPdf(file);
      const template = await templateFromPdf(bytes);
      const field = template.fields.find((f) => f.acroFieldName === name)!;
      expect(field.type, name).toBe('radioGroup');
      const option = field.options!.find((o) => o.exportValue === pick)!;
      const out = await engine.fill(template, { data: { [field.id]: option.id }, useInteractiveFields: true });
      const got = await widgetStates(out, name);
      expect(got.states, name).toEqual(expected);
      expect(got.value, name).toBe(`/${pick}`);
    }
  });
});

describe('names decoded one way', () => {
  it('lower-case #xx escapes (cp1252 é, UTF-8 ж) keep their bytes in option ids and in what is written', async () => {
    // pdf-lib cannot write a lower-case escape: same-length placeholders are swapped in the bytes.
    // On appearances: a 6 × 6 square in the top-left quarter only (our own dot would be centred).
    const quarter = '0 0 0 rg 0 6 6 6 re f';
    const built = await buttonForm(1 << 15, [
      { state: 'RadioButton_e94', rect: [20, 250, 32, 262], onContent: quarter },
      { state: '_d0_b6', rect: [60, 250, 72, 262], onContent: quarter },
    ]);
    const text = Buffer.from(built)
      .toString('latin1')
      .replace(/RadioButton_e94/g, 'RadioButton#e94')
      .replace(/_d0_b6/g, '#d0#b6');
    const bytes = new Uint8Array(Buffer.from(text, 'latin1'));
    const template = await templateFromPdf(bytes);
    expect(template.fields[0]!.options!.map((o) => o.id)).toEqual(['RadioButtoné4', 'ж']);
    // qpdf's JSON spells names as UTF-8 (a cp1252 byte becomes U+FFFD): the bytes themselves are proven by pdfjs drawing the on appearance.
    for (const [pick, spelled] of [
      ['RadioButtoné4', ['/RadioButton\ufffd4', '/Off']],
      ['ж', ['/Off', '/ж']],
    ] as const) {
      const out = await engine.fill(template, { data: { [template.fields[0]!.id]: pick }, useInteractiveFields: true });
      const got = await widgetStates(out, 'status');
      expect(got.states).toEqual(spelled);
      expect(got.value).toBe(spelled.find((s) => s !== '/Off'));
      // The /AP key has the same bytes as /AS: pdfjs draws the on appearance (a filled square).
      const [page] = await renderPages(out);
      const rect = pick === 'ж' ? [60, 250, 72, 262] : [20, 250, 32, 262];
      const [x1, y1, x2, y2] = rect as [number, number, number, number];
      expect(darkPixels(page!, [x1, y1 + 6, x1 + 6, y2]), pick).toBe(36);
      // Flat output shows the chosen option through the form's own on appearance, found by the same bytes: its quarter, no dot.
      const [flat] = await renderPages(await engine.fill(template, { data: { [template.fields[0]!.id]: pick } }));
      expect(darkPixels(flat!, [x1, y1 + 6, x1 + 6, y2]), `${pick} flat`).toBe(36);
      expect(darkPixels(flat!, [x1 + 6, y1, x2, y1 + 6]), `${pick} flat`).toBe(0);
    }
  });
});

describe('names decoded one way, on the corpus', () => {
  it('pdfcpu forms: UTF-8 state names written with lower-case escapes are readable option ids, and the chosen one is written back byte for byte', async () => {
    for (const [file, ids, pick] of [
      ['pdfcpu_form_demo_japanese.pdf', ['女性', '男', '非バイナリ'], '男'],
      ['pdfcpu_form_demo_russian.pdf', ['женский', 'мужчина', 'не двоичный'], 'не двоичный'],
    ] as const) {
      const template = await templateFromPdf(corpusPdf(file));
      const field = template.fields.find((f) => f.acroFieldName === 'gender1')!;
      expect(
        field.options!.map((o) => o.id),
        file,
      ).toEqual(ids);
      const out = await engine.fill(template, { data: { [field.id]: pick }, useInteractiveFields: true });
      const got = await widgetStates(out, 'gender1');
      expect(got.value, file).toBe(`/${pick}`);
      expect(
        got.states.filter((s) => s !== '/Off'),
        file,
      ).toEqual([`/${pick}`]);
    }
  });
});

describe('hidden widgets, on the corpus', () => {
  it('the Luxembourg form’s hidden calculation fields are not in its template', async () => {
    const bytes = corpusPdf('lu_modele160_2019_radio_comb.pdf');
    const hidden = (await qpdfFields(bytes))
      .filter((f) => (f.annotation.annotationflags & 0b100010) !== 0)
      .map((f) => f.fullname);
    expect(hidden.length).toBeGreaterThanOrEqual(7);
    const names = new Set((await templateFromPdf(bytes)).fields.map((f) => f.acroFieldName));
    expect(hidden.filter((n) => names.has(n))).toEqual([]);
    expect(names.has('A.NOM')).toBe(true);
  });
});

/** Dark pixels inside a PDF rect (page 300 pt tall, scale 1). */
function darkPixels(
  page: { width: number; height: number; rgba: Uint8ClampedArray },
  [x1, y1, x2, y2]: readonly number[],
): number {
  let n = 0;
  for (let y = Math.floor(page.height - y2!); y < Math.ceil(page.height - y1!); y++) {
    for (let x = Math.floor(x1!); x < Math.ceil(x2!); x++) {
      const i = (y * page.width + x) * 4;
      if (page.rgba[i]! < 128 && page.rgba[i + 1]! < 128 && page.rgba[i + 2]! < 128) n++;
    }
  }
  return n;
}

describe('form appearances that cannot draw', () => {
  const BOX: [number, number, number, number] = [20, 250, 36, 266];
  const zapf = { Font: { ZaDb: { Type: 'Font', Subtype: 'Type1', BaseFont: 'ZapfDingbats' } } };
  for (const [label, content, resources] of [
    ['a font with no name (`/ 12 Tf`)', 'BT / 12 Tf 2 3 Td (4) Tj ET', zapf],
    ['a font missing from the resources', 'BT /ZaDb 12 Tf 2 3 Td (4) Tj ET', undefined],
    ['an operator that is not PDF\u2019s', '0 g 2 2 12 12 re fillrect', undefined],
    ['bytes that do not lex (an unclosed string)', 'BT /ZaDb 12 Tf 2 3 Td (4 Tj ET', zapf],
    ['a 300 000-byte run of letters', `0 g 2 2 12 12 re f ${'x'.repeat(300_000)}`, undefined],
  ] as const) {
    it(`${label}: a checked box is drawn with our mark`, async () => {
      const bytes = await buttonForm(0, [
        { state: 'Yes', rect: BOX, onContent: content, ...(resources ? { onResources: resources } : {}) },
      ]);
      const doc = await loadPdf(bytes);
      fillExistingFields(doc, [{ acroFieldName: 'status', value: true }], new TextSetter(doc, registry), {
        flatten: false,
      });
      const out = await doc.save();
      expect((await widgetStates(out, 'status')).states).toEqual(['/Yes']);
      const [page] = await renderPages(out);
      expect(darkPixels(page!, BOX)).toBeGreaterThan(15);
    });
  }

  it('a form appearance that draws is kept as it is', async () => {
    const content = 'BT /ZaDb 12 Tf 2 3 Td (4) Tj ET';
    const bytes = await buttonForm(0, [{ state: 'Yes', rect: BOX, onContent: content, onResources: zapf }]);
    const doc = await loadPdf(bytes);
    fillExistingFields(doc, [{ acroFieldName: 'status', value: true }], new TextSetter(doc, registry), {
      flatten: false,
    });
    const out = await doc.save({ useObjectStreams: false });
    expect(Buffer.from(out).toString('latin1')).toContain(content);
  });
});

describe('hidden and NoView widgets', () => {
  it('are left out of the template (nothing drawn flat) and stay hidden when filled in place', async () => {
    const src = await PDFDocument.create();
    const page = src.addPage([300, 300]);
    const form = src.getForm();
    form.createTextField('shown').addToPage(page, { x: 20, y: 250, width: 120, height: 20 });
    form.createTextField('hidden').addToPage(page, { x: 20, y: 200, width: 120, height: 20 });
    form.createTextField('noview').addToPage(page, { x: 20, y: 150, width: 120, height: 20 });
    form.getTextField('hidden').acroField.getWidgets()[0]!.dict.set(PDFName.of('F'), PDFNumber.of(2));
    form.getTextField('noview').acroField.getWidgets()[0]!.dict.set(PDFName.of('F'), PDFNumber.of(32));
    const bytes = await src.save();
    const template = await templateFromPdf(bytes);
    expect(template.fields.map((f) => f.acroFieldName)).toEqual(['shown']);

    const doc = await loadPdf(bytes);
    fillExistingFields(
      doc,
      ['shown', 'hidden', 'noview'].map((n) => ({ acroFieldName: n, value: `V-${n}` })),
      new TextSetter(doc, registry),
      { flatten: false },
    );
    const out = await doc.save();
    const flags = Object.fromEntries((await qpdfFields(out)).map((f) => [f.fullname, f.annotation.annotationflags]));
    expect(flags).toEqual({ shown: 4, hidden: 2, noview: 32 });
    // As a viewer shows it: burnt into the page, only the shown value is there.
    const burnt = await loadPdf(out);
    flattenForm(burnt);
    const text = (await readText(await burnt.save()))[0]!.items.map((i) => i.str).join(' ');
    expect(text).toContain('V-shown');
    expect(text).not.toContain('V-hidden');
    expect(text).not.toContain('V-noview');
    // Flat output through the engine: the template has no hidden field, so nothing else is drawn.
    const flat = await engine.fill(template, { data: { [template.fields[0]!.id]: 'F-shown' } });
    expect(
      (await readText(flat))[0]!.items
        .map((i) => i.str)
        .join(' ')
        .trim(),
    ).toBe('F-shown');
  });
});

describe('comb values start in the same cell flat and interactive', () => {
  it('12 digits in 17 centred cells start in cell 2 both ways (Acrobat: floor(5 / 2))', async () => {
    const src = await PDFDocument.create();
    const page = src.addPage([400, 300]);
    const field = src.getForm().createTextField('id');
    field.setMaxLength(17);
    field.enableCombing();
    field.setAlignment(1);
    field.addToPage(page, { x: 20, y: 200, width: 340, height: 24 });
    const bytes = await src.save();
    const template = await templateFromPdf(bytes);
    const f = template.fields[0]!;
    expect(f.type).toBe('charList');
    const cell = 340 / 17;
    const firstCell = async (out: Uint8Array): Promise<number> => {
      const items = (await readText(out))[0]!.items.filter((i) => i.str.trim() !== '').sort((a, b) => a.x - b.x);
      expect(
        items
          .map((i) => i.str)
          .join('')
          .replace(/\s/g, ''),
      ).toBe('123456789012');
      return Math.floor((items[0]!.x - 20) / cell);
    };
    const flat = await engine.fill(template, { data: { [f.id]: '123456789012' } });
    const interactive = await engine.fill(template, { data: { [f.id]: '123456789012' }, useInteractiveFields: true });
    expect(await firstCell(flat)).toBe(2);
    // The interactive appearance as a viewer shows it, burnt into the page so pdfjs reads its text.
    const burnt = await loadPdf(interactive);
    flattenForm(burnt);
    expect(await firstCell(await burnt.save())).toBe(2);
  });
});

describe('flat output keeps the widgets’ look', () => {
  it('text /MK border and background, comb dividers, and a check box’s square stay under the values', async () => {
    const src = await PDFDocument.create();
    const page = src.addPage([300, 300]);
    const form = src.getForm();
    const name = form.createTextField('name');
    name.addToPage(page, {
      x: 20,
      y: 240,
      width: 120,
      height: 24,
      borderColor: rgb(0, 0, 0),
      backgroundColor: rgb(0.8, 0.9, 1),
      borderWidth: 2,
    });
    const comb = form.createTextField('code');
    comb.setMaxLength(6);
    comb.enableCombing();
    comb.addToPage(page, { x: 20, y: 180, width: 120, height: 24, borderColor: rgb(0, 0, 0), borderWidth: 1 });
    form
      .createCheckBox('agree')
      .addToPage(page, { x: 20, y: 120, width: 16, height: 16, borderColor: rgb(0, 0, 0), borderWidth: 1 });
    const bytes = await src.save();
    const template = await templateFromPdf(bytes);
    const id = (n: string) => template.fields.find((f) => f.acroFieldName === n)!.id;
    const out = await engine.fill(template, {
      data: { [id('name')]: 'Zoe', [id('code')]: '12', [id('agree')]: false },
    });
    expect(await qpdfFields(out)).toEqual([]);
    const [shown] = await renderPages(out);
    // The background fills the text box (a light blue pixel well inside it, away from the text).
    const at = (x: number, y: number) =>
      Array.from(shown!.rgba.subarray(((300 - y) * 300 + x) * 4, ((300 - y) * 300 + x) * 4 + 3));
    expect(at(130, 245)).toEqual([204, 230, 255]);
    // Borders: the text box's left edge, the comb's divider after its first cell (x = 40), the check box's edge.
    expect(darkPixels(shown!, [20, 245, 22, 260])).toBeGreaterThan(10);
    expect(darkPixels(shown!, [39.5, 185, 40.5, 200])).toBeGreaterThan(10);
    expect(darkPixels(shown!, [20, 122, 21, 134])).toBeGreaterThan(8);
    // The values are still drawn on top.
    expect((await readText(out))[0]!.items.map((i) => i.str).join('')).toContain('Zoe');
  });
});

describe('narrow multi-line fields', () => {
  /** A multi-line field 46 pt wide and 140 pt tall at 10 pt, filled flat and interactive; the lines pdfjs reads from each. */
  async function linesOf(value: string): Promise<{ flat: string[]; interactive: string[] }> {
    const src = await PDFDocument.create();
    const page = src.addPage([300, 300]);
    const field = src.getForm().createTextField('note');
    field.enableMultiline();
    field.addToPage(page, { x: 20, y: 100, width: 46, height: 140, borderWidth: 0 });
    field.setFontSize(10);
    const template = await templateFromPdf(await src.save());
    const f = template.fields[0]!;
    expect(f.type).toBe('longText');
    const lines = async (out: Uint8Array) => {
      const items = (await readText(out))[0]!.items.filter((i) => i.str.trim() !== '');
      const rows = new Map<number, string>();
      for (const i of items.sort((a, b) => a.baseline - b.baseline || a.x - b.x))
        rows.set(Math.round(i.baseline), (rows.get(Math.round(i.baseline)) ?? '') + i.str);
      return [...rows.values()];
    };
    const flat = await engine.fill(template, { data: { [f.id]: value } });
    const burnt = await loadPdf(await engine.fill(template, { data: { [f.id]: value }, useInteractiveFields: true }));
    flattenForm(burnt);
    return { flat: await lines(flat), interactive: await lines(await burnt.save()) };
  }

  it('break after a hyphen (UAX #14) rather than inside the word: `F016-Zoe` is `F016-` / `Zoe`, flat and interactive', async () => {
    const got = await linesOf('F016-Zoe');
    expect(got.flat).toEqual(['F016-', 'Zoe']);
    expect(got.interactive).toEqual(['F016-', 'Zoe']);
  });

  it('shrink before cutting a word that fits no line at 10 pt', async () => {
    const got = await linesOf('Abcdefghijk');
    expect(got.flat).toEqual(['Abcdefghijk']);
    expect(got.interactive).toEqual(['Abcdefghijk']);
  });
});
