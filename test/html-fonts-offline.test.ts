/**
 * HTML mode's fonts without the network and by the spec's rule:
 *  - a family of the offline font catalogue named in CSS (`Roboto Slab`) is drawn with the catalogue's
 *    exact Debian file (served to Chromium by the route handler), with no resolver at all;
 *  - an @font-face file is used only when its response says font/ttf or application/x-font-ttf and its
 *    body is a TrueType/OpenType file; otherwise it is ignored (the text falls back) and the job is told why;
 *    `data:` fonts, which are no response, keep working.
 * The fonts come from a real HTTP server on loopback, reached through httpResolver with that address
 * allow-listed (the document names another host: HTML mode never loads loopback URLs itself).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { httpResolver, type ResourceProblem, type ResourceResolver } from '../src/resources/index.js';
import { pdffonts, popplerText } from './helpers/pdf.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TTF = path.join(here, 'fixtures/html/weasyprint-invoice/pacifico.ttf');
const WOFF2 = path.join(here, '..', 'node_modules/@fontsource/roboto-slab/files/roboto-slab-latin-400-normal.woff2');
const HOST = 'https://fonts.example';

/** path → [content type, file] */
const ROUTES: Record<string, [string, string]> = {
  '/ttf-as-woff2': ['font/woff2', TTF],
  '/ttf-as-octet-stream': ['application/octet-stream', TTF],
  '/ttf-as-ttf': ['font/ttf', TTF],
  '/ttf-as-x-font-ttf': ['application/x-font-ttf; charset=binary', TTF],
  '/woff2-as-ttf': ['font/ttf', WOFF2],
};

let server: Server;
let pool: BrowserPool;
beforeAll(async () => {
  server = createServer((req, res) => {
    const route = ROUTES[req.url ?? ''];
    if (!route) return void res.writeHead(404).end();
    void readFile(route[1]).then((body) => res.writeHead(200, { 'content-type': route[0] }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const loopback = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = httpResolver({ allowHosts: [loopback] });
  const resolver: ResourceResolver = Object.assign(
    (url: string, kind: Parameters<ResourceResolver>[1]) => http(url.replace(HOST, `http://${loopback}`), kind),
    { guardsAddresses: true as const },
  );
  pool = new BrowserPool({ resolver, jobTimeoutMs: 120_000 });
});
afterAll(async () => {
  await pool.close();
  await new Promise((r) => server.close(r));
});

const baseNames = async (pdf: Uint8Array) =>
  (await pdffonts(pdf)).map((r) => `${r.name.replace(/^[A-Z]{6}\+/, '')} ${r.type}`);

describe('HTML mode: the offline catalogue by family name', () => {
  it('"Roboto Slab" in CSS, with no resolver (no network), embeds Debian\'s Roboto Slab as a real font, regular and bold', async () => {
    const offline = new BrowserPool({ jobTimeoutMs: 120_000 });
    try {
      const pdf = await renderHtml(offline, {
        html: `<p style="font-family: 'Roboto Slab'">Slab regular</p><p style="font-family: 'Roboto Slab'; font-weight: bold">Slab bold</p>
          <p style="font-family: 'Roboto Slabb', 'Noto Sans'">Unknown family</p>`,
      });
      const fonts = await baseNames(pdf);
      // The catalogue's OpenType/CFF file, converted to TrueType on the way in: CID TrueType, never Type 3.
      expect(fonts).toContain('RobotoSlab-Regular CID TrueType');
      expect(fonts).toContain('RobotoSlab-Bold CID TrueType');
      expect(fonts.filter((f) => f.endsWith('Type 3'))).toEqual([]);
      // A family not in the catalogue falls back (HTML mode ignores fontFamily errors: CSS decides).
      expect(
        fonts.some((f) => f.startsWith('NotoSans-Regular')),
        fonts.join(', '),
      ).toBe(true);
      expect((await popplerText(pdf))[0]).toContain('Slab bold');
    } finally {
      await offline.close();
    }
  }, 120_000);
});

describe('HTML mode: @font-face responses (spec: font/ttf or application/x-font-ttf, TTF files only)', () => {
  const render = async (src: string) => {
    const problems: ResourceProblem[] = [];
    const pdf = await renderHtml(pool, {
      html: `<style>@font-face { font-family: Remote; src: url(${HOST}${src}); } p { font-family: Remote, 'Noto Sans'; }</style><p>Remote font ${src}</p>`,
      onResourceProblem: (p) => problems.push(p),
    });
    return {
      fonts: await baseNames(pdf),
      problems: problems.map((p) => `${p.kind} ${p.url.replace(HOST, '')} ${p.reason}`),
    };
  };

  it('a TTF sent as font/woff2 (or octet-stream) is ignored: the text falls back and the job is told why', async () => {
    for (const [src, type] of [
      ['/ttf-as-woff2', 'font/woff2'],
      ['/ttf-as-octet-stream', 'application/octet-stream'],
    ]) {
      const { fonts, problems } = await render(src!);
      expect(
        fonts.some((f) => f.startsWith('Pacifico')),
        src,
      ).toBe(false);
      expect(
        fonts.some((f) => f.startsWith('NotoSans-Regular')),
        src,
      ).toBe(true);
      expect(problems).toEqual([`webfont ${src} content type ${type} is not font/ttf or application/x-font-ttf`]);
    }
  }, 120_000);

  it('a TTF sent as font/ttf or application/x-font-ttf is used; a WOFF2 sent as font/ttf is not a TTF file and is ignored', async () => {
    for (const src of ['/ttf-as-ttf', '/ttf-as-x-font-ttf']) {
      const { fonts, problems } = await render(src);
      expect(
        fonts.filter((f) => f.startsWith('Pacifico')),
        src,
      ).toEqual(['Pacifico-Regular CID TrueType']);
      expect(problems, src).toEqual([]);
    }
    // data: fonts are no response: Chromium decodes them itself, whatever media type they state.
    const inline = `data:font/woff2;base64,${(await readFile(TTF)).toString('base64')}`;
    const fromData = await renderHtml(pool, {
      html: `<style>@font-face { font-family: Inline; src: url(${inline}); }</style><p style="font-family: Inline">Inline font</p>`,
    });
    expect((await baseNames(fromData)).filter((f) => f.startsWith('Pacifico'))).toEqual([
      'Pacifico-Regular CID TrueType',
    ]);
    const woff2 = await render('/woff2-as-ttf');
    expect(woff2.fonts.some((f) => f.startsWith('RobotoSlab'))).toBe(false);
    expect(woff2.problems).toEqual([
      'webfont /woff2-as-ttf not a TrueType or OpenType font file (WOFF, WOFF2 and collections are not used)',
    ]);
  }, 120_000);
});
