/**
 * HTML form fields written by src/acroform in an update of Chromium's print,
 * placed from the printed layout, styled from the control's CSS, and repeated
 * in margin boxes (running elements).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { loadPdf } from '../src/pdf/index.js';
import { openPdf, qpdfCheck, qpdfFields, readFields, readText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool();
});
afterAll(async () => {
  await pool.close();
});

/** Widget annotations as pdfjs reads them (border, /MK colours, appearance states). */
async function widgets(pdf: Uint8Array): Promise<Array<Record<string, unknown> & { page: number }>> {
  const doc = await openPdf(pdf);
  try {
    const out: Array<Record<string, unknown> & { page: number }> = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      for (const a of (await page.getAnnotations()) as Array<Record<string, unknown>>)
        if (a.subtype === 'Widget') out.push({ ...a, page: i - 1 });
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/** Bounding box of the red pixels of page `index` rendered at 2 px per point: [x1, y1, x2, y2]. */
async function redBox(pdf: Uint8Array, index: number): Promise<number[]> {
  const page = (await renderPages(pdf, 2))[index]!;
  let [x1, y1, x2, y2] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < page.height; y++)
    for (let x = 0; x < page.width; x++) {
      const i = (y * page.width + x) * 4;
      if (page.rgba[i]! > 200 && page.rgba[i + 1]! < 80 && page.rgba[i + 2]! < 80)
        [x1, y1, x2, y2] = [Math.min(x1, x), Math.min(y1, y), Math.max(x2, x), Math.max(y2, y)];
    }
  return [x1, y1, x2, y2];
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1');
}

describe('HTML form fields through src/acroform', () => {
  it('appends the fields as an update of Chromium’s print, with our appearances and no NeedAppearances', async () => {
    const html = `<form><input name="a" value="x"><input type="checkbox" name="b" checked><select name="c"><option>1</option></select></form>`;
    const pdf = await renderHtml(pool, { html });
    await qpdfCheck(pdf);
    const text = latin1(pdf);
    // Two revisions: Chromium's file, then one update (the fields, the title, the helper destinations removed).
    const firstEnd = text.indexOf('%%EOF') + 5;
    expect(text.indexOf('%%EOF', firstEnd)).toBeGreaterThan(firstEnd);
    const chromium = await loadPdf(pdf.slice(0, firstEnd + 1));
    expect(chromium.catalog.has(await import('@cantoo/pdf-lib').then((m) => m.PDFName.of('AcroForm')))).toBe(false);
    expect(text).not.toContain('/NeedAppearances');
    // The writer's editing font: /DA names Helvetica from /DR, the shown text is our embedded font.
    expect(text).toMatch(/\/DA\s*\(\/Helv [\d.]+ Tf/);
    const fields = await qpdfFields(pdf);
    expect(fields.map((f) => [f.fullname, f.fieldtype])).toEqual([
      ['a', '/Tx'],
      ['b', '/Btn'],
      ['c', '/Ch'],
    ]);
  });

  it('gives radios and check boxes their value attributes as export values, encoded as PDF names', async () => {
    const html = `<form>
      <input type="radio" name="size" value="small one">
      <input type="radio" name="size" value="a/b (c) #1" checked>
      <input type="radio" name="size" value="Café">
      <input type="radio" name="plain">
      <input type="checkbox" name="agree" value="I agree" checked>
      <input type="checkbox" name="news">
      <input type="checkbox" name="topics" value="art" checked>
      <input type="checkbox" name="topics" value="sport.outdoor">
    </form>`;
    const pdf = await renderHtml(pool, { html });
    await qpdfCheck(pdf);
    const fields = await readFields(pdf);
    const size = fields.filter((f) => f.name === 'size');
    expect(size.map((f) => f.buttonValue)).toEqual(['small one', 'a/b (c) #1', 'Caf\u00c3\u00a9']);
    // the checked radio is the group's value
    expect(size.every((f) => f.value === 'a/b (c) #1')).toBe(true);
    // qpdf (an independent reader) decodes the escaped name back to the value.
    const q = await qpdfFields(pdf);
    expect(q.filter((f) => f.fullname === 'size').map((f) => f.value)).toEqual([
      '/a/b (c) #1',
      '/a/b (c) #1',
      '/a/b (c) #1',
    ]);
    // Delimiters, spaces and '#' are escaped; non-ASCII is written as its UTF-8 bytes (pdfjs shows those bytes as Latin-1 above).
    const raw = latin1(pdf);
    expect(raw).toContain('/a#2Fb#20#28c#29#20#231');
    expect(raw).toContain('/Caf#C3#A9');
    expect(raw).toContain('/small#20one');
    expect(fields.find((f) => f.name === 'plain')).toMatchObject({ buttonValue: 'on', value: 'Off' });
    // pdfjs reports a check box's on state as exportValue
    const boxes = (await widgets(pdf)).filter((w) => w.checkBox).map((w) => [w.fieldName, w.exportValue, w.fieldValue]);
    expect(boxes).toEqual([
      ['agree', 'I agree', 'I agree'],
      ['news', 'Yes', 'Off'],
      // same name, different values: one check box per value under the name
      ['topics.art', 'art', 'art'],
      ['topics.sport_outdoor', 'sport.outdoor', 'Off'],
    ]);
  });

  it('keeps every field kind: repeated names, nesting, read-only, required, maxlength, multi-select list', async () => {
    const html = `<form>
      <input name="who.first" value="Ann"><input name="who.first" value="ignored">
      <input name="fixed" value="ro" readonly><input name="off" value="d" disabled>
      <input name="need" required><input name="short" maxlength="3" value="abcdef">
      <select name="many" multiple size="3"><option value="r">Red</option><option value="g" selected>Green</option><option value="b" selected>Blue</option></select>
    </form>`;
    const pdf = await renderHtml(pool, { html });
    await qpdfCheck(pdf);
    const fields = await readFields(pdf);
    const first = fields.filter((f) => f.name === 'who.first');
    expect(first).toHaveLength(2);
    expect(first.map((f) => f.value)).toEqual(['Ann', 'Ann']);
    expect(fields.find((f) => f.name === 'fixed')!.readOnly).toBe(true);
    expect(fields.find((f) => f.name === 'off')!.readOnly).toBe(true);
    expect(fields.find((f) => f.name === 'short')).toMatchObject({ maxLen: 3, value: 'abc' });
    const q = await qpdfFields(pdf);
    const flags = new Map(q.map((f) => [f.fullname, f.fieldflags]));
    expect(flags.get('need')! & 2).toBe(2);
    // MultiSelect (bit 22); both chosen values kept
    expect(flags.get('many')! & (1 << 21)).toBe(1 << 21);
    expect(fields.find((f) => f.name === 'many')).toMatchObject({ type: 'Ch', value: ['g', 'b'] });
  });

  it('sizes and places fields from the printed layout (A4 landscape @page, width:100%)', async () => {
    const html = `<style>@page { size: A4 landscape } body { margin: 0 }</style>
      <form><input name="wide" style="width:100%; box-sizing:border-box; height:30px; display:block"><div style="width:50%"><input name="half" style="width:100%; box-sizing:border-box; display:block"></div></form>`;
    const pdf = await renderHtml(pool, { html });
    const fields = await readFields(pdf);
    const wide = fields.find((f) => f.name === 'wide')!;
    const [x1, y1, x2, y2] = wide.rect as [number, number, number, number];
    // A4 landscape as Chromium prints it (841.92 pt wide) less the default 50px margins: 766.92 pt, not the screen's 537.
    expect(x2 - x1).toBeCloseTo(841.92 - 75, 0);
    expect(x1).toBeCloseTo(37.5, 0);
    expect(y2 - y1).toBeCloseTo(22.5, 0);
    expect(594.96 - y2).toBeCloseTo(37.5, 0);
    const half = fields.find((f) => f.name === 'half')!;
    expect(half.rect[2]! - half.rect[0]!).toBeCloseTo((841.92 - 75) / 2, 0);
  });

  it('measures each control at the content width of its own page (named pages of different sizes)', async () => {
    const html = `<style>@page wide { size: A4 landscape } .w { page: wide } body { margin: 0 } input { display: block; width: 100%; box-sizing: border-box }</style>
      <form><input name="narrow"><div class="w"><input name="broad"></div></form>`;
    const fields = await readFields(await renderHtml(pool, { html }));
    const width = (n: string) => {
      const f = fields.find((x) => x.name === n)!;
      return [f.page, Math.round(f.rect[2]! - f.rect[0]!)];
    };
    // Letter less 2×37.5 pt; A4 landscape (841.92 pt as printed) less 2×37.5 pt
    expect(width('narrow')).toEqual([0, 537]);
    expect(width('broad')).toEqual([1, 767]);
  });

  it('draws the widget where Chromium paints the same control (rendered pixels, inline control on a landscape page)', async () => {
    const body = (wrap: (input: string) => string) =>
      `<style>@page { size: A4 landscape; margin: 20mm 30mm } body { margin: 0; font-size: 16px }</style><div style="height: 700px"></div>
      ${wrap('<p style="line-height: 50px; padding-left: 10%">Label <input name="x" style="width: 40%; height: 30px; border: 2px solid rgb(255, 0, 0); background: none; box-sizing: border-box"> tail</p>')}`;
    // Outside a form the control stays Chromium's painting; inside one it becomes our widget.
    const painted = await renderHtml(pool, { html: body((i) => `<div>${i}</div>`) });
    const widget = await renderHtml(pool, { html: body((i) => `<form>${i}</form>`) });
    expect((await readFields(widget)).map((f) => [f.name, f.page])).toEqual([['x', 1]]);
    const want = await redBox(painted, 1);
    const got = await redBox(widget, 1);
    // 40% of the paragraph's printed width (90% of 297 − 60 mm) is ~242 pt = 484 px at 2 px/pt (the screen's: 322 px)
    expect(want[2]! - want[0]!).toBeGreaterThan(475);
    for (let k = 0; k < 4; k++) expect(Math.abs(got[k]! - want[k]!)).toBeLessThanOrEqual(2);
  });

  it('takes border and background from the control’s CSS (/MK, /BS) and draws them', async () => {
    const html = `<style>body { margin: 0 } input { display: block; width: 200px; height: 40px; margin: 0 0 20px 0; box-sizing: border-box }</style><form>
      <input name="bare" style="border: none">
      <input name="clear" style="border: none; background: transparent">
      <input name="tinted" style="border: none; background: #ffeeee">
      <input name="red" style="border: 4px solid rgb(255, 0, 0); background: transparent">
      <input name="native">
      <input name="line" style="border: none; border-bottom: 2px solid #000; background: none">
    </form>`;
    const pdf = await renderHtml(pool, { html });
    const ws = new Map((await widgets(pdf)).map((w) => [w.fieldName as string, w]));
    const bs = (n: string) => (ws.get(n)!.borderStyle as { width: number }).width;
    expect(ws.get('bare')!.borderColor).toBeNull();
    // an input's background is white unless the document says otherwise
    expect(Array.from(ws.get('bare')!.backgroundColor as Uint8ClampedArray)).toEqual([255, 255, 255]);
    expect(bs('bare')).toBe(0);
    expect(ws.get('clear')!.borderColor).toBeNull();
    expect(ws.get('clear')!.backgroundColor).toBeNull();
    expect(Array.from(ws.get('tinted')!.backgroundColor as Uint8ClampedArray)).toEqual([255, 238, 238]);
    expect(Array.from(ws.get('red')!.borderColor as Uint8ClampedArray)).toEqual([255, 0, 0]);
    expect(bs('red')).toBe(3);
    expect(ws.get('red')!.backgroundColor).toBeNull();
    // a control the document did not restyle: Chromium's native 1px grey border on white
    expect(Array.from(ws.get('native')!.borderColor as Uint8ClampedArray)).toEqual([118, 118, 118]);
    expect(Array.from(ws.get('native')!.backgroundColor as Uint8ClampedArray)).toEqual([255, 255, 255]);
    expect(bs('native')).toBeCloseTo(0.75, 2);
    // a bottom border only: PDF's underline style (pdfjs: style 5)
    expect(ws.get('line')!.borderStyle).toMatchObject({ width: 1.5, style: 5 });
    expect(Array.from(ws.get('line')!.borderColor as Uint8ClampedArray)).toEqual([0, 0, 0]);
    // What is drawn (2 px per point): the page is white around and inside the bare field; the tint fills the
    // second; the third has a red edge.
    const [page] = await renderPages(pdf, 2);
    const at = (xPt: number, yTopPt: number): number[] => {
      const i = (Math.round(yTopPt * 2) * page!.width + Math.round(xPt * 2)) * 4;
      return Array.from(page!.rgba.slice(i, i + 3));
    };
    const top = (n: string) => 792 - (ws.get(n)!.rect as number[])[3]!;
    const left = (ws.get('bare')!.rect as number[])[0]!;
    expect(at(left + 0.5, top('bare') + 0.5)).toEqual([255, 255, 255]);
    expect(at(left + 20, top('tinted') + 15)).toEqual([255, 238, 238]);
    expect(at(left + 1.5, top('red') + 15)).toEqual([255, 0, 0]);
    expect(at(left + 20, top('red') + 15)).toEqual([255, 255, 255]);
    expect(at(left + 20, top('line') + 29.5)).toEqual([0, 0, 0]);
    expect(at(left + 20, top('line') + 0.5)).toEqual([255, 255, 255]);
    expect(at(left + 0.5, top('line') + 15)).toEqual([255, 255, 255]);
  });

  it('makes a control in a running element a field on every page its margin box shows it (one field, a widget per page)', async () => {
    const css = `@page { @top-center { content: element(hdr) } } .hdr { position: running(hdr) } p { break-after: page }`;
    const body = (
      wrap: (s: string) => string,
    ) => `${wrap('<div class="hdr">Ref: <input name="ref" value="R-7" style="width:120px; height:20px; border: 1px solid rgb(255, 0, 0); background: none"> <input type="checkbox" name="seen" checked> <input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked></div>')}
      <p>one</p><p>two</p><p>three</p>`;
    const pdf = await renderHtml(pool, { html: body((s) => `<form>${s}</form>`), css });
    // Where Chromium paints the same control when it is no field (no form around the running element).
    const painted = await renderHtml(pool, { html: body((s) => `<div>${s}</div>`), css });
    expect(await readFields(painted)).toEqual([]);
    for (const i of [0, 2]) {
      const [want, got] = [await redBox(painted, i), await redBox(pdf, i)];
      for (let k = 0; k < 4; k++) expect(Math.abs(got[k]! - want[k]!)).toBeLessThanOrEqual(2);
    }
    await qpdfCheck(pdf);
    const fields = (await readFields(pdf)).filter((f) => f.name === 'ref');
    expect(fields.map((f) => f.page)).toEqual([0, 1, 2]);
    expect(fields.every((f) => f.value === 'R-7')).toBe(true);
    // in the top margin (50px = 37.5pt), centred: the same place on every page
    for (const f of fields) {
      expect(792 - f.rect[3]!).toBeLessThan(37.5);
      // 120px content + 2×2px padding + 2×1px border
      expect(f.rect[2]! - f.rect[0]!).toBeCloseTo(126 * 0.75, 0);
      expect(f.rect).toEqual(fields[0]!.rect);
    }
    const q = await qpdfFields(pdf);
    expect(q.filter((f) => f.fullname === 'ref')).toHaveLength(3);
    // a check box and a radio group repeated on every page: one field each, a widget per page (per option)
    expect(q.filter((f) => f.fullname === 'seen').map((f) => [f.pageposfrom1, f.value])).toEqual(
      [1, 2, 3].map((p) => [p, '/Yes']),
    );
    const radios = q.filter((f) => f.fullname === 'r');
    expect(radios).toHaveLength(6);
    expect(radios.every((f) => f.value === '/b')).toBe(true);
    // the same value on every page turns on and off together (RadiosInUnison, bit 26)
    expect(radios[0]!.fieldflags & (1 << 25)).toBe(1 << 25);
    const ws = (await widgets(pdf)).filter((w) => w.fieldName === 'r' || w.fieldName === 'seen');
    expect(
      ws.filter((w) => w.fieldName === 'r').map((w) => [w.page, w.buttonValue, w.fieldValue === w.buttonValue]),
    ).toEqual(
      [0, 1, 2].flatMap((p) => [
        [p, 'a', false],
        [p, 'b', true],
      ]),
    );
    // What each page shows (its /AS): b's dot and the check mark on every page, a empty.
    const rendered = await renderPages(pdf, 2);
    const inkAt = (w: (typeof ws)[number]): boolean => {
      const [x1, y1, x2, y2] = w.rect as number[];
      const page = rendered[w.page]!;
      const i = (Math.round((792 - (y1! + y2!) / 2) * 2) * page.width + Math.round(((x1! + x2!) / 2) * 2)) * 4;
      return page.rgba[i]! < 128;
    };
    expect(ws.map((w) => [w.page, w.fieldName, w.buttonValue ?? w.exportValue, inkAt(w)])).toEqual(
      [0, 1, 2].flatMap((p) => [
        [p, 'seen', 'Yes', true],
        [p, 'r', 'a', false],
        [p, 'r', 'b', true],
      ]),
    );
    // The label is still painted by Chromium; the input's value is only in the widget.
    const pages = await readText(pdf);
    for (const p of pages) {
      const s = p.items.map((i) => i.str).join(' ');
      expect(s).toContain('Ref:');
      expect(s).not.toContain('R-7');
    }
  });
});
