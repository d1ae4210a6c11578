/**
 * RFC 3161 timestamps (PAdES B-T) through the caller's own fetch function: the engine
 * makes no network call by itself, so a caller decides which TSA hosts are reachable.
 */
import { HttpTimestampAuthority, type TimestampAuthority } from '@libpdf/core';

export interface TimestampOptions {
  /** The TSA's address (RFC 3161 over HTTP: POST application/timestamp-query). */
  url: string;
  /** Sends the request; e.g. `globalThis.fetch` or a resolver that allows only known hosts. */
  fetch: typeof globalThis.fetch;
  headers?: Record<string, string>;
  /** Default 30 s. */
  timeoutMs?: number;
}

export function timestampAuthority(options: TimestampOptions): TimestampAuthority {
  return new HttpTimestampAuthority(options.url, {
    fetch: options.fetch,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
}
