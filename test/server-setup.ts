/**
 * A real castpress server on a loopback port for the server tests: a template
 * directory written at start-up (three versions, each over its own PDF so the
 * version used is readable in the output), two keys and a clock the tests move.
 */
import http from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { FastifyInstance } from 'fastify';
import { createEngine, type Engine, type TemplateStore } from '../src/index.js';
import { buildApp, type ServerOptions } from '../src/server/index.js';

export const PROD_KEY = 'prod-key-0123456789';
export const DEV_KEY = 'dev-key-0123456789';
export const TOKEN = 'oauth-token-0123456789';
export const EID = 'tplBasic01';

export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function versionPdf(label: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(label, { x: 50, y: 740, size: 14, font });
  return doc.save();
}

/** v1, v2 (latest published) and a working version; each names its own PDF. */
export async function writeTemplates(dir: string): Promise<void> {
  const folder = path.join(dir, EID);
  await mkdir(folder, { recursive: true });
  const fields = [
    { id: 'nameField', alias: 'name', type: 'shortText', pageNum: 0, rect: { x: 50, y: 100, width: 300, height: 20 } },
    // An image field, so the data-URL budget (image fields only) can be reached over HTTP.
    {
      id: 'photoField',
      alias: 'photo',
      type: 'imageFile',
      pageNum: 0,
      rect: { x: 50, y: 200, width: 100, height: 100 },
    },
  ];
  for (const [file, pdf, label] of [
    ['v1.json', 'v1.pdf', 'VERSION ONE'],
    ['v2.json', 'v2.pdf', 'VERSION TWO'],
    ['working.json', 'working.pdf', 'WORKING COPY'],
  ] as const) {
    await writeFile(path.join(folder, pdf), await versionPdf(label));
    await writeFile(path.join(folder, file), JSON.stringify({ title: label, pdf, fields }));
  }
}

export interface TestServer {
  app: FastifyInstance;
  engine: Engine;
  base: string;
  /** Moves the server's clock (link expiry). */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startTestServer(
  extra: Partial<ServerOptions> & { store?: TemplateStore; beforeListen?: (app: FastifyInstance) => void } = {},
): Promise<TestServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-server-'));
  await writeTemplates(dir);
  let clock = Date.now();
  const engine = createEngine({ templates: extra.store ?? dir });
  const { store: _store, beforeListen, ...options } = extra;
  const app = await buildApp({
    engine,
    closeEngine: true,
    now: () => clock,
    config: {
      keys: [
        { key: PROD_KEY, kind: 'production' },
        { key: DEV_KEY, kind: 'development', concurrency: 1 },
        { key: TOKEN, kind: 'production' },
      ],
    },
    ...options,
  });
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    app,
    engine,
    base: `http://127.0.0.1:${address.port}`,
    advance: (ms) => {
      clock += ms;
    },
    close: async () => {
      // A client that stopped reading a response keeps its connection busy, and app.close() waits for
      // every busy connection: after a grace period they are cut (a test hook must not hang).
      const cut = setTimeout(() => app.server.closeAllConnections(), 2_000);
      await app.close();
      clearTimeout(cut);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function collect(res: http.IncomingMessage): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    res.on('error', reject);
  });
}

/**
 * A request whose headers are sent at once and whose body is held back until
 * `finish()`: the server counts it in flight from its headers on.
 */
export function heldRequest(base: string, pathName: string, headers: Record<string, string>, body: string) {
  const bytes = Buffer.from(body);
  const req = http.request(`${base}${pathName}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
  });
  const response = new Promise<RawResponse>((resolve, reject) => {
    req.on('response', (res) => collect(res).then(resolve, reject));
    req.on('error', reject);
  });
  req.flushHeaders();
  return {
    response,
    finish: () => {
      req.end(bytes);
      return response;
    },
    /** The client gives up before sending its body. */
    abort: () => req.destroy(),
  };
}

/** A JSON body sent in chunks with no Content-Length (Transfer-Encoding: chunked). */
export function chunkedRequest(
  base: string,
  pathName: string,
  headers: Record<string, string>,
  chunks: Buffer[],
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathName}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
    });
    req.on('response', (res) => collect(res).then(resolve, reject));
    // The server may answer 413 and close before the last chunk: that is the point.
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
    );
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/** One request with any headers (a `Host` of the caller's choosing too, which fetch will not send), leaving from `localAddress` when given. */
export function rawRequest(
  base: string,
  pathName: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(pathName, base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    req.on('response', (res) => collect(res).then(resolve, reject));
    req.on('error', reject);
    req.end(options.body);
  });
}
