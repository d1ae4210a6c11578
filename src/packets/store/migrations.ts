import { DEFAULT_ORGANIZATION } from './records.js';

/**
 * Schema migrations, in order; the same DDL runs on SQLite and PostgreSQL (BIGINT
 * times, INTEGER booleans, TEXT JSON). A store applies the ones it has not applied yet,
 * each in its own transaction, and records them in `schema_migrations`.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: readonly string[] }[] = [
  {
    version: 1,
    name: 'packets, documents, signers, tokens, outbox',
    sql: [
      `CREATE TABLE packets (
        eid TEXT PRIMARY KEY,
        group_eid TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        is_test INTEGER NOT NULL,
        allow_updates INTEGER NOT NULL,
        merge_pdfs INTEGER NOT NULL,
        webhook_url TEXT,
        request_hash TEXT NOT NULL,
        payload TEXT NOT NULL,
        options TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        completed_at BIGINT,
        version INTEGER NOT NULL
      )`,
      `CREATE TABLE documents (
        packet_eid TEXT NOT NULL REFERENCES packets(eid),
        idx INTEGER NOT NULL,
        file_id TEXT NOT NULL,
        filename TEXT NOT NULL,
        title TEXT,
        page_count INTEGER NOT NULL,
        assembled_hash TEXT NOT NULL,
        current_hash TEXT NOT NULL,
        fields TEXT NOT NULL,
        PRIMARY KEY (packet_eid, idx)
      )`,
      `CREATE TABLE signers (
        eid TEXT PRIMARY KEY,
        packet_eid TEXT NOT NULL REFERENCES packets(eid),
        alias_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        routing_order INTEGER NOT NULL,
        name TEXT,
        email TEXT,
        signer_type TEXT NOT NULL,
        status TEXT NOT NULL,
        pending INTEGER NOT NULL,
        signer TEXT NOT NULL,
        inputs_hash TEXT,
        client_user_id TEXT,
        sent_at BIGINT,
        viewed_at BIGINT,
        signed_at BIGINT,
        ip TEXT,
        user_agent TEXT
      )`,
      `CREATE INDEX signers_packet ON signers(packet_eid)`,
      `CREATE TABLE tokens (
        eid TEXT PRIMARY KEY,
        signer_eid TEXT NOT NULL REFERENCES signers(eid),
        hash TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        valid_until BIGINT NOT NULL,
        invalidated_at BIGINT,
        signed_at BIGINT
      )`,
      `CREATE INDEX tokens_signer ON tokens(signer_eid)`,
      `CREATE TABLE outbox (
        id TEXT PRIMARY KEY,
        packet_eid TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_at BIGINT NOT NULL,
        lease_until BIGINT NOT NULL,
        last_error TEXT,
        created_at BIGINT NOT NULL,
        delivered_at BIGINT
      )`,
      `CREATE INDEX outbox_due ON outbox(kind, status, next_attempt_at)`,
      `CREATE INDEX outbox_packet ON outbox(packet_eid)`,
    ],
  },
  {
    version: 2,
    name: 'blobs table (PostgreSQL keeps documents in the database so several instances share them)',
    sql: [`CREATE TABLE blobs (hash TEXT PRIMARY KEY, bytes BYTEA NOT NULL)`],
  },
  {
    version: 3,
    name: 'packets belong to an organization (packets made before belong to the default one)',
    sql: [`ALTER TABLE packets ADD COLUMN organization TEXT NOT NULL DEFAULT '${DEFAULT_ORGANIZATION}'`],
  },
  {
    version: 4,
    // Events queued before this migration keep '' (one lane of their own) until they are delivered.
    name: 'outbox receiver (a webhook URL origin): each receiver its own bounded lane',
    sql: [
      `ALTER TABLE outbox ADD COLUMN receiver TEXT NOT NULL DEFAULT ''`,
      `CREATE INDEX outbox_receiver ON outbox(kind, receiver, lease_until)`,
    ],
  },
  {
    version: 5,
    name: 'workflows (src/workflows): runs and their forge submissions',
    sql: [
      `CREATE TABLE weld_datas (
        eid TEXT PRIMARY KEY,
        weld_eid TEXT NOT NULL,
        weld_version INTEGER NOT NULL,
        organization TEXT NOT NULL,
        status TEXT NOT NULL,
        is_test INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        display_title TEXT NOT NULL,
        packet_eid TEXT,
        last_error TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        completed_at BIGINT,
        version INTEGER NOT NULL
      )`,
      `CREATE INDEX weld_datas_weld ON weld_datas(weld_eid)`,
      `CREATE INDEX weld_datas_status ON weld_datas(status)`,
      // One submission per forge and run: a second one (double submit, replay) fails the transaction.
      `CREATE TABLE weld_submissions (
        eid TEXT PRIMARY KEY,
        weld_data_eid TEXT NOT NULL REFERENCES weld_datas(eid),
        forge_eid TEXT NOT NULL,
        forge_slug TEXT NOT NULL,
        resolved_payload TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (weld_data_eid, forge_eid)
      )`,
    ],
  },
  {
    version: 6,
    // Submissions were read back in (created_at, eid) order: two in one millisecond came back in the order of
    // their random eids. Rows stored before keep that order as their place.
    name: 'forge submissions keep their place in the run',
    sql: [
      `ALTER TABLE weld_submissions ADD COLUMN idx INTEGER NOT NULL DEFAULT 0`,
      `UPDATE weld_submissions SET idx = (
        SELECT count(*) FROM weld_submissions AS e
        WHERE e.weld_data_eid = weld_submissions.weld_data_eid
          AND (e.created_at < weld_submissions.created_at
            OR (e.created_at = weld_submissions.created_at AND e.eid < weld_submissions.eid))
      )`,
      `CREATE UNIQUE INDEX weld_submissions_place ON weld_submissions(weld_data_eid, idx)`,
    ],
  },
  {
    version: 7,
    // A run's one token opened every form and signer of the run. Each party (the starter, each assignee)
    // now has tokens of its own, and an address typed into a form is confirmed before mail goes to it;
    // a run's token so far becomes its starter's (party 0), which every forge of an old definition is.
    // Packets made again after a failure wait (attempts, next_attempt_at) and end `failed`.
    name: 'workflow links per party, address confirmations, bounded packet retries',
    sql: [
      `CREATE TABLE weld_tokens (
        hash TEXT PRIMARY KEY,
        weld_data_eid TEXT NOT NULL REFERENCES weld_datas(eid),
        kind TEXT NOT NULL,
        party INTEGER NOT NULL,
        email TEXT,
        created_at BIGINT NOT NULL,
        used_at BIGINT
      )`,
      `CREATE INDEX weld_tokens_run ON weld_tokens(weld_data_eid)`,
      `INSERT INTO weld_tokens (hash, weld_data_eid, kind, party, email, created_at, used_at)
        SELECT token_hash, eid, 'party', 0, NULL, created_at, NULL FROM weld_datas`,
      `ALTER TABLE weld_datas ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`,
      `ALTER TABLE weld_datas ADD COLUMN next_attempt_at BIGINT NOT NULL DEFAULT 0`,
      `CREATE INDEX weld_datas_packet ON weld_datas(packet_eid)`,
    ],
  },
  {
    version: 8,
    // Templates an organization makes in the dashboard or with createCast: the working version on the
    // template's row, each published version a row of its own; PDFs in the blob store by hash.
    name: "organizations' editable templates and their published versions; dashboard sessions",
    sql: [
      `CREATE TABLE templates (
        eid TEXT PRIMARY KEY,
        organization TEXT NOT NULL,
        name TEXT NOT NULL,
        pdf_hash TEXT NOT NULL,
        pages TEXT NOT NULL,
        working TEXT NOT NULL,
        revision INTEGER NOT NULL,
        published_version INTEGER,
        has_changes INTEGER NOT NULL,
        field_count INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )`,
      `CREATE INDEX templates_organization ON templates(organization, updated_at)`,
      `CREATE TABLE template_versions (
        template_eid TEXT NOT NULL REFERENCES templates(eid),
        version_number INTEGER NOT NULL,
        content TEXT NOT NULL,
        pdf_hash TEXT NOT NULL,
        published_at BIGINT NOT NULL,
        published_by TEXT NOT NULL,
        PRIMARY KEY (template_eid, version_number)
      )`,
      `CREATE TABLE dashboard_sessions (
        token_hash TEXT PRIMARY KEY,
        organization TEXT NOT NULL,
        key_digest TEXT NOT NULL,
        key_label TEXT NOT NULL,
        csrf_token TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      )`,
      `CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions(expires_at)`,
    ],
  },
  {
    version: 9,
    // A session an embed link opened is limited to one template; the links themselves wait, hashed, until used once.
    name: 'dashboard sessions limited to one template; single-use embed links',
    sql: [
      `ALTER TABLE dashboard_sessions ADD COLUMN template_eid TEXT`,
      `CREATE TABLE dashboard_embed_tokens (
        token_hash TEXT PRIMARY KEY,
        eid TEXT NOT NULL,
        organization TEXT NOT NULL,
        key_digest TEXT NOT NULL,
        key_label TEXT NOT NULL,
        template_eid TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      )`,
      `CREATE INDEX dashboard_embed_tokens_expiry ON dashboard_embed_tokens(expires_at)`,
    ],
  },
  {
    version: 10,
    // Events attempted before keep NULL: their code, if any, is only in last_error's text.
    name: "outbox response code: the HTTP status a webhook's receiver answered to the last attempt",
    sql: [`ALTER TABLE outbox ADD COLUMN response_code INTEGER`],
  },
];
