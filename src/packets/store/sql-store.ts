/**
 * PacketStore over SQL, shared by the SQLite and PostgreSQL stores: they differ
 * only in how statements run, how a transaction is opened, row locks and the
 * outbox lease query. Statements use `?` placeholders; the PostgreSQL executor
 * numbers them.
 */
import type { MergedField, PlannedField } from '../assemble/plan.js';
import { MIGRATIONS } from './migrations.js';
import type {
  DocumentField,
  DocumentRecord,
  OutboxKind,
  OutboxListFilter,
  OutboxRecord,
  OutboxStatus,
  PacketListFilter,
  PacketListing,
  PacketRecord,
  SignerRecord,
  TokenRecord,
} from './records.js';
import { bool, json, num, numOrNull, strOrNull, type Row, type SqlExecutor } from './sql-rows.js';
import { outboxReceiver } from './sql-outbox.js';
import { outboxList, packetList, requeueOutbox } from './sql-packet-list.js';
import type { PacketWrites } from './store.js';
import { SqlWorkflowRuns } from './sql-workflow-runs.js';

export type { Row, SqlExecutor } from './sql-rows.js';

function packetOf(r: Row): PacketRecord {
  return {
    eid: String(r.eid),
    groupEid: String(r.group_eid),
    organization: String(r.organization),
    name: String(r.name),
    status: String(r.status) as PacketRecord['status'],
    isTest: bool(r.is_test),
    allowUpdates: bool(r.allow_updates),
    mergePDFs: bool(r.merge_pdfs),
    webhookURL: strOrNull(r.webhook_url),
    requestHash: String(r.request_hash),
    payload: json(r.payload),
    options: json(r.options),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    completedAt: numOrNull(r.completed_at),
    version: num(r.version),
  };
}

function documentOf(r: Row): DocumentRecord {
  return {
    packetEid: String(r.packet_eid),
    index: num(r.idx),
    fileId: String(r.file_id),
    filename: String(r.filename),
    title: strOrNull(r.title),
    pageCount: num(r.page_count),
    assembledHash: String(r.assembled_hash),
    currentHash: String(r.current_hash),
    fields: json<unknown[]>(r.fields).map(storedField),
  };
}

/**
 * A stored field. Rows without a `kind` (older stores) are told apart by shape, here only:
 * a merged document's fields are the ones with a `mergedFieldId`.
 */
function storedField(raw: unknown): DocumentField {
  const f = raw as DocumentField | ((PlannedField | MergedField) & { kind?: undefined });
  if (f.kind !== undefined) return f;
  return 'mergedFieldId' in f ? { ...f, kind: 'merged' } : { ...f, kind: 'file' };
}

function signerOf(r: Row): SignerRecord {
  return {
    eid: String(r.eid),
    packetEid: String(r.packet_eid),
    aliasId: String(r.alias_id),
    index: num(r.idx),
    routingOrder: num(r.routing_order),
    name: strOrNull(r.name),
    email: strOrNull(r.email),
    signerType: String(r.signer_type),
    status: String(r.status) as SignerRecord['status'],
    pending: bool(r.pending),
    signer: json(r.signer),
    inputsHash: strOrNull(r.inputs_hash),
    clientUserId: strOrNull(r.client_user_id),
    sentAt: numOrNull(r.sent_at),
    viewedAt: numOrNull(r.viewed_at),
    signedAt: numOrNull(r.signed_at),
    ip: strOrNull(r.ip),
    userAgent: strOrNull(r.user_agent),
  };
}

function tokenOf(r: Row): TokenRecord {
  return {
    eid: String(r.eid),
    signerEid: String(r.signer_eid),
    hash: String(r.hash),
    type: String(r.type) as TokenRecord['type'],
    createdAt: num(r.created_at),
    validUntil: num(r.valid_until),
    invalidatedAt: numOrNull(r.invalidated_at),
    signedAt: numOrNull(r.signed_at),
  };
}

