import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { CFF_TO_GLYF_PY } from '../../../generated/font-convert-py.js';

/**
 * Author web fonts with CFF outlines (`.otf`, WOFF/WOFF2 of them) become TrueType (glyf) fonts before
 * Chromium sees them: Skia, Chromium's PDF backend, embeds CFF faces as Type 3 fonts (a path per glyph, no
 * font program), glyf faces as real CID TrueType subsets. The conversion is fontTools' (Debian's
 * python3-fonttools, which scripts/setup.sh installs for the Noto CJK copies too), run once per distinct
 * font: results are kept per content hash in a `WebFontCache`, an object its owner (the browser pool)
 * creates, bounded in bytes. A font that fails to convert is served as it came, with a warning.
 */

const sig = (body: Uint8Array, at: number): string =>
  body.byteLength >= at + 4 ? String.fromCharCode(body[at]!, body[at + 1]!, body[at + 2]!, body[at + 3]!) : '';

/** CFF-flavoured: an OpenType font with CFF outlines ('OTTO'), or a WOFF/WOFF2 wrapping one (its flavor). */
export function hasCffOutlines(body: Uint8Array): boolean {
  const head = sig(body, 0);
  if (head === 'OTTO') return true;
  return (head === 'wOFF' || head === 'wOF2') && sig(body, 4) === 'OTTO';
}

/** What `WebFontCache.prepare` gives Chromium for a downloaded font. */
export interface PreparedFont {
  body: Uint8Array;
  /** The body is the glyf conversion of the font that came in. */
  converted: boolean;
  /** Set when a CFF font could not be converted (it is served as it came, and embeds as Type 3). */
  problem?: string;
}

export interface WebFontCacheOptions {
  /** Bytes of converted fonts kept (default 64 MiB); the least recently used go first. */
  maxBytes?: number;
  /** The Python that has fontTools (default /usr/bin/python3, Debian's, where setup installs python3-fonttools). */
  python?: string;
  /** A conversion that takes longer is killed and the font served as it came (default 60 s). */
  timeoutMs?: number;
  /** Converter processes at once (default 2); more fonts wait their turn (a document may name hundreds). */
  maxConcurrent?: number;
}

interface Entry {
  result: Promise<PreparedFont>;
  /** Bytes of the converted font (0 for a failure). */
  bytes: number;
  done: boolean;
}

/** Fonts (converted or failed) kept at most, whatever their size. */
const MAX_ENTRIES = 1024;

/** Why a conversion failed, from the converter's stderr: its last line (Python's exception) or the exit. */
function failure(stderr: string, code: number | null, signal: NodeJS.Signals | null): string {
  const last = stderr.trim().split('\n').pop()?.trim();
  if (last) return last.slice(0, 300);
  return signal ? `converter killed (${signal})` : `converter exited with ${code}`;
}

/**
 * Converted web fonts by content hash (SHA-256 of the downloaded bytes). Concurrent requests for the same
 * font share one conversion. Failures are kept too (a broken font is not converted again per job).
 */
export class WebFontCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxBytes: number;
  readonly #python: string;
  readonly #timeoutMs: number;
  readonly #maxConcurrent: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  #bytes = 0;
  #conversions = 0;

  constructor(options: WebFontCacheOptions = {}) {
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#python = options.python ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent ?? 2));
  }

  /** Conversions started so far (cache misses on CFF fonts). */
  get conversions(): number {
    return this.#conversions;
  }

  /** Bytes of converted fonts held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The font Chromium should get: a CFF font's glyf conversion, anything else untouched (same object). */
  prepare(body: Uint8Array): Promise<PreparedFont> {
    if (!hasCffOutlines(body)) return Promise.resolve({ body, converted: false });
    const key = createHash('sha256').update(body).digest('hex');
    const hit = this.#entries.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.result;
    }
    this.#conversions++;
    const entry: Entry = { result: Promise.resolve({ body, converted: false }), bytes: 0, done: false };
    entry.result = this.#queued(() => this.#convert(body)).then(
      (ttf): PreparedFont => {
        this.#settle(key, entry, ttf.byteLength);
        return { body: ttf, converted: true };
      },
      (e: unknown): PreparedFont => {
        this.#settle(key, entry, 0);
        const why = e instanceof Error ? e.message : String(e);
        return {
          body,
          converted: false,
          problem: `CFF outlines not converted to TrueType (${why}): embedded as Type 3`,
        };
      },
    );
    this.#entries.set(key, entry);
    return entry.result;
  }

  /** Drops every kept font. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** A conversion ended: its bytes count, and the least recently used finished entries go past the bounds. */
  #settle(key: string, entry: Entry, bytes: number): void {
    if (this.#entries.get(key) !== entry) return; // cleared meanwhile
    entry.done = true;
    entry.bytes = bytes;
    this.#bytes += bytes;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.#maxBytes && this.#entries.size <= MAX_ENTRIES) break;
      if (!e.done) continue; // still converting: its requests wait for it
      this.#entries.delete(k);
      this.#bytes -= e.bytes;
    }
  }

  /** Runs `task` when fewer than `maxConcurrent` conversions are running. */
  async #queued<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot to the next waiter directly, so no newcomer slips in between.
    if (this.#running >= this.#maxConcurrent) await new Promise<void>((go) => this.#waiting.push(go));
    else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }

  #convert(body: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.#python, ['-c', CFF_TO_GLYF_PY], {
        stdio: ['pipe', 'pipe', 'pipe'],
        timeout: this.#timeoutMs,
      });
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
      child.on('error', (e) => reject(new Error(`${this.#python}: ${e.message}`)));
      child.on('close', (code, signal) => {
        const ttf = Buffer.concat(out);
        if (code === 0 && sig(ttf, 0) === '\x00\x01\x00\x00') resolve(new Uint8Array(ttf));
        else reject(new Error(failure(err, code, signal)));
      });
      // A converter that dies early closes its stdin: the write error is the exit's to report.
      child.stdin.on('error', () => undefined);
      child.stdin.end(body);
    });
  }
}
