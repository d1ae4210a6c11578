import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import {
  addInteractiveFields,
  flattenForm,
  type FieldTextStyle,
  type InteractiveFieldSpec,
} from '../src/acroform/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { TextSetter } from '../src/text/index.js';
import { itemsInRect, openPdf, pageText, qpdfCheck, qpdfFields, readFields, readText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

let registry: FontRegistry;
beforeAll(() => {
  registry = new FontRegistry();
});

const style: FieldTextStyle = {
  fontFamily: 'Noto Sans',
  fontWeight: 'normal',
  fontSize: 10,
  textColor: '#3E3E57',
  alignment: 'left',
};
const PAGE_H = 792;
/** Template-style rect (top-left origin) to PDF user space. */
const at = (x: number, top: number, width: number, height: number) => ({ x, y: PAGE_H - top - height, width, height });

async function build(specs: InteractiveFieldSpec[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, PAGE_H]);
  doc.addPage([612, PAGE_H]);
  addInteractiveFields(doc, specs, new TextSetter(doc, registry));
  return doc.save();
}

const specs: InteractiveFieldSpec[] = [
  {
    name: 'name.first',
    kind: 'text',
    pageIndex: 0,
    rect: at(50, 50, 200, 20),
    value: 'Zoë 東京 Привет',
    style,
    readOnly: true,
  },
  {
    name: 'notes',
    kind: 'text',
    pageIndex: 0,
    rect: at(50, 100, 200, 60),
    value: 'first line\nsecond line that wraps because it is much longer than the box is wide',
    style,
    multiline: true,
  },
  { name: 'ssn', kind: 'comb', pageIndex: 0, rect: at(50, 200, 180, 20), value: '123456789', maxLength: 9, style },
  { name: 'agree', kind: 'checkbox', pageIndex: 0, rect: at(50, 250, 12, 12), value: true, style },
  { name: 'declined', kind: 'checkbox', pageIndex: 0, rect: at(80, 250, 12, 12), value: false, style },
  {
    name: 'colour',
    kind: 'radio',
    pageIndex: 1,
    rect: at(50, 300, 100, 12),
    value: 'green',
    style,
    options: [
      { exportValue: 'red', rect: at(50, 300, 12, 12) },
      { exportValue: 'green', rect: at(80, 300, 12, 12) },
    ],
  },
  { name: 'empty', kind: 'text', pageIndex: 1, rect: at(50, 350, 100, 20), value: '', style },
  { name: 'emptyComb', kind: 'comb', pageIndex: 1, rect: at(50, 380, 100, 20), value: '', maxLength: 5, style },
  {
    name: 'noRadio',
    kind: 'radio',
    pageIndex: 1,
    rect: at(50, 420, 40, 12),
    value: '',
    style,
    options: [{ exportValue: 'a', rect: at(50, 420, 12, 12) }],
  },
  { name: 'city', kind: 'text', pageIndex: 0, rect: at(300, 50, 100, 20), value: 'Москва', style },
  { name: 'city', kind: 'text', pageIndex: 1, rect: at(300, 50, 100, 20), value: 'Москва', style },
];

