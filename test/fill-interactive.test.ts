import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { expectGolden } from './helpers/golden.js';
import { createEngine } from '../src/index.js';
import { qpdfCheck, qpdfFields, readFields, readText } from './helpers/pdf.js';
import { w9Template } from './fixtures/fill/corpus.js';
import { blankPdf, field, LETTER, pngDataUrl, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

const r = (x: number, y: number, width = 200, height = 20) => ({ x, y, width, height });

describe('fill: useInteractiveFields', () => {
  it('values become form fields with readOnly from value object > defaultReadOnly > template field', async () => {
    const fields = [
      field('shortText', { id: 'name', rect: r(72, 100) }),
      field('shortText', { id: 'locked', rect: r(72, 130), readOnly: true }),
      field('checkbox', { id: 'agree', rect: r(72, 160, 20, 20) }),
      field('radioGroup', {
        id: 'pick',
        rect: r(72, 190, 60, 20),
        options: [
          { id: 'a', rect: r(72, 190, 20, 20) },
          { id: 'b', rect: r(100, 190, 20, 20) },
        ],
      }),
      field('charList', { id: 'code', rect: r(72, 220, 100, 20), cells: 5 }),
      field('fullName', {
        id: 'who',
        rect: r(72, 250, 300, 20),
        parts: { firstName: r(72, 250, 140), lastName: r(220, 250, 150) },
      }),
      field('shortText', { id: 'empty', rect: r(72, 280) }),
    ];
    const pdf = await engine.fill(await template(fields), {
      useInteractiveFields: true,
      data: {
        name: { value: 'Ada', readOnly: true },
        locked: 'x',
        agree: true,
        pick: 'b',
        code: 'AB12',
        who: { firstName: 'Ada', lastName: 'Lovelace' },
        empty: '',
      },
    });
    await qpdfCheck(pdf);
    const got = Object.fromEntries((await readFields(pdf)).map((f) => [f.name, f]));
    expect(got.name).toMatchObject({ type: 'Tx', value: 'Ada', readOnly: true });
    expect(got.locked).toMatchObject({ value: 'x', readOnly: true });
    expect(got.agree).toMatchObject({ type: 'Btn', checkBox: true });
    expect(got.agree!.value).not.toBe('Off');
    expect(got.code).toMatchObject({ value: 'AB12', comb: true, maxLen: 5 });
    expect(got.who_firstName).toMatchObject({ value: 'Ada' });
    expect(got.who_lastName).toMatchObject({ value: 'Lovelace' });
    expect(got.empty).toMatchObject({ type: 'Tx', value: '' });
    const radios = (await readFields(pdf)).filter((f) => f.name === 'pick');
    expect(radios).toHaveLength(2);
    expect(radios[0]!.value).toBe('b');

    const all = await engine.fill(await template(fields), {
      useInteractiveFields: true,
      defaultReadOnly: true,
      data: { name: { value: 'Ada', readOnly: false }, agree: false },
    });
    const byName = Object.fromEntries((await readFields(all)).map((f) => [f.name, f]));
    expect(byName.name!.readOnly).toBe(false);
    expect(byName.agree!.readOnly).toBe(true);
  });

  it('imageFile: an image field (push button) whether the value is empty or an image; the image itself is drawn into the page', async () => {
    const fields = [
      field('imageFile', { id: 'photo', rect: r(72, 100, 100, 80) }),
      field('imageFile', { id: 'logo', rect: r(72, 200, 100, 80) }),
    ];
    const pdf = await engine.fill(await template(fields), {
      useInteractiveFields: true,
      data: { photo: '', logo: await pngDataUrl(20, 10) },
    });
    await qpdfCheck(pdf);
    const fieldsRead = await qpdfFields(pdf);
    expect(fieldsRead.map((f) => [f.fullname, f.fieldtype, f.fieldflags & (1 << 16)])).toEqual([
      ['photo', '/Btn', 1 << 16],
      ['logo', '/Btn', 1 << 16],
    ]);
    const widgets = await readFields(pdf);
    const photo = widgets.find((w) => w.name === 'photo')!;
    // Top-left 72,100 on a Letter page: PDF y from the bottom.
    expect(photo.rect.map((v) => Math.round(v))).toEqual([72, 792 - 180, 172, 792 - 100]);
    // The logo's pixels are page content (under its button), not the button's appearance.
    const doc = await PDFDocument.load(pdf);
    const xobjects = doc.getPage(0).node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    expect(xobjects.keys().length).toBe(1);
  });

  it('repeated pages get their own fields', async () => {
    const pdf = await engine.fill(await template([field('shortText', { id: 'n', rect: r(72, 100) })]), {
      useInteractiveFields: true,
      data: { n: ['one', 'two'] },
    });
    const fields = await readFields(pdf);
    expect(fields.map((f) => [f.name, f.value, f.page])).toEqual([
      ['n_0', 'one', 0],
      ['n_1', 'two', 1],
    ]);
  });

  it('a fillable PDF template (acroFieldName): its own fields are filled in place', async () => {
    const { template: w9, fields } = await w9Template();
    const text = fields.find((f) => f.type === 'shortText')!;
    const box = fields.find((f) => f.type === 'checkbox')!;
    const pdf = await engine.fill(w9, {
      useInteractiveFields: true,
      data: { [text.id]: 'Interactive', [box.id]: true },
    });
    await qpdfCheck(pdf);
    const got = await readFields(pdf);
    expect(got.find((f) => f.name === text.acroFieldName)!.value).toBe('Interactive');
    expect(got.find((f) => f.name === box.acroFieldName)!.value).not.toBe('Off');
    expect(got).toHaveLength(22);
  });

  it("check boxes show the request's defaultCheckboxCharacter when checked (same mark as flat output), else a drawn check mark", async () => {
    const fields = [
      field('checkbox', { id: 'on', rect: r(72, 100, 20, 20) }),
      field('checkbox', { id: 'off', rect: r(72, 130, 20, 20) }),
      field('checkbox', { id: 'wide', rect: r(72, 160, 60, 20) }),
      field('checkbox', { id: 'square', rect: r(150, 160, 60, 20), square: true }),
    ];
    const data = { on: true, off: false, wide: true, square: true };
    const tpl = await template(fields);
    const withChar = await engine.fill(tpl, { useInteractiveFields: true, defaultCheckboxCharacter: '✓', data });
    const plain = await engine.fill(tpl, { useInteractiveFields: true, data });
    await qpdfCheck(withChar);

    /** The content of each check box's on-state appearance, by field name. */
    const onStates = async (pdf: Uint8Array): Promise<Record<string, string>> => {
      const doc = await PDFDocument.load(pdf);
      const out: Record<string, string> = {};
      for (const f of doc.getForm().getFields()) {
        const ap = f.acroField.getWidgets()[0]!.dict.lookup(PDFName.of('AP'), PDFDict).lookup(PDFName.of('N'), PDFDict);
        const on = ap.lookup(PDFName.of('Yes'));
        if (on instanceof PDFRawStream)
          out[f.getName()] = new TextDecoder('latin1').decode(decodePDFRawStream(on).decode());
      }
      return out;
    };
    const marked = await onStates(withChar);
    expect(Object.keys(marked).sort()).toEqual(['off', 'on', 'square', 'wide']);
    // Every box, checked or not, carries the character in its on state: text drawn with an embedded font.
    for (const content of Object.values(marked)) expect(content).toMatch(/Tf[\s\S]*TJ/);
    const drawn = await onStates(plain);
    for (const content of Object.values(drawn)) expect(content).not.toMatch(/Tf/);
    expect(Object.fromEntries((await readFields(withChar)).map((f) => [f.name, f.value !== 'Off']))).toEqual({
      on: true,
      off: false,
      wide: true,
      square: true,
    });
    await expectGolden('fill-interactive-checkbox-character', withChar);
  });

  it('widgets read upright on pages shown turned (/Rotate), and turned as the field says (rotation)', async () => {
    const { flattenForm } = await import('../src/acroform/index.js');
    for (const [rotate, rotation, angle] of [
      [90, 0, 0],
      [270, 0, 0],
      [0, 90, 90],
      [90, 270, 270],
    ] as const) {
      const rect = r(100, 150, 160, 24);
      const tpl = await template([field('shortText', { id: 'who', rect, ...(rotation ? { rotation } : {}) })], {
        pdf: await blankPdf(1, LETTER, { rotate: rotate }),
      });
      const pdf = await engine.fill(tpl, { useInteractiveFields: true, data: { who: 'Upright' } });
      const doc = await PDFDocument.load(pdf);
      flattenForm(doc);
      const [page] = await readText(await doc.save());
      const item = page!.items.find((i) => i.str === 'Upright');
      const label = `page /Rotate ${rotate}, field rotation ${rotation}`;
      expect(item, label).toBeDefined();
      expect(item!.angle, label).toBe(angle);
      expect(item!.x, label).toBeGreaterThanOrEqual(rect.x - 0.5);
      expect(item!.x, label).toBeLessThanOrEqual(rect.x + rect.width + 0.5);
      expect(item!.baseline, label).toBeGreaterThanOrEqual(rect.y - 0.5);
      expect(item!.baseline, label).toBeLessThanOrEqual(rect.y + rect.height + 0.5);
    }
  });

  it('on a PDF without a form, fields are written as an update of the template bytes (as flat output), on the right pages', async () => {
    const pdf0 = await blankPdf(3);
    const tpl = await template(
      [
        field('shortText', { id: 'a', pageNum: 0, rect: r(72, 100) }),
        field('shortText', { id: 'b', pageNum: 2, rect: r(72, 100) }),
      ],
      { pdf: pdf0 },
    );
    const out = await engine.fill(tpl, {
      useInteractiveFields: true,
      title: 'Update',
      data: { a: 'first', b: ['third', 'third again'] },
    });
    await qpdfCheck(out);
    // The template's bytes come through unchanged; the fields follow in the appended update.
    expect(Buffer.from(out.subarray(0, pdf0.length)).equals(Buffer.from(pdf0))).toBe(true);
    const fields = await readFields(out);
    expect(fields.map((f) => [f.name, f.value, f.page])).toEqual([
      ['a', 'first', 0],
      ['b_0', 'third', 2],
      ['b_1', 'third again', 3],
    ]);
    const pages = await readText(out);
    expect(pages).toHaveLength(4);
    expect(pages.map((p) => p.items.find((i) => i.str.startsWith('Template page'))?.str)).toEqual([
      'Template page 1',
      'Template page 2',
      'Template page 3',
      'Template page 3',
    ]);
  });

  it('a radio group on a repeated page is one field whose options appear on every copy', async () => {
    const fields = [
      field('shortText', { id: 'n', rect: r(72, 100) }),
      field('radioGroup', {
        id: 'pick',
        rect: r(72, 190, 60, 20),
        options: [
          { id: 'a', rect: r(72, 190, 20, 20) },
          { id: 'b', rect: r(100, 190, 20, 20) },
        ],
      }),
    ];
    const pdf = await engine.fill(await template(fields), {
      useInteractiveFields: true,
      data: { n: ['one', 'two'], pick: 'b' },
    });
    await qpdfCheck(pdf);
    const radios = (await readFields(pdf)).filter((f) => f.type === 'Btn');
    expect(new Set(radios.map((f) => f.name))).toEqual(new Set(['pick']));
    expect(radios.map((f) => f.page).sort()).toEqual([0, 0, 1, 1]);
    expect(radios.every((f) => f.value === 'b')).toBe(true);
  });

  it('dotted names become a field hierarchy; a name used both as field and as group falls back to _', async () => {
    const fields = [
      field('shortText', { id: 'n', alias: 'applicant.name', rect: r(72, 100) }),
      field('shortText', { id: 'e', alias: 'applicant.contact.email', rect: r(72, 130) }),
      field('checkbox', { id: 'c', alias: 'applicant.agree', rect: r(72, 160, 20, 20) }),
      field('shortText', { id: 'p', alias: 'applicant', rect: r(72, 190) }),
    ];
    const pdf = await engine.fill(await template(fields), {
      useInteractiveFields: true,
      data: { n: 'Ada', e: 'ada@example.com', c: true, p: 'plain' },
    });
    await qpdfCheck(pdf);
    const got = Object.fromEntries((await readFields(pdf)).map((f) => [f.name, f.value]));
    expect(got).toMatchObject({
      'applicant.name': 'Ada',
      'applicant.contact.email': 'ada@example.com',
      applicant_2: 'plain',
    });
    expect(got['applicant.agree']).not.toBe('Off');
  });
});
