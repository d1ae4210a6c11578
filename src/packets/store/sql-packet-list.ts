/**
 * What the dashboard lists, a page at a time: an organization's packets (the columns a list shows, no
 * payload) and its packets' outbox events; and an event put back in line by hand.
 */
import type { OutboxListFilter, OutboxRecord, PacketListFilter, PacketListing, PacketRecord } from './records.js';
import { bool, num, numOrNull, type Row, type SqlExecutor } from './sql-rows.js';

/** `%`, `_` and the escape itself match only themselves in a LIKE pattern. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function packetList(
  sql: SqlExecutor,
  filter: PacketListFilter,
): Promise<{ packets: PacketListing[]; total: number }> {
  const where = ['organization = ?'];
  const params: unknown[] = [filter.organization];
  if (filter.isTest !== undefined) where.push('is_test = ?') && params.push(filter.isTest ? 1 : 0);
  if (filter.q) where.push("LOWER(name) LIKE ? ESCAPE '\\'") && params.push(likePattern(filter.q));
  const clause = where.join(' AND ');
  const [count] = await sql.all(`SELECT COUNT(*) AS n FROM packets WHERE ${clause}`, params);
  const rows = await sql.all(
    `SELECT eid, group_eid, name, status, is_test, created_at, updated_at, completed_at FROM packets
     WHERE ${clause} ORDER BY created_at DESC, eid LIMIT ? OFFSET ?`,
    [...params, filter.limit, filter.offset],
  );
  return {
    total: num(count?.n ?? 0),
    packets: rows.map((r) => ({
      eid: String(r.eid),
      groupEid: String(r.group_eid),
      name: String(r.name),
      status: String(r.status) as PacketRecord['status'],
      isTest: bool(r.is_test),
      createdAt: num(r.created_at),
      updatedAt: num(r.updated_at),
      completedAt: numOrNull(r.completed_at),
    })),
  };
}

/** An organization's outbox events (its packets'), newest first, a page at a time. */
export async function outboxList(
  sql: SqlExecutor,
  filter: OutboxListFilter,
  outboxOf: (r: Row) => OutboxRecord,
): Promise<{ events: OutboxRecord[]; total: number }> {
  const where = ['p.organization = ?'];
  const params: unknown[] = [filter.organization];
  if (filter.testOnly) where.push('p.is_test = 1');
  if (filter.kind !== undefined) where.push('o.kind = ?') && params.push(filter.kind);
  if (filter.status !== undefined) where.push('o.status = ?') && params.push(filter.status);
  const from = `FROM outbox o JOIN packets p ON p.eid = o.packet_eid WHERE ${where.join(' AND ')}`;
  const [count] = await sql.all(`SELECT COUNT(*) AS n ${from}`, params);
  const rows = await sql.all(`SELECT o.* ${from} ORDER BY o.created_at DESC, o.id DESC LIMIT ? OFFSET ?`, [
    ...params,
    filter.limit,
    filter.offset,
  ]);
  return { total: num(count?.n ?? 0), events: rows.map(outboxOf) };
}

/**
 * Puts a failed event, or a pending one waiting out its back-off, back in line to be tried now (its
 * attempts kept); false when it is delivered, leased by a dispatcher or unknown.
 */
export async function requeueOutbox(sql: SqlExecutor, id: string, now: number): Promise<boolean> {
  const changed = await sql.run(
    `UPDATE outbox SET status = 'pending', next_attempt_at = ?
     WHERE id = ? AND lease_until <= ? AND (status = 'failed' OR (status = 'pending' AND attempts > 0))`,
    [now, id, now],
  );
  return changed > 0;
}
