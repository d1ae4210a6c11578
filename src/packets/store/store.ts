/**
 * The workflow's persistence contract. One implementation over SQL serves the
 * embedded database (SQLite through libsql) and PostgreSQL; documents live in a
 * blob store addressed by content hash, written before the transaction that
 * points at them commits, so a crash leaves at most an unreferenced blob.
 */
import type {
  DocumentRecord,
  OutboxKind,
  OutboxListFilter,
  OutboxOutcome,
  OutboxRecord,
  OutboxStatus,
  PacketListFilter,
  PacketListing,
  PacketRecord,
  SignerRecord,
  TokenRecord,
} from './records.js';
import type { WorkflowRunQueries, WorkflowRunWrites } from './workflow-run-records.js';
import type { TemplateCatalogue } from '../../template/index.js';
import type { SessionRecords } from './sql-sessions.js';

/** Reads and writes of one transaction (or of the store outside one, for reads). */
export interface PacketQueries {
  packet(eid: string): Promise<PacketRecord | undefined>;
  packetByGroup(groupEid: string): Promise<PacketRecord | undefined>;
  /** An organization's packets, newest first, a page at a time, and how many match in all. */
  packetList(filter: PacketListFilter): Promise<{ packets: PacketListing[]; total: number }>;
  documents(packetEid: string): Promise<DocumentRecord[]>;
  signers(packetEid: string): Promise<SignerRecord[]>;
  signer(eid: string): Promise<SignerRecord | undefined>;
  tokens(signerEid: string): Promise<TokenRecord[]>;
  outbox(filter: { packetEid?: string; kind?: OutboxKind; status?: OutboxStatus }): Promise<OutboxRecord[]>;
  /** An organization's outbox events, newest first, a page at a time, and how many match in all. */
  outboxList(filter: OutboxListFilter): Promise<{ events: OutboxRecord[]; total: number }>;
  /** How many events have `status`, counted by the database (no record read: failed events are never removed). */
  outboxCount(status: OutboxStatus): Promise<number>;
  /** The workflows' runs and submissions (src/workflows), in the same database and transactions. */
  readonly welds: WorkflowRunQueries;
}

export interface PacketWrites extends PacketQueries {
  /** The packet, locked until the transaction ends (other instances wait). */
  lockPacket(eid: string): Promise<PacketRecord | undefined>;
  insertPacket(p: PacketRecord): Promise<void>;
  /** Writes `p` with `version + 1` when the stored version is still `p.version`; false when someone else changed it. */
  updatePacket(p: PacketRecord): Promise<boolean>;
  /** Replaces the packet's documents. */
  putDocuments(packetEid: string, docs: DocumentRecord[]): Promise<void>;
  insertSigner(s: SignerRecord): Promise<void>;
  updateSigner(s: SignerRecord): Promise<void>;
  insertToken(t: TokenRecord): Promise<void>;
  /**
   * Marks every valid signing token of the signer invalid at `at` (all but `except`, when given); how many.
   * Download tokens (type `download`) are left alone: they do not sign.
   */
  invalidateTokens(signerEid: string, at: number, except?: string): Promise<number>;
  markTokenSigned(eid: string, at: number): Promise<void>;
  insertOutbox(e: OutboxRecord): Promise<void>;
  readonly welds: WorkflowRunWrites;
}

export interface BlobStore {
  /** Stores bytes under their SHA-256 (hex) and returns it; storing the same bytes again is free. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes, or undefined when no blob has that hash. */
  get(hash: string): Promise<Uint8Array | undefined>;
}

export interface PacketStore extends PacketQueries {
  readonly kind: 'sqlite' | 'postgres';
  readonly blobs: BlobStore;
  /** Organizations' editable templates (the dashboard, createCast), which fills and packets find by EID. */
  readonly templates: TemplateCatalogue;
  /** Dashboard sessions: every instance on the database honours them. */
  readonly sessions: SessionRecords;
  /** Runs `fn` in one transaction: all of its writes or none. */
  transaction<T>(fn: (tx: PacketWrites) => Promise<T>): Promise<T>;
  /** Leases up to `limit` due events of one kind for `leaseMs` (no other dispatcher gets them meanwhile). */
  claimOutbox(
    kind: OutboxKind,
    now: number,
    limit: number,
    leaseMs: number,
    perReceiver?: number,
  ): Promise<OutboxRecord[]>;
  /** A failed event (or one waiting out its back-off) tried again now; false when it cannot be. */
  requeueOutbox(id: string, now: number): Promise<boolean>;
  /** Records the outcome of a delivery attempt. */
  settleOutbox(id: string, change: OutboxOutcome): Promise<void>;
  close(): Promise<void>;
}
