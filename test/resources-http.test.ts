/**
 * Remote resources through the ready resolver: a castpress server with
 * its default resolver and a loopback image server on its allow-list; the
 * official client fills with an http image URL and generates Markdown with an
 * http logo, and the PDFs hold the images. SSRF probes against a loopback
 * listener that is not on the list all fail with no hit on it.
 */
import http from 'node:http';
import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import anvilModule from '@anvilco/anvil';
import { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpResolver, ResponseCache } from '../src/index.js';
import { FetchRefused, loadResource } from '../src/resources/index.js';
import { buildApp, RESOURCE_WARNING_HEADER, startServer, type RunningServer } from '../src/server/index.js';
import { createEngine } from '../src/index.js';
import { Writable } from 'node:stream';

const Anvil = anvilModule.default;
const run = promisify(execFile);
const EID = 'tplImage01';

/** Image XObjects drawn in a PDF, counted by poppler's pdfimages. */
async function imageCount(bytes: Uint8Array, dir: string): Promise<number> {
  const file = path.join(dir, `out-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  const { stdout } = await run('pdfimages', ['-list', file]);
  return stdout
    .trim()
    .split('\n')
    .slice(2)
    .filter((l) => l.trim() !== '').length;
}

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

let dir: string;
let png: Buffer;
let imagePort: number;
let probePort4: number;
let probePort6: number;
let probeHits = 0;
let imageHits = 0;
const images = http.createServer((req, res) => {
  imageHits++;
  if (req.url === '/logo.png') {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  } else if (req.url === '/to-loopback') {
    res.writeHead(302, { location: `http://127.0.0.1:${probePort4}/secret.png` });
    res.end();
  } else if (req.url === '/loop') {
    res.writeHead(302, { location: '/loop' });
    res.end();
  } else if (req.url === '/font.woff2') {
    res.writeHead(200, { 'content-type': 'font/woff2' });
    res.end(Buffer.from('wOF2 pretend font'));
  } else if (req.url === '/text') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>not an image</p>');
  } else {
    res.writeHead(404);
    res.end();
  }
});
const probe4 = http.createServer((_req, res) => {
  probeHits++;
  res.writeHead(200, { 'content-type': 'image/png' });
  res.end(png);
});
const probe6 = http.createServer((_req, res) => {
  probeHits++;
  res.writeHead(200, { 'content-type': 'image/png' });
  res.end(png);
});
let server: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-http-'));
  png = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 20, g: 140, b: 60 } } })
    .png()
    .toBuffer();
  imagePort = await listen(images, '127.0.0.1');
  probePort4 = await listen(probe4, '127.0.0.1');
  probePort6 = await listen(probe6, '::1');
  const folder = path.join(dir, 'templates', EID);
  await mkdir(folder, { recursive: true });
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  await writeFile(path.join(folder, 'v1.pdf'), await doc.save());
  const fields = [
    { id: 'photo', alias: 'photo', type: 'imageFile', pageNum: 0, rect: { x: 50, y: 500, width: 200, height: 100 } },
  ];
  await writeFile(path.join(folder, 'v1.json'), JSON.stringify({ title: 'Image', pdf: 'v1.pdf', fields }));
  server = await startServer({
    port: 0,
    noAuth: true,
    templates: path.join(dir, 'templates'),
    logger: false,
    renderPool: { threads: 1, deadlineMs: 30_000 },
    fetch: { allowHosts: [`127.0.0.1:${imagePort}`] },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  for (const s of [images, probe4, probe6]) s.close();
  await rm(dir, { recursive: true, force: true });
});

