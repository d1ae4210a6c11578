/**
 * What the workflow keeps, one record type per table. Times are epoch milliseconds;
 * JSON columns hold the values named here. Records are plain data: the store reads
 * and writes them, the workflow decides what they become.
 */
import type { MergedField, PlannedField } from '../assemble/plan.js';
import type { Signer } from '../request/request.js';

/** The organization of packets made without one (library use, keys naming none, rows from before organizations). */
export const DEFAULT_ORGANIZATION = 'default';

export type PacketStatus = 'draft' | 'sent' | 'partial' | 'complete';

/**
 * `draft` while the packet is a draft; `sent` once it is sent (every signer not pending, as
 * the hosted service shows them); `viewed` after opening the signing page; `completed`.
 * `pending`: a pending signer not yet activated; `skipped`: a pending signer whose round
 * came with only pending signers left (its data and signature never appear).
 */
export type SignerStatus = 'draft' | 'sent' | 'viewed' | 'completed' | 'pending' | 'skipped';

export interface PacketRecord {
  eid: string;
  /** The packet's one document group. */
  groupEid: string;
  /** The organization whose keys see the packet (fixed at creation). */
  organization: string;
  name: string;
  status: PacketStatus;
  isTest: boolean;
  allowUpdates: boolean;
  mergePDFs: boolean;
  webhookURL: string | null;
  /** Blob holding the createEtchPacket request as JSON, uploads as base64 and `data` left out (it is `payload`). */
  requestHash: string;
  /** `data.payloads` as it is now (decrypted). */
  payload: Record<string, { data: Record<string, unknown>; filename?: string }>;
  /** Packet options the workflow needs later (email subject/body, reply-to, page options). */
  options: PacketOptionsRecord;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  /** Bumped by every committed change: a step computed from an older version is refused and retried. */
  version: number;
}

/** A packet as a list shows it. */
export type PacketListing = Pick<
  PacketRecord,
  'eid' | 'groupEid' | 'name' | 'status' | 'isTest' | 'createdAt' | 'updatedAt' | 'completedAt'
>;

/** Which packets of an organization a list asks for: `q` is part of the name (any case). */
export interface PacketListFilter {
  organization: string;
  q?: string;
  isTest?: boolean;
  limit: number;
  offset: number;
}

export interface PacketOptionsRecord {
  signatureEmailSubject?: string;
  signatureEmailBody?: string;
  replyToName?: string;
  replyToEmail?: string;
  signaturePageOptions?: unknown;
  /** Warnings of the assembly the client is shown (`EtchPacket.warnings`): active content removed from uploads. */
  warnings?: string[];
  /** `duplicateCasts` of the request: true freezes the templates' versions at creation. */
  duplicateCasts?: boolean;
  /**
   * The template versions the documents were made from, by index in the request's `files`.
   * Absent on packets made before templates were followed: those keep what they have.
   */
  templates?: TemplateVersionRecord[];
  /** `<castEid>@<version>` of template versions a by-reference packet could not take (kept so they are tried once). */
  refusedTemplates?: string[];
}

/** A template file of the request and the template version its document was made from. */
export interface TemplateVersionRecord {
  file: number;
  castEid: string;
  versionNumber: number;
  /** The request named this version itself (`files[i].versionNumber`): never followed. */
  pinned?: boolean;
}

export interface DocumentRecord {
  packetEid: string;
  /** Order in the group. */
  index: number;
  /** The file id of the request, or `merged` for the one merged PDF. */
  fileId: string;
  filename: string;
  title: string | null;
  pageCount: number;
  /** Blob of the document as assembled (before any signer). */
  assembledHash: string;
  /** Blob of the document as it is now (after the signers so far; sealed once complete). */
  currentHash: string;
  /** The document's fields as planned, each saying whose ids and pages it carries. */
  fields: DocumentField[];
}

/**
 * A field as stored with its document. `file`: the document is one of the request's files, and
 * `fieldId`/`pageNum` are its id and page there. `merged`: the document is the merged PDF, where the
 * field is `mergedFieldId` on `mergedPageNum` (its file's id and page are kept beside them).
 */
