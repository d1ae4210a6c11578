/**
 * Bounded, off-thread packet assembly: one multipart part mapped into 30
 * files, too many files, pages or upload bytes, a second `operations` part are
 * refused with typed errors; an allowed packet of a few hundred pages and a 5 MB
 * JSON body are worked on away from the event loop, so the server's main thread
 * stays mostly idle while they run (event-loop utilisation compared with a
 * baseline taken in the same test, not seconds).
 */
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import anvilModule from '@anvilco/anvil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { openPacketBackend } from '../src/server/graphql/index.js';
import { RenderPool } from '../src/server/pool/render-pool.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';
import { HELD_WORKER, HeldJobs, heldPacketName } from './helpers/held-jobs.js';
import { heldDeadlines } from './helpers/outcome.js';
import { longestJsonParsed } from './helpers/json-spy.js';

const Anvil = anvilModule.default;

const MUTATION =
  'mutation($name: String, $files: [EtchFile!], $signers: [JSON!], $merge: Boolean){ createEtchPacket(name: $name, isDraft: true, mergePDFs: $merge, files: $files, signers: $signers){ eid } }';
const sig = { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } };
const signers = [{ id: 'x', name: 'X Y', email: 'x@example.com', fields: [{ fileId: 'f0', fieldId: 's' }] }];

async function pdfOf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let l = 0; l < 30; l++)
      page.drawText(`Page ${i + 1}, line ${l + 1}: the tenant keeps the garden tidy.`, {
        x: 50,
        y: 740 - l * 20,
        size: 10,
        font,
      });
  }
  return doc.save();
}

interface Gql {
  status: number;
  body: {
    data?: Record<string, unknown>;
    errors?: Array<{
      message: string;
      extensions: { name: string; status: number; fields: Array<{ property: string }> };
    }>;
  };
}

async function answer(res: Response): Promise<Gql> {
  return { status: res.status, body: (await res.json()) as Gql['body'] };
}

/** GraphQL multipart: `files[i].file` from the parts, `map` as given (default: part i → files.i.file). */
async function multipart(
  base: string,
  uploads: Uint8Array[],
  options: { map?: Record<string, string[]>; extra?: Array<[string, string]>; merge?: boolean; name?: string } = {},
): Promise<Gql> {
  const files = uploads.map((_, i) => ({ id: `f${i}`, title: `File ${i}`, file: null, fields: i === 0 ? [sig] : [] }));
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({
      query: MUTATION,
      variables: { name: options.name ?? 'Limits', files, signers, merge: options.merge ?? false },
    }),
  );
  form.append(
    'map',
    JSON.stringify(
      options.map ?? Object.fromEntries(uploads.map((_, i) => [String(i), [`variables.files.${i}.file`]])),
    ),
  );
  for (const [name, value] of options.extra ?? []) form.append(name, value);
  uploads.forEach((u, i) =>
    form.append(String(i), new Blob([new Uint8Array(u)], { type: 'application/pdf' }), `f${i}.pdf`),
  );
  return answer(await fetch(`${base}/graphql`, { method: 'POST', body: form }));
}

function json(base: string, text: string): Promise<Gql> {
  return fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }).then(
    answer,
  );
}

function typedError(result: Gql) {
  const e = result.body.errors?.[0];
  expect(e, JSON.stringify(result.body)).toBeDefined();
  return { status: result.status, name: e!.extensions.name, property: e!.extensions.fields?.[0]?.property };
}

/** A small request the server answers on its event loop: a packet that does not exist (typed 404). */
const small = (base: string) => json(base, JSON.stringify({ query: '{ etchPacket(eid: "pkt_none"){ eid } }' }));

/**
 * The main thread's event-loop utilisation (the server runs in this process) while `work` runs, and
 * over the same time before it, small requests sent all along at a steady pace (one, then a 50 ms
 * pause): what a blocked event loop would hold up. A busy loop is near 1 whatever the machine's load;
 * one that waits for worker threads stays near its baseline.
 */