describe('addInteractiveFields', () => {
  it('writes one AcroForm field per spec with values, types and read-only flags that pdfjs reads back', async () => {
    const pdf = await build(specs);
    await qpdfCheck(pdf);
    const fields = await readFields(pdf);
    const byName = (n: string) => fields.filter((f) => f.name === n);
    expect(byName('name.first')[0]).toMatchObject({ type: 'Tx', value: 'Zoë 東京 Привет', readOnly: true, page: 0 });
    expect(byName('name.first')[0].rect.map(Math.round)).toEqual([50, 722, 250, 742]);
    expect(byName('notes')[0]).toMatchObject({ type: 'Tx', multiLine: true, readOnly: false });
    expect(byName('ssn')[0]).toMatchObject({ type: 'Tx', comb: true, maxLen: 9, value: '123456789' });
    expect(byName('agree')[0]).toMatchObject({ type: 'Btn', checkBox: true, value: 'Yes' });
    expect(byName('declined')[0]).toMatchObject({ checkBox: true, value: 'Off' });
    const radios = byName('colour');
    expect(radios).toHaveLength(2);
    expect(radios.map((r) => r.buttonValue)).toEqual(['red', 'green']);
    expect(radios.every((r) => r.value === 'green' && r.radioButton && r.page === 1)).toBe(true);
    expect(byName('empty')[0]).toMatchObject({ type: 'Tx', value: '' });
    expect(byName('emptyComb')[0]).toMatchObject({ comb: true, value: '' });
    expect(byName('noRadio')[0]).toMatchObject({ radioButton: true, value: 'Off' });
    // One alias on two pages: one field, two widgets.
    expect(byName('city').map((f) => f.page)).toEqual([0, 1]);
  });

  it('draws the values with embedded fonts (CJK and Cyrillic included) where the fields are', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, PAGE_H]);
    doc.addPage([612, PAGE_H]);
    addInteractiveFields(doc, specs, new TextSetter(doc, registry));
    flattenForm(doc);
    const pdf = await doc.save();
    const [p1, p2] = await readText(pdf);
    const inName = itemsInRect(p1, { x: 50, y: 50, width: 200, height: 20 });
    expect(inName.map((i) => i.str).join('')).toContain('東京');
    expect(inName.map((i) => i.str).join('')).toContain('Привет');
    const ssn = itemsInRect(p1, { x: 50, y: 200, width: 180, height: 20 }).filter((i) => /\d/.test(i.str));
    // Nine cells of 20 pt: each digit centred in its own cell.
    const centres = ssn.map((i) => i.x + i.width / 2).sort((a, b) => a - b);
    expect(centres).toHaveLength(9);
    centres.forEach((c, k) => expect(Math.abs(c - (50 + 10 + 20 * k))).toBeLessThan(0.6));
    const notes = itemsInRect(p1, { x: 50, y: 100, width: 200, height: 60 });
    expect(new Set(notes.map((i) => Math.round(i.baseline))).size).toBeGreaterThanOrEqual(3);
    expect((await pageText(pdf))[1]).toContain('Москва');
    expect(p2.items.some((i) => i.str.includes('Москва'))).toBe(true);
    expect(await readFields(pdf)).toEqual([]);
  });

  it('keeps field names unique when a spec name is taken by another kind or an existing field', async () => {
    const pdf = await build([
      { name: 'dup', kind: 'text', pageIndex: 0, rect: at(10, 10, 50, 20), value: 'a', style },
      { name: 'dup', kind: 'checkbox', pageIndex: 0, rect: at(10, 40, 12, 12), value: true, style },
    ]);
    const names = (await readFields(pdf)).map((f) => f.name).sort();
    expect(names).toEqual(['dup', 'dup_2']);
  });

  it('writes a widget box (/MK, /BS) into every appearance, check-box on states, multi-select lists and radios in unison', async () => {
    const box = {
      border: [1, 0, 0] as [number, number, number],
      borderWidth: 2,
      background: [0.9, 0.9, 1] as [number, number, number],
    };
    const pdf = await build([
      { name: 'boxed', kind: 'text', pageIndex: 0, rect: at(50, 50, 200, 30), value: 'x', style, box },
      { name: 'plain', kind: 'text', pageIndex: 0, rect: at(50, 100, 200, 30), value: 'y', style },
      { name: 'ok', kind: 'checkbox', pageIndex: 0, rect: at(50, 150, 14, 14), value: true, style, onState: 'I agree' },
      {
        name: 'pick',
        kind: 'list',
        pageIndex: 0,
        rect: at(50, 200, 100, 60),
        value: '',
        style,
        multiSelect: true,
        selected: ['a', 'c'],
        choices: [{ exportValue: 'a' }, { exportValue: 'b' }, { exportValue: 'c' }],
      },
      {
        name: 'twice',
        kind: 'radio',
        pageIndex: 0,
        rect: at(50, 300, 14, 14),
        value: 'v',
        style,
        box: { ...box, round: true },
        options: [{ exportValue: 'v', rect: at(50, 300, 14, 14) }],
      },
      {
        name: 'twice',
        kind: 'radio',
        pageIndex: 1,
        rect: at(50, 300, 14, 14),
        value: 'v',
        style,
        options: [{ exportValue: 'v', rect: at(50, 300, 14, 14) }],
      },
    ]);
    await qpdfCheck(pdf);
    const doc = await openPdf(pdf);
    const annots = (await (await doc.getPage(1)).getAnnotations()) as Array<Record<string, unknown>>;
    await doc.destroy();
    const w = (n: string) => annots.find((a) => a.fieldName === n)!;
    expect(Array.from(w('boxed').borderColor as Uint8ClampedArray)).toEqual([255, 0, 0]);
    expect(Array.from(w('boxed').backgroundColor as Uint8ClampedArray)).toEqual([230, 230, 255]);
    expect((w('boxed').borderStyle as { width: number }).width).toBe(2);
    // without a box: nothing in /MK, as fill's interactive output has always written
    expect(w('plain').borderColor).toBeNull();
    expect(w('plain').backgroundColor).toBeNull();
    expect(w('ok')).toMatchObject({ exportValue: 'I agree', fieldValue: 'I agree' });
    expect(w('pick').fieldValue).toEqual(['a', 'c']);
    const flags = new Map((await qpdfFields(pdf)).map((f) => [f.fullname, f.fieldflags]));
    expect(flags.get('pick')! & (1 << 21)).toBe(1 << 21);
    expect(flags.get('twice')! & (1 << 25)).toBe(1 << 25);
    expect((await readFields(pdf)).filter((f) => f.name === 'twice').map((f) => [f.page, f.value])).toEqual([
      [0, 'v'],
      [1, 'v'],
    ]);
    // The box is drawn: the red border at the left edge, the tint inside, the plain field white.
    const [page] = await renderPages(pdf, 2);
    const px = (x: number, top: number) =>
      Array.from(page!.rgba.slice((top * 2 * page!.width + x * 2) * 4, (top * 2 * page!.width + x * 2) * 4 + 3));
    expect(px(50, 65)).toEqual([255, 0, 0]);
    expect(px(150, 55)).toEqual([230, 230, 255]);
    expect(px(150, 105)).toEqual([255, 255, 255]);
  });
});
