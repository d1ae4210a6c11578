/** The workflows' tables (workflow-run-records.ts) over a SQL executor: the same statements on SQLite and PostgreSQL. */
import { bool, json, num, numOrNull, strOrNull, type Row, type SqlExecutor } from './sql-rows.js';
import type {
  SubmissionRecord,
  WeldDataRecord,
  WeldDataStatus,
  RunTokenRecord,
  WorkflowRunWrites,
} from './workflow-run-records.js';

function weldDataOf(r: Row): WeldDataRecord {
  return {
    eid: String(r.eid),
    weldEid: String(r.weld_eid),
    weldVersion: num(r.weld_version),
    organization: String(r.organization),
    status: String(r.status) as WeldDataStatus,
    isTest: bool(r.is_test),
    displayTitle: String(r.display_title),
    packetEid: strOrNull(r.packet_eid),
    lastError: strOrNull(r.last_error),
    attempts: num(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
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

function tokenOf(r: Row): RunTokenRecord {
  return {
    hash: String(r.hash),
    weldDataEid: String(r.weld_data_eid),
    kind: String(r.kind) as RunTokenRecord['kind'],
    party: num(r.party),
    email: strOrNull(r.email),
    createdAt: num(r.created_at),
    usedAt: numOrNull(r.used_at),
  };
}

export class SqlWorkflowRuns implements WorkflowRunWrites {
  constructor(private readonly sql: SqlExecutor) {}

  async weldData(eid: string): Promise<WeldDataRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM weld_datas WHERE eid = ?', [eid]);
    return r && weldDataOf(r);
  }

  async weldDatas(weldEid: string): Promise<WeldDataRecord[]> {
    const rows = await this.sql.all('SELECT * FROM weld_datas WHERE weld_eid = ? ORDER BY created_at, eid', [weldEid]);
    return rows.map(weldDataOf);
  }

  async weldDatasDue(now: number, limit: number): Promise<WeldDataRecord[]> {
    const submitted: WeldDataStatus = 'submitted';
    const rows = await this.sql.all(
      'SELECT * FROM weld_datas WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, updated_at, eid LIMIT ?',
      [submitted, now, limit],
    );
    return rows.map(weldDataOf);
  }

  async weldDatasCompleted(limit: number): Promise<WeldDataRecord[]> {
    const sent: WeldDataStatus = 'sent';
    const rows = await this.sql.all(
      `SELECT w.* FROM weld_datas w JOIN packets p ON p.eid = w.packet_eid
       WHERE w.status = ? AND p.status = 'complete' ORDER BY w.updated_at, w.eid LIMIT ?`,
      [sent, limit],
    );
    return rows.map(weldDataOf);
  }

  async weldToken(hash: string): Promise<RunTokenRecord | undefined> {
    const [r] = await this.sql.all('SELECT * FROM weld_tokens WHERE hash = ?', [hash]);
    return r && tokenOf(r);
  }

  async weldTokens(weldDataEid: string, kind: RunTokenRecord['kind']): Promise<RunTokenRecord[]> {
    const rows = await this.sql.all(
      'SELECT * FROM weld_tokens WHERE weld_data_eid = ? AND kind = ? ORDER BY created_at, hash',
      [weldDataEid, kind],
    );
    return rows.map(tokenOf);
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
      // token_hash is kept for stores opened by older versions; the tokens are in weld_tokens (migration 7).
      `INSERT INTO weld_datas (eid, weld_eid, weld_version, organization, status, is_test, token_hash, display_title, packet_eid, last_error, attempts, next_attempt_at, created_at, updated_at, completed_at, version)
       VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        w.eid,
        w.weldEid,
        w.weldVersion,
        w.organization,
        w.status,
        w.isTest ? 1 : 0,
        w.displayTitle,
        w.packetEid,
        w.lastError,
        w.attempts,
        w.nextAttemptAt,
        w.createdAt,
        w.updatedAt,
        w.completedAt,
        w.version,
      ],
    );
  }

  async updateWeldData(w: WeldDataRecord): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE weld_datas SET status = ?, display_title = ?, packet_eid = ?, last_error = ?, attempts = ?, next_attempt_at = ?, updated_at = ?, completed_at = ?, version = ?
       WHERE eid = ? AND version = ?`,
      [
        w.status,
        w.displayTitle,
        w.packetEid,
        w.lastError,
        w.attempts,
        w.nextAttemptAt,
        w.updatedAt,
        w.completedAt,
        w.version + 1,
        w.eid,
        w.version,
      ],
    );
    return changed === 1;
  }

  async insertSubmission(s: SubmissionRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO weld_submissions (eid, weld_data_eid, forge_eid, forge_slug, idx, resolved_payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [s.eid, s.weldDataEid, s.forgeEid, s.forgeSlug, s.index, JSON.stringify(s.resolvedPayload), s.createdAt],
    );
  }

  async insertWeldToken(t: RunTokenRecord): Promise<void> {
    await this.sql.run(
      'INSERT INTO weld_tokens (hash, weld_data_eid, kind, party, email, created_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [t.hash, t.weldDataEid, t.kind, t.party, t.email, t.createdAt, t.usedAt],
    );
  }

  async useWeldToken(hash: string, at: number): Promise<boolean> {
    return (
      (await this.sql.run('UPDATE weld_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL', [at, hash])) === 1
    );
  }
}