async function utilisation(
  base: string,
  work: () => Promise<unknown>,
): Promise<{ baseline: number; during: number; smalls: number }> {
  const paced = async (until: () => boolean) => {
    let n = 0;
    while (!until()) {
      await small(base);
      n++;
      await new Promise((r) => setTimeout(r, 50));
    }
    return n;
  };
  let stop = false;
  const b0 = performance.eventLoopUtilization();
  setTimeout(() => (stop = true), 2_000);
  await paced(() => stop);
  const baseline = performance.eventLoopUtilization(b0).utilization;

  let done = false;
  const d0 = performance.eventLoopUtilization();
  const running = work().finally(() => (done = true));
  const smalls = await paced(() => done);
  await running;
  const during = performance.eventLoopUtilization(d0).utilization;
  return { baseline, during, smalls };
}

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('castpress-packet-limits-');
});
afterAll(async () => tmp?.remove());

describe('packet limits (small limits configured through engine.limits)', () => {
  let server: RunningServer;
  let page: Uint8Array;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      noAuth: true,
      packets: { dataDir: `${tmp.dir}/a`, deliver: false },
      engine: {
        limits: {
          packetFiles: 3,
          packetPagesPerFile: 20,
          packetPages: 30,
          packetUploadBytes: 200_000,
          packetSignatureFields: 3,
        },
      },
      renderPool: { threads: 2 },
    });
    page = await pdfOf(1);
  }, 120_000);
  afterAll(async () => server?.close());

  it('more files than allowed: 413 on files', async () => {
    const r = typedError(await multipart(server.url, [page, page, page, page]));
    expect(r).toEqual({ status: 413, name: 'PayloadTooLargeError', property: 'files' });
  }, 120_000);

  it('a file over its pages: 413 on that file; a packet over its pages: 413 on the file that passes it', async () => {
    expect(typedError(await multipart(server.url, [await pdfOf(21)]))).toEqual({
      status: 413,
      name: 'PayloadTooLargeError',
      property: 'files[0]',
    });
    const eighteen = await pdfOf(18);
    const r = typedError(await multipart(server.url, [eighteen, eighteen]));
    expect(r.status).toBe(413);
    expect(r.name).toBe('PayloadTooLargeError');
    expect(r.property).toMatch(/^files\[[01]\]$/);
    // Within both limits, the same kind of packet is made.
    const ok = await multipart(server.url, [await pdfOf(10), await pdfOf(10)]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  }, 120_000);

  it('signature tags over the limit of a document: 413 on that file, on the worker thread, naming the page', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 6; i++)
      doc.addPage([612, 792]).drawText('Sign: {{ signature:::x }}', { x: 50, y: 200, size: 11, font });
    const tagged = await doc.save();
    const r = await multipart(server.url, [tagged]);
    // The request's own field (`sig`) and three tags: the third tag's page passes the limit of 3.
    expect(typedError(r)).toEqual({ status: 413, name: 'PayloadTooLargeError', property: 'files[0]' });
    expect(r.body.errors![0]!.message).toMatch(
      /at most 3 signature or initial fields; this file passes that at its page 3$/,
    );
  }, 120_000);

  it("uploads over the packet's bytes: 413 on the upload that passes it", async () => {
    const big = new Uint8Array(120_000);
    big.set(page);
    const r = typedError(await multipart(server.url, [page, big, big]));
    expect(r).toEqual({ status: 413, name: 'PayloadTooLargeError', property: 'files[2].file' });
  }, 120_000);
});

