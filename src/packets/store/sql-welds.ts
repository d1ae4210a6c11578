/** The workflows' tables (weld-records.ts) over a SQL executor: the same statements on SQLite and PostgreSQL. */
import { bool, json, num, numOrNull, strOrNull, type Row, type SqlExecutor } from './sql-rows.js';
import type { SubmissionRecord, WeldDataRecord, WeldDataStatus, WeldWrites } from './weld-records.js';

function weldDataOf(r: Row): WeldDataRecord {
  return {
    eid: String(r.eid),
    weldEid: String(r.weld_eid),
    weldVersion: num(r.weld_version),
    organization: String(r.organization),
    status: String(r.status) as WeldDataStatus,
    isTest: bool(r.is_test),
    tokenHash: String(r.token_hash),
    displayTitle: String(r.display_title),
    packetEid: strOrNull(r.packet_eid),
    lastError: strOrNull(r.last_error),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    completedAt: numOrNull(r.completed_at),
    version: num(r.version),
  };
}

function submissionOf(r: Row): SubmissionRecord {
  return {
    eid: String(r.eid),
    weldDataEid: String(r.weld_data_eid),
    forgeEid: String(r.forge_eid),
    forgeSlug: String(r.forge_slug),
    index: num(r.idx),
    resolvedPayload: json<SubmissionRecord['resolvedPayload']>(r.resolved_payload),
    createdAt: num(r.created_at),
  };
}

export class SqlWelds implements WeldWrites {
  constructor(private readonly sql: SqlExecutor) {}

  async weldData(eid: string): Promise<WeldDataRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM weld_datas WHERE eid = ?', [eid]);
    return r && weldDataOf(r);
  }

  async weldDatas(weldEid: string): Promise<WeldDataRecord[]> {
    const rows = await this.sql.all('SELECT * FROM weld_datas WHERE weld_eid = ? ORDER BY created_at, eid', [weldEid]);
    return rows.map(weldDataOf);
  }

  async weldDatasIn(status: WeldDataStatus, limit: number): Promise<WeldDataRecord[]> {
    const rows = await this.sql.all('SELECT * FROM weld_datas WHERE status = ? ORDER BY updated_at, eid LIMIT ?', [
      status,
      limit,
    ]);
    return rows.map(weldDataOf);
  }

  async submissions(weldDataEid: string): Promise<SubmissionRecord[]> {
    const rows = await this.sql.all('SELECT * FROM weld_submissions WHERE weld_data_eid = ? ORDER BY idx', [
      weldDataEid,
    ]);
    return rows.map(submissionOf);
  }

  async submission(eid: string): Promise<SubmissionRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM weld_submissions WHERE eid = ?', [eid]);
    return r && submissionOf(r);
  }

  async insertWeldData(w: WeldDataRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO weld_datas (eid, weld_eid, weld_version, organization, status, is_test, token_hash, display_title, packet_eid, last_error, created_at, updated_at, completed_at, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        w.eid,
        w.weldEid,
        w.weldVersion,
        w.organization,
        w.status,
        w.isTest ? 1 : 0,
        w.tokenHash,
        w.displayTitle,
        w.packetEid,
        w.lastError,
        w.createdAt,
        w.updatedAt,
        w.completedAt,
        w.version,
      ],
    );
  }

  async updateWeldData(w: WeldDataRecord): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE weld_datas SET status = ?, display_title = ?, packet_eid = ?, last_error = ?, updated_at = ?, completed_at = ?, version = ?
       WHERE eid = ? AND version = ?`,
      [w.status, w.displayTitle, w.packetEid, w.lastError, w.updatedAt, w.completedAt, w.version + 1, w.eid, w.version],
    );
    return changed === 1;
  }

  async insertSubmission(s: SubmissionRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO weld_submissions (eid, weld_data_eid, forge_eid, forge_slug, idx, resolved_payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [s.eid, s.weldDataEid, s.forgeEid, s.forgeSlug, s.index, JSON.stringify(s.resolvedPayload), s.createdAt],
    );
  }
}
