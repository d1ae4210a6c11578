/**
 * The packet workflow `castpress serve` runs: store, mail outbox and signing
 * identity under one data folder (SQLite unless a PostgreSQL URL is given),
 * mail over SMTP when asked, webhooks to loopback/private hosts only when allowed.
 */
import path from 'node:path';
import type { Engine } from '../../engine/index.js';
import {
  createPacketWorkflow,
  openPostgresStore,
  openSqliteStore,
  smtpMailer,
  type DocxConverterOptions,
  type OrganizationDirectory,
  type PacketStore,
} from '../../packets/index.js';
import { createSigningIdentity, LocalTimestampAuthority } from '../../signing/index.js';
import { ValidationError } from '../../errors/index.js';
import { guardedFetch } from '../../resources/index.js';
import type { PacketBackend } from './backend.js';
import { threadPacketWork } from '../packet-work.js';
import type { RenderPool } from '../render-pool.js';

export interface PacketDataOptions {
  /** Data folder: `packets/` (SQLite store and documents), `mail/` (.eml outbox), the signing CA. Default `./castpress-data`. */
  dataDir?: string;
  /** PostgreSQL connection string: the store (and documents) live there instead of `packets/`. */
  postgres?: string;
  /** `host:port` of an SMTP relay; without it emails are `.eml` files in `<data>/mail`. */
  smtp?: string;
  /** Hosts (`host` or `host:port`) webhooks may reach although they resolve to loopback or private addresses. */
  allowHosts?: readonly string[];
  /** The organization's webhook. */
  webhook?: { url?: string; token?: string; secret?: string };
  /** Each organization's settings (`--org`): names and mails, signer defaults, its webhook. */
  organizations?: OrganizationDirectory;
  /** Test hook: the workflow's clock. */
  clock?: () => Date;
  /** Test hook: start the dispatcher (default true). */
  deliver?: boolean;
  pollMs?: number;
  /** DOCX uploads' converter when packets are assembled in-process (startServer passes `engine.docx`). */
  docx?: DocxConverterOptions;
  /** The operator's identity (`--signing-p12`): completion seals name it instead of the local CA (#31). */
  signingP12?: { pkcs12: Uint8Array; passphrase: string };
  /**
   * `local` (`--tsa local`): the built-in TSA of the local CA timestamps every completion seal (B-LTA with
   * the local CA); an http(s) URL (`--tsa URL`, #31): that TSA, reached through the resolver's address
   * check with `allowHosts` (a TSA on loopback or a private address must be allow-listed).
   */
  tsa?: string;
  /**
   * How packets are signed (#31): `per-signer` (each signer's own signature, certificate of completion as
   * its own file) or `seal` (one seal at completion). The server's default stays `seal` for now (see README).
   */
  signatures?: 'per-signer' | 'seal';
  /** Per-signer: signature boxes show the signer, the time and the certificate's fingerprint (`--signature-details`). */
  signatureDetails?: boolean;
}

export interface PacketBackendOptions extends PacketDataOptions {
  engine: Engine;
  /** The server's database, opened by the caller (who closes it); without it the backend opens its own (and closes it). */
  store?: PacketStore;
  baseUrl: string;
  /** Worker threads for assembly, signing and completion (`startServer` passes its render pool); without it they run in-process. */
  threads?: RenderPool;
}

export const DEFAULT_DATA_DIR = 'castpress-data';

/** A TSA's address as `--tsa` takes it: an http(s) URL without credentials, else a ValidationError on `tsa` (#31). */
export function tsaUrlOf(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw ValidationError.of(
      'tsa',
      `--tsa takes "local" or an http(s) URL of an RFC 3161 timestamp authority, got ${value}`,
    );
  if (url.username || url.password)
    throw ValidationError.of('tsa', '--tsa: put no credentials in the URL (the command line is visible to every user)');
  return url.href;
}

export function parseHostPort(value: string, what: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new Error(`${what} must be host:port, got "${value}"`);
  return { host: m[1]!, port };
}

/** The server's database: PostgreSQL when a URL is given, else SQLite in `<data>/packets`. */
export async function openPacketDatabase(
  options: Pick<PacketDataOptions, 'dataDir' | 'postgres'>,
): Promise<PacketStore> {
  return options.postgres
    ? openPostgresStore({ connectionString: options.postgres })
    : openSqliteStore({ dir: path.join(path.resolve(options.dataDir ?? DEFAULT_DATA_DIR), 'packets') });
}

export async function openPacketBackend(options: PacketBackendOptions): Promise<PacketBackend> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const mailer = options.smtp ? smtpMailer(parseHostPort(options.smtp, '--smtp')) : undefined;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // The local CA (made on first use) names this server's CRL URL in its signing certificate and in
  // every certificate it issues, following the base URL when it changes (--public-url, else the
  // address listened on). The built-in TSA is the local CA's, so it is opened for `--tsa local` whatever signs the seals.
  const local =
    !options.signingP12 || options.tsa === 'local'
      ? await createSigningIdentity({ dataDir, crlBaseUrl: baseUrl })
      : undefined;
  const identity = options.signingP12 ? await createSigningIdentity(options.signingP12) : local!;
  const tsa = options.tsa === 'local' ? await LocalTimestampAuthority.open({ dataDir }) : undefined;
  const tsaUrl = options.tsa !== undefined && options.tsa !== 'local' ? tsaUrlOf(options.tsa) : undefined;
  const store: PacketStore = options.store ?? (await openPacketDatabase(options));
  const workflow = createPacketWorkflow({
    store,
    engine: options.engine,
    identity,
    ...(tsa ? { seal: { timestamp: { local: tsa } } } : {}),
    ...(tsaUrl
      ? { seal: { timestamp: { url: tsaUrl, fetch: guardedFetch({ allowHosts: options.allowHosts ?? [] }) } } }
      : {}),
    ...(options.threads
      ? {
          work: threadPacketWork({
            pool: options.threads,
            engine: options.engine,
            // The threads' CA names the same CRL address as this process's (the server's base URL).
            identity: options.signingP12 ?? { dataDir, crlBaseUrl: baseUrl },
            ...(tsa ? { timestamp: { local: { dataDir } } } : {}),
            ...(tsaUrl ? { timestamp: { url: tsaUrl, allowHosts: options.allowHosts ?? [] } } : {}),
          }),
        }
      : {}),
    baseUrl,
    mailer,
    mailDir: path.join(dataDir, 'mail'),
    webhook: { ...options.webhook, allowHosts: options.allowHosts },
    ...(options.organizations ? { organizations: options.organizations } : {}),
    clock: options.clock,
    deliver: options.deliver,
    pollMs: options.pollMs,
    ...(options.docx ? { docx: options.docx } : {}),
    signatures: options.signatures ?? 'seal',
    ...(options.signatureDetails ? { signatureDetails: true } : {}),
  });
  return {
    service: workflow.service,
    store,
    async close() {
      await workflow.close();
      if (!options.store) await store.close();
    },
  };
}
