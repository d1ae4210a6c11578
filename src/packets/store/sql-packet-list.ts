/** An organization's packets, a page at a time (the dashboard's list): the columns a list shows, no payload. */
import type { PacketListFilter, PacketListing, PacketRecord } from './records.js';
import { bool, num, numOrNull, type SqlExecutor } from './sql-rows.js';

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
