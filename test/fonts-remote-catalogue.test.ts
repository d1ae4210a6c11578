/**
 * Web-font catalogue names from a catalogue URL: a loopback server laid out like the
 * Google Fonts repository, reached through the engine's resolver (allow-listed host); fetched
 * families are kept in the cache folder, which later engines read with no network.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, httpResolver } from '../src/index.js';
import { parseMetadata } from '../src/fonts/index.js';
import { statusOf } from './helpers/errors.js';
import { repoRoot } from './helpers/cli.js';
import { pageFonts } from './fixtures/fill/templates.js';

const family = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'font-catalogue-remote',
  'ofl',
  'castpresscataloguetest',
);
const hits: string[] = [];
const server = http.createServer(async (req, res) => {
  hits.push(req.url ?? '');
  const m = /^\/fonts\/ofl\/castpresscataloguetest\/([^/]+)$/.exec(req.url ?? '');
  if (!m) {
    res.writeHead(404).end();
    return;
  }
  // Served as raw.githubusercontent.com serves the repository: no font content type.
  const body = await readFile(path.join(family, decodeURIComponent(m[1]!))).catch(() => undefined);
  if (!body) res.writeHead(404).end();
  else
    res
      .writeHead(200, {
        'content-type': m[1]!.endsWith('.pb') ? 'text/plain; charset=utf-8' : 'application/octet-stream',
      })
      .end(body);
});
let base: string;
let cacheDir: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cacheDir = await mkdtemp(path.join(tmpdir(), 'castpress-font-cache-'));
});
afterAll(async () => {
  server.close();
  await rm(cacheDir, { recursive: true, force: true });
});

const isCatalogueFace = (name: string) => name.startsWith('CastpressCatalogueTest-Regular');
const md = (fontFamily: string) => ({ fontFamily, logo: false, data: [{ content: 'Catalogue face' }] });

describe('font catalogue URL', () => {
  it('a family nothing installed has is fetched from the catalogue, exactly by name, once; later engines read the cache offline', async () => {
    const resolver = httpResolver({ allowHosts: [new URL(base).host] });
    const engine = createEngine({
      resolver,
      fontCatalogue: { url: `${base}/fonts`, cacheDir },
      fonts: { systemDirectories: [] },
    });
    try {
      const pdf = await engine.generate(md('Castpress Catalogue Test'));
      expect((await pageFonts(pdf)).filter(isCatalogueFace)).toHaveLength(1);
      expect(hits).toEqual([
        '/fonts/ofl/castpresscataloguetest/METADATA.pb',
        '/fonts/ofl/castpresscataloguetest/CastpressCatalogueTest-Regular.ttf',
      ]);
      expect((await readdir(path.join(cacheDir, 'ofl', 'castpresscataloguetest'))).sort()).toEqual([
        'CastpressCatalogueTest-Regular.ttf',
        'METADATA.pb',
      ]);

      // Known now: no more requests. Another case is another name (the slug matches, METADATA's name does not).
      hits.length = 0;
      await engine.generate(md('Castpress Catalogue Test'));
      expect(hits).toEqual([]);
      expect(await statusOf(engine.generate(md('castpress catalogue test')))).toEqual({
        status: 400,
        property: 'fontFamily',
      });
      // A family the catalogue does not have: the usual 400, looked up in each licence folder once.
      expect(await statusOf(engine.generate(md('No Such Family')))).toEqual({ status: 400, property: 'fontFamily' });
      expect(await statusOf(engine.generate(md('No Such Family')))).toEqual({ status: 400, property: 'fontFamily' });
      expect(hits.filter((h) => h.includes('nosuchfamily'))).toEqual([
        '/fonts/ofl/nosuchfamily/METADATA.pb',
        '/fonts/apache/nosuchfamily/METADATA.pb',
        '/fonts/ufl/nosuchfamily/METADATA.pb',
      ]);
    } finally {
      await engine.close();
    }

    hits.length = 0;
    const offline = createEngine({
      fontCatalogue: { url: `${base}/fonts`, cacheDir },
      fonts: { systemDirectories: [] },
    });
    try {
      const pdf = await offline.generate(md('Castpress Catalogue Test'));
      expect((await pageFonts(pdf)).filter(isCatalogueFace)).toHaveLength(1);
      expect(hits).toEqual([]);
    } finally {
      await offline.close();
    }
  });

  it('without a resolver (fetching off) nothing is fetched: an unknown family stays a 400', async () => {
    hits.length = 0;
    const empty = await mkdtemp(path.join(tmpdir(), 'castpress-font-cache-'));
    const engine = createEngine({
      fontCatalogue: { url: `${base}/fonts`, cacheDir: empty },
      fonts: { systemDirectories: [] },
    });
    try {
      expect(await statusOf(engine.generate(md('Castpress Catalogue Test')))).toEqual({
        status: 400,
        property: 'fontFamily',
      });
      expect(hits).toEqual([]);
    } finally {
      await engine.close();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('castpress serve --font-catalogue: a Markdown request naming a catalogue family renders on the worker threads; the files land in DATA/font-cache', async () => {
    const data = await mkdtemp(path.join(tmpdir(), 'castpress-serve-fonts-'));
    const host = new URL(base).host;
    const child = spawn(
      process.execPath,
      [
        path.join(repoRoot, 'bin', 'castpress.js'),
        'serve',
        '--no-auth',
        '--port',
        '0',
        '--data',
        data,
        '--log-level',
        'silent',
        '--allow-host',
        host,
        '--font-catalogue',
        `${base}/fonts`,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (c: Buffer) => {
          stderr += c.toString();
          const m = /listening on (http:\/\/\S+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      const res = await fetch(`${url}/api/v1/generate-pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(md('Castpress Catalogue Test')),
      });
      expect(res.status).toBe(200);
      expect((await pageFonts(new Uint8Array(await res.arrayBuffer()))).filter(isCatalogueFace)).toHaveLength(1);
      expect(await readdir(path.join(data, 'font-cache', 'ofl', 'castpresscataloguetest'))).toContain(
        'CastpressCatalogueTest-Regular.ttf',
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(data, { recursive: true, force: true });
    }
  }, 60_000);

  it('METADATA.pb: the family name and its font entries; file names with a path are ignored by the fetcher', () => {
    const text =
      'name: "A \\"B\\""\nfonts {\n  name: "A"\n  style: "italic"\n  weight: 700\n  filename: "A-BoldItalic.ttf"\n}\nfonts {\n  style: "normal"\n  weight: 400\n  filename: "../../etc/passwd.ttf"\n}\n';
    expect(parseMetadata(text)).toEqual({
      name: 'A "B"',
      fonts: [
        { style: 'italic', weight: 700, filename: 'A-BoldItalic.ttf' },
        { style: 'normal', weight: 400, filename: '../../etc/passwd.ttf' },
      ],
    });
  });
});
