import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { RenderError } from '../src/errors/index.js';
import type { ResourceResolver } from '../src/resources/index.js';
import { pageText, readText } from './helpers/pdf.js';
import { heldDeadlines } from './helpers/outcome.js';

const FONT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/html/weasyprint-invoice/pacifico.ttf');

let server: Server;
let port = 0;
const hits: string[] = [];
const resolverCalls: string[] = [];
let fontType = 'font/ttf';

/** Would serve anything, so only our guard can keep loopback and file: out. */
const resolver: ResourceResolver = async (url, kind) => {
  resolverCalls.push(url);
  // Never answered: a job that needs it ends only at its deadline (the pool robustness case).
  if (url.startsWith('https://slow.test/')) return new Promise(() => undefined);
  if (url.startsWith('https://assets.test/font.ttf'))
    return { body: new Uint8Array(await readFile(FONT)), contentType: fontType };
  if (url.startsWith('https://assets.test/style.css'))
    return { body: new TextEncoder().encode('.styled { font-size: 30px; }'), contentType: 'text/css' };
  if (url.startsWith('https://assets.test/imported.css'))
    return { body: new TextEncoder().encode('.imported { font-size: 40px; }'), contentType: 'text/css' };
  return { body: new TextEncoder().encode(`served ${kind}`), contentType: 'text/plain' };
};

let pool: BrowserPool;
/** The file's pool ends a job at its deadline only when the test passes it (the pool robustness case). */
const deadlines = heldDeadlines();
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('body{color:red}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  // Real work on a busy machine is never a 504: no deadline passes unless the deadline case passes it.
  pool = new BrowserPool({ resolver, jobTimeoutMs: 60_000, deadlineTimer: deadlines.timer });
});
afterAll(async () => {
  await pool.close();
  await new Promise((r) => server.close(r));
});

describe('offline and safe', () => {
  it('never reaches loopback or file: from content: images, links, imports, fonts, iframes, scripts', async () => {
    const L = `http://127.0.0.1:${port}`;
    const html = `<!doctype html><html><head>
      <link rel="stylesheet" href="${L}/link.css">
      <style>@import url("${L}/import.css"); @import "http://localhost:${port}/import2.css";
        @font-face { font-family: Evil; src: url(${L}/font.ttf); }
        body { background: url(${L}/bg.png); font-family: Evil; }</style>
      </head><body>
      <p>visible text</p>
      <img src="${L}/img.png"><img src="http://[::1]:${port}/v6.png"><img src="http://2130706433:${port}/decimal.png">
      <img src="file:///etc/passwd"><iframe src="${L}/frame.html"></iframe><iframe src="file:///etc/passwd"></iframe>
      <object data="${L}/object"></object><embed src="${L}/embed"><video poster="${L}/poster.png"></video>
      <script>fetch("${L}/script-fetch"); document.write("SCRIPT RAN");</script>
      </body></html>`;
    const pdf = await renderHtml(pool, { html });
    const text = (await pageText(pdf)).join('\n');
    expect(text).toContain('visible text');
    expect(text).not.toContain('root:');
    expect(text).not.toContain('SCRIPT RAN');
    expect(hits).toEqual([]);
    expect(resolverCalls.filter((u) => !u.startsWith('https://'))).toEqual([]);
  });

  it('loads remote stylesheets, @import and TTF @font-face only through the resolver', async () => {
    fontType = 'font/ttf';
    const html = `<link rel="stylesheet" href="https://assets.test/style.css">
      <style>@import url(https://assets.test/imported.css); @font-face { font-family: Remote; src: url(https://assets.test/font.ttf); }</style>
      <p class="styled" style="margin:0">Styled</p><p class="imported">Imported</p><p style="font-family: Remote">Remote font</p>`;
    const pdf = await renderHtml(pool, { html });
    const [page] = await readText(pdf);
    expect(page!.items.find((i) => i.str === 'Styled')!.height).toBeCloseTo(22.5, 0);
    expect(page!.items.find((i) => i.str === 'Imported')!.height).toBeCloseTo(30, 0);
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/Pacifico/);
  });

  it('a font is used only as font/ttf or application/x-font-ttf (spec): under a generic type it is not; something else under font/ttf is not either', async () => {
    fontType = 'application/octet-stream';
    const html = `<style>@font-face { font-family: Remote; src: url(https://assets.test/font.ttf?generic); }</style><p style="font-family: Remote">Remote font</p>`;
    const pdf = await renderHtml(pool, { html });
    expect(Buffer.from(pdf).toString('latin1')).not.toMatch(/Pacifico/);
    expect((await pageText(pdf))[0]).toContain('Remote font');
    fontType = 'application/x-font-ttf';
    const typed = await renderHtml(pool, { html: html.replace('?generic', '?x-font-ttf') });
    expect(Buffer.from(typed).toString('latin1')).toMatch(/Pacifico/);
    fontType = 'font/ttf';
    const fake = `<style>@font-face { font-family: Fake; src: url(https://assets.test/imported.css?as-font); }</style><p style="font-family: Fake">Fake font</p>`;
    const plain = await renderHtml(pool, { html: fake });
    expect(Buffer.from(plain).toString('latin1')).not.toMatch(/Pacifico/);
    expect((await pageText(plain))[0]).toContain('Fake font');
  });

  it('loads nothing remote without a resolver (data: URLs still work)', async () => {
    const local = new BrowserPool({ onRequest: (url, verdict) => seen.push(`${verdict} ${url}`) });
    const seen: string[] = [];
    try {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      const pdf = await renderHtml(local, {
        html: `<img src="https://assets.test/x.png"><img src="data:image/png;base64,${png}" width="50" height="50"><p>ok</p>`,
      });
      expect((await pageText(pdf))[0]).toContain('ok');
      expect(seen).toEqual(['refused https://assets.test/x.png']);
    } finally {
      await local.close();
    }
  });

  it('runs document scripts only when the caller enables them', async () => {
    const scripted = new BrowserPool({ javaScriptEnabled: true });
    try {
      const html = `<p id="t">before</p><script>document.getElementById('t').textContent = 'after script';</script>`;
      expect((await pageText(await renderHtml(scripted, { html })))[0]).toContain('after script');
      expect((await pageText(await renderHtml(pool, { html })))[0]).toContain('before');
    } finally {
      await scripted.close();
    }
  });
});

