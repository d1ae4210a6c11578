import type { LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { isForbiddenAddress } from './address-guard.js';
import { dns, httpClient, net } from './network-modules.js';
import type { ResolvedResource, ResourceKind, ResourceResolver } from './resolver.js';

/**
 * A ready resolver for public http(s) URLs. The address check happens here,
 * on the addresses the connection will use: the name is resolved once, every
 * address is checked (address-guard.ts), and the socket connects to the
 * checked address through the request's `lookup` hook, so a second DNS answer
 * cannot redirect it (no rebinding). Redirects are followed by hand (at most
 * `maxRedirects`) and each hop is checked the same way.
 *
 * The options are plain data (structured-clonable), so a worker thread can be
 * given them and build its own resolver (see README.md).
 */
export interface HttpResolverOptions {
  /** `host` or `host:port` let through the address check (tests reach a loopback server this way). */
  allowHosts?: string[];
  /** Largest body per kind, bytes (default: 10 MB images, 10 MB fonts, 2 MB stylesheets, 10 MB attachments, 10 MB other). */
  maxBytes?: Partial<Record<ResourceKind, number>>;
  /** Whole fetch, redirects included (default 15 s). */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
}

/** Responses by URL; created and owned by the caller (one per engine or server), never a module global. */
export class ResponseCache {
  readonly #entries = new Map<string, ResolvedResource>();
  #bytes = 0;
  constructor(readonly maxBytes = 64 * 1024 * 1024) {}
  get(url: string): ResolvedResource | undefined {
    return this.#entries.get(url);
  }
  set(url: string, res: ResolvedResource): void {
    if (res.body.byteLength > this.maxBytes) return;
    while (this.#bytes + res.body.byteLength > this.maxBytes && this.#entries.size) {
      const [oldest, entry] = this.#entries.entries().next().value as [string, ResolvedResource];
      this.#entries.delete(oldest);
      this.#bytes -= entry.body.byteLength;
    }
    this.#entries.set(url, res);
    this.#bytes += res.body.byteLength;
  }
}

const MB = 1024 * 1024;
const DEFAULT_MAX: Record<ResourceKind, number> = {
  image: 10 * MB,
  font: 10 * MB,
  webfont: 10 * MB,
  stylesheet: 2 * MB,
  attachment: 10 * MB,
  other: 10 * MB,
};

/**
 * The spec's font rule: a font file is used only when its response says `font/ttf` or
 * `application/x-font-ttf` (parameters aside, any case); any other or no content type means it is ignored.
 */
export function isTtfContentType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]!.trim().toLowerCase();
  return type === 'font/ttf' || type === 'application/x-font-ttf';
}

/** Why a font response was ignored for its content type, in the words of a resource warning. */
export function ttfContentTypeProblem(contentType: string | undefined): string {
  return `content type ${contentType ?? '(none)'} is not font/ttf or application/x-font-ttf`;
}

/** Content types accepted per kind (spec: fonts TTF only; images as image/*). Missing type: the decoder decides. */
function acceptedType(kind: ResourceKind, contentType: string | undefined): boolean {
  // Fonts for fill and Markdown and HTML's @font-face sources alike.
  if (kind === 'font' || kind === 'webfont') return isTtfContentType(contentType);
  if (!contentType) return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (kind === 'image') return type.startsWith('image/') || type === 'application/octet-stream';
  if (kind === 'stylesheet') return type === 'text/css';
  return true;
}

/** Thrown (and turned into a refusal by loadResource) with a reason the caller can log. */
export class FetchRefused extends Error {
  override name = 'FetchRefused';
}

function allowed(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowHosts.some((entry) => {
    const e = entry.toLowerCase();
    return e === host || e === `${host}:${port}` || e === `[${host}]:${port}`;
  });
}

