/** Unexpected errors, request logs, graceful shutdown and the `castpress serve` command. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Template, TemplateStore } from '../src/index.js';
import {
  DEV_KEY,
  EID,
  PROD_KEY,
  basic,
  heldRequest,
  startTestServer,
  writeTemplates,
  type TestServer,
} from './server-setup.js';

const markdown = { data: [{ heading: 'Lifecycle' }] };
const post = (key: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { authorization: basic(key), 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {});
});

describe('unexpected errors', () => {
  it('answer 500 with a bare body: no message, no stack', async () => {
    const store: TemplateStore = {
      get(): Promise<Template> {
        return Promise.reject(new Error('disk on fire at /secret/path'));
      },
    };
    const server = await startTestServer({ store });
    servers.push(server);
    const res = await fetch(`${server.base}/api/v1/fill/${EID}.pdf`, post(PROD_KEY, { data: { name: 'x' } }));
    expect(res.status).toBe(500);
    expect(res.headers.get('x-ratelimit-limit')).toBe('40');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ name: 'InternalError', message: 'Internal error', fields: [] });
    expect(text).not.toContain('secret');
  });
});

describe('request logging', () => {
  it('logs method, path and status of each request, never keys, payload data or link signatures', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const server = await startTestServer({ logger: 'info', logStream });
    servers.push(server);
    const res = await fetch(
      `${server.base}/api/v1/generate-pdf`,
      post(DEV_KEY, { data: [{ heading: 'SECRET-PAYLOAD-VALUE' }], outputFormat: 'url' }),
    );
    const { url } = (await res.json()) as { url: string };
    const signature = new URL(url).searchParams.get('signature')!;
    expect((await fetch(url)).status).toBe(200);
    await fetch(
      `${server.base}/api/v1/fill/${EID}.pdf?versionNumber=1`,
      post('wrong-key', { data: { name: 'SECRET-NAME' } }),
    );

    const entries = lines.map(
      (l) => JSON.parse(l) as { req?: { method: string; path: string }; res?: { statusCode: number } },
    );
    expect(entries.filter((e) => e.req).map((e) => `${e.req!.method} ${e.req!.path}`)).toEqual([
      'POST /api/v1/generate-pdf',
      `GET ${new URL(url).pathname}`,
      `POST /api/v1/fill/${EID}.pdf`,
    ]);
    expect(entries.filter((e) => e.res).map((e) => e.res!.statusCode)).toEqual([200, 200, 401]);
    const all = lines.join('\n');
    for (const secret of [
      'SECRET-PAYLOAD-VALUE',
      'SECRET-NAME',
      DEV_KEY,
      basic(DEV_KEY).slice(6),
      signature,
      'wrong-key',
      'authorization',
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});

describe('graceful shutdown', () => {
  it('stops taking connections, finishes the request in flight, then closes the engine', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startTestServer({
      beforeListen: (app) =>
        app.addHook('preParsing', async (request) => {
          if (request.headers['x-test-hold']) arrived();
        }),
    });
    servers.push(server);
    const held = heldRequest(
      server.base,
      '/api/v1/generate-pdf',
      { authorization: basic(PROD_KEY), 'x-test-hold': '1' },
      JSON.stringify(markdown),
    );
    await inFlight;
    const closed = server.app.close();
    const refused = await fetch(`${server.base}/api/v1/generate-pdf`, post(PROD_KEY, markdown)).then(
      (r) => r.status,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
    // Refused, or reset/503 if it raced the listening socket's close: never served.
    expect(['ECONNREFUSED', 'ECONNRESET', 503]).toContain(refused);
    const answer = await held.finish();
    expect(answer.status).toBe(200);
    expect(answer.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(answer.headers.connection).toBe('close');
    await closed;
    await expect(server.engine.generate(markdown)).rejects.toMatchObject({ name: 'RenderError', status: 503 });
  });

  it('ends a connection that never sent a byte (a browser preconnect) instead of waiting for it', async () => {
    const server = await startTestServer();
    servers.push(server);
    const accepted = new Promise<void>((resolve) => server.app.server.once('connection', () => resolve()));
    const silent = net.connect(Number(new URL(server.base).port), '127.0.0.1');
    const received: Buffer[] = [];
    silent.on('data', (chunk: Buffer) => received.push(chunk));
    const ended = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    silent.on('error', () => {});
    await accepted;
    // Node counts such a connection as busy, not idle: close() waited for its headers timeout and a 408.
    await server.app.close();
    await ended;
    expect(Buffer.concat(received).length).toBe(0);
  });
});

describe('castpress serve', () => {
  const cli = path.join(import.meta.dirname, '..', 'src', 'cli', 'index.ts');
  const run = (args: string[]) =>
    spawn(process.execPath, ['--import', 'tsx', cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });

  it('refuses to start without keys (or --no-auth)', async () => {
    const child = run(['serve', '--port', '0']);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/--keys FILE/);
  });

  it('serves templates with a keys file and exits 0 on SIGTERM', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'castpress-cli-'));
    let spawned: ReturnType<typeof run> | undefined;
    try {
      await writeTemplates(dir);
      const keys = path.join(dir, 'keys.json');
      await writeFile(keys, JSON.stringify({ keys: [{ key: PROD_KEY, kind: 'production' }] }));
      const child = run([
        'serve',
        '--templates',
        dir,
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--keys',
        keys,
        '--log-level',
        'silent',
      ]);
      spawned = child;
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const base = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
      });
      const res = await fetch(
        `${base}/api/v1/fill/${EID}.pdf?versionNumber=-1`,
        post(PROD_KEY, { data: { name: 'From the CLI' } }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      // A failed check must not leave the server running (the file may share a thread: vitest.config.ts).
      if (spawned?.exitCode === null && spawned.signalCode === null) spawned.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
