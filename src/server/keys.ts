import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DEFAULT_ORGANIZATION, type PacketScope } from '../packets/index.js';

export type KeyKind = 'development' | 'production';

export interface ApiKey {
  /** The key (Basic user name) or the bearer token, as the client knows it. */
  key: string;
  kind: KeyKind;
  /** Simultaneous requests allowed; development keys default to DEFAULT_DEV_CONCURRENCY, production keys are unlimited. */
  concurrency?: number;
  /**
   * The organization the key belongs to: it sees only its organization's packets. Keys naming
   * none all belong to one default organization (DEFAULT_ORGANIZATION), so older keys files keep working.
   */
  organization?: string;
  /**
   * What the dashboard and a template's version list show for this key (who published a version):
   * 1–100 characters. Default the first 12 hex digits of the key's SHA-256 (never the key itself).
   */
  label?: string;
}

export interface ServerConfig {
  keys: ApiKey[];
  /** HMAC secret for signed download URLs; a random one per server start when omitted. */
  signingSecret?: string;
  /** What X-RateLimit-Limit / X-RateLimit-Interval-Ms announce (the Node client throttles itself to it). */
  rateLimit?: { limit: number; intervalMs: number };
}

const DEFAULT_DEV_CONCURRENCY = 2;
export const DEFAULT_RATE_LIMIT = { limit: 40, intervalMs: 1000 };

const configSchema = z.object({
  keys: z
    .array(
      z.object({
        key: z.string().min(1),
        kind: z.enum(['development', 'production']),
        concurrency: z.number().int().min(1).optional(),
        organization: z.string().min(1).max(200).optional(),
        label: z.string().trim().min(1).max(100).optional(),
      }),
    )
    .min(1),
  signingSecret: z.string().min(16).optional(),
  rateLimit: z.object({ limit: z.number().int().min(1), intervalMs: z.number().int().min(1) }).optional(),
});

/** Reads and checks a keys file; the message names the offending property so a typo is quick to find. */
export async function loadServerConfig(file: string): Promise<ServerConfig> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read keys file ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseServerConfig(json, file);
}

export function parseServerConfig(json: unknown, source = 'config'): ServerConfig {
  const r = configSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `Invalid ${source}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`,
    );
  }
  return r.data;
}

/**
 * The keys of a keys file that name no organization, as a start-up warning names them: their place in
 * the file and the first 12 hex digits of their SHA-256 (never the key). They all belong to the default
 * organization, so each sees every packet the others make.
 */
export function keysWithoutOrganization(config: ServerConfig): string[] {
  return config.keys.flatMap((k, i) =>
    k.organization === undefined ? [`keys[${i}] (${k.kind}, sha256 ${digest(k.key).slice(0, 12)})`] : [],
  );
}

/** A known key as the server holds it: never the key itself, only its digest. */
export interface KeyEntry {
  id: string;
  kind: KeyKind;
  concurrency: number;
  /** The key's organization (DEFAULT_ORGANIZATION when the keys file names none). */
  organization: string;
  /** The keys file's `label`, else `id`: what a person is shown of the key. */
  label: string;
  /** SHA-256 (hex) of the key: what a dashboard session or an embed link keeps to find it again. */
  digest: string;
}

/** What a key may see of the packets: its organization's, and only test packets for a development key. */
export function packetScopeOf(key: KeyEntry): PacketScope {
  return { organization: key.organization, testOnly: key.kind === 'development' };
}

function digest(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

/**
 * Looks keys up by their SHA-256 so the comparison takes the same time whatever
 * prefix a guess shares with a real key.
 */
export class KeyRing {
  readonly #byDigest = new Map<string, KeyEntry>();

  constructor(keys: ApiKey[]) {
    for (const k of keys) {
      const id = digest(k.key);
      const concurrency =
        k.concurrency ?? (k.kind === 'development' ? DEFAULT_DEV_CONCURRENCY : Number.POSITIVE_INFINITY);
      this.#byDigest.set(id, {
        id: id.slice(0, 12),
        kind: k.kind,
        concurrency,
        organization: k.organization ?? DEFAULT_ORGANIZATION,
        label: k.label ?? id.slice(0, 12),
        digest: id,
      });
    }
  }

  find(candidate: string): KeyEntry | undefined {
    return this.#byDigest.get(digest(candidate));
  }

  /** The key whose SHA-256 (hex) is `hash`: a dashboard session keeps the digest, never the key. */
  byDigest(hash: string): KeyEntry | undefined {
    return this.#byDigest.get(hash);
  }

  /** The SHA-256 (hex) a key is held by. */
  static digestOf(key: string): string {
    return digest(key);
  }
}
