/**
 * Attachments in HTML mode (`<link rel="attachment">`, `<a rel="attachment">`, as WeasyPrint reads them):
 * files fetched through the resolver from a real HTTP server on loopback (allow-listed, as remote
 * hosts are refused otherwise), read back with pdf.js (the viewer's attachment list) and qpdf's JSON
 * (the EmbeddedFiles tree and the associated-file keys).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { httpResolver } from '../src/resources/index.js';
import { openPdf, pageText, qpdfCheck, withTempFile } from './helpers/pdf.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CSV = 'item,amount\nwidgets,12\n';

let server: Server;
let origin: string;
let engine: Engine;
let closedEngine: Engine;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/files/report%202026.csv') {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      res.end(CSV);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such file');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  engine = createEngine({ resolver: httpResolver({ allowHosts: [`127.0.0.1:${port}`] }) });
  // The same resolver without the allow-list: loopback is refused as any private address is.
  closedEngine = createEngine({ resolver: httpResolver() });
});
afterAll(async () => {
  await engine?.close();
  await closedEngine?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** qpdf's JSON objects, keyed `obj:N 0 R`, with the trailer. */
async function qpdfObjects(
  pdf: Uint8Array,
): Promise<Record<string, { value?: Json; stream?: { dict: Record<string, Json> } }>> {
  const json = await withTempFile(
    pdf,
    async (file) => (await run('qpdf', ['--json', file], { maxBuffer: 64 << 20 })).stdout,
  );
  const parsed = JSON.parse(json) as {
    qpdf: [unknown, Record<string, { value?: Json; stream?: { dict: Record<string, Json> } }>];
  };
  return parsed.qpdf[1];
}

const hello = Buffer.from('Hello, attached world.\n').toString('base64');

describe('HTML attachments', () => {
  it('embeds link and anchor attachments: names, descriptions, bytes, types; the anchor is no link out', async () => {
    const html = `<html><head><title>With files</title>
      <link rel="attachment" href="${origin}/files/report%202026.csv" title="The figures">
      </head><body><p>See <a rel="attachment" href="data:text/plain;base64,${hello}" download="hello.txt" title="A greeting">the greeting</a>
      and <a href="https://example.com/">a page</a>.</p></body></html>`;
    const pdf = await engine.generate({ type: 'html', data: { html } });
    await qpdfCheck(pdf);
    expect((await pageText(pdf))[0]).toContain('See the greeting and a page.');

    const doc = await openPdf(pdf);
    try {
      const attachments = (await doc.getAttachments()) as Record<
        string,
        { filename: string; content: Uint8Array; description?: string }
      > | null;
      const files = Object.values(attachments ?? {}).map((a) => ({
        name: a.filename,
        text: Buffer.from(a.content).toString('utf8'),
        description: a.description,
      }));
      expect(files.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: 'hello.txt', text: 'Hello, attached world.\n', description: 'A greeting' },
        { name: 'report 2026.csv', text: CSV, description: 'The figures' },
      ]);
      // The attaching anchor is not a link (its data: URL would be a second copy, pointing nowhere);
      // the ordinary link still is.
      const page = await doc.getPage(1);
      const links = ((await page.getAnnotations()) as Array<Record<string, unknown>>).filter(
        (a) => a.subtype === 'Link',
      );
      expect(links.map((l) => l.url)).toEqual(['https://example.com/']);
    } finally {
      await doc.destroy();
    }

    // The tree and the associated-file keys, read by qpdf.
    const objects = await qpdfObjects(pdf);
    const specs = Object.values(objects)
      .map((o) => o.value)
      .filter(
        (v): v is Record<string, Json> =>
          !!v && typeof v === 'object' && !Array.isArray(v) && v['/Type'] === '/Filespec',
      );
    expect(specs).toHaveLength(2);
    for (const spec of specs) {
      expect(spec['/AFRelationship']).toBe('/Unspecified');
      expect(typeof spec['/F']).toBe('string');
      expect(typeof spec['/UF']).toBe('string');
      const ef = spec['/EF'] as Record<string, Json>;
      const stream = objects[`obj:${String(ef['/F'])}`]!.stream!.dict;
      expect(stream['/Type']).toBe('/EmbeddedFile');
      // qpdf shows the name decoded: the file writes /text#2Fcsv, one name.
      expect(['/text/csv', '/text/plain']).toContain(stream['/Subtype']);
      expect((stream['/Params'] as Record<string, Json>)['/Size']).toBeGreaterThan(0);
    }
    const catalog = Object.values(objects)
      .map((o) => o.value)
      .find(
        (v): v is Record<string, Json> =>
          !!v && typeof v === 'object' && !Array.isArray(v) && v['/Type'] === '/Catalog',
      )!;
    expect(catalog['/AF']).toHaveLength(2);
  });

  it('fails with a typed error naming the file when an attachment does not load, the host left out', async () => {
    const html = `<link rel="attachment" href="${origin}/files/missing.csv"><p>text</p>`;
    const error = await engine.generate({ type: 'html', data: { html } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'ValidationError', status: 400, fields: [{ property: 'data.html' }] });
    const { message } = (error as { fields: Array<{ message: string }> }).fields[0]!;
    expect(message).toContain('The attachment missing.csv could not be loaded');
    expect(message).toContain('404');
    expect(message).not.toContain('127.0.0.1');
  });

  it('refuses a host that is not allow-listed (loopback, private) before fetching', async () => {
    const html = `<p><a rel="attachment" href="${origin}/files/report%202026.csv">figures</a></p>`;
    await expect(closedEngine.generate({ type: 'html', data: { html } })).rejects.toMatchObject({
      name: 'ValidationError',
      fields: [
        {
          property: 'data.html',
          message: expect.stringMatching(/report 2026\.csv could not be loaded: .*not a public/),
        },
      ],
    });
    const fetched: string[] = [];
    server.on('request', (req) => fetched.push(req.url ?? ''));
    await closedEngine.generate({ type: 'html', data: { html } }).catch(() => undefined);
    expect(fetched).toEqual([]);
  });
});
