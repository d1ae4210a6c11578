import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCastpress } from './helpers/cli.js';

let dir: string;
let port: number;
const server = http.createServer((_req, res) => {
  res.writeHead(404);
  res.end();
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-cli-warn-'));
  port = await new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const castpress = (args: string[]) => runCastpress(args, dir, 180_000);

describe('CLI: resources that do not load are warnings on stderr, or errors with --strict-fetch', () => {
  it('generate (Markdown): a warning line naming the property; the PDF is still written', async () => {
    await writeFile(
      path.join(dir, 'md.json'),
      JSON.stringify({ logo: false, data: [{ content: `![a](http://127.0.0.1:${port}/missing.png)` }] }),
    );
    const r = await castpress(['generate', 'md.json', '-o', 'md.pdf', '--allow-host', `127.0.0.1:${port}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: data[0].content: image not loaded (status 404)');
    expect(r.stderr).not.toContain('/missing.png');
    expect(existsSync(path.join(dir, 'md.pdf'))).toBe(true);

    const off = await castpress(['generate', 'md.json', '-o', 'off.pdf', '--no-fetch']);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain('warning: data[0].content: image not loaded (remote fetching is off)');
  }, 180_000);

  it('generate (HTML): the same warning for an image of the document', async () => {
    await writeFile(
      path.join(dir, 'html.json'),
      JSON.stringify({ type: 'html', data: { html: `<p>x</p><img src="http://127.0.0.1:${port}/a.png">` } }),
    );
    const r = await castpress(['generate', 'html.json', '-o', 'html.pdf']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: data.html: image not loaded (loopback addresses never load)');
  }, 180_000);

  it('--strict-fetch: exit 2 with the 400 body on the property, and no PDF', async () => {
    const r = await castpress([
      'generate',
      'md.json',
      '-o',
      'strict.pdf',
      '--allow-host',
      `127.0.0.1:${port}`,
      '--strict-fetch',
    ]);
    expect(r.code).toBe(2);
    const body = JSON.parse(r.stderr) as { status: number; fields: Array<{ property: string; message: string }> };
    expect(body.status).toBe(400);
    expect(body.fields).toEqual([
      { property: 'data[0].content', message: 'The image could not be loaded: status 404' },
    ]);
    expect(existsSync(path.join(dir, 'strict.pdf'))).toBe(false);
  }, 180_000);
});