/** A lookup has no timeout of its own: the fetch's deadline ends it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves once and checks every address; returns the one to connect to (webhook delivery uses it too). */
export async function checkedAddress(
  url: URL,
  allowHosts: readonly string[],
  signal: AbortSignal,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const name = host.toLowerCase().replace(/\.$/, '');
  const pass = allowed(url, allowHosts);
  // 4 or 6 for an IP literal, 0 for a name.
  const literal = net().isIP(host);
  let addresses: LookupAddress[];
  if (literal) addresses = [{ address: host, family: literal as 4 | 6 }];
  else {
    if (!pass && (name === 'localhost' || name.endsWith('.localhost')))
      throw new FetchRefused(`${host} is not a public host`);
    try {
      addresses = await abortable(dns().lookup(host, { all: true, verbatim: true }), signal);
    } catch (e) {
      throw new FetchRefused(`${host}: ${(e as { code?: string }).code ?? 'lookup failed'}`);
    }
  }
  if (addresses.length === 0) throw new FetchRefused(`${host} has no address`);
  if (!pass) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad)
      throw new FetchRefused(literal ? `${host} is not a public address` : `${host} resolves to a non-public address`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s).request that answers the checked address: the connection goes there, whatever DNS says now. */
export function pinnedLookup(target: { address: string; family: 4 | 6 }): LookupFunction {
  return (_host, options, cb) => {
    if (options?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
}

interface Hop {
  status: number;
  location?: string;
  contentType?: string;
  body?: Uint8Array;
}

function requestOnce(
  url: URL,
  target: { address: string; family: 4 | 6 },
  maxBytes: number,
  signal: AbortSignal,
): Promise<Hop> {
  const client = httpClient(url.protocol);
  return new Promise<Hop>((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET',
      signal,
      headers: { 'user-agent': 'castpress', accept: '*/*' },
      lookup: pinnedLookup(target),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const contentType = res.headers['content-type'];
      if (status >= 300 && status < 400) {
        res.resume();
        resolve({ status, location: res.headers.location, contentType });
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        reject(new FetchRefused(`larger than ${maxBytes} bytes`));
        return;
      }
      readBody(res, maxBytes, `larger than ${maxBytes} bytes`).then(
        (body) => resolve({ status, contentType, body: new Uint8Array(body) }),
        reject,
      );
    });
    req.end();
  });
}

/** The body of `res`; past `maxBytes` the response is dropped and the answer is a FetchRefused saying `tooLarge`. */
export function readBody(res: IncomingMessage, maxBytes: number, tooLarge: string): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new FetchRefused(tooLarge));
        return;
      }
      chunks.push(chunk);
    });
    res.on('error', reject);
    res.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * A resolver for http(s) URLs with the address check, limits and cache above.
 * It refuses (throws FetchRefused, which loadResource turns into "not loaded")
 * rather than returning partial data.
 */
export function httpResolver(
  options: HttpResolverOptions = {},
  cache: ResponseCache = new ResponseCache(),
): ResourceResolver {
  const allowHosts = options.allowHosts ?? [];
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const resolve = async (href: string, kind: ResourceKind): Promise<ResolvedResource> => {
    const cached = cache.get(`${kind} ${href}`);
    if (cached) return cached;
    const maxBytes = options.maxBytes?.[kind] ?? DEFAULT_MAX[kind];
    const signal = AbortSignal.timeout(timeoutMs);
    let url = new URL(href);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new FetchRefused(`${url.protocol} is not fetched`);
      if (url.username || url.password) throw new FetchRefused('credentials in URL');
      const target = await checkedAddress(url, allowHosts, signal);
      const res = await requestOnce(url, target, maxBytes, signal);
      if (res.location !== undefined) {
        if (hop >= maxRedirects) throw new FetchRefused(`more than ${maxRedirects} redirects`);
        url = new URL(res.location, url);
        continue;
      }
      if (res.status !== 200 || !res.body) throw new FetchRefused(`status ${res.status}`);
      if (!acceptedType(kind, res.contentType))
        throw new FetchRefused(
          kind === 'font' || kind === 'webfont'
            ? ttfContentTypeProblem(res.contentType)
            : `content type ${res.contentType ?? '(none)'} is not an accepted ${kind} type`,
        );
      const out: ResolvedResource = { body: res.body, ...(res.contentType ? { contentType: res.contentType } : {}) };
      cache.set(`${kind} ${href}`, out);
      return out;
    }
  };
  return Object.assign(resolve, { guardsAddresses: true as const });
}
