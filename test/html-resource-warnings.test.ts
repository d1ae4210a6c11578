import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import type { ResourceProblem, ResourceResolver } from '../src/resources/index.js';
import { buildApp, RESOURCE_WARNING_HEADER } from '../src/server/index.js';
import { pageText } from './helpers/pdf.js';

const FONT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/html/weasyprint-invoice/pacifico.ttf');
const A = 'https://assets.example';

let png: Uint8Array;
let ttf: Uint8Array;
const calls: string[] = [];

/** A resolver that checks addresses itself (as httpResolver does), serving a few known URLs. */
const resolver: ResourceResolver = Object.assign(
  async (url: string) => {
    calls.push(url);
    if (url === `${A}/ok.png`) return { body: png, contentType: 'image/png' };
    if (url === `${A}/ok.css`)
      return { body: new TextEncoder().encode('.ok { color: navy; }'), contentType: 'text/css' };
    // A font is used only as font/ttf (or application/x-font-ttf), and only a TTF file: a real font under another
    // label is ignored, an image called font/ttf too.
    if (url === `${A}/real.ttf`) return { body: ttf, contentType: 'font/ttf' };
    if (url === `${A}/real.woff2`) return { body: ttf, contentType: 'font/woff2' };
    if (url === `${A}/font.ttf`) return { body: png, contentType: 'font/ttf' };
    if (url === `${A}/refused.png`) return null;
    throw new Error('status 404');
  },
  { guardsAddresses: true },
);

const html = `<!doctype html><html><head>
  <link rel="stylesheet" href="${A}/ok.css"><link rel="stylesheet" href="${A}/missing.css">
  <style>@font-face { font-family: Wrong; src: url(${A}/font.ttf); } .w { font-family: Wrong; }
  @font-face { font-family: Real; src: url(${A}/real.ttf); } .r { font-family: Real; }
  @font-face { font-family: Mislabelled; src: url(${A}/real.woff2); } .m { font-family: Mislabelled; }</style>
  </head><body><p class="ok w">visible text</p><p class="r">real font</p><p class="m">mislabelled font</p>
  <img src="${A}/ok.png"><img src="${A}/missing.png"><img src="${A}/missing.png"><img src="${A}/refused.png">
  <img src="http://127.0.0.1:9/x.png"></body></html>`;

let engine: Engine;
beforeAll(async () => {
  png = await sharp({ create: { width: 10, height: 10, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  ttf = new Uint8Array(await readFile(FONT));
  engine = createEngine({ resolver });
});
afterAll(() => engine.close());

const sorted = (ps: ResourceProblem[]) => ps.map((p) => `${p.kind} ${p.url} ${p.reason}`).sort();

describe('HTML mode: resources that do not load are reported like fill and Markdown', () => {
  it('the library tells onResourceProblem about each stylesheet, image and font once, with the reason', async () => {
    const problems: ResourceProblem[] = [];
    const pdf = await engine.generate({ type: 'html', data: { html } }, { onResourceProblem: (p) => problems.push(p) });
    expect((await pageText(pdf)).join('\n')).toContain('visible text');
    expect(sorted(problems)).toEqual(
      [
        `stylesheet ${A}/missing.css status 404`,
        `image ${A}/missing.png status 404`,
        `image ${A}/refused.png refused by the resolver`,
        'image http://127.0.0.1:9/x.png loopback addresses never load',
        `webfont ${A}/font.ttf not a TrueType or OpenType font file (WOFF, WOFF2 and collections are not used)`,
        `webfont ${A}/real.woff2 content type font/woff2 is not font/ttf or application/x-font-ttf`,
      ].sort(),
    );
    // The loaded ones are not reported, and loopback never reached the resolver.
    expect(calls).toContain(`${A}/ok.png`);
    expect(calls).toContain(`${A}/real.ttf`);
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/Pacifico/);
    expect(calls.some((u) => u.includes('127.0.0.1'))).toBe(false);
  }, 60_000);

  it('without a resolver every http(s) resource is reported as fetching off', async () => {
    const offline = createEngine();
    try {
      const problems: ResourceProblem[] = [];
      await offline.generate(
        { type: 'html', data: { html: `<img src="${A}/ok.png">`, css: `@import url(${A}/ok.css);` } },
        { onResourceProblem: (p) => problems.push(p) },
      );
      expect(sorted(problems)).toEqual([
        `image ${A}/ok.png remote fetching is off`,
        `stylesheet ${A}/ok.css remote fetching is off`,
      ]);
    } finally {
      await offline.close();
    }
  }, 60_000);

  it('the server sends the warning header naming data.html / data.css; strict makes it a 400 on the property', async () => {
    const body = {
      type: 'html',
      data: { html: `<p>x</p><img src="${A}/missing.png">`, css: `@import url(${A}/missing.css);` },
    };
    const app = await buildApp({ engine, logger: false });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/v1/generate-pdf', payload: body });
      expect(res.statusCode).toBe(200);
      const header = res.headers[RESOURCE_WARNING_HEADER.toLowerCase()];
      const lines = (Array.isArray(header) ? header : String(header).split(', ')).sort();
      expect(lines).toEqual([
        'data.css: stylesheet not loaded (status 404)',
        'data.html: image not loaded (status 404)',
      ]);
      const fine = await app.inject({
        method: 'POST',
        url: '/api/v1/generate-pdf',
        payload: { type: 'html', data: { html: `<img src="${A}/ok.png">` } },
      });
      expect(fine.headers[RESOURCE_WARNING_HEADER.toLowerCase()]).toBeUndefined();
    } finally {
      await app.close();
    }
    const strictEngine = createEngine({ resolver });
    const strict = await buildApp({ engine: strictEngine, closeEngine: true, strictResources: true, logger: false });
    try {
      const res = await strict.inject({ method: 'POST', url: '/api/v1/generate-pdf', payload: body });
      expect(res.statusCode).toBe(400);
      const fields = (res.json() as { fields: Array<{ property: string; message: string }> }).fields;
      expect(fields.map((f) => `${f.property}: ${f.message}`).sort()).toEqual([
        'data.css: The stylesheet could not be loaded: status 404',
        'data.html: The image could not be loaded: status 404',
      ]);
    } finally {
      await strict.close();
    }
  }, 90_000);
});
