import type { BlockList } from 'node:net';
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

/** Ranges content must not reach, as subnets (a table, not bit tests: one place to read and extend). */
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 16], // IETF protocol assignments (192.0.0.0/24) and TEST-NET-1
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 3], // multicast, reserved, broadcast
];

/**
 * IPv6 ranges refused whatever they carry. The three forms that put an IPv4 address in the low 32
 * bits without a prefix of their own (compatible ::/96, mapped ::ffff:0:0/96, translated
 * ::ffff:0:0:0/96) are refused outright: a dual-stack socket or a SIIT translator may turn each into
 * an IPv4 connection, and no public service is reached by such a spelling.
 */
const FORBIDDEN_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // ::, ::1 and IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation (RFC 8215): a private network's own NAT64
  ['100::', 64], // discard
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

let blockLists: { v4: BlockList; v6: BlockList } | undefined;

function forbiddenRanges(): { v4: BlockList; v6: BlockList } {
  if (blockLists) return blockLists;
  const v4 = new (net().BlockList)();
  for (const [address, prefix] of FORBIDDEN_V4) v4.addSubnet(address, prefix, 'ipv4');
  const v6 = new (net().BlockList)();
  for (const [address, prefix] of FORBIDDEN_V6) v6.addSubnet(address, prefix, 'ipv6');
  return (blockLists = { v4, v6 });
}

const dottedQuad = (bytes: number[]): string => bytes.join('.');

/**
 * The IPv4 address an IPv6 address leads to through a translation prefix: NAT64's well-known
 * 64:ff9b::/96, 6to4 2002::/16 (bytes 2-5), Teredo 2001::/32 (the client's address, bytes 12-15
 * inverted). Such an address is refused when the IPv4 address it carries is.
 */
function carriedV4(x: number[]): string | undefined {
  if (x[0] === 0x00 && x[1] === 0x64 && x[2] === 0xff && x[3] === 0x9b && x.slice(4, 12).every((b) => b === 0))
    return dottedQuad(x.slice(12));
  if (x[0] === 0x20 && x[1] === 0x02) return dottedQuad(x.slice(2, 6));
  if (x[0] === 0x20 && x[1] === 0x01 && x[2] === 0x00 && x[3] === 0x00)
    return dottedQuad(x.slice(12).map((b) => b ^ 0xff));
  return undefined;
}

function forbiddenV6(x: number[]): boolean {
  const { v4, v6 } = forbiddenRanges();
  // The canonical spelling of the 16 bytes, so the check does not depend on how the input was written.
  const canonical = Array.from({ length: 8 }, (_, i) => ((x[2 * i]! << 8) | x[2 * i + 1]!).toString(16)).join(':');
  if (v6.check(canonical, 'ipv6')) return true;
  const inner = carriedV4(x);
  return inner !== undefined && v4.check(inner, 'ipv4');
}

/**
 * Whether an IP address is one content must not reach: loopback, private,
 * link-local, CGNAT, multicast, unspecified and reserved ranges, IPv4 and IPv6,
 * every IPv6 spelling of an IPv4 address (mapped, translated, compatible) and the translation
 * prefixes (NAT64, 6to4, Teredo) that lead to a refused IPv4 address. Anything unparsable is refused.
 */
export function isForbiddenAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '');
  const kind = net().isIP(address.replace(/%.*$/, ''));
  if (kind === 4) {
    const bytes = v4Bytes(address);
    return !bytes || forbiddenRanges().v4.check(dottedQuad(bytes), 'ipv4');
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