describe('packets off the event loop (default limits)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      noAuth: true,
      packets: { dataDir: `${tmp.dir}/b`, deliver: false },
      renderPool: { threads: 2 },
    });
    // Both threads warm (modules loaded, engine created) before anything is measured.
    const one = await pdfOf(1);
    for (let i = 0; i < 2; i++) await Promise.all([multipart(server.url, [one]), multipart(server.url, [one])]);
  }, 180_000);
  afterAll(async () => server?.close());

  it('one part mapped into 30 files (the 3,510-page amplification) is a 400 naming the map entry', async () => {
    const part = await pdfOf(3);
    const files = Array.from({ length: 30 }, (_, i) => ({
      id: `f${i}`,
      title: `T${i}`,
      file: null,
      fields: i === 0 ? [sig] : [],
    }));
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: MUTATION, variables: { files, signers, merge: true } }));
    form.append('map', JSON.stringify({ 0: files.map((_, i) => `variables.files.${i}.file`) }));
    form.append('0', new Blob([new Uint8Array(part)], { type: 'application/pdf' }), 'one.pdf');
    const r = typedError(await answer(await fetch(`${server.url}/graphql`, { method: 'POST', body: form })));
    expect(r).toEqual({ status: 400, name: 'ValidationError', property: 'map.0' });
  }, 60_000);

  it('a second operations (or map) part is a 400, not silently one of them', async () => {
    const page = await pdfOf(1);
    const other = JSON.stringify({ query: '{ etchPacket(eid: "pkt_none"){ eid } }' });
    expect(typedError(await multipart(server.url, [page], { extra: [['operations', other]] }))).toEqual({
      status: 400,
      name: 'ValidationError',
      property: 'operations',
    });
    expect(typedError(await multipart(server.url, [page], { extra: [['map', '{}']] }))).toEqual({
      status: 400,
      name: 'ValidationError',
      property: 'map',
    });
  }, 60_000);

  it('a packet of 200 merged pages is assembled while the event loop stays mostly idle', async () => {
    const big = await pdfOf(200);
    let result: Gql | undefined;
    const u = await utilisation(server.url, async () => {
      result = await multipart(server.url, [big], { merge: true });
    });
    expect(result?.status, JSON.stringify(result?.body)).toBe(200);
    // Assembly on the main thread would keep utilisation near 1 for its duration.
    expect(u.smalls).toBeGreaterThan(3);
    expect(u.during).toBeLessThan(Math.min(0.85, u.baseline + 0.35));
  }, 300_000);

  it('a 5 MB JSON body of many small values is parsed off the event loop (and refused, 413 on body)', async () => {
    const payload = Object.fromEntries(Array.from({ length: 280_000 }, (_, i) => [`k${i}`, `v${i}`]));
    const text = JSON.stringify({
      query: MUTATION,
      variables: {
        files: [{ id: 'f0', title: 'T', file: 'JVBERi0=', fields: [sig] }],
        signers,
        data: { payloads: { f0: { data: payload } } },
      },
    });
    expect(text.length).toBeGreaterThan(5_000_000);
    let result: Gql | undefined;
    // The server runs in this process: every JSON.parse of its event loop is seen (a worker thread has
    // its own JSON). Parsed there, the whole 5 MB text would block the event loop.
    const { longest, value: u } = await longestJsonParsed(() =>
      utilisation(server.url, async () => {
        result = await json(server.url, text);
      }),
    );
    expect(typedError(result!)).toEqual({ status: 413, name: 'PayloadTooLargeError', property: 'body' });
    expect(longest).toBeLessThan(1 << 20);
    // A coarse guard beside the count: the loop is not busy throughout (0.99 when it parses the body). Not relative
    // to the baseline: this process also sends the 5 MB body, and a loaded machine stretches that work.
    expect(u.during).toBeLessThan(0.85);
  }, 300_000);

  it('the official client still sends base64 uploads as JSON: a 1.5 MiB body parsed on a thread makes the packet', async () => {
    const client = new Anvil({ apiKey: 'any', baseURL: server.url });
    const upload = await pdfOf(1);
    const padded = new Uint8Array(upload.length + 1_200_000);
    padded.set(upload);
    const result = (await client.createEtchPacket({
      variables: {
        name: 'Base64',
        isDraft: true,
        files: [
          {
            id: 'f0',
            title: 'Base64',
            file: { data: Buffer.from(padded).toString('base64'), filename: 'b.pdf', mimetype: 'application/pdf' },
            fields: [sig],
          },
        ],
        signers,
      },
    })) as unknown as {
      statusCode: number;
      errors?: unknown;
      data?: { data?: { createEtchPacket?: { eid: string } } };
    };
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.statusCode).toBe(200);
    expect(result.data?.data?.createEtchPacket?.eid).toMatch(/^pkt_/);
  }, 120_000);
});

