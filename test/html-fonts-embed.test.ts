/**
 * Author web fonts embed as real fonts. Skia (Chromium's PDF backend) writes a Type 3 font (a path
 * per glyph) for CFF-outline faces and for synthetic bold. castpress converts CFF web fonts to TrueType
 * before Chromium gets them (src/html/web-fonts/convert.ts) and switches bold synthesis off by default; poppler's
 * pdffonts is the independent reader. Without them the invoice has 1 Type 3 font (its bold h1 in Pacifico,
 * which has no bold face), the ticket 9 (Barlow Condensed, CFF, and a bold ✈ from DejaVu Sans Book).
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCffOutlines, WebFontCache } from '../src/html/web-fonts/convert.js';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import type { ResourceProblem } from '../src/resources/index.js';
import { FIXTURE_ORIGIN, HTML_FIXTURES, WEASYPRINT_PAGE, fixtureResolver } from './helpers/html-fixtures.js';
import { pdffonts, type PdffontsRow } from './helpers/pdf.js';

const run = promisify(execFile);
const BARLOW = path.join(HTML_FIXTURES, 'weasyprint-ticket/barlowcondensed-regular.otf');

let pool: BrowserPool;
beforeAll(() => {
  // A cold conversion costs ~0.5 s of CPU per face: generous deadlines for a loaded machine.
  pool = new BrowserPool({ resolver: fixtureResolver, jobTimeoutMs: 120_000 });
});
afterAll(async () => {
  await pool.close();
});

async function renderSample(name: string, on = pool): Promise<Uint8Array> {
  const doc = `weasyprint-${name}/${name}.html`;
  const html = await readFile(path.join(HTML_FIXTURES, doc), 'utf8');
  return renderHtml(on, { html, baseUrl: FIXTURE_ORIGIN + doc, page: WEASYPRINT_PAGE });
}

const type3 = (fonts: PdffontsRow[]) => fonts.filter((f) => f.type === 'Type 3');
const names = (fonts: PdffontsRow[]) => fonts.map((f) => `${f.name.replace(/^[A-Z]{6}\+/, '')} ${f.type}`);

describe('pdffonts: no Type 3 font in the WeasyPrint samples (their fonts all given as files)', () => {
  it.each(['invoice', 'letter', 'report', 'ticket'])('%s', async (name) => {
    const fonts = await pdffonts(await renderSample(name));
    expect(type3(fonts), JSON.stringify(fonts)).toEqual([]);
    for (const f of fonts) expect(f, f.name).toMatchObject({ emb: true, sub: true, uni: true });
    if (name === 'ticket') {
      // the three CFF faces, converted, embed as TrueType subsets under their own PostScript names
      expect(names(fonts)).toEqual(
        expect.arrayContaining([
          'BarlowCondensed-Regular CID TrueType',
          'BarlowCondensed-Light CID TrueType',
          'BarlowCondensed-Bold CID TrueType',
        ]),
      );
    }
  });

  it('converts each CFF font once per cache: a second render of the ticket converts nothing', async () => {
    const cache = new WebFontCache();
    const own = new BrowserPool({ resolver: fixtureResolver, webFonts: cache, maxPages: 1, jobTimeoutMs: 120_000 });
    try {
      await renderSample('ticket', own);
      expect(cache.conversions).toBe(3); // regular, light, bold; the TrueType barcode font is not touched
      const held = cache.bytes;
      expect(held).toBeGreaterThan(0);
      expect(type3(await pdffonts(await renderSample('ticket', own)))).toEqual([]);
      expect([cache.conversions, cache.bytes]).toEqual([3, held]);
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe('synthetic bold (Type 3 in Chromium) is off by default', () => {
  const doc = (extra: string) =>
    `<style>@font-face { font-family: Pacifico; src: url(${FIXTURE_ORIGIN}weasyprint-invoice/pacifico.ttf) }
      h1 { font-family: Pacifico } ${extra}</style><h1>Invoice</h1>`;
  it('a bold heading in a family without a bold face uses the regular face; font-synthesis-weight: auto brings fake bold (and Type 3) back', async () => {
    const plain = await pdffonts(await renderHtml(pool, { html: doc('') }));
    expect(names(plain)).toEqual(['Pacifico-Regular CID TrueType']);
    const fake = await pdffonts(await renderHtml(pool, { html: doc('h1 { font-synthesis-weight: auto }') }));
    expect(type3(fake)).toHaveLength(1);
  });
});

describe('WebFontCache: CFF fonts to TrueType', () => {
  it('tells CFF flavours by their first bytes: OpenType/CFF and WOFF/WOFF2 wrapping it, not TrueType', async () => {
    const otf = new Uint8Array(await readFile(BARLOW));
    expect(hasCffOutlines(otf)).toBe(true);
    const woff = (flavor: string) => new Uint8Array(Buffer.from(`wOFF${flavor}....`, 'latin1'));
    expect(hasCffOutlines(woff('OTTO'))).toBe(true);
    expect(hasCffOutlines(woff('\x00\x01\x00\x00'))).toBe(false);
    const ttf = new Uint8Array(await readFile(path.join(HTML_FIXTURES, 'weasyprint-invoice/pacifico.ttf')));
    expect(hasCffOutlines(ttf)).toBe(false);
  });

  it('is deterministic (same input, same bytes, in two caches), glyf outlines, same glyph count; TrueType passes as it is', async () => {
    const otf = new Uint8Array(await readFile(BARLOW));
    const [a, b] = await Promise.all([new WebFontCache().prepare(otf), new WebFontCache().prepare(otf)]);
    expect(a.converted).toBe(true);
    expect(Buffer.from(a.body).equals(Buffer.from(b.body))).toBe(true);
    expect(Buffer.from(a.body.subarray(0, 4)).toString('hex')).toBe('00010000');
    const tables = (body: Uint8Array) => {
      const view = Buffer.from(body);
      return Array.from({ length: view.readUInt16BE(4) }, (_, i) => view.toString('latin1', 12 + 16 * i, 16 + 16 * i));
    };
    expect(tables(a.body)).toEqual(expect.arrayContaining(['glyf', 'loca', 'cmap', 'hmtx']));
    expect(tables(a.body)).not.toContain('CFF ');
    const numGlyphs = (body: Uint8Array) => {
      const view = Buffer.from(body);
      const i = tables(body).indexOf('maxp');
      return view.readUInt16BE(view.readUInt32BE(12 + 16 * i + 8) + 4);
    };
    expect(numGlyphs(a.body)).toBe(numGlyphs(otf));

    const ttf = new Uint8Array(await readFile(path.join(HTML_FIXTURES, 'weasyprint-invoice/pacifico.ttf')));
    const cache = new WebFontCache();
    const same = await cache.prepare(ttf);
    expect(same.body).toBe(ttf);
    expect([same.converted, cache.conversions]).toEqual([false, 0]);
  });

  it('converts a WOFF of a CFF font to a plain TrueType font', async () => {
    const { stdout } = await run(
      '/usr/bin/python3',
      [
        '-c',
        'import sys, io\nfrom fontTools.ttLib import TTFont\nf = TTFont(sys.argv[1])\nf.flavor = "woff"\nb = io.BytesIO()\nf.save(b)\nsys.stdout.buffer.write(b.getvalue())',
        BARLOW,
      ],
      { encoding: 'buffer', maxBuffer: 10_000_000 },
    );
    const woff = new Uint8Array(stdout);
    expect(Buffer.from(woff.subarray(0, 8)).toString('latin1')).toBe('wOFFOTTO');
    const out = await new WebFontCache().prepare(woff);
    expect(out.converted).toBe(true);
    expect(Buffer.from(out.body.subarray(0, 4)).toString('hex')).toBe('00010000');
  });

  it('shares one conversion between concurrent requests, keeps within its byte bound, and a broken font is a warning', async () => {
    const otf = new Uint8Array(await readFile(BARLOW));
    const cache = new WebFontCache();
    const [x, y] = await Promise.all([cache.prepare(otf), cache.prepare(otf)]);
    expect(x.body).toBe(y.body);
    expect(cache.conversions).toBe(1);
    expect(cache.bytes).toBe(x.body.byteLength);

    // a bound smaller than two conversions keeps only the most recent one
    const small = new WebFontCache({ maxBytes: x.body.byteLength + 1000 });
    const light = new Uint8Array(
      await readFile(path.join(HTML_FIXTURES, 'weasyprint-ticket/barlowcondensed-light.otf')),
    );
    await small.prepare(otf);
    const second = await small.prepare(light);
    expect(small.bytes).toBe(second.body.byteLength);
    await small.prepare(light); // still held
    expect(small.conversions).toBe(2);
    await small.prepare(otf); // evicted: converted again
    expect(small.conversions).toBe(3);

    const broken = new Uint8Array(Buffer.from('OTTO\x00\x09garbage that is no font at all', 'latin1'));
    const out = await cache.prepare(broken);
    expect(out.converted).toBe(false);
    expect(out.body).toBe(broken);
    expect(out.problem).toMatch(/^CFF outlines not converted to TrueType \(.+\): embedded as Type 3$/);
    // kept: not converted again
    await cache.prepare(broken);
    expect(cache.conversions).toBe(2);

    const noPython = await new WebFontCache({ python: '/nonexistent/python3' }).prepare(otf);
    expect([noPython.converted, noPython.body]).toEqual([false, otf]);
    expect(noPython.problem).toContain('/nonexistent/python3');
  }, 120_000);

  it('runs at most maxConcurrent converters at once (a document may name hundreds of fonts)', async () => {
    // A stand-in converter: marks itself running, notes how many are, waits for the test's signal, fails.
    const dir = await mkdtemp(path.join(tmpdir(), 'castpress-fontconv-'));
    try {
      const fake = path.join(dir, 'python');
      await writeFile(
        fake,
        `#!/bin/sh\ntouch "${dir}/run.$$"\nls "${dir}" | grep -c '^run\\.' >> "${dir}/log"\n` +
          `while [ ! -f "${dir}/go" ]; do sleep 0.02; done\nrm "${dir}/run.$$"\nexit 1\n`,
      );
      await chmod(fake, 0o755);
      const cache = new WebFontCache({ python: fake, maxConcurrent: 2 });
      const fonts = Array.from({ length: 5 }, (_, i) => new Uint8Array(Buffer.from(`OTTO font ${i}`, 'latin1')));
      const done = Promise.all(fonts.map((f) => cache.prepare(f)));
      const log = async () =>
        (await readFile(path.join(dir, 'log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
      while ((await log()).length < 2) await new Promise((r) => setTimeout(r, 20));
      // two run; the others wait for a slot (their processes are not started)
      expect((await readdir(dir)).filter((f) => f.startsWith('run.'))).toHaveLength(2);
      await writeFile(path.join(dir, 'go'), '');
      const results = await done;
      expect(results.every((r) => r.problem !== undefined)).toBe(true);
      const counts = (await log()).map(Number);
      expect(counts).toHaveLength(5);
      expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a font that fails to convert still renders and is reported to the job as a resource problem', async () => {
    const problems: ResourceProblem[] = [];
    const own = new BrowserPool({
      resolver: fixtureResolver,
      webFonts: new WebFontCache({ python: '/nonexistent/python3' }),
      maxPages: 1,
    });
    try {
      const pdf = await renderHtml(own, {
        html: `<style>@font-face { font-family: B; src: url(${FIXTURE_ORIGIN}weasyprint-ticket/barlowcondensed-regular.otf) }
          p { font-family: B }</style><p>Barlow</p>`,
        onResourceProblem: (p) => problems.push(p),
      });
      expect(problems).toEqual([
        expect.objectContaining({
          url: `${FIXTURE_ORIGIN}weasyprint-ticket/barlowcondensed-regular.otf`,
          kind: 'webfont',
          reason: expect.stringMatching(/^CFF outlines not converted/),
        }),
      ]);
      // the original font was used, as Type 3 (Skia may split one face into several)
      expect(type3(await pdffonts(pdf)).length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  }, 60_000);
});
