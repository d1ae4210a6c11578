/**
 * One request must not stall the server: Markdown and fill run on worker
 * threads with a deadline, a cancelled or timed-out render stops burning CPU,
 * a dropped client keeps its slot until its render is gone, shutdown answers
 * with the typed body.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { RenderPool } from '../src/server/pool/render-pool.js';
import { DEFAULT_LINGER } from '../src/server/http/linger.js';
import { HELD_WORKER, HeldJobs, heldBody } from './helpers/held-jobs.js';
import { heldDeadlines } from './helpers/outcome.js';

const DEV = 'dev-key-stall-0123456789';
const PROD = 'prod-key-stall-0123456789';
const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

interface Answer {
  status: number;
  body: string;
}

function post(
  base: string,
  path: string,
  body: unknown,
  options: { key?: string; agent?: http.Agent; signal?: AbortSignal } = {},
): Promise<Answer> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      {
        method: 'POST',
        agent: options.agent,
        signal: options.signal,
        headers: {
          'content-type': 'application/json',
          'content-length': data.length,
          authorization: auth(options.key ?? PROD),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const small = { title: 'small', data: [{ content: 'Hello' }] };

describe('server: Markdown and fill off the event loop', () => {
  let server: RunningServer;
  let held: HeldJobs;
  beforeAll(async () => {
    held = new HeldJobs();
    server = await startServer({
      port: 0,
      config: {
        keys: [
          { key: PROD, kind: 'production' },
          { key: DEV, kind: 'development', concurrency: 1 },
        ],
      },
      // A long deadline: only the hang-up can end the hang-up case's job, and small requests on a busy
      // machine are never 504s.
      // Real jobs run as always; jobs from `heldBody` run until the test ends them (test/helpers/held-jobs.ts).
      renderPool: { threads: 2, deadlineMs: 120_000, workerFile: HELD_WORKER, onThreadExit: held.exited },
    });
    // Both threads warm (modules loaded, engine created) before anything is timed.
    for (let i = 0; i < 3; i++)
      await Promise.all([
        post(server.url, '/api/v1/generate-pdf', small),
        post(server.url, '/api/v1/generate-pdf', small),
      ]);
    // A generous ceiling: threads starting on a busy machine are slow, not broken.
  }, 180_000);
  afterAll(async () => {
    held?.close();
    await server?.close();
  });

  it('a job running on a pool thread does not hold up concurrent small requests', async () => {
    // Counted, not timed: a job that runs until the test releases it (test/helpers/held-jobs.ts), and small
    // requests answered meanwhile. Were Markdown rendered on the event loop (not on a pool thread), the held
    // job would never report its start; were the pool's one free thread not used, the small ones would wait.
    let heldDone = false;
    const job = post(server.url, '/api/v1/generate-pdf', heldBody('wait', 'concurrent')).finally(
      () => (heldDone = true),
    );
    await held.started('concurrent', job);
    for (let i = 0; i < 5; i++) {
      const answer = await post(server.url, '/api/v1/generate-pdf', small);
      expect(answer.status).toBe(200);
    }
    expect(heldDone).toBe(false);
    // Released, the held job renders its Markdown for real.
    held.release('concurrent');
    const answer = await job;
    expect(answer.status).toBe(200);
    expect(answer.body.startsWith('%PDF-')).toBe(true);
  }, 180_000);

  it('a client that hangs up cancels its render; its development-key slot is free once the render is gone', async () => {
    // A job that keeps its core busy until its thread is ended (test/helpers/held-jobs.ts): the deadline is
    // 2 min away, so only the hang-up can end it, and the test acts on its start, not after a number of ms.
    const controller = new AbortController();
    const dropped = post(server.url, '/api/v1/generate-pdf', heldBody('spin', 'hang-up'), {
      key: DEV,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    const thread = await held.started('hang-up', dropped);
    // While it runs, the key's one slot is taken.
    expect((await post(server.url, '/api/v1/generate-pdf', small, { key: DEV })).status).toBe(429);
    controller.abort();
    await dropped;
    // The render is gone when its thread has exited; a generous ceiling (a busy machine is slow, not broken).
    await expect.poll(() => held.hasExited(thread), { timeout: 60_000, interval: 50 }).toBe(true);
    const next = await post(server.url, '/api/v1/generate-pdf', small, { key: DEV });
    expect(next.status).toBe(200);
  }, 180_000);

  it("an HTML render (Chromium, on the main engine) keeps a dropped request's slot until it ends", async () => {
    // The document's image is held by the resolver until the test lets it go: the render runs exactly as
    // long as the test wants, whatever the machine's speed.
    const asked: string[] = [];
    let answer!: () => void;
    const image = new Promise<null>((resolve) => (answer = () => resolve(null)));
    let imageAsked!: () => void;
    const rendering = new Promise<void>((resolve) => (imageAsked = resolve));
    const local = await startServer({
      port: 0,
      config: { keys: [{ key: DEV, kind: 'development', concurrency: 1 }] },
      engine: {
        resolver: async (url) => {
          asked.push(url);
          imageAsked();
          return image;
        },
      },
    });
    try {
      const controller = new AbortController();
      const dropped = post(
        local.url,
        '/api/v1/generate-pdf',
        { type: 'html', data: { html: '<img src="https://held.test/image.png"><p>held</p>' } },
        { key: DEV, signal: controller.signal },
      ).catch((e: unknown) => e);
      await Promise.race([rendering, dropped.then((e) => Promise.reject(new Error(`answered: ${String(e)}`)))]);
      controller.abort();
      await dropped;
      // Chromium still renders the dropped document (its image has not arrived): the key's one slot is taken.
      const meanwhile = await post(local.url, '/api/v1/generate-pdf', small, { key: DEV });
      expect(meanwhile.status).toBe(429);
      answer();
      // The render ends once the image is answered; then the slot is free. A generous ceiling (2 min) on a busy machine.
      await expect
        .poll(async () => (await post(local.url, '/api/v1/generate-pdf', small, { key: DEV })).status, {
          timeout: 120_000,
          interval: 100,
        })
        .toBe(200);
      expect(asked).toContain('https://held.test/image.png');
    } finally {
      answer();
      await local.close();
    }
  }, 240_000);
});

describe('server: deadline', () => {
  it('a job past its deadline is a typed 504 over HTTP; its thread is ended and the server serves again', async () => {
    const jobs = new HeldJobs();
    // The test passes the deadline once the endless job runs (no race of real work against a fixed limit).
    const deadlines = heldDeadlines();
    const server = await startServer({
      port: 0,
      noAuth: true,
      renderPool: {
        threads: 2,
        deadlineMs: 10_000,
        deadlineTimer: deadlines.timer,
        workerFile: HELD_WORKER,
        onThreadExit: jobs.exited,
      },
    });
    try {
      // A thread ready first: the deadline is the job's, not the thread's start-up.
      await jobs.readyThread();
      const job = post(server.url, '/api/v1/generate-pdf', heldBody('spin', 'deadline'));
      const thread = await jobs.started('deadline', job);
      expect(deadlines.pending()).toBe(1);
      deadlines.pass();
      const answer = await job;
      expect(answer.status).toBe(504);
      expect(JSON.parse(answer.body)).toMatchObject({ name: 'RenderError', fields: [] });
      await expect.poll(() => jobs.hasExited(thread), { timeout: 60_000, interval: 50 }).toBe(true);
      // A real render next, once a live thread has loaded the worker entry (an event, not a pause).
      await jobs.readyThread();
      const next = await post(server.url, '/api/v1/generate-pdf', small);
      expect(next.status, next.body).toBe(200);
    } finally {
      jobs.close();
      await server.close();
    }
  }, 300_000);

  it("the timed-out job's thread is ended and nothing keeps working on it", async () => {
    const jobs = new HeldJobs();
    const deadlines = heldDeadlines();
    const pool = new RenderPool({
      engine: {},
      threads: 2,
      deadlineMs: 2_000,
      deadlineTimer: deadlines.timer,
      workerFile: HELD_WORKER,
      onThreadExit: jobs.exited,
    });
    try {
      await jobs.readyThread();
      // A job that keeps a core busy forever: only ending its thread stops it.
      const job = pool.run({ kind: 'generate', body: heldBody('spin', 'pool') }).catch((e: unknown) => e);
      const thread = await jobs.started('pool', job);
      expect(await pool.threadIds()).toContain(thread);
      expect(deadlines.pending()).toBe(1);
      deadlines.pass();
      expect(await job).toMatchObject({
        name: 'RenderError',
        status: 504,
        message: 'Rendering took longer than 2000 ms',
      });
      // Gone from piscina's list at once, and its Worker has exited (so nothing runs on it any more).
      expect(await pool.threadIds()).not.toContain(thread);
      await expect.poll(() => jobs.hasExited(thread), { timeout: 60_000, interval: 50 }).toBe(true);
      // The pool serves real work after it (a long deadline of its own: a fresh thread loads the engine first).
      expect((await pool.run({ kind: 'generate', body: small }, undefined, 60_000)).pdf.length).toBeGreaterThan(500);
    } finally {
      jobs.close();
      await pool.close();
    }
  }, 180_000);
});

describe('server: bodies without a length', () => {
  /** Streams a chunked body of up to `max` bytes until the server answers; how much was written by then. */
  function chunked(
    base: string,
    type: string,
    prefix: string,
    max: number,
  ): Promise<{ status: number; sent: number; body: string }> {
    return new Promise((resolve) => {
      let sent = 0;
      let answered = false;
      const req = http.request(
        `${base}/api/v1/generate-pdf`,
        { method: 'POST', headers: { 'content-type': type, 'transfer-encoding': 'chunked' } },
        (res) => {
          answered = true;
          let body = '';
          const sentThen = sent;
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, sent: sentThen, body }));
          res.on('error', () => resolve({ status: res.statusCode ?? 0, sent: sentThen, body }));
        },
      );
      req.on('error', (e) => {
        if (!answered) resolve({ status: -1, sent, body: String(e) });
      });
      req.write(prefix);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!answered && sent < max) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
  }

  it('a chunked body past the cap is refused with 413 while it is still arriving (JSON and multipart)', async () => {
    const server = await startServer({ port: 0, noAuth: true, renderPool: false });
    try {
      const max = 256 * 1024 * 1024;
      // The server answers 413 and closes while the client still writes: a lingering close
      // (src/server/http/linger.ts) keeps reading until the client stops, so the answer is read, not a reset.
      const json = await chunked(server.url, 'application/json', '{"data":"', max);
      expect(json.status, json.body).toBe(413);
      expect(json.sent).toBeLessThan(16 * 1024 * 1024);
      const multipart = await chunked(
        server.url,
        'multipart/form-data; boundary=XX',
        '--XX\r\nContent-Disposition: form-data; name="data"\r\n\r\n',
        max,
      );
      expect(multipart.status, multipart.body).toBe(413);
      // The cap is 32 MiB: the answer comes near it, not after the 256 MiB the client would send.
      expect(multipart.sent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await server.close();
    }
  }, 60_000);

  /**
   * A client that sends its whole body before it reads (as curl and many others do), on a raw socket
   * that reads nothing until its writes are done: `extra` bytes past the cap, more than the loopback's
   * socket buffers hold, so the server must read them for the client's writes to finish at all.
   */
  function writeThenRead(
    port: number,
    type: string,
    prefix: string,
    bytes: number,
  ): Promise<{ answer: string; error?: string; sent: number }> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.pause();
      let sent = 0;
      let error: string | undefined;
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const frame = (data: Buffer | string) => `${Buffer.byteLength(data).toString(16)}\r\n`;
      const parts: Buffer[] = [];
      // Paused first, so the listener reads nothing until resume(): the answer waits in the kernel.
      socket.on('data', (d: Buffer) => parts.push(d));
      socket.on('error', (e: NodeJS.ErrnoException) => {
        error ??= e.code ?? e.message;
      });
      socket.once('close', () => resolve({ answer: Buffer.concat(parts).toString('latin1'), error, sent }));
      const read = () => socket.resume();
      socket.once('connect', () => {
        socket.write(
          `POST /api/v1/generate-pdf HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        socket.write(frame(prefix) + prefix + '\r\n');
        const pump = () => {
          while (sent < bytes) {
            if (socket.destroyed) return;
            sent += chunk.length;
            socket.write(frame(chunk));
            socket.write(chunk);
            if (!socket.write('\r\n')) return void socket.once('drain', pump);
          }
          socket.write('0\r\n\r\n', read);
        };
        pump();
      });
    });
  }

  it('a client that writes its whole chunked body before reading gets the 413, not a reset (lingering close)', async () => {
    const server = await startServer({ port: 0, noAuth: true, renderPool: false });
    try {
      const port = Number(new URL(server.url).port);
      const extra = 16 * 1024 * 1024;
      const json = await writeThenRead(port, 'application/json', '{"data":"', 1024 * 1024 + extra);
      expect(json.error, json.answer).toBeUndefined();
      expect(json.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(json.answer).toContain('"name":"PayloadTooLargeError"');
      const multipart = await writeThenRead(
        port,
        'multipart/form-data; boundary=XX',
        '--XX\r\nContent-Disposition: form-data; name="data"\r\n\r\n',
        32 * 1024 * 1024 + extra,
      );
      expect(multipart.error, multipart.answer).toBeUndefined();
      expect(multipart.answer).toMatch(/^HTTP\/1\.1 413 /);
      // The server still answers what comes next.
      expect(
        (
          await fetch(`${server.url}/api/v1/generate-pdf`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(400);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a client that never stops writing is cut off after the lingering bound', async () => {
    const server = await startServer({ port: 0, noAuth: true, renderPool: false });
    try {
      const port = Number(new URL(server.url).port);
      const endless = 1024 * 1024 * 1024;
      const r = await writeThenRead(port, 'application/json', '{"data":"', endless);
      // DEFAULT_LINGER: 64 MiB read and dropped after the answer, then the connection is destroyed.
      expect(r.error).toBeDefined();
      expect(r.sent).toBeLessThan(endless / 4);
      // ...and not before: a server that cut the connection at once would pass the two lines above too.
      expect(r.sent).toBeGreaterThan(DEFAULT_LINGER.bytes);
    } finally {
      await server.close();
    }
  }, 120_000);
});