describe('pool robustness', () => {
  it('fails with 504 when a job passes its deadline, and the pool keeps working', { timeout: 180_000 }, async () => {
    // The file's pool (its resolver never answers https://slow.test/): the image never arrives, so the job
    // ends only at its deadline, which the test passes once the job is waiting for the image.
    expect((await pageText(await renderHtml(pool, { html: '<p>warm</p>' })))[0]).toContain('warm');
    let ended = false;
    const failed = renderHtml(pool, { html: '<img src="https://slow.test/never.png"><p>x</p>' }).then(
      () => 'a PDF',
      (e: unknown) => e,
    );
    void failed.finally(() => (ended = true));
    await expect.poll(() => resolverCalls.includes('https://slow.test/never.png'), { timeout: 60_000 }).toBe(true);
    expect([ended, deadlines.pending()]).toEqual([false, 1]);
    deadlines.pass();
    const err = await failed;
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).status).toBe(504);
    expect(pool.openPages()).toBe(0);
    expect((await pageText(await renderHtml(pool, { html: '<p>still alive</p>' })))[0]).toContain('still alive');
  });

  it('relaunches Chromium after a crash and retries the job caught in it', async () => {
    let crashed = false;
    const crashing: BrowserPool = new BrowserPool({
      resolver: async () => {
        if (!crashed) {
          crashed = true;
          await crashing.crashBrowserForTesting();
        }
        return null;
      },
    });
    try {
      await renderHtml(crashing, { html: '<p>warm up</p>' });
      const pdf = await renderHtml(crashing, { html: '<img src="https://crash.test/a.png"><p>survived</p>' });
      expect(crashed).toBe(true);
      expect((await pageText(pdf))[0]).toContain('survived');
      expect((await pageText(await renderHtml(crashing, { html: '<p>next job</p>' })))[0]).toContain('next job');
    } finally {
      await crashing.close();
    }
  });

  it('names the install command when Chromium is missing', async () => {
    const missing = new BrowserPool({ executablePath: '/nonexistent/chromium' });
    await expect(renderHtml(missing, { html: 'x' })).rejects.toThrow(/apt-get install -y chromium/);
    await missing.close();
  });
});
