/**
 * CSS `device-cmyk()` comes out as DeviceCMYK in the PDF (`k`/`K`), in the body, in Chromium's own margin
 * boxes and in margin boxes castpress draws on the overlay; other colours stay as they were. Read back
 * with MuPDF's `mutool trace` (its own interpreter: the colour space and components of every fill and stroke).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { qpdfCheck, readText, withTempFile } from './helpers/pdf.js';
import { checkStructure } from './helpers/tagged.js';
import { expectLinearTime } from './helpers/scaling.js';
import { rewriteCmyk } from '../src/html/css/cmyk.js';

const run = promisify(execFile);

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

interface Paint {
  op: string;
  space: string;
  color: number[];
}

/** Every fill and stroke MuPDF draws, with its colour space and components (form XObjects included). */
async function paints(pdf: Uint8Array): Promise<Paint[]> {
  const { stdout } = await withTempFile(pdf, (file) => run('mutool', ['trace', file], { maxBuffer: 64 << 20 }));
  return [...String(stdout).matchAll(/<(fill_\w+|stroke_\w+)\b[^>]*?colorspace="([^"]+)" color="([^"]*)"/g)].map(
    (m) => ({ op: m[1]!, space: m[2]!, color: m[3]!.split(' ').map(Number) }),
  );
}

const close = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]!) < 1e-3);
const has = (list: Paint[], op: string, space: string, color: number[]) =>
  list.some((p) => p.op === op && p.space === space && close(p.color, color));

describe('device-cmyk() as DeviceCMYK', () => {
  it('keeps text, background and border colours in CMYK; RGB colours (the same as a naive conversion too) stay RGB', async () => {
    // device-cmyk(0 81% 81% 30%) converts naively to rgb(179 34 34): the paragraph spelling that RGB stays RGB.
    const html = `<html lang="en"><title>C</title><style>
        h1 { color: device-cmyk(0 81% 81% 30%) }
        .box { background: device-cmyk(100% 0% 0% 0%); border: 3px solid device-cmyk(0 0 0 1); height: 20px }
        .same { color: rgb(179 34 34) }</style>
      <h1>Brand red</h1><div class="box"></div><p class="same">RGB red</p><p>Default text</p>
      <p style="color: device-cmyk(0, 1, 1, 0)">Inline process red</p>`;
    const pdf = await renderHtml(pool, { html });
    await qpdfCheck(pdf);
    const list = await paints(pdf);
    expect(has(list, 'fill_text', 'DeviceCMYK', [0, 0.81, 0.81, 0.3])).toBe(true);
    expect(has(list, 'fill_path', 'DeviceCMYK', [1, 0, 0, 0])).toBe(true);
    expect(has(list, 'stroke_path', 'DeviceCMYK', [0, 0, 0, 1])).toBe(true);
    expect(has(list, 'fill_text', 'DeviceCMYK', [0, 1, 1, 0])).toBe(true);
    expect(
      has(
        list,
        'fill_text',
        'DeviceRGB',
        [179 / 255, 34 / 255, 34 / 255].map((v) => Math.round(v * 1e4) / 1e4),
      ),
    ).toBe(true);
    // Four CMYK paints (heading, box fill and border, inline paragraph); nothing else turned CMYK.
    expect(list.filter((p) => p.space === 'DeviceCMYK')).toHaveLength(4);
    const [page] = await readText(pdf);
    expect(page!.items.map((i) => i.str).join(' ')).toMatch(/Brand red.*RGB red.*Default text.*Inline process red/);
    expect((await checkStructure(pdf)).problems).toEqual([]);
  });

  it("also in Chromium's own margin boxes and in the ones castpress draws (running elements on the overlay)", async () => {
    const native = await renderHtml(pool, {
      html: '<p>Body</p>',
      css: '@page { @top-center { content: "Native"; color: device-cmyk(0.2 0.4 0.6 0.1) } }',
    });
    expect(has(await paints(native), 'fill_text', 'DeviceCMYK', [0.2, 0.4, 0.6, 0.1])).toBe(true);
    const overlay = await renderHtml(pool, {
      html: '<div class="h">Running</div><p>Body</p><p style="break-before: page">Two</p>',
      css: '.h { position: running(h); color: device-cmyk(0.5 0 0.5 0.2) } @page { @top-center { content: element(h) } }',
    });
    const list = await paints(overlay);
    // The running header on both pages, drawn from the overlay's form XObjects.
    expect(
      list.filter((p) => p.op === 'fill_text' && p.space === 'DeviceCMYK' && close(p.color, [0.5, 0, 0.5, 0.2])),
    ).toHaveLength(2);
  });

  it('leaves a document without device-cmyk() in RGB', async () => {
    const list = await paints(await renderHtml(pool, { html: '<p style="color: #b22222">x</p>' }));
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((p) => p.space === 'DeviceCMYK')).toBe(false);
  });

  it('rewrites the CSS in time linear in the document (nested, unclosed and blank-filled calls)', async () => {
    const inputs = [
      (n: number) => '<style>p{color:' + 'device-cmyk('.repeat(n) + ')'.repeat(n) + '}</style>',
      (n: number) => '<style>p{color:' + 'device-cmyk('.repeat(n) + '}</style>',
      (n: number) => '<style>p{color:device-cmyk(1' + ' '.repeat(n) + 'x)}</style>' + 'rgb(1'.repeat(n),
      (n: number) => '<p style="color: device-cmyk(0 0 0 1)">' + '#abc rgb(1,2,3) '.repeat(n) + '</p>',
    ];
    const out = await expectLinearTime(
      'device-cmyk rewrite',
      async (n) => inputs.map((html) => rewriteCmyk(html(n)).html),
      1_250,
      10_000,
    );
    expect(out[3]).toMatch(/color: rgb\(\d+ \d+ \d+\)/);
  });
});
