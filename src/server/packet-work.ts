/**
 * The packet workflow's heavy steps on the render pool's worker threads (issue 28):
 * a 3,510-page packet was 111 s of work on the event loop, stalling every other
 * request. Each step has a deadline (a typed 504; piscina ends the thread).
 *
 * HTML files need Chromium, which belongs to the main engine (its browser pool is
 * already asynchronous: the work is in Chromium's processes). They are generated
 * here first, in the organization's turn for a page (`RenderPool.html`), and their PDFs handed to the thread, which does everything else:
 * uploads, DOCX, templates, Markdown, tag scan, fill, signature fields, merge.
 */
import type { PacketOutcome, PacketStep, SigningIdentityOptions, ThreadTimestampOptions } from '../batch/index.js';
import type { Engine } from '../engine/index.js';
import { CastpressError } from '../errors/index.js';
import { checkFileCount, markupWithTitle, type AssembledPacket, type PacketWork } from '../packets/index.js';
import { isPlainObject } from '../schema/index.js';
import type { RenderPool } from './render-pool.js';

export interface ThreadPacketWorkOptions {
  pool: RenderPool;
  /** The main engine: HTML files are generated with its Chromium; its limits bound the packet. */
  engine: Engine;
  /** The signing identity as options a thread can load it from (the server's: `{dataDir}`). */
  identity: SigningIdentityOptions;
  /** The timestamp authority of every signature and completion seal, as a thread opens it (`--tsa local`, `--tsa URL`). */
  timestamp?: ThreadTimestampOptions;
}

const STEP_NAMES = {
  assemble: { what: 'Assembling the packet', property: 'files' },
  prepare: { what: 'Certifying the documents', property: 'files' },
  sign: { what: 'Signing', property: 'inputs' },
  complete: { what: 'Completing the packet', property: 'documents' },
} as const;

async function run(pool: RenderPool, task: PacketStep): Promise<PacketOutcome & { ok: true }> {
  const outcome = (await pool.step('packet', task, STEP_NAMES[task.step])) as PacketOutcome;
  if (!outcome.ok)
    throw new CastpressError(outcome.error.name, outcome.status, outcome.error.message, outcome.error.fields);
  return outcome;
}

/**
 * The PDFs of the body's HTML files, by index, generated on the main engine. A file is read the
 * way the request's validation reads it (`castEid`, then `file`, then `markup`); one whose shape is
 * wrong is left to the thread, whose validation reports it.
 */
async function generateHtml(pool: RenderPool, engine: Engine, body: unknown): Promise<Map<number, Uint8Array>> {
  const generated = new Map<number, Uint8Array>();
  if (!isPlainObject(body) || !Array.isArray(body.files)) return generated;
  const jobs = body.files.map(async (raw: unknown, i: number) => {
    if (!isPlainObject(raw) || 'castEid' in raw || 'file' in raw || !isPlainObject(raw.markup)) return;
    const { html, css } = raw.markup;
    if (typeof html !== 'string' || (css !== undefined && typeof css !== 'string') || typeof raw.title !== 'string')
      return;
    // In the request's organization's turn for a page of Chromium, as its other work is for a thread.
    const title = raw.title;
    const pdf = await pool.html(() =>
      engine.generate({
        type: 'html',
        title,
        data: markupWithTitle(title, { html, ...(css !== undefined ? { css } : {}) }),
      }),
    );
    generated.set(i, pdf);
  });
  await Promise.all(jobs);
  return generated;
}

export function threadPacketWork(options: ThreadPacketWorkOptions): PacketWork {
  const { pool, engine, identity, timestamp } = options;
  return {
    async assemble(body, templates) {
      // Before any HTML is rendered for it: a packet of 10,000 files is refused at once.
      checkFileCount(body, engine.limits);
      const generated = await generateHtml(pool, engine, body);
      const out = await run(pool, { step: 'assemble', body, generated, ...(templates ? { templates } : {}) });
      return (out as { packet: AssembledPacket }).packet;
    },
    async prepare(docs, info) {
      const task = { step: 'prepare' as const, docs, info, identity, ...(timestamp ? { timestamp } : {}) };
      return ((await run(pool, task)) as { pdfs: Uint8Array[] }).pdfs;
    },
    async sign(docs, signer, inputs, seal) {
      const task = {
        step: 'sign' as const,
        docs,
        signer,
        inputs,
        ...(seal ? { seal, identity, ...(timestamp ? { timestamp } : {}) } : {}),
      };
      return ((await run(pool, task)) as { pdfs: Uint8Array[] }).pdfs;
    },
    async complete(docs, certificate, mode) {
      const task = {
        step: 'complete' as const,
        docs,
        certificate,
        identity,
        ...(mode ? { mode } : {}),
        ...(timestamp ? { timestamp } : {}),
      };
      return ((await run(pool, task)) as { pdfs: Uint8Array[] }).pdfs;
    },
  };
}