describe('httpResolver behind castpress serve (official client)', () => {
  it('fillPDF with an http imageFile URL and generatePDF with an http logo draw the images', async () => {
    const client = new Anvil({ apiKey: 'any-key', baseURL: server.url });
    const url = `http://127.0.0.1:${imagePort}/logo.png`;
    const filled = await client.fillPDF(EID, { data: { photo: url } });
    expect(filled.statusCode, JSON.stringify(filled.errors)).toBe(200);
    expect(await imageCount(new Uint8Array(filled.data as Buffer), dir)).toBe(1);

    const generated = await client.generatePDF({
      title: 'Logo',
      logo: { src: url },
      data: [{ heading: 'With a remote logo' }],
    });
    expect(generated.statusCode, JSON.stringify(generated.errors)).toBe(200);
    expect(await imageCount(new Uint8Array(generated.data as Buffer), dir)).toBe(1);

    // Without the logo the document has no image: the count above is the fetched logo.
    const plain = await client.generatePDF({ title: 'Logo', logo: false, data: [{ heading: 'No logo' }] });
    expect(await imageCount(new Uint8Array(plain.data as Buffer), dir)).toBe(0);
  }, 60_000);

  it('a fill whose image points at a non-public address leaves the field empty and the probe untouched', async () => {
    const client = new Anvil({ apiKey: 'any-key', baseURL: server.url });
    const before = probeHits;
    const filled = await client.fillPDF(EID, { data: { photo: `http://127.0.0.1:${probePort4}/x.png` } });
    expect(filled.statusCode).toBe(200);
    expect(await imageCount(new Uint8Array(filled.data as Buffer), dir)).toBe(0);
    expect(probeHits).toBe(before);
  }, 30_000);

  it('a resource that did not load is named in a warning header (fill and Markdown)', async () => {
    const post = (route: string, body: unknown) =>
      fetch(`${server.url}/api/v1/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('k:').toString('base64')}` },
        body: JSON.stringify(body),
      });
    const fill = await post(`fill/${EID}.pdf`, { data: { photo: `http://127.0.0.1:${imagePort}/missing.png` } });
    expect(fill.status).toBe(200);
    expect(fill.headers.get(RESOURCE_WARNING_HEADER)).toBe('data.photo: image not loaded (status 404)');
    const md = await post('generate-pdf', {
      logo: { src: `http://127.0.0.1:${probePort4}/x.png` },
      data: [{ content: `![a](http://127.0.0.1:${imagePort}/text)` }],
    });
    expect(md.status).toBe(200);
    const warning = md.headers.get(RESOURCE_WARNING_HEADER) ?? '';
    expect(warning).toContain('logo.src: image not loaded (<host> is not a public address');
    expect(warning).toContain(
      'data[0].content: image not loaded (content type text/html is not an accepted image type)',
    );
    const ok = await post(`fill/${EID}.pdf`, { data: { photo: `http://127.0.0.1:${imagePort}/logo.png` } });
    expect(ok.headers.get(RESOURCE_WARNING_HEADER)).toBeNull();
    expect(probeHits).toBe(0);
  }, 30_000);
});

describe('strict resources', () => {
  it('turn a resource that did not load into a 400 on its property, logged without the URL', async () => {
    const lines: string[] = [];
    const logStream = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
    const engine = createEngine({
      templates: path.join(dir, 'templates'),
      resolver: httpResolver({ allowHosts: [`127.0.0.1:${imagePort}`] }),
    });
    const app = await buildApp({ engine, closeEngine: true, strictResources: true, logger: 'warn', logStream });
    try {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/fill/${EID}.pdf`,
        payload: { data: { photo: `http://127.0.0.1:${imagePort}/secret-token-123.png` } },
      });
      expect(res.statusCode).toBe(400);
      const body = res.json() as { name: string; fields: Array<{ property: string; message: string }> };
      expect(body.name).toBe('ValidationError');
      expect(body.fields).toEqual([{ property: 'data.photo', message: 'The image could not be loaded: status 404' }]);
      const log = lines.join('');
      expect(log).toContain('remote resource not loaded');
      expect(log).toContain('data.photo');
      expect(log).not.toContain('secret-token-123');
      expect(log).not.toContain('127.0.0.1');
    } finally {
      await app.close();
    }
  }, 30_000);
});

