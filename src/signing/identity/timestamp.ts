/**
 * RFC 3161 timestamps (PAdES B-T, and the document timestamp of B-LTA): through the caller's own
 * fetch function (the engine makes no network call by itself, so a caller decides which TSA hosts
 * are reachable), or from the built-in TSA of the local CA (`tsa-local.ts`), with no network at all.
 */
import { HttpTimestampAuthority, type TimestampAuthority } from '@libpdf/core';
import { CastpressError, SigningError } from '../../errors/index.js';
import type { LocalTimestampAuthority } from './local-tsa.js';

export interface HttpTimestampOptions {
  /** The TSA's address (RFC 3161 over HTTP: POST application/timestamp-query). */
  url: string;
  /** Sends the request; e.g. `globalThis.fetch` or a resolver that allows only known hosts. */
  fetch: typeof globalThis.fetch;
  headers?: Record<string, string>;
  /** Default 30 s. */
  timeoutMs?: number;
}

export interface LocalTimestampOptions {
  /** The built-in TSA (`LocalTimestampAuthority.open({dataDir})`): proves order and the CA's clock only. */
  local: LocalTimestampAuthority;
}

export type TimestampOptions = HttpTimestampOptions | LocalTimestampOptions;

/** True for either form (the seal's option schema). */
export function isTimestampOptions(v: unknown): v is TimestampOptions {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Partial<HttpTimestampOptions & LocalTimestampOptions>;
  return typeof o.fetch === 'function' || (typeof o.local === 'object' && typeof o.local?.timestamp === 'function');
}

export function timestampAuthority(options: TimestampOptions): TimestampAuthority {
  if ('local' in options) return options.local;
  return new HttpTimestampAuthority(options.url, {
    fetch: options.fetch,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
}