export type DocumentField = (PlannedField & { kind: 'file' }) | (MergedField & { kind: 'merged' });

/** The signer as parsed at creation, with what changed since: name, email, when an on-load name/email was entered. */
export type StoredSigner = Signer & {
  /** Set when a signer asked for their name on opening (`requireNameOnLoad`) entered it. */
  nameEnteredAt?: number;
  /** Set when a signer asked for their email on opening (`requireEmailOnLoad`) entered it. */
  emailEnteredAt?: number;
  /**
   * An in-person signer's hand-over: the name they typed matched, for the URL of token
   * `tokenEid` (a new URL asks again), at `at`.
   */
  handedOver?: { tokenEid: string; at: number; name: string };
  /** The signer's audit trail beyond the record's own times: what the certificate of completion lists. */
  audit?: SignerAudit;
};

/** What the signing page's requests told the server, kept for the certificate of completion. */
export interface SignerAudit {
  /** Each opening of the signing page before signing, oldest first (the last `MAX_AUDIT_VIEWS`). */
  views?: Array<{ at: number; ip?: string; userAgent?: string }>;
  /** Openings left out of `views` (past the cap). */
  viewsDropped?: number;
  /** The boxes the page said were accepted, as submitted (document index, field id). */
  accepted?: Array<{ document: number; fieldId: string }>;
  /** The IANA time zone the signing page reported with the submit (recorded only; see submit-signing.ts). */
  timeZone?: string;
}

/** Views kept per signer: a page reloaded in a loop must not grow the record without end. */
export const MAX_AUDIT_VIEWS = 100;

export interface SignerRecord {
  eid: string;
  packetEid: string;
  /** The `id` given at creation. */
  aliasId: string;
  index: number;
  routingOrder: number;
  name: string | null;
  email: string | null;
  signerType: string;
  status: SignerStatus;
  /** Pending (`isPending`) and not yet activated. */
  pending: boolean;
  /** The signer object as parsed (options the signing page and emails read). */
  signer: StoredSigner;
  /** Blob of the inputs the signer submitted (replayed when documents are re-rendered). */
  inputsHash: string | null;
  clientUserId: string | null;
  sentAt: number | null;
  viewedAt: number | null;
  signedAt: number | null;
  ip: string | null;
  userAgent: string | null;
}

/** `email`/`embedded` open the signing page; `download` only fetches the completed documents (etchComplete mail). */
export type TokenType = 'email' | 'embedded' | 'download';

export interface TokenRecord {
  eid: string;
  signerEid: string;
  /** SHA-256 of the token (hex); the token itself is never stored. */
  hash: string;
  type: TokenType;
  createdAt: number;
  validUntil: number;
  invalidatedAt: number | null;
  /** When the signer finished signing with this token. */
  signedAt: number | null;
}

export type OutboxKind = 'webhook' | 'email';
export type OutboxStatus = 'pending' | 'delivered' | 'failed';

/** Which outbox events of an organization's packets a list asks for. */
export interface OutboxListFilter {
  organization: string;
  /** Only events of test packets (a development key's view). */
  testOnly?: boolean;
  kind?: OutboxKind;
  status?: OutboxStatus;
  limit: number;
  offset: number;
}

export interface OutboxRecord {
  /** Stable event id: the same on every delivery attempt. */
  id: string;
  packetEid: string;
  kind: OutboxKind;
  /** What to deliver (a webhook body or the description of an email). */
  payload: Record<string, unknown>;
  status: OutboxStatus;
  attempts: number;
  /** Not before this time (back-off). */
  nextAttemptAt: number;
  /** A dispatcher holds the event until this time (several instances never deliver at once). */
  leaseUntil: number;
  lastError: string | null;
  /**
   * The HTTP status the receiver answered to the last attempt (a webhook's, 2xx or not); null for mail,
   * for an attempt that got no answer (refused connection, timeout) and for events stored before the
   * store kept it.
   */
  responseCode: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** What a delivery attempt changes on its event. */
export type OutboxOutcome = Pick<
  OutboxRecord,
  'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'responseCode' | 'deliveredAt'
>;
