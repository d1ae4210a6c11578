/**
 * JSON of request bodies, whatever their shape (a REST or `/graphql` body, a multipart
 * `data`/`operations` part or a part declared JSON): small ones are parsed on the event
 * loop, larger ones on a worker thread (parsing megabytes on the event loop stalls every other
 * request for as long). What the thread hands back is rebuilt on
 * the event loop at a cost in proportion to its number of values, so a large body may
 * hold only so many: large bodies are for base64 uploads (one long string each), which
 * cross cheaply.
 */
import type { JsonOutcome, JsonTask } from '../../batch/index.js';
import { CastpressError } from '../../errors/index.js';
import { parseJsonBody } from '../../schema/index.js';
import type { RenderPool } from '../pool/render-pool.js';

export interface JsonBodyLimits {
  /** Bodies (and `operations` parts) up to this many bytes are parsed on the event loop. Default 1 MiB. */
  inlineBytes: number;
  /** Values (objects, arrays, strings, numbers…) a larger body may hold; more is a 413 on `body`. Default 50,000. */
  maxValues: number;
}

export const DEFAULT_JSON_BODY_LIMITS: JsonBodyLimits = { inlineBytes: 1024 * 1024, maxValues: 50_000 };

/** Parses JSON text or bytes; rejects with the typed 400 (invalid) or 413 (too many values) naming `property`. */
export type JsonBodyParser = (raw: Uint8Array | string, property: string) => Promise<unknown>;

const text = (raw: Uint8Array | string) =>
  typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');

/** Without a pool (a library's `buildApp`), a large body is parsed here, with the same bound on its values. */
export function jsonBodyParser(
  pool: RenderPool | undefined,
  limits: JsonBodyLimits = DEFAULT_JSON_BODY_LIMITS,
): JsonBodyParser {
  return async (raw, property) => {
    const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.byteLength;
    if (size <= limits.inlineBytes) return parseJsonBody(text(raw), property);
    if (!pool) return parseJsonBody(text(raw), property, limits.maxValues);
    const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
    const task: JsonTask = { bytes, property, maxValues: limits.maxValues };
    const outcome = (await pool.step(
      'json',
      task,
      { what: 'Reading the JSON body', property },
      pool.deadlineMs,
    )) as JsonOutcome;
    if (!outcome.ok)
      throw new CastpressError(outcome.error.name, outcome.status, outcome.error.message, outcome.error.fields);
    return outcome.value;
  };
}
