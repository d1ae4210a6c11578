/**
 * A `fetch` for requests castpress sends itself (an RFC 3161 timestamp request: POST with a body),
 * with the resolver's address check (`--tsa URL`): the host's addresses are checked as
 * `httpResolver` checks them (a loopback, private or link-local address only when `allowHosts`
 * names the host), and the socket connects to the checked address. No redirects are followed (a
 * TSA answers where it is asked); the answer is capped in size and time.
 */
import http from 'node:http';
import https from 'node:https';
import { checkedAddress, FetchRefused, pinnedLookup, readBody } from './http-resolver.js';

export interface GuardedFetchOptions {
  /** `host` or `host:port` let through the address check (a TSA on loopback must be named here). */
  allowHosts?: readonly string[];
  /** Whole request (default 30 s). */
  timeoutMs?: number;
  /** Largest answer (default 1 MB). */
  maxBytes?: number;
}

function bodyOf(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new FetchRefused('unsupported request body');
}

export function guardedFetch(options: GuardedFetchOptions = {}): typeof globalThis.fetch {
  const allowHosts = options.allowHosts ?? [];
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`${url.protocol} is not fetched`);
    if (url.username || url.password) throw new FetchRefused('credentials in URL');
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    const target = await checkedAddress(url, allowHosts, signal);
    const body = bodyOf(init?.body);
    const headers: Record<string, string> = { 'user-agent': 'castpress' };
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    if (body) headers['content-length'] = String(body.byteLength);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(url, { method: init?.method ?? 'GET', signal, headers, lookup: pinnedLookup(target) });
      req.on('error', reject);
      req.on('response', (res) => {
        readBody(res, maxBytes, `answer larger than ${maxBytes} bytes`).then((answer) => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
          resolve(new Response(answer, { status: res.statusCode ?? 502, headers: out }));
        }, reject);
      });
      req.end(body);
    });
  };
}
