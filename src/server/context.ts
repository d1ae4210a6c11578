import type { FastifyReply, FastifyRequest } from 'fastify';
import { RenderError } from '../errors/index.js';
import type { Engine } from '../engine/index.js';
import { contentDisposition, type PdfName } from './replies/filename.js';
import type { KeyEntry } from './keys.js';
import type { MultipartLimits } from './http/multipart.js';
import type { RenderPool } from './pool/render-pool.js';
import type { JsonBodyParser } from './http/json-body.js';
import type { UrlStore } from './replies/url-store.js';
import type { ServerMetrics } from './metrics.js';
import { watermarkPdf } from './replies/watermark.js';
import { finishDocument } from '../pdf/index.js';
import type { RenderedPdf } from '../engine/index.js';
import type { OrganizationTemplates } from '../template/index.js';

/** What the routes share: one per app, no module state. */
export interface ServerContext {
  engine: Engine;
  urlStore: UrlStore;
  multipart: MultipartLimits;
  /** The key each request authenticated with (set by the auth hook). */
  keys: WeakMap<FastifyRequest, KeyEntry>;
  /** Base of signed links; from the request's Host when not configured. */
  publicUrl?: string;
  /** Fill and Markdown off the event loop (worker threads with a deadline); without it they run on the engine. */
  renderPool?: RenderPool;
  /** A remote resource that did not load makes the request a 400 (default: a warning header). */
  strictResources?: boolean;
  /** Per request: aborted when the client goes away, and the work that keeps its concurrency slot held. */
  requests: WeakMap<FastifyRequest, RequestSlot>;
  /** Prometheus metrics (`/metrics`), when the server serves them: the routes time their renders. */
  metrics?: ServerMetrics;
  /** JSON of bodies and parts: large ones on the render pool's threads (json-body.ts). */
  parseJson: JsonBodyParser;
  /** The organizations' own templates (the dashboard's store), found before the engine's template folder; opened on first use. */
  templates?: () => Promise<OrganizationTemplates>;
}

/**
 * A request's hold on its key's concurrency slot. The slot is given back when
 * the connection has closed AND no render of the request is still running: a
 * client that hangs up does not free a slot its render still uses.
 */
export class RequestSlot {
  readonly abort = new AbortController();
  #busy = 0;
  #closed = false;
  readonly #release: () => void;

  constructor(release: () => void) {
    this.#release = release;
  }

  /** The connection ended (answered or dropped). */
  closed(answered: boolean): void {
    this.#closed = true;
    if (!answered) this.abort.abort();
    if (this.#busy === 0) this.#release();
  }

  async work<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // Nobody waits for the answer any more: do not start the work.
    if (this.abort.signal.aborted) throw new RenderError('The request was cancelled', 499);
    this.#busy++;
    try {
      return await fn(this.abort.signal);
    } finally {
      this.#busy--;
      if (this.#closed && this.#busy === 0) this.#release();
    }
  }
}

/** Runs a request's render while it holds its slot (see RequestSlot). */
export function renderFor<T>(
  ctx: ServerContext,
  request: FastifyRequest,
  fn: (signal?: AbortSignal) => Promise<T>,
): Promise<T> {
  const slot = ctx.requests.get(request);
  const work = () => (slot ? slot.work(fn) : fn());
  // The pool serves organizations in turn: the request's jobs wait in its key's organization's queue.
  const key = ctx.keys.get(request);
  return ctx.renderPool && key ? ctx.renderPool.inLane(key.organization, work) : work();
}

/** The context's JSON parser, its large bodies queued in the request's organization's lane. */
export function jsonParserFor(ctx: ServerContext, request: FastifyRequest): JsonBodyParser {
  const key = ctx.keys.get(request);
  const pool = ctx.renderPool;
  return (raw, property) =>
    pool && key ? pool.inLane(key.organization, () => ctx.parseJson(raw, property)) : ctx.parseJson(raw, property);
}

/** The address links to this server start with: `--public-url`, else the request's own scheme and host. */
export function baseUrl(ctx: ServerContext, request: FastifyRequest): string {
  if (ctx.publicUrl) return ctx.publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The finishing steps a key's PDFs get: the watermark for development keys, as an incremental update. */
export function finishedFor(kind: KeyEntry['kind'] | undefined, pdf: Uint8Array): Promise<Uint8Array> {
  return finishDocument(pdf, kind === 'development' ? [{ name: 'watermark', run: (p) => watermarkPdf(p) }] : []);
}

/**
 * The last step of fill and generate: the finishing steps the key calls for (the watermark for
 * development keys, an incremental update), then the bytes (named `name` in Content-Disposition),
 * or a signed link when the validated request asked for `outputFormat: 'url'` (the download then
 * carries the name).
 */
export async function sendPdf(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  rendered: RenderedPdf,
  name: PdfName,
): Promise<void> {
  const bytes = await finishedFor(ctx.keys.get(request)?.kind, rendered.pdf);
  const wantsUrl = rendered.outputFormat === 'url';
  if (wantsUrl) {
    const link = ctx.urlStore.put(bytes, name);
    const url = `${baseUrl(ctx, request)}/download/${link.id}.pdf?expires=${link.expires}&signature=${link.signature}`;
    // Only `url`: the Node client treats a JSON body with a top-level name, message or errors as an error.
    await reply.code(200).type('application/json; charset=utf-8').send({ url });
    return;
  }
  await reply
    .code(200)
    .type('application/pdf')
    .header('content-disposition', contentDisposition(name))
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
