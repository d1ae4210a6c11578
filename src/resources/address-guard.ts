import { dns, net } from './network-modules.js';

/**
 * Content must never make the engine reach the machine it runs on or its
 * private network, even through a caller's resolver that would fetch anything.
 * The decision is made on addresses, not on spelling: every address a host
 * name resolves to is checked, and IP literals in any form Node accepts.
 */

/** Resolves a host name to all its addresses (injectable for tests). */
export type LookupAll = (hostname: string) => Promise<string[]>;

const systemLookup: LookupAll = async (hostname) =>
  (await dns().lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** DNS answers that mean "this name has no address": the caller's resolver may still serve it (made-up test hosts). */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_AGAIN', 'ESERVFAIL', 'ENONAME']);

/** How long a lookup may take before the URL is refused. */
const LOOKUP_TIMEOUT_MS = 3000;

function v4Bytes(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : null;
}

/** 16 bytes of an IPv6 address (with an optional dotted IPv4 tail), or null. */
function v6Bytes(ip: string): number[] | null {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Bytes(dotted[1]!);
    if (!v4) return null;
    tail = v4;
    text = text.slice(0, dotted.index) + '0:0';
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const words = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...rest];
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return null;
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function forbiddenV4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network", unspecified
    a === 10 || // private
    a === 127 || // loopback
    (a === 100 && b! >= 64 && b! <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b! >= 16 && b! <= 31) || // private
    (a === 192 && b === 168) || // private
    (a === 192 && b === 0) || // IETF protocol assignments (192.0.0.0/24) and TEST-NET-1
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a! >= 224 // multicast, reserved, broadcast
  );
}

function forbiddenV6(x: number[]): boolean {
  const zeroUpTo = (n: number): boolean => x.slice(0, n).every((b) => b === 0);
  if (zeroUpTo(10) && x[10] === 0xff && x[11] === 0xff) return true; // IPv4-mapped ::ffff:0:0/96
  if (zeroUpTo(12)) return true; // ::, ::1 and IPv4-compatible ::/96
  if (x[0] === 0x00 && x[1] === 0x64 && x[2] === 0xff && x[3] === 0x9b && x.slice(4, 12).every((b) => b === 0)) {
    return forbiddenV4(x.slice(12)); // NAT64 64:ff9b::/96 carries an IPv4 address
  }
  if (x[0] === 0x20 && x[1] === 0x02) return forbiddenV4(x.slice(2, 6)); // 6to4 2002::/16
  if ((x[0]! & 0xfe) === 0xfc) return true; // unique local fc00::/7
  if (x[0] === 0xfe && (x[1]! & 0xc0) === 0x80) return true; // link-local fe80::/10
  if (x[0] === 0xfe && (x[1]! & 0xc0) === 0xc0) return true; // site-local fec0::/10 (deprecated)
  if (x[0] === 0xff) return true; // multicast
  if (x[0] === 0x01 && x[1] === 0x00 && x.slice(2, 8).every((b) => b === 0)) return true; // discard 100::/64
  return false;
}

/**
 * Whether an IP address is one content must not reach: loopback, private,
 * link-local, CGNAT, multicast, unspecified and reserved ranges, IPv4 and IPv6,
 * including IPv4-mapped and IPv4-compatible IPv6. Anything unparsable is refused.
 */
export function isForbiddenAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '');
  const kind = net().isIP(address.replace(/%.*$/, ''));
  if (kind === 4) {
    const bytes = v4Bytes(address);
    return !bytes || forbiddenV4(bytes);
  }
  if (kind === 6) {
    const bytes = v6Bytes(address);
    return !bytes || forbiddenV6(bytes);
  }
  return true;
}

/**
 * Whether `url` (http or https) may be handed to the caller's resolver: its
 * host is an allowed IP literal, or a name none of whose addresses is
 * forbidden. A name that resolves nowhere is left to the resolver (it cannot
 * reach anything through DNS either); `localhost` names are refused without a lookup.
 */
export async function isPublicUrl(url: string, lookup: LookupAll = systemLookup): Promise<boolean> {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    host = parsed.hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return false;
  }
  if (host === '') return false;
  if (net().isIP(host)) return !isForbiddenAddress(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      lookup(host),
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })),
            LOOKUP_TIMEOUT_MS,
          )),
      ),
    ]);
    return addresses.every((a) => !isForbiddenAddress(a));
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    return NO_ADDRESS.has(code);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lookups shared by one owner (a browser pool): concurrent and recent lookups
 * of the same name become one query. A document with hundreds of resources on
 * one host otherwise sends hundreds of parallel queries, which resolvers
 * throttle (seen here: 100 parallel queries took 5-30 s, so they timed out and
 * the resources were refused). Results, failures included, live `ttlMs`.
 */
export class HostLookup {
  readonly #cache = new Map<string, { until: number; addresses: Promise<string[]> }>();
  readonly #ttlMs: number;
  readonly #base: LookupAll;

  constructor(options: { ttlMs?: number; lookup?: LookupAll } = {}) {
    this.#ttlMs = options.ttlMs ?? 5000;
    this.#base = options.lookup ?? systemLookup;
  }

  readonly lookup: LookupAll = (hostname) => {
    const now = Date.now();
    const hit = this.#cache.get(hostname);
    if (hit && hit.until > now) return hit.addresses;
    if (this.#cache.size >= 1000) {
      for (const [k, v] of this.#cache) if (v.until <= now) this.#cache.delete(k);
      if (this.#cache.size >= 1000) this.#cache.clear();
    }
    const addresses = this.#base(hostname);
    addresses.catch(() => undefined);
    this.#cache.set(hostname, { until: now + this.#ttlMs, addresses });
    return addresses;
  };
}
