/**
 * What every operation of the workflow works with: the caller's options, the store, where the
 * PDF work runs, the clock. Made once by the façade (service.ts) and handed to each operation,
 * so operations are plain functions and hold no state of their own.
 */
import type { Engine } from '../../../engine/index.js';
import { AppearanceWriter, type SealOptions, type SigningIdentity } from '../../../signing/index.js';
import type { OrganizationDirectory, OrganizationSettings } from '../../request/org.js';
import type { SignatureMode } from '../../signatures/signer-signature.js';
import type { PacketStore } from '../../store/index.js';
import { inProcessWork, type PacketWork, type SignerSealInfo } from './work.js';

export interface PacketServiceOptions {
  store: PacketStore;
  engine: Engine;
  /** Seals completed documents. */
  identity: SigningIdentity;
  /**
   * Options of every completion seal, e.g. `{timestamp: {local: await LocalTimestampAuthority.open({dataDir})}}`
   * or `{timestamp: {url, fetch}}` (B-LTA with the local CA, B-T with a PKCS#12 identity).
   */
  seal?: Pick<SealOptions, 'timestamp' | 'level' | 'revocation'>;
  /** Public address of the server: signing URLs and download URLs start with it. */
  baseUrl: string;
  clock?: () => Date;
  /** Named in emails (reply-to defaults). */
  organization?: { name: string; supportEmail: string };
  /** From address of emails; default `"<organization> via castpress" <no-reply@castpress.local>`. */
  mailFrom?: string;
  /** The organization's webhook (a packet's `webhookURL` replaces its URL). */
  webhook?: { url?: string; token?: string };
  /**
   * Each organization's settings (src/packets/request/org.ts), by the packet's organization: they take
   * the place of `organization` and `webhook` for the packets of an organization that has them.
   */
  organizations?: OrganizationDirectory;
  /** Called after a commit that wrote outbox events (the dispatcher's poke). */
  onEvents?: () => void;
  writer?: AppearanceWriter;
  /**
   * `per-signer` (default): each signer's revision ends with their own signature (a certificate
   * the local CA issues for them), completion adds the final seal and the certificate of completion
   * as a file of its own. `seal`: marks drawn as page content, one seal at completion over the
   * document with the certificate appended as pages.
   */
  signatures?: SignatureMode;
  /**
   * Per-signer mode: when a packet is sent, each document gets the operator's certification
   * signature (DocMDP P=2: form filling and signing allowed after it) after every signer's mark
   * field is made. Default true; false leaves the documents uncertified.
   */
  certify?: boolean;
  /**
   * Per-signer mode: each signature box shows, under the signer's mark, "Digitally signed by
   * <name>", the signing time (UTC) and the SHA-256 fingerprint of the certificate their signature
   * was made with — a visible signature, as Acrobat and DocuSign draw one. Default false.
   */
  signatureDetails?: boolean;
  /** Where assembly, signing and completion run; default in-process (`inProcessWork`). The server passes worker threads. */
  work?: PacketWork;
}

/** The packet's signature mode (default per-signer). */
export function signatureMode(ctx: WorkflowContext): SignatureMode {
  return ctx.options.signatures ?? 'per-signer';
}

/** What a per-signer signature needs to know of the packet (undefined in one-seal mode). */
export function signerSealOf(ctx: WorkflowContext, packetEid: string, signerEid: string): SignerSealInfo | undefined {
  if (signatureMode(ctx) !== 'per-signer') return undefined;
  return { packetEid, signerEid, ...(ctx.options.signatureDetails ? { details: true } : {}) };
}

export interface WorkflowContext {
  readonly options: PacketServiceOptions;
  readonly store: PacketStore;
  readonly work: PacketWork;
  /** The workflow's clock, in epoch milliseconds. */
  now(): number;
  /** A stored document's bytes; a missing blob is an internal error (the records point at it). */
  blob(hash: string): Promise<Uint8Array>;
}

/** The settings of a packet's organization, when the workflow was given any. */
export function settingsOf(ctx: WorkflowContext, organization: string): OrganizationSettings | undefined {
  return ctx.options.organizations?.(organization);
}

export function workflowContext(options: PacketServiceOptions): WorkflowContext {
  const store = options.store;
  return {
    options,
    store,
    work:
      options.work ??
      inProcessWork(
        options.engine,
        options.identity,
        options.writer ?? new AppearanceWriter(),
        undefined,
        options.seal,
      ),
    now: () => (options.clock ? options.clock() : new Date()).getTime(),
    async blob(hash) {
      const bytes = await store.blobs.get(hash);
      if (!bytes) throw new Error(`Document ${hash} is missing from the blob store`);
      return bytes;
    },
  };
}