describe('packet deadline', () => {
  it('an assembly past its deadline is a typed 504 and its thread is ended', async () => {
    // The assembly is held on its thread (a core kept busy until the thread is ended) and the test passes its
    // deadline once it runs: a real 200-page merge raced against a real 2 s limit finished first on a fast machine.
    const jobs = new HeldJobs();
    const deadlines = heldDeadlines();
    const server = await startServer({
      port: 0,
      noAuth: true,
      packets: { dataDir: `${tmp.dir}/c`, deliver: false },
      renderPool: {
        threads: 2,
        packetDeadlineMs: 2_000,
        deadlineTimer: deadlines.timer,
        workerFile: HELD_WORKER,
        onThreadExit: jobs.exited,
      },
    });
    try {
      await jobs.readyThread();
      const answer = multipart(server.url, [await pdfOf(2)], { merge: true, name: heldPacketName('spin', 'assembly') });
      const thread = await jobs.started('assembly', answer);
      expect(deadlines.pending()).toBe(1);
      deadlines.pass();
      const r = await answer;
      expect(typedError(r)).toEqual({ status: 504, name: 'RenderError', property: undefined });
      expect(r.body.errors![0]!.message).toBe('Assembling the packet took longer than 2000 ms');
      await expect.poll(() => jobs.hasExited(thread), { timeout: 60_000, interval: 50 }).toBe(true);
      // The server goes on: a small request is answered, and a real assembly runs on a live thread.
      expect((await small(server.url)).status).toBeLessThan(500);
      await jobs.readyThread();
      const next = await multipart(server.url, [await pdfOf(2)], { merge: true });
      expect(next.body.errors, JSON.stringify(next.body)).toBeUndefined();
    } finally {
      jobs.close();
      await server.close();
    }
  }, 180_000);
});

describe('the workflow on threads', () => {
  it('create (upload, HTML, Markdown), sign and complete run on the pool; the main engine only renders the HTML', async () => {
    const engine = createEngine();
    const pool = new RenderPool({ engine: {}, threads: 2 });
    const backend = await openPacketBackend({
      dataDir: `${tmp.dir}/d`,
      engine,
      baseUrl: 'http://127.0.0.1:1',
      deliver: false,
      threads: pool,
    });
    const generated: string[] = [];
    const generate = engine.generate.bind(engine);
    engine.generate = async (request, options) => {
      generated.push((request as { type: string }).type);
      return generate(request, options);
    };
    // Assembly on the event loop would fill or read templates with this engine (the packets' port).
    engine.fill = async () => {
      throw new Error('assembled on the event loop');
    };
    try {
      const created = await backend.service.createEtchPacket({
        name: 'Threads',
        mergePDFs: true,
        files: [
          { id: 'f0', title: 'Upload', file: await pdfOf(2), fields: [sig] },
          {
            id: 'h',
            filename: 'h.pdf',
            title: 'HTML',
            markup: { html: '<h1>House rules</h1><p>No pets.</p>' },
            fields: [],
          },
          {
            id: 'm',
            filename: 'm.pdf',
            title: 'Markdown',
            fields: [{ heading: 'Annex' }, { content: 'Garden **tidy**.' }],
          },
        ],
        signers: [{ ...signers[0], signerType: 'embedded' }],
      });
      expect(generated).toEqual(['html']);
      const signer = created.documentGroup.signers[0]!;
      const url = await backend.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u-1' });
      await backend.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'X Y' } } });
      const done = await backend.service.etchPacket({ eid: created.eid });
      expect(done.status).toBe('complete');
      const [doc] = await backend.service.groupDocuments(created.documentGroup.eid);
      // Sealed (the seal's /ByteRange), with the certificate's pages after the 2 + 1 + 1 signed ones.
      expect(Buffer.from(doc!.pdf).toString('latin1')).toContain('/ByteRange');
      expect(generated).toEqual(['html']);
    } finally {
      await backend.close();
      await pool.close();
      await engine.close();
    }
  }, 300_000);
});
