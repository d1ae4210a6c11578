import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { qpdfCheck, readFields, readText } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool();
});
afterAll(async () => {
  await pool.close();
});

const CSS =
  'body { margin: 0; font-size: 12px; } input, select, textarea { display: block; margin: 0 0 10px 0; box-sizing: border-box; border: 1px solid #888; }';

describe('forms become AcroForm fields', () => {
  it('creates text, check box, radio, choice and multi-line fields with values, at the controls', async () => {
    const html = `<form>
      <input type="text" name="fullName" value="Jane Doe" style="position:absolute; left:100px; top:200px; width:200px; height:24px">
      <div style="height: 300px"></div>
      <input type="email" name="email" required>
      <input type="checkbox" name="agree" checked style="width:16px;height:16px">
      <input type="checkbox" name="news" style="width:16px;height:16px">
      <input type="radio" name="size" value="S" style="width:16px;height:16px">
      <input type="radio" name="size" value="M" checked style="width:16px;height:16px">
      <select name="country"><option value="us">United States</option><option value="ca" selected>Canada</option></select>
      <textarea name="notes" rows="3">Line one</textarea>
      <input type="password" name="secret" maxlength="8" readonly>
      <input type="text" name="person.details.phone" value="555">
    </form>`;
    const pdf = await renderHtml(pool, { html, css: CSS });
    await qpdfCheck(pdf);
    const fields = await readFields(pdf);
    const byName = new Map(fields.map((f) => [f.name, f]));
    expect([...new Set(fields.map((f) => f.name))].sort()).toEqual(
      ['agree', 'country', 'email', 'fullName', 'news', 'notes', 'person.details.phone', 'secret', 'size'].sort(),
    );
    const name = byName.get('fullName')!;
    expect(name.type).toBe('Tx');
    expect(name.value).toBe('Jane Doe');
    // 50px page margin + 100px left / 200px top, 200×24px → points
    const [x1, y1, x2, y2] = name.rect as [number, number, number, number];
    expect(x1).toBeCloseTo((50 + 100) * 0.75, 0);
    expect(792 - y2).toBeCloseTo((50 + 200) * 0.75, 0);
    expect(x2 - x1).toBeCloseTo(150, 0);
    expect(y2 - y1).toBeCloseTo(18, 0);
    expect(byName.get('agree')).toMatchObject({ type: 'Btn', checkBox: true });
    expect(byName.get('agree')!.value).not.toBe('Off');
    expect(byName.get('news')!.value).toBe('Off');
    const radios = fields.filter((f) => f.name === 'size');
    expect(radios).toHaveLength(2);
    expect(radios.every((r) => r.radioButton)).toBe(true);
    // Each radio's state is its value (S, M): the second one is on.
    expect(radios.map((r) => r.buttonValue === r.value)).toEqual([false, true]);
    expect(radios.map((r) => r.buttonValue)).toEqual(['S', 'M']);
    expect(byName.get('country')).toMatchObject({ type: 'Ch', value: ['ca'] });
    expect(byName.get('notes')).toMatchObject({ type: 'Tx', value: 'Line one', multiLine: true });
    expect(byName.get('secret')).toMatchObject({ readOnly: true, maxLen: 8 });
    expect(byName.get('person.details.phone')!.value).toBe('555');
    // the painted HTML control is hidden: the value lives only in the widget, not twice on the page
    const text = (await readText(pdf))[0]!.items.map((i) => i.str).join(' ');
    expect(text).not.toContain('Jane Doe');
  });

  it('places fields on the page where the control lands', async () => {
    const html = `<form><input name="first" value="1"><div style="break-before: page"></div><input name="second" value="2" style="margin-top: 100px"></form>`;
    const fields = await readFields(await renderHtml(pool, { html, css: CSS }));
    expect(fields.map((f) => [f.name, f.page])).toEqual([
      ['first', 0],
      ['second', 1],
    ]);
    const second = fields[1]!;
    expect(792 - second.rect[3]!).toBeCloseTo((50 + 100) * 0.75, 0);
  });

  it('ignores controls outside a form, without a name, or with an invalid type', async () => {
    const html = `<input name="outside" value="x">
      <form><input value="no name"><input type="bogus" name="bogus"><input type="hidden" name="token" value="t"><input type="submit" name="go" value="Send"><input name="ok"></form>`;
    const pdf = await renderHtml(pool, { html, css: CSS });
    expect((await readFields(pdf)).map((f) => f.name)).toEqual(['ok']);
    // the ignored controls stay painted as HTML
    const text = (await readText(pdf))[0]!.items.map((i) => i.str).join(' ');
    expect(text).toContain('Send');
  });

  it('draws field values in any script with embedded fonts (Helvetica showed "?" for Cyrillic, CJK, Arabic)', async () => {
    const html = `<form>
      <input type="text" name="city" value="Москва 東京" style="width:200px;height:24px">
      <input type="text" name="plain" value="Paris" style="width:200px;height:24px">
      <select name="country"><option value="日本" selected>日本</option><option value="x">x</option></select>
      <textarea name="note">مرحبا بالعالم</textarea>
    </form>`;
    const pdf = await renderHtml(pool, { html, css: CSS });
    await qpdfCheck(pdf);
    expect(Object.fromEntries((await readFields(pdf)).map((f) => [f.name, f.value]))).toEqual({
      city: 'Москва 東京',
      plain: 'Paris',
      country: ['日本'],
      note: 'مرحبا بالعالم',
    });
    // What the widgets show: burn the appearances into the page and read the text back.
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const { flattenForm } = await import('../src/acroform/index.js');
    const doc = await PDFDocument.load(pdf);
    flattenForm(doc);
    const shown = (await readText(await doc.save()))[0]!.items.map((i) => i.str).join(' ');
    for (const value of ['Москва', '東京', 'Paris', '日本', 'مرحبا']) expect(shown).toContain(value);
    expect(shown).not.toContain('?');
  });
});