export function outboxOf(r: Row): OutboxRecord {
  return {
    id: String(r.id),
    packetEid: String(r.packet_eid),
    kind: String(r.kind) as OutboxKind,
    payload: json(r.payload),
    status: String(r.status) as OutboxStatus,
    attempts: num(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
    leaseUntil: num(r.lease_until),
    lastError: strOrNull(r.last_error),
    responseCode: numOrNull(r.response_code),
    createdAt: num(r.created_at),
    deliveredAt: numOrNull(r.delivered_at),
  };
}

const b = (v: boolean): number => (v ? 1 : 0);

/** Queries and writes over one executor; `forUpdate` is the row-lock suffix of the dialect ('' where the transaction already excludes others). */
export class SqlQueries implements PacketWrites {
  readonly #forUpdate: string;
  readonly welds: SqlWorkflowRuns;

  constructor(
    protected readonly sql: SqlExecutor,
    forUpdate: string,
  ) {
    this.#forUpdate = forUpdate;
    this.welds = new SqlWorkflowRuns(sql);
  }

  async packet(eid: string): Promise<PacketRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM packets WHERE eid = ?', [eid]);
    return r && packetOf(r);
  }

  async packetByGroup(groupEid: string): Promise<PacketRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM packets WHERE group_eid = ?', [groupEid]);
    return r && packetOf(r);
  }

  packetList(filter: PacketListFilter): Promise<{ packets: PacketListing[]; total: number }> {
    return packetList(this.sql, filter);
  }

  async lockPacket(eid: string): Promise<PacketRecord | undefined> {
    const [r] = await this.sql.all(`SELECT * FROM packets WHERE eid = ?${this.#forUpdate}`, [eid]);
    return r && packetOf(r);
  }

  async documents(packetEid: string): Promise<DocumentRecord[]> {
    return (await this.sql.all('SELECT * FROM documents WHERE packet_eid = ? ORDER BY idx', [packetEid])).map(
      documentOf,
    );
  }

  async signers(packetEid: string): Promise<SignerRecord[]> {
    return (await this.sql.all('SELECT * FROM signers WHERE packet_eid = ? ORDER BY idx', [packetEid])).map(signerOf);
  }

  async signer(eid: string): Promise<SignerRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM signers WHERE eid = ?', [eid]);
    return r && signerOf(r);
  }

  async tokens(signerEid: string): Promise<TokenRecord[]> {
    return (await this.sql.all('SELECT * FROM tokens WHERE signer_eid = ? ORDER BY created_at, eid', [signerEid])).map(
      tokenOf,
    );
  }

  async outbox(filter: { packetEid?: string; kind?: OutboxKind; status?: OutboxStatus }): Promise<OutboxRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.packetEid !== undefined) where.push('packet_eid = ?') && params.push(filter.packetEid);
    if (filter.kind !== undefined) where.push('kind = ?') && params.push(filter.kind);
    if (filter.status !== undefined) where.push('status = ?') && params.push(filter.status);
    const clause = where.length ? ` WHERE ${where.join(' AND ')}` : '';
    return (await this.sql.all(`SELECT * FROM outbox${clause} ORDER BY created_at, id`, params)).map(outboxOf);
  }

  outboxList(filter: OutboxListFilter): Promise<{ events: OutboxRecord[]; total: number }> {
    return outboxList(this.sql, filter, outboxOf);
  }

  requeueOutbox(id: string, now: number): Promise<boolean> {
    return requeueOutbox(this.sql, id, now);
  }

  async outboxCount(status: OutboxStatus): Promise<number> {
    const [r] = await this.sql.all('SELECT COUNT(*) AS n FROM outbox WHERE status = ?', [status]);
    return num(r?.n ?? 0);
  }

  async insertPacket(p: PacketRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO packets (eid, group_eid, organization, name, status, is_test, allow_updates, merge_pdfs, webhook_url, request_hash, payload, options, created_at, updated_at, completed_at, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        p.eid,
        p.groupEid,
        p.organization,
        p.name,
        p.status,
        b(p.isTest),
        b(p.allowUpdates),
        b(p.mergePDFs),
        p.webhookURL,
        p.requestHash,
        JSON.stringify(p.payload),
        JSON.stringify(p.options),
        p.createdAt,
        p.updatedAt,
        p.completedAt,
        p.version,
      ],
    );
  }

  async updatePacket(p: PacketRecord): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE packets SET name = ?, status = ?, webhook_url = ?, payload = ?, options = ?, updated_at = ?, completed_at = ?, version = ?
       WHERE eid = ? AND version = ?`,
      [
        p.name,
        p.status,
        p.webhookURL,
        JSON.stringify(p.payload),
        JSON.stringify(p.options),
        p.updatedAt,
        p.completedAt,
        p.version + 1,
        p.eid,
        p.version,
      ],
    );
    return changed === 1;
  }

  async putDocuments(packetEid: string, docs: DocumentRecord[]): Promise<void> {
    await this.sql.run('DELETE FROM documents WHERE packet_eid = ?', [packetEid]);
    for (const d of docs) {
      await this.sql.run(
        `INSERT INTO documents (packet_eid, idx, file_id, filename, title, page_count, assembled_hash, current_hash, fields) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          packetEid,
          d.index,
          d.fileId,
          d.filename,
          d.title,
          d.pageCount,
          d.assembledHash,
          d.currentHash,
          JSON.stringify(d.fields),
        ],
      );
    }
  }

  async insertSigner(s: SignerRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO signers (eid, packet_eid, alias_id, idx, routing_order, name, email, signer_type, status, pending, signer, inputs_hash, client_user_id, sent_at, viewed_at, signed_at, ip, user_agent)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        s.eid,
        s.packetEid,
        s.aliasId,
        s.index,
        s.routingOrder,
        s.name,
        s.email,
        s.signerType,
        s.status,
        b(s.pending),
        JSON.stringify(s.signer),
        s.inputsHash,
        s.clientUserId,
        s.sentAt,
        s.viewedAt,
        s.signedAt,
        s.ip,
        s.userAgent,
      ],
    );
  }

  async updateSigner(s: SignerRecord): Promise<void> {
    await this.sql.run(
      `UPDATE signers SET name = ?, email = ?, status = ?, pending = ?, signer = ?, inputs_hash = ?, client_user_id = ?, sent_at = ?, viewed_at = ?, signed_at = ?, ip = ?, user_agent = ? WHERE eid = ?`,
      [
        s.name,
        s.email,
        s.status,
        b(s.pending),
        JSON.stringify(s.signer),
        s.inputsHash,
        s.clientUserId,
        s.sentAt,
        s.viewedAt,
        s.signedAt,
        s.ip,
        s.userAgent,
        s.eid,
      ],
    );
  }

  async insertToken(t: TokenRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO tokens (eid, signer_eid, hash, type, created_at, valid_until, invalidated_at, signed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [t.eid, t.signerEid, t.hash, t.type, t.createdAt, t.validUntil, t.invalidatedAt, t.signedAt],
    );
  }

  invalidateTokens(signerEid: string, at: number, except?: string): Promise<number> {
    return this.sql.run(
      `UPDATE tokens SET invalidated_at = ? WHERE signer_eid = ? AND invalidated_at IS NULL AND valid_until > ? AND type <> 'download' AND eid <> ?`,
      [at, signerEid, at, except ?? ''],
    );
  }

  async markTokenSigned(eid: string, at: number): Promise<void> {
    await this.sql.run('UPDATE tokens SET signed_at = ? WHERE eid = ?', [at, eid]);
  }

  async insertOutbox(e: OutboxRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO outbox (id, packet_eid, kind, payload, status, attempts, next_attempt_at, lease_until, last_error, response_code, created_at, delivered_at, receiver) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        e.id,
        e.packetEid,
        e.kind,
        JSON.stringify(e.payload),
        e.status,
        e.attempts,
        e.nextAttemptAt,
        e.leaseUntil,
        e.lastError,
        e.responseCode,
        e.createdAt,
        e.deliveredAt,
        outboxReceiver(e),
      ],
    );
  }
}

/** Applies the migrations `applied` does not hold yet, each through `inTransaction`. */
export async function migrate(
  sql: SqlExecutor,
  inTransaction: (fn: (tx: SqlExecutor) => Promise<void>) => Promise<void>,
): Promise<void> {
  await sql.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const applied = new Set((await sql.all('SELECT version FROM schema_migrations')).map((r) => num(r.version)));
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    await inTransaction(async (tx) => {
      // Another instance may have applied it meanwhile (PostgreSQL): the insert below then fails the transaction.
      for (const statement of m.sql) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [m.version, m.name]);
    });
  }
}
