import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CastpressError, NotFoundError, PayloadTooLargeError } from '../../errors/index.js';
import type { PdfName } from './filename.js';

export const URL_LIFETIME_MS = 5 * 60 * 1000;

export interface UrlStoreOptions {
  secret: string | Buffer;
  /** Milliseconds since the epoch; injected so tests can step past the expiry. */
  now: () => number;
  lifetimeMs?: number;
  /** Total bytes kept; the oldest PDFs are dropped first when a new one does not fit. */
  maxBytes?: number;
  maxEntries?: number;
}

interface Entry {
  bytes: Uint8Array;
  expiresAt: number;
  name?: PdfName;
}

/** What a download link serves. */
export interface StoredPdf {
  bytes: Uint8Array;
  /** The name the request gave the PDF (from its title), if any. */
  name?: PdfName;
}

export interface SignedLink {
  id: string;
  expires: number;
  signature: string;
}

/** 410: the link was genuine but its five minutes are over. */
export class LinkExpiredError extends CastpressError {
  constructor() {
    super('LinkExpiredError', 410, 'This download link has expired', [{ message: 'Expired', property: 'expires' }]);
  }
}

/**
 * PDFs produced with `outputFormat: 'url'`, in memory, each behind a link signed
 * with HMAC-SHA256 over id and expiry: the id alone is unguessable, the
 * signature makes the expiry tamper-proof. Expired entries are swept on every
 * write, so the store never outgrows its cap by more than one PDF in flight.
 */
export class UrlStore {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #secret: string | Buffer;
  readonly #now: () => number;
  readonly lifetimeMs: number;
  readonly #maxBytes: number;
  readonly #maxEntries: number;

  constructor(options: UrlStoreOptions) {
    this.#secret = options.secret;
    this.#now = options.now;
    this.lifetimeMs = options.lifetimeMs ?? URL_LIFETIME_MS;
    this.#maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 1000;
  }

  put(bytes: Uint8Array, name?: PdfName): SignedLink {
    if (bytes.byteLength > this.#maxBytes)
      throw new PayloadTooLargeError('The PDF is larger than the download store holds', 'outputFormat');
    this.sweep();
    // Map iteration is insertion order and every entry lives equally long: the first one expires first.
    for (const [id, e] of this.#entries) {
      if (this.#bytes + bytes.byteLength <= this.#maxBytes && this.#entries.size < this.#maxEntries) break;
      this.#remove(id, e);
    }
    const id = randomBytes(16).toString('base64url');
    const expires = this.#now() + this.lifetimeMs;
    this.#entries.set(id, { bytes, expiresAt: expires, name });
    this.#bytes += bytes.byteLength;
    return { id, expires, signature: this.#sign(id, expires) };
  }

  /** The PDF behind a link: 404 for a link this server did not sign (or has dropped), 410 once expired. */
  get(id: string, expires: unknown, signature: unknown): Uint8Array {
    return this.open(id, expires, signature).bytes;
  }

  /** {@link get} with the name the PDF was stored under. */
  open(id: string, expires: unknown, signature: unknown): StoredPdf {
    const notFound = () => new NotFoundError('No such download', 'url');
    if (typeof expires !== 'string' || !/^\d{1,16}$/.test(expires) || typeof signature !== 'string' || !signature)
      throw notFound();
    const at = Number(expires);
    if (!this.#verify(id, at, signature)) throw notFound();
    if (this.#now() >= at) {
      const e = this.#entries.get(id);
      if (e) this.#remove(id, e);
      throw new LinkExpiredError();
    }
    const entry = this.#entries.get(id);
    if (!entry) throw notFound();
    return { bytes: entry.bytes, name: entry.name };
  }

  get size(): number {
    return this.#entries.size;
  }

  get totalBytes(): number {
    return this.#bytes;
  }

  sweep(): void {
    const now = this.#now();
    for (const [id, e] of this.#entries) if (e.expiresAt <= now) this.#remove(id, e);
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #remove(id: string, e: Entry): void {
    this.#entries.delete(id);
    this.#bytes -= e.bytes.byteLength;
  }

  #sign(id: string, expires: number): string {
    return createHmac('sha256', this.#secret).update(`${id}.${expires}`).digest('base64url');
  }

  #verify(id: string, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.#sign(id, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