describe('httpResolver refuses non-public addresses (SSRF probes)', () => {
  const allowOnlyImages = () =>
    httpResolver({ allowHosts: [`127.0.0.1:${imagePort}`], timeoutMs: 3000 }, new ResponseCache());

  it('loopback, private, link-local, IPv6 loopback, decimal and octal forms, localhost names, a redirect to loopback: refused, 0 hits', async () => {
    const resolver = allowOnlyImages();
    const probes = [
      `http://127.0.0.1:${probePort4}/a.png`,
      `http://10.0.0.1:${probePort4}/a.png`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${probePort6}/a.png`,
      `http://[::ffff:127.0.0.1]:${probePort4}/a.png`,
      `http://2130706433:${probePort4}/a.png`, // decimal 127.0.0.1
      `http://0177.0.0.1:${probePort4}/a.png`, // octal 127.0.0.1
      `http://0x7f.1:${probePort4}/a.png`,
      `http://localhost:${probePort4}/a.png`,
      `http://localhost.:${probePort4}/a.png`, // past the name check: refused on its address
      `http://127.0.0.1:${imagePort}/to-loopback`, // allowed host redirecting to one that is not
    ];
    // A name the machine's /etc/hosts maps to loopback, when it does.
    const self = hostname();
    const selfAddresses = await lookup(self, { all: true }).catch(() => []);
    if (selfAddresses.length && selfAddresses.every((a) => a.address.startsWith('127.') || a.address === '::1')) {
      probes.push(`http://${self}:${probePort4}/a.png`);
    }
    for (const url of probes) {
      await expect(resolver(url, 'image'), url).rejects.toBeInstanceOf(FetchRefused);
      expect(await loadResource(url, 'image', resolver, { maxBytes: 10 * 1024 * 1024 }), url).toBeNull();
    }
    expect(probeHits).toBe(0);
  }, 60_000);

  it('redirect loops stop after 5 hops; a wrong content type and an over-size body are refused', async () => {
    const resolver = allowOnlyImages();
    const hits = imageHits;
    await expect(resolver(`http://127.0.0.1:${imagePort}/loop`, 'image')).rejects.toThrow(/redirects/);
    expect(imageHits - hits).toBe(6);
    await expect(resolver(`http://127.0.0.1:${imagePort}/text`, 'image')).rejects.toThrow(/content type/);
    await expect(resolver(`http://127.0.0.1:${imagePort}/logo.png`, 'font')).rejects.toThrow(/content type/);
    // Fonts, fill's and Markdown's and HTML's @font-face sources alike, only as font/ttf or application/x-font-ttf (spec).
    await expect(resolver(`http://127.0.0.1:${imagePort}/font.woff2`, 'font')).rejects.toThrow(/content type/);
    await expect(resolver(`http://127.0.0.1:${imagePort}/font.woff2`, 'webfont')).rejects.toThrow(
      'content type font/woff2 is not font/ttf or application/x-font-ttf',
    );
    await expect(resolver(`http://127.0.0.1:${imagePort}/text`, 'webfont')).rejects.toThrow(/content type/);
    const small = httpResolver({ allowHosts: [`127.0.0.1:${imagePort}`], maxBytes: { image: 100 } });
    await expect(small(`http://127.0.0.1:${imagePort}/logo.png`, 'image')).rejects.toThrow(/larger than 100/);
  });

  it('the allow-list names host and port: the same host on another port is refused', async () => {
    const resolver = allowOnlyImages();
    await expect(resolver(`http://127.0.0.1:${probePort4}/a.png`, 'image')).rejects.toBeInstanceOf(FetchRefused);
    expect(probeHits).toBe(0);
  });

  it('responses are cached by URL in the cache the caller passes', async () => {
    const cache = new ResponseCache();
    const resolver = httpResolver({ allowHosts: [`127.0.0.1:${imagePort}`] }, cache);
    const hits = imageHits;
    const a = await resolver(`http://127.0.0.1:${imagePort}/logo.png`, 'image');
    const b = await resolver(`http://127.0.0.1:${imagePort}/logo.png`, 'image');
    expect(b).toBe(a);
    expect(imageHits - hits).toBe(1);
    expect(Buffer.from(a!.body).equals(png)).toBe(true);
  });
});

describe('CLI fetch flags', () => {
  const bin = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'bin', 'castpress.js');
  async function generate(args: string[]): Promise<Uint8Array> {
    const request = path.join(dir, 'logo-request.json');
    await writeFile(
      request,
      JSON.stringify({
        title: 'CLI',
        logo: { src: `http://127.0.0.1:${imagePort}/logo.png` },
        data: [{ heading: 'CLI logo' }],
      }),
    );
    const out = path.join(dir, `cli-${Math.random().toString(36).slice(2)}.pdf`);
    await run(process.execPath, [bin, 'generate', request, '-o', out, ...args], { cwd: dir, timeout: 120_000 });
    const { readFile } = await import('node:fs/promises');
    return new Uint8Array(await readFile(out));
  }

  it('generate fetches an allow-listed http logo; without the allow-list (loopback) or with --no-fetch it does not', async () => {
    expect(await imageCount(await generate(['--allow-host', `127.0.0.1:${imagePort}`]), dir)).toBe(1);
    const hits = imageHits;
    expect(await imageCount(await generate([]), dir)).toBe(0);
    expect(await imageCount(await generate(['--no-fetch', '--allow-host', `127.0.0.1:${imagePort}`]), dir)).toBe(0);
    expect(imageHits).toBe(hits);
  }, 120_000);
});
